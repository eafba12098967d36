"""Games and ratings in SQLite.

A game is stored as its start position and its move list (full paths, so a
replay is exact); positions are rebuilt by replaying. Every write commits
before it returns, so a move the bot announces is on disk. WAL journaling:
a crash of the bot loses nothing committed.

The schema version is SQLite's ``user_version``; ``MIGRATIONS[n]`` takes a
database from version n to n + 1, and opening a database runs the missing ones.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from bot.ratings import Rating

MIGRATIONS = (
    # 0 -> 1: games and their moves
    """
    CREATE TABLE games (
        id INTEGER PRIMARY KEY,
        guild TEXT NOT NULL,
        channel TEXT NOT NULL,
        variant TEXT NOT NULL,
        start_fen TEXT NOT NULL,
        kind TEXT NOT NULL,
        seats TEXT NOT NULL,          -- JSON: {"white": seat, "black": seat}
        settings TEXT NOT NULL,       -- JSON: budget, rated, delay, takebacks used, starter
        status TEXT NOT NULL,         -- 'active' or 'finished'
        winner TEXT,                  -- 'white', 'black' or NULL (draw or aborted)
        reason TEXT,
        pdn TEXT,
        created REAL NOT NULL,
        updated REAL NOT NULL
    );
    CREATE INDEX games_status ON games (status, channel);
    CREATE TABLE moves (
        game INTEGER NOT NULL REFERENCES games (id),
        ply INTEGER NOT NULL,
        move TEXT NOT NULL,
        at REAL NOT NULL,
        PRIMARY KEY (game, ply)
    );
    """,
    # 1 -> 2: ratings per server and variant
    """
    CREATE TABLE ratings (
        guild TEXT NOT NULL,
        variant TEXT NOT NULL,
        user TEXT NOT NULL,
        name TEXT NOT NULL,
        rating REAL NOT NULL,
        rd REAL NOT NULL,
        volatility REAL NOT NULL,
        games INTEGER NOT NULL,
        PRIMARY KEY (guild, variant, user)
    );
    """,
    # 2 -> 3: the chat service's id of each game's latest board message (the one that carries the controls)
    """
    ALTER TABLE games ADD COLUMN board_message TEXT;
    """,
)
VERSION = len(MIGRATIONS)


class StoreError(RuntimeError):
    """The database cannot be opened or used; the message says why."""


@dataclass(frozen=True)
class StoredGame:
    """An unfinished game as the database holds it."""

    id: int
    guild: str
    channel: str
    variant: str
    start_fen: str
    kind: str
    seats: dict
    settings: dict
    moves: list[str]
    updated: float


@dataclass(frozen=True)
class FinishedGame:
    """A finished game as the database holds it: the game, and how it ended."""

    game: StoredGame
    winner: str | None
    reason: str
    pdn: str


@dataclass(frozen=True)
class Standing:
    """One line of a leaderboard."""

    user: str
    name: str
    rating: Rating
    games: int


class Store:
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
        version = self.db.execute("PRAGMA user_version").fetchone()[0]
        if version > VERSION:
            raise StoreError(f"the database is at schema version {version}, newer than this bot ({VERSION})")
        for step in range(version, VERSION):
            try:
                self.db.executescript(f"BEGIN; {MIGRATIONS[step]}; PRAGMA user_version = {step + 1}; COMMIT;")
            except sqlite3.Error:
                if self.db.in_transaction:
                    self.db.execute("ROLLBACK")
                raise

    @property
    def version(self) -> int:
        return int(self.db.execute("PRAGMA user_version").fetchone()[0])

    def _transaction(self):
        return _Transaction(self.db)

    def close(self) -> None:
        self.db.close()

    # games

    def create_game(self, guild: str, channel: str, variant: str, start_fen: str, kind: str,
                    seats: dict, settings: dict) -> int:
        now = time.time()
        with self._transaction():
            cursor = self.db.execute(
                "INSERT INTO games (guild, channel, variant, start_fen, kind, seats, settings, status, created, updated)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, 'active', ?, ?)",
                (guild, channel, variant, start_fen, kind, json.dumps(seats), json.dumps(settings), now, now))
        return int(cursor.lastrowid or 0)

    def add_move(self, game: int, ply: int, move: str) -> None:
        now = time.time()
        with self._transaction():
            self.db.execute("INSERT INTO moves (game, ply, move, at) VALUES (?, ?, ?, ?)", (game, ply, move, now))
            self.db.execute("UPDATE games SET updated = ? WHERE id = ?", (now, game))

    def remove_moves(self, game: int, from_ply: int) -> None:
        """Take back the moves from ``from_ply`` on."""
        with self._transaction():
            self.db.execute("DELETE FROM moves WHERE game = ? AND ply >= ?", (game, from_ply))
            self.db.execute("UPDATE games SET updated = ? WHERE id = ?", (time.time(), game))

    def save_settings(self, game: int, settings: dict) -> None:
        with self._transaction():
            self.db.execute("UPDATE games SET settings = ? WHERE id = ?", (json.dumps(settings), game))

    def finish_game(self, game: int, winner: str | None, reason: str, pdn: str,
                    ratings: Sequence[tuple[str, str, Rating]] = ()) -> None:
        """Mark a game finished with its PDN and store the players' new ratings, all or nothing."""
        with self._transaction():
            row = self.db.execute("UPDATE games SET status = 'finished', winner = ?, reason = ?, pdn = ?, updated = ?"
                                  " WHERE id = ? RETURNING guild, variant", (winner, reason, pdn, time.time(), game))
            guild, variant = row.fetchone()
            self.save_ratings(guild, variant, ratings)

    def board_message(self, game: int) -> str | None:
        """The id of the game's latest board message, as the front end that posted it named it."""
        row = self.db.execute("SELECT board_message FROM games WHERE id = ?", (game,)).fetchone()
        return row[0] if row else None

    def set_board_message(self, game: int, message: str | None) -> None:
        with self._transaction():
            self.db.execute("UPDATE games SET board_message = ? WHERE id = ?", (message, game))

    def active_games(self) -> list[StoredGame]:
        rows = self.db.execute("SELECT id, guild, channel, variant, start_fen, kind, seats, settings, updated"
                               " FROM games WHERE status = 'active' ORDER BY id").fetchall()
        games = []
        for gid, guild, channel, variant, fen, kind, seats, settings, updated in rows:
            moves = [m for (m,) in self.db.execute("SELECT move FROM moves WHERE game = ? ORDER BY ply", (gid,))]
            games.append(StoredGame(gid, guild, channel, variant, fen, kind, json.loads(seats),
                                    json.loads(settings), moves, updated))
        return games

    def finished_game(self, game: int) -> FinishedGame | None:
        """A finished game by its id (for its replay), or None if there is none."""
        row = self.db.execute("SELECT id, guild, channel, variant, start_fen, kind, seats, settings, updated, winner,"
                              " reason, pdn FROM games WHERE id = ? AND status = 'finished'", (game,)).fetchone()
        if row is None:
            return None
        gid, guild, channel, variant, fen, kind, seats, settings, updated, winner, reason, pdn = row
        moves = [m for (m,) in self.db.execute("SELECT move FROM moves WHERE game = ? ORDER BY ply", (gid,))]
        stored = StoredGame(gid, guild, channel, variant, fen, kind, json.loads(seats), json.loads(settings), moves,
                            updated)
        return FinishedGame(stored, winner, reason or "", pdn or "")

    # ratings

    def rating(self, guild: str, variant: str, user: str) -> tuple[Rating, int]:
        """A person's rating and rated games played; a new player's rating when there is none."""
        row = self.db.execute("SELECT rating, rd, volatility, games FROM ratings WHERE guild = ? AND variant = ?"
                              " AND user = ?", (guild, variant, user)).fetchone()
        return (Rating(row[0], row[1], row[2]), row[3]) if row else (Rating(), 0)

    def save_ratings(self, guild: str, variant: str, changes: Sequence[tuple[str, str, Rating]]) -> None:
        """Store new ratings, (user, name, rating) each, in one transaction; each counts one more game."""
        with self._transaction():
            for user, name, r in changes:
                self.db.execute(
                    "INSERT INTO ratings (guild, variant, user, name, rating, rd, volatility, games)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, 1) ON CONFLICT (guild, variant, user) DO UPDATE SET"
                    " name = excluded.name, rating = excluded.rating, rd = excluded.rd,"
                    " volatility = excluded.volatility, games = games + 1",
                    (guild, variant, user, name, r.rating, r.rd, r.volatility))

    def leaderboard(self, guild: str, variant: str, limit: int = 10) -> list[Standing]:
        rows = self.db.execute("SELECT user, name, rating, rd, volatility, games FROM ratings"
                               " WHERE guild = ? AND variant = ? ORDER BY rating DESC LIMIT ?",
                               (guild, variant, limit)).fetchall()
        return [Standing(u, n, Rating(r, rd, vol), g) for u, n, r, rd, vol, g in rows]


class _Transaction:
    """BEGIN ... COMMIT, or ROLLBACK when the body raises (the error goes on)."""

    def __init__(self, db: sqlite3.Connection):
        self.db = db

    def __enter__(self) -> None:
        if not self.db.in_transaction:
            self.db.execute("BEGIN")

    def __exit__(self, kind, error, trace) -> None:
        if not self.db.in_transaction:
            return
        self.db.execute("ROLLBACK" if kind else "COMMIT")
