"""The store in SQLite: the embedded default, nothing to install. One file, WAL journaling, so a crash of the bot
loses nothing committed. The schema version is SQLite's ``user_version``.

Its calls run on the event loop as they are: each is a local write of well under a millisecond
(``bench/store.py`` measures them against PostgreSQL's).
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

from bot.ratings import Change, RatedGame, RatedPuzzle, Rating
from bot.ending import Ending
from bot.store.base import (CORRESPONDENCE, GAME_RATINGS, NO_RESULT, PUZZLE_HISTORY, PUZZLE_RATINGS, Attempt, Daily,
                            FinishedGame, MoveConflict, PuzzleTry, Ratings, SaveFailed, ServedPuzzle, Standing, Store,
                            StoreError, StoredGame, read_ending, stored_ending)
from bot.store.sqlite_tournaments import SqliteTournaments
from bot.store.schema import MIGRATIONS, VERSION

_GAME_COLUMNS = "id, guild, channel, variant, start_fen, kind, seats, settings, updated, version"
_SERVED_COLUMNS = ("id, guild, channel, variant, puzzle, kind, position, solution, asker, asker_name, started, ply, day,"
                   " movers")


class SqliteStore(SqliteTournaments, Store):
    """One SQLite database. Not shared between threads: the bot's event loop owns it."""

    def __init__(self, path: str):
        if path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        try:
            self.db = sqlite3.connect(path, isolation_level=None)
            self.db.execute("PRAGMA journal_mode = WAL")
            self.db.execute("PRAGMA synchronous = NORMAL")
            self.db.execute("PRAGMA foreign_keys = ON")
            self._migrate()
        except sqlite3.Error as error:
            raise StoreError(f"cannot open the database {path}: {error}") from error
        self.path = path

    def _migrate(self) -> None:
        version = self._version()
        if version > VERSION:
            raise StoreError(f"the database is at schema version {version}, newer than this bot ({VERSION})")
        for step in range(version, VERSION):
            try:
                self.db.executescript(f"BEGIN; {MIGRATIONS[step].sqlite}; PRAGMA user_version = {step + 1}; COMMIT;")
            except sqlite3.Error:
                if self.db.in_transaction:
                    self.db.execute("ROLLBACK")
                raise

    def _version(self) -> int:
        return int(self.db.execute("PRAGMA user_version").fetchone()[0])

    async def version(self) -> int:
        return self._version()

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[None]:
        """BEGIN ... COMMIT, or ROLLBACK when the body raises; SQLite's errors become ``SaveFailed``."""
        try:
            began = not self.db.in_transaction
            if began:
                self.db.execute("BEGIN")
            try:
                yield
            except BaseException:
                if began and self.db.in_transaction:
                    self.db.execute("ROLLBACK")
                raise
            if began:
                self.db.execute("COMMIT")
        except sqlite3.Error as error:
            if self.db.in_transaction:
                self.db.execute("ROLLBACK")
            raise SaveFailed(str(error)) from error

    @contextlib.contextmanager
    def _reading(self) -> Iterator[None]:
        try:
            yield
        except sqlite3.Error as error:
            raise SaveFailed(str(error)) from error

    async def close(self) -> None:
        self.db.close()

    # games

    async def create_game(self, guild: str, channel: str, variant: str, start_fen: str, kind: str,
                          seats: dict, settings: dict) -> int:
        now = time.time()
        with self._transaction():
            cursor = self.db.execute(
                "INSERT INTO games (guild, channel, variant, start_fen, kind, seats, settings, status, created, updated)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, 'active', ?, ?)",
                (guild, channel, variant, start_fen, kind, json.dumps(seats), json.dumps(settings), now, now))
        return int(cursor.lastrowid or 0)

    def _claim(self, game: int, version: int) -> int:
        """Step the game's version if it is still ``version`` and on (inside a transaction); else MoveConflict."""
        cursor = self.db.execute("UPDATE games SET version = version + 1, updated = ? WHERE id = ? AND version = ?"
                                 " AND status = 'active'", (time.time(), game, version))
        if cursor.rowcount != 1:
            raise MoveConflict(f"game {game} is no longer at version {version}")
        return version + 1

    async def add_move(self, game: int, version: int, ply: int, move: str, clocks: list[float] | None = None) -> int:
        try:
            with self._transaction():
                new = self._claim(game, version)
                self.db.execute("INSERT INTO moves (game, ply, move, at, clocks) VALUES (?, ?, ?, ?, ?)",
                                (game, ply, move, time.time(), json.dumps(clocks) if clocks else None))
        except SaveFailed as error:
            if isinstance(error.__cause__, sqlite3.IntegrityError):
                raise MoveConflict(f"game {game} has a move at ply {ply} already") from error
            raise
        return new

    async def remove_moves(self, game: int, version: int, from_ply: int, settings: dict) -> int:
        with self._transaction():
            new = self._claim(game, version)
            self.db.execute("DELETE FROM moves WHERE game = ? AND ply >= ?", (game, from_ply))
            self.db.execute("UPDATE games SET settings = ? WHERE id = ?", (json.dumps(settings), game))
        return new

    async def finish_game(self, game: int, version: int, ending: Ending, reason: str, pdn: str,
                          rated: RatedGame | None = None) -> list[Change]:
        with self._transaction():  # one connection, used by one thread: nothing comes between the read and the write
            self._claim(game, version)
            guild, variant = self.db.execute(
                "UPDATE games SET status = 'finished', winner = ?, termination = ?, reason = ?, pdn = ? WHERE id = ?"
                " RETURNING guild, variant", (*stored_ending(ending), reason, pdn, game)).fetchone()
            if rated is None:
                return []
            pool = (variant, rated.speed)
            changes = rated.changes({user: self._rating(GAME_RATINGS, guild, pool, user)[0]
                                     for user in rated.people()})
            self._save_ratings(GAME_RATINGS, guild, pool, [(c.user, c.name, c.after) for c in changes])
            return changes

    async def shared_key(self, name: str, made: str) -> str:
        with self._transaction():
            self.db.execute("INSERT INTO shared_keys (name, value) VALUES (?, ?) ON CONFLICT DO NOTHING", (name, made))
            return self.db.execute("SELECT value FROM shared_keys WHERE name = ?", (name,)).fetchone()[0]

    async def board_message(self, game: int) -> str | None:
        with self._reading():
            row = self.db.execute("SELECT board_message FROM games WHERE id = ?", (game,)).fetchone()
        return row[0] if row else None

    async def set_board_message(self, game: int, message: str | None) -> None:
        with self._transaction():
            self.db.execute("UPDATE games SET board_message = ? WHERE id = ?", (message, game))

    def _stored(self, row: tuple) -> StoredGame:
        gid, guild, channel, variant, fen, kind, seats, settings, updated, version = row
        rows = self.db.execute("SELECT move, clocks FROM moves WHERE game = ? ORDER BY ply", (gid,)).fetchall()
        return StoredGame(gid, guild, channel, variant, fen, kind, json.loads(seats), json.loads(settings),
                          [m for m, _ in rows], updated, version, [json.loads(c) if c else None for _, c in rows])

    async def active_games(self) -> list[StoredGame]:
        with self._reading():
            rows = self.db.execute(f"SELECT {_GAME_COLUMNS} FROM games WHERE status = 'active' ORDER BY id").fetchall()
            return [self._stored(row) for row in rows]

    async def game(self, game: int) -> StoredGame | None:
        with self._reading():
            row = self.db.execute(f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ?", (game,)).fetchone()
            return self._stored(row) if row else None

    async def finished_game(self, game: int) -> FinishedGame | None:
        with self._reading():
            row = self.db.execute(f"SELECT {_GAME_COLUMNS}, winner, termination, reason, pdn FROM games"
                                  " WHERE id = ? AND status = 'finished'", (game,)).fetchone()
            if row is None:
                return None
            return FinishedGame(self._stored(row[:10]), read_ending(row[10], row[11]), row[12] or "", row[13] or "")

    async def player_games(self, guild: str, user: str, limit: int = 10) -> list[int]:
        with self._reading():
            rows = self.db.execute(
                "SELECT id FROM games WHERE guild = ? AND status = 'finished'"
                f" AND coalesce(termination, '') NOT IN ({', '.join('?' * len(NO_RESULT))})"
                " AND (json_extract(seats, '$.white.user[0]') = ? OR json_extract(seats, '$.black.user[0]') = ?)"
                " ORDER BY updated DESC, id DESC LIMIT ?", (guild, *NO_RESULT, user, user, limit)).fetchall()
        return [row[0] for row in rows]

    async def last_finished(self, guild: str, channel: str) -> int | None:
        with self._reading():
            row = self.db.execute(
                "SELECT id FROM games WHERE guild = ? AND channel = ? AND status = 'finished'"
                " AND EXISTS (SELECT 1 FROM moves WHERE moves.game = games.id)"
                f" AND coalesce(termination, '') NOT IN ({', '.join('?' * len(NO_RESULT))})"
                " ORDER BY updated DESC, id DESC LIMIT 1",
                (guild, channel, *NO_RESULT)).fetchone()
        return row[0] if row else None

    # analyses

    async def analysis(self, game: int, nodes: int) -> dict | None:
        with self._reading():
            row = self.db.execute("SELECT analysis FROM analyses WHERE game = ? AND nodes = ?",
                                  (game, nodes)).fetchone()
        return json.loads(row[0]) if row else None

    async def analysed_games(self, guild: str, nodes: int, limit: int = 200) -> list[tuple[int, dict, dict]]:
        with self._reading():
            rows = self.db.execute("SELECT g.id, g.seats, a.analysis FROM games g JOIN analyses a ON a.game = g.id"
                                   " WHERE g.guild = ? AND a.nodes = ? ORDER BY g.updated DESC, g.id DESC LIMIT ?",
                                   (guild, nodes, limit)).fetchall()
        return [(game, json.loads(seats), json.loads(analysis)) for game, seats, analysis in rows]

    async def save_analysis(self, game: int, nodes: int, analysis: dict) -> None:
        with self._transaction():
            self.db.execute("INSERT INTO analyses (game, nodes, analysis, created) VALUES (?, ?, ?, ?)"
                            " ON CONFLICT (game) DO UPDATE SET nodes = excluded.nodes,"
                            " analysis = excluded.analysis, created = excluded.created",
                            (game, nodes, json.dumps(analysis), time.time()))

    # ratings

    async def ratings(self, guild: str, user: str) -> dict[tuple[str, str], tuple[Rating, int]]:
        with self._reading():
            rows = self.db.execute('SELECT variant, speed, rating, rd, volatility, games FROM ratings'
                                   ' WHERE guild = ? AND "user" = ?', (guild, user)).fetchall()
        return {(v, s): (Rating(r, rd, vol), g) for v, s, r, rd, vol, g in rows}

    async def leaderboard(self, guild: str, variant: str, limit: int = 10,
                          speed: str = CORRESPONDENCE) -> list[Standing]:
        return self._leaderboard(GAME_RATINGS, guild, (variant, speed), limit)

    def _rating(self, kept: Ratings, guild: str, pool: tuple[str, ...], user: str) -> tuple[Rating, int]:
        with self._reading():
            row = self.db.execute(f'SELECT rating, rd, volatility, {kept.counted} FROM {kept.table} WHERE guild = ?'
                                  f' AND {kept.where("?")} AND "user" = ?', (guild, *pool, user)).fetchone()
        return (Rating(row[0], row[1], row[2]), row[3]) if row else (Rating(), 0)

    def _save_ratings(self, kept: Ratings, guild: str, pool: tuple[str, ...],
                      changes: Sequence[tuple[str, str, Rating]]) -> None:
        upsert = kept.upsert(["?"] * (len(kept.keys) + 6))
        for user, name, r in changes:
            self.db.execute(upsert, (guild, *pool, user, name, r.rating, r.rd, r.volatility))

    def _leaderboard(self, kept: Ratings, guild: str, pool: tuple[str, ...], limit: int) -> list[Standing]:
        with self._reading():
            rows = self.db.execute(f'SELECT "user", name, rating, rd, volatility, {kept.counted} FROM {kept.table}'
                                   f" WHERE guild = ? AND {kept.where('?')} ORDER BY rating DESC LIMIT ?",
                                   (guild, *pool, limit)).fetchall()
        return [Standing(u, n, Rating(r, rd, vol), g) for u, n, r, rd, vol, g in rows]

    # puzzles

    async def start_puzzle(self, served: ServedPuzzle) -> int:
        try:
            with self._transaction():
                cursor = self.db.execute(
                    "INSERT INTO served_puzzles (guild, channel, variant, puzzle, kind, position, solution, ply,"
                    " asker, asker_name, status, day, started) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'on', ?, ?)",
                    (served.guild, served.channel, served.variant, served.puzzle, served.kind, served.position,
                     " ".join(served.solution), served.ply, served.asker, served.asker_name, served.day,
                     served.started))
        except SaveFailed as error:
            if isinstance(error.__cause__, sqlite3.IntegrityError):
                raise MoveConflict(f"channel {served.channel} has a puzzle on already") from error
            raise
        return int(cursor.lastrowid or 0)

    async def advance_puzzle(self, served: int, ply: int, movers: Sequence[tuple[str, str]] = ()) -> None:
        with self._transaction():
            cursor = self.db.execute("UPDATE served_puzzles SET ply = ?, movers = ? WHERE id = ? AND status = 'on'"
                                     " AND ply < ?", (ply, json.dumps([list(m) for m in movers]), served, ply))
            if cursor.rowcount != 1:
                raise MoveConflict(f"puzzle {served} is no longer on before ply {ply}")

    async def end_puzzle(self, served: int, outcome: str, attempts: Sequence[Attempt],
                         rated: RatedPuzzle | None = None) -> list[Change]:
        with self._transaction():
            row = self.db.execute("UPDATE served_puzzles SET status = ?, ended = ? WHERE id = ? AND status = 'on'"
                                  " RETURNING guild, variant, puzzle", (outcome, time.time(), served)).fetchone()
            if row is None:
                raise MoveConflict(f"puzzle {served} has ended already")
            guild, variant, puzzle = row
            return self._ended(served, guild, variant, puzzle, attempts, rated)

    async def tried_puzzle(self, served: ServedPuzzle, outcome: str, attempt: Attempt,
                           rated: RatedPuzzle | None = None) -> list[Change]:
        try:
            return self._tried(served, outcome, attempt, rated)
        except SaveFailed as error:
            if isinstance(error.__cause__, sqlite3.IntegrityError):
                raise MoveConflict(f"{served.asker} has tried puzzle {served.puzzle} already") from error
            raise

    def _tried(self, served: ServedPuzzle, outcome: str, attempt: Attempt,
               rated: RatedPuzzle | None) -> list[Change]:
        with self._transaction():
            now = time.time()
            cursor = self.db.execute(
                "INSERT INTO served_puzzles (guild, channel, variant, puzzle, kind, position, solution, ply,"
                " asker, asker_name, status, day, started, ended) VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?, ?)",
                (served.guild, served.channel, served.variant, served.puzzle, served.kind, served.position,
                 " ".join(served.solution), served.asker, served.asker_name, outcome, served.day, served.started, now))
            return self._ended(int(cursor.lastrowid or 0), served.guild, served.variant, served.puzzle, [attempt],
                               rated)

    def _ended(self, served: int, guild: str, variant: str, puzzle: str, attempts: Sequence[Attempt],
               rated: RatedPuzzle | None) -> list[Change]:
        """A puzzle's end, inside its transaction: the attempts, and the ratings when it is ``rated``."""
        self.db.executemany('INSERT INTO puzzle_attempts (served, "user", name, solved, place)'
                            " VALUES (?, ?, ?, ?, ?)",
                            [(served, a.user, a.name, a.solved, place) for place, a in enumerate(attempts)])
        if rated is None:
            return []
        known = self.db.execute("SELECT rating, rd, volatility FROM puzzle_strengths WHERE variant = ? AND"
                                " puzzle = ?", (variant, puzzle)).fetchone()
        changes, strength = rated.changes(
            {user: self._rating(PUZZLE_RATINGS, guild, (variant,), user)[0] for user in rated.users()},
            Rating(*known) if known else None)
        self._save_ratings(PUZZLE_RATINGS, guild, (variant,), [(c.user, c.name, c.after) for c in changes])
        self.db.executemany('UPDATE puzzle_attempts SET rating = ? WHERE served = ? AND "user" = ?',
                            [(c.after.rating, served, c.user) for c in changes])
        self.db.execute(
            "INSERT INTO puzzle_strengths (variant, puzzle, rating, rd, volatility, attempts)"
            " VALUES (?, ?, ?, ?, ?, 1) ON CONFLICT (variant, puzzle) DO UPDATE SET"
            " rating = excluded.rating, rd = excluded.rd, volatility = excluded.volatility,"
            " attempts = puzzle_strengths.attempts + 1",
            (variant, puzzle, strength.rating, strength.rd, strength.volatility))
        return changes

    async def puzzle_history(self, guild: str, user: str, limit: int = 50) -> list[PuzzleTry]:
        with self._reading():
            rows = self.db.execute(PUZZLE_HISTORY, (user, guild, limit)).fetchall()
        return [PuzzleTry(v, p, bool(solved), ended, rating) for v, p, solved, ended, rating in rows]

    async def puzzles_on(self) -> list[ServedPuzzle]:
        with self._reading():
            rows = self.db.execute(f"SELECT {_SERVED_COLUMNS} FROM served_puzzles WHERE status = 'on'"
                                   " ORDER BY id").fetchall()
        return [ServedPuzzle(sid, guild, channel, variant, puzzle, kind, position, tuple(solution.split()), asker,
                             asker_name, started, ply, day, tuple((u, n) for u, n in json.loads(movers)))
                for sid, guild, channel, variant, puzzle, kind, position, solution, asker, asker_name, started, ply,
                day, movers in rows]

    async def puzzle_rating(self, guild: str, variant: str, user: str) -> tuple[Rating, int]:
        return self._rating(PUZZLE_RATINGS, guild, (variant,), user)

    async def puzzle_strengths(self, variant: str) -> dict[str, tuple[Rating, int]]:
        with self._reading():
            rows = self.db.execute("SELECT puzzle, rating, rd, volatility, attempts FROM puzzle_strengths"
                                   " WHERE variant = ?", (variant,)).fetchall()
        return {puzzle: (Rating(r, rd, vol), n) for puzzle, r, rd, vol, n in rows}

    async def puzzles_seen(self, guild: str, variant: str, user: str) -> set[str]:
        with self._reading():
            rows = self.db.execute('SELECT s.puzzle FROM puzzle_attempts a JOIN served_puzzles s ON s.id = a.served'
                                   ' WHERE a."user" = ? AND s.guild = ? AND s.variant = ?',
                                   (user, guild, variant)).fetchall()
        return {puzzle for (puzzle,) in rows}

    async def puzzle_leaderboard(self, guild: str, variant: str, limit: int = 10) -> list[Standing]:
        return self._leaderboard(PUZZLE_RATINGS, guild, (variant,), limit)

    # languages

    async def set_language(self, guild: str, language: str | None) -> None:
        with self._transaction():
            if language is None:
                self.db.execute("DELETE FROM guild_languages WHERE guild = ?", (guild,))
            else:
                self.db.execute("INSERT INTO guild_languages (guild, language) VALUES (?, ?) ON CONFLICT (guild)"
                                " DO UPDATE SET language = excluded.language", (guild, language))

    async def languages(self) -> dict[str, str]:
        with self._reading():
            return dict(self.db.execute("SELECT guild, language FROM guild_languages").fetchall())

    # the daily puzzle

    async def set_daily(self, guild: str, channel: str | None, hour: int = 0, variant: str = "") -> None:
        with self._transaction():
            if channel is None:
                self.db.execute("DELETE FROM dailies WHERE guild = ?", (guild,))
            else:
                self.db.execute("INSERT INTO dailies (guild, channel, hour, variant) VALUES (?, ?, ?, ?)"
                                " ON CONFLICT (guild) DO UPDATE SET channel = excluded.channel,"
                                " hour = excluded.hour, variant = excluded.variant", (guild, channel, hour, variant))

    async def dailies(self) -> list[Daily]:
        with self._reading():
            rows = self.db.execute("SELECT guild, channel, hour, variant, last_day FROM dailies"
                                   " ORDER BY guild").fetchall()
        return [Daily(*row) for row in rows]

    async def mark_daily(self, guild: str, day: str) -> bool:
        with self._transaction():
            cursor = self.db.execute("UPDATE dailies SET last_day = ? WHERE guild = ?"
                                     " AND (last_day IS NULL OR last_day <> ?)", (day, guild, day))
        return cursor.rowcount == 1

    async def daily_solvers(self, guild: str, day: str) -> list[str]:
        with self._reading():
            rows = self.db.execute("SELECT a.name FROM puzzle_attempts a JOIN served_puzzles s ON s.id = a.served"
                                   " WHERE s.guild = ? AND s.day = ? AND s.kind = 'daily' AND a.solved"
                                   " ORDER BY s.ended, s.id, a.place", (guild, day)).fetchall()
        return [name for (name,) in rows]
