"""The store in PostgreSQL, for bot processes on several machines around one database: ``BOT_DATABASE`` set to a
``postgresql://`` URL. Through asyncpg, so no call blocks the event loop. The schema version is kept in the table
``schema_version``; migrations run under an advisory lock, so processes starting together migrate once."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import AsyncIterator, Sequence

import asyncpg

from bot.ratings import Change, RatedGame, Rating
from bot.ending import Ending
from bot.store.base import (CORRESPONDENCE, GAME_RATINGS, NO_RESULT, Daily, FinishedGame, MoveConflict, Ratings,
                            SaveFailed, Standing, Store, StoreError, StoredGame, read_ending, stored_ending)
from bot.store.postgres_logs import without_password
from bot.store.postgres_puzzles import PostgresPuzzles
from bot.store.postgres_tournaments import PostgresTournaments
from bot.store.schema import MIGRATIONS, VERSION

_GAME_COLUMNS = "id, guild, channel, variant, start_fen, kind, seats, settings, updated, version"
_MIGRATION_LOCK = 0x64726175  # the advisory lock migrations hold ('drau')
TIMEOUT = 5.0
"""Seconds a store call may take in all (a connection, its statements, its transaction) before it fails with
``SaveFailed``: a server that is down, unreachable or frozen costs a player a few seconds and a clear answer, never
a hung bot. (asyncpg waits for ever without one: even its cancelling of a statement waits on the server.)"""
MIGRATION_TIMEOUT = 300.0
"""Seconds a migration's statement may take at start-up: it may rewrite a large table, or wait while another
process migrates."""


log = logging.getLogger(__name__)


class PostgresStore(PostgresPuzzles, PostgresTournaments, Store):
    """A pool of connections to one PostgreSQL database."""

    def __init__(self, pool: asyncpg.Pool, timeout: float = TIMEOUT, url: str = ""):
        """``url``: the database's, for a connection of its own (``bot.store.exchange`` listens on one)."""
        self.pool = pool
        self.url = url
        self.timeout = timeout
        self._releasing: set[asyncio.Future] = set()  # connections going back to the pool

    @classmethod
    async def connect(cls, url: str, connections: int = 4, timeout: float = TIMEOUT) -> PostgresStore:
        """Connect, and bring the schema up to date; ``StoreError`` if the database cannot be reached or is newer
        than this bot. Every store call gives up after ``timeout`` seconds in all (the migrations at start-up,
        after ``MIGRATION_TIMEOUT``)."""
        try:
            # A statement gets half a call's time: after a statement times out, the rollback of its transaction
            # waits on the server as long again (the call's deadline, once spent, does not cut it short), and
            # both must end within the call's time.
            pool = await asyncpg.create_pool(url, min_size=1, max_size=connections, timeout=timeout,
                                             command_timeout=timeout / 2)
        except ValueError:
            raise StoreError("the PostgreSQL URL in BOT_DATABASE cannot be read (characters such as / # @ in the "
                             "password must be written as %2F %23 %40)") from None
        except TimeoutError:
            raise StoreError(f"cannot reach the PostgreSQL database: it did not answer within {timeout:g} s") from None
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
            raise StoreError(f"cannot reach the PostgreSQL database: {without_password(str(error), url)}") from None
        store = cls(pool, timeout, url)
        try:
            await store._migrate()
        except (asyncpg.PostgresError, asyncpg.InterfaceError, TimeoutError) as error:
            await store.close()
            raise StoreError(f"cannot set up the PostgreSQL database: {without_password(str(error), url)}") from None
        except BaseException:
            await store.close()
            raise
        return store

    async def _migrate(self) -> None:
        wait = MIGRATION_TIMEOUT
        async with self.pool.acquire(timeout=self.timeout) as db, db.transaction():
            await db.execute("SELECT pg_advisory_xact_lock($1)", _MIGRATION_LOCK, timeout=wait)
            await db.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)", timeout=wait)
            version = await db.fetchval("SELECT version FROM schema_version")
            if version is None:
                await db.execute("INSERT INTO schema_version VALUES (0)")
                version = 0
            if version > VERSION:
                raise StoreError(f"the database is at schema version {version}, newer than this bot ({VERSION})")
            for step in range(version, VERSION):
                await db.execute(MIGRATIONS[step].postgres, timeout=wait)
                await db.execute("UPDATE schema_version SET version = $1", step + 1)

    async def version(self) -> int:
        async with self.connection() as db:
            return int(await db.fetchval("SELECT version FROM schema_version"))

    @contextlib.asynccontextmanager
    async def connection(self, transaction: bool = False) -> AsyncIterator[asyncpg.Connection]:
        """A connection from the pool (in a transaction if asked) for one store call, this class's own or another
        module's on the same database (``bot.store.exchange``); the driver's errors, and a call that takes longer
        than ``timeout`` in all, become ``SaveFailed``. The connection goes back to the
        pool in the background: once the server has answered the call, its result stands, whatever the reset
        that follows costs."""
        db = None
        try:
            async with asyncio.timeout(self.timeout):
                db = await self.pool.acquire(timeout=self.timeout)
                try:
                    if transaction:
                        async with db.transaction():
                            yield db
                    else:
                        yield db
                except (TimeoutError, asyncio.CancelledError, asyncpg.InterfaceError):
                    db.terminate()  # its statement may still be on the server: never hand it out again
                    raise
        except TimeoutError as error:
            raise SaveFailed(f"the database did not answer within {self.timeout:g} s") from error
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
            raise SaveFailed(str(error)) from error
        finally:
            if db is not None:
                task = asyncio.ensure_future(self.pool.release(db))
                self._releasing.add(task)
                task.add_done_callback(self._released)

    def _released(self, task: asyncio.Future) -> None:
        self._releasing.discard(task)
        if not task.cancelled() and task.exception() is not None:  # the pool has closed the connection
            log.debug("a connection could not be reset for the pool: %s", task.exception())

    async def close(self) -> None:
        """Close the connections, within ``timeout``; a server that does not answer gets them cut."""
        try:
            async with asyncio.timeout(self.timeout):
                await self.pool.close()
        except (TimeoutError, OSError, asyncpg.PostgresError, asyncpg.InterfaceError):
            self.pool.terminate()

    # games

    async def create_game(self, guild: str, channel: str, variant: str, start_fen: str, kind: str,
                          seats: dict, settings: dict) -> int:
        now = time.time()
        async with self.connection() as db:
            return int(await db.fetchval(
                "INSERT INTO games (guild, channel, variant, start_fen, kind, seats, settings, status, created, updated)"
                " VALUES ($1, $2, $3, $4, $5, $6, $7, 'active', $8, $8) RETURNING id",
                guild, channel, variant, start_fen, kind, json.dumps(seats), json.dumps(settings), now))

    @staticmethod
    async def _claim(db: asyncpg.Connection, game: int, version: int) -> int:
        """Step the game's version if it is still ``version`` and on (inside a transaction); else MoveConflict. The
        row stays locked to the end of the transaction, and a writer that waited on it sees the new version, so
        of two racing writers exactly one gets through."""
        status = await db.execute("UPDATE games SET version = version + 1, updated = $1 WHERE id = $2"
                                  " AND version = $3 AND status = 'active'", time.time(), game, version)
        if status != "UPDATE 1":
            raise MoveConflict(f"game {game} is no longer at version {version}")
        return version + 1

    async def add_move(self, game: int, version: int, ply: int, move: str, clocks: list[float] | None = None) -> int:
        try:
            async with self.connection(transaction=True) as db:
                new = await self._claim(db, game, version)
                await db.execute("INSERT INTO moves (game, ply, move, at, clocks) VALUES ($1, $2, $3, $4, $5)",
                                 game, ply, move, time.time(), json.dumps(clocks) if clocks else None)
        except SaveFailed as error:
            if isinstance(error.__cause__, asyncpg.UniqueViolationError):
                raise MoveConflict(f"game {game} has a move at ply {ply} already") from error
            raise
        return new

    async def remove_moves(self, game: int, version: int, from_ply: int, settings: dict) -> int:
        async with self.connection(transaction=True) as db:
            new = await self._claim(db, game, version)
            await db.execute("DELETE FROM moves WHERE game = $1 AND ply >= $2", game, from_ply)
            await db.execute("UPDATE games SET settings = $1 WHERE id = $2", json.dumps(settings), game)
        return new

    async def finish_game(self, game: int, version: int, ending: Ending, reason: str, pdn: str,
                          rated: RatedGame | None = None) -> list[Change]:
        async with self.connection(transaction=True) as db:
            await self._claim(db, game, version)
            row = await db.fetchrow("UPDATE games SET status = 'finished', winner = $1, termination = $2, reason = $3,"
                                    " pdn = $4 WHERE id = $5 RETURNING guild, variant", *stored_ending(ending), reason,
                                    pdn, game)
            if rated is None:
                return []
            guild, pool = row["guild"], (row["variant"], rated.speed)
            changes = rated.changes(await self._held_ratings(db, GAME_RATINGS, guild, pool, rated.people()))
            await self._save_ratings(db, GAME_RATINGS, guild, pool, [(c.user, c.name, c.after) for c in changes])
            return changes

    async def shared_key(self, name: str, made: str) -> str:
        async with self.connection(transaction=True) as db:
            await db.execute("INSERT INTO shared_keys (name, value) VALUES ($1, $2) ON CONFLICT DO NOTHING", name, made)
            return await db.fetchval("SELECT value FROM shared_keys WHERE name = $1", name)

    async def board_message(self, game: int) -> str | None:
        async with self.connection() as db:
            return await db.fetchval("SELECT board_message FROM games WHERE id = $1", game)

    async def set_board_message(self, game: int, message: str | None) -> None:
        async with self.connection() as db:
            await db.execute("UPDATE games SET board_message = $1 WHERE id = $2", message, game)

    @staticmethod
    async def _stored(db: asyncpg.Connection, row: asyncpg.Record, moves: list | None = None) -> StoredGame:
        if moves is None:
            moves = await db.fetch("SELECT move, clocks FROM moves WHERE game = $1 ORDER BY ply", row["id"])
        return StoredGame(row["id"], row["guild"], row["channel"], row["variant"], row["start_fen"], row["kind"],
                          json.loads(row["seats"]), json.loads(row["settings"]), [m["move"] for m in moves],
                          row["updated"], row["version"], [json.loads(m["clocks"]) if m["clocks"] else None
                                                           for m in moves])

    async def active_games(self) -> list[StoredGame]:
        async with self.connection() as db:
            rows = await db.fetch(f"SELECT {_GAME_COLUMNS} FROM games WHERE status = 'active' ORDER BY id")
            moves: dict[int, list] = {row["id"]: [] for row in rows}
            for r in await db.fetch("SELECT game, move, clocks FROM moves WHERE game = ANY($1::bigint[])"
                                    " ORDER BY game, ply", list(moves)):
                moves[r["game"]].append(r)
            return [await self._stored(db, row, moves[row["id"]]) for row in rows]

    async def game(self, game: int) -> StoredGame | None:
        async with self.connection() as db:
            row = await db.fetchrow(f"SELECT {_GAME_COLUMNS} FROM games WHERE id = $1", game)
            return await self._stored(db, row) if row else None

    async def finished_game(self, game: int) -> FinishedGame | None:
        async with self.connection() as db:
            row = await db.fetchrow(f"SELECT {_GAME_COLUMNS}, winner, termination, reason, pdn FROM games"
                                    " WHERE id = $1 AND status = 'finished'", game)
            if row is None:
                return None
            return FinishedGame(await self._stored(db, row), read_ending(row["winner"], row["termination"]),
                                row["reason"] or "", row["pdn"] or "")

    async def player_games(self, guild: str, user: str, limit: int = 10) -> list[int]:
        async with self.connection() as db:
            rows = await db.fetch(
                "SELECT id FROM games WHERE guild = $1 AND status = 'finished'"
                " AND coalesce(termination, '') <> ALL($4::text[])"
                " AND ((seats::jsonb #>> '{white,user,0}') = $2 OR (seats::jsonb #>> '{black,user,0}') = $2)"
                " ORDER BY updated DESC, id DESC LIMIT $3", guild, user, limit, list(NO_RESULT))
        return [row["id"] for row in rows]

    async def last_finished(self, guild: str, channel: str) -> int | None:
        async with self.connection() as db:
            return await db.fetchval(
                "SELECT id FROM games WHERE guild = $1 AND channel = $2 AND status = 'finished'"
                " AND EXISTS (SELECT 1 FROM moves WHERE moves.game = games.id)"
                " AND coalesce(termination, '') <> ALL($3::text[]) ORDER BY updated DESC, id DESC LIMIT 1",
                guild, channel, list(NO_RESULT))

    # analyses

    async def analysis(self, game: int, nodes: int) -> dict | None:
        async with self.connection() as db:
            text = await db.fetchval("SELECT analysis FROM analyses WHERE game = $1 AND nodes = $2", game, nodes)
        return json.loads(text) if text is not None else None

    async def analysed_games(self, guild: str, nodes: int, limit: int = 200) -> list[tuple[int, dict, dict]]:
        async with self.connection() as db:
            rows = await db.fetch("SELECT g.id, g.seats, a.analysis FROM games g JOIN analyses a ON a.game = g.id"
                                  " WHERE g.guild = $1 AND a.nodes = $2 ORDER BY g.updated DESC, g.id DESC LIMIT $3",
                                  guild, nodes, limit)
        return [(r["id"], json.loads(r["seats"]), json.loads(r["analysis"])) for r in rows]

    async def save_analysis(self, game: int, nodes: int, analysis: dict) -> None:
        async with self.connection() as db:
            await db.execute("INSERT INTO analyses (game, nodes, analysis, created) VALUES ($1, $2, $3, $4)"
                             " ON CONFLICT (game) DO UPDATE SET nodes = excluded.nodes,"
                             " analysis = excluded.analysis, created = excluded.created",
                             game, nodes, json.dumps(analysis), time.time())

    # ratings

    async def ratings(self, guild: str, user: str) -> dict[tuple[str, str], tuple[Rating, int]]:
        async with self.connection() as db:
            rows = await db.fetch('SELECT variant, speed, rating, rd, volatility, games FROM ratings'
                                  ' WHERE guild = $1 AND "user" = $2', guild, user)
        return {(v, s): (Rating(r, rd, vol), g) for v, s, r, rd, vol, g in rows}

    async def leaderboard(self, guild: str, variant: str, limit: int = 10,
                          speed: str = CORRESPONDENCE) -> list[Standing]:
        return await self._leaderboard(GAME_RATINGS, guild, (variant, speed), limit)

    async def _rating(self, kept: Ratings, guild: str, pool: tuple[str, ...], user: str) -> tuple[Rating, int]:
        async with self.connection() as db:
            row = await db.fetchrow(f'SELECT rating, rd, volatility, {kept.counted} FROM {kept.table} WHERE guild = $1'
                                    f' AND {kept.where("$", 2)} AND "user" = ${len(pool) + 2}', guild, *pool, user)
        return (Rating(row[0], row[1], row[2]), row[3]) if row else (Rating(), 0)

    @staticmethod
    async def _hold(db: asyncpg.Connection, key: str) -> None:
        """Hold ``key`` until the transaction ends: another transaction that asks for it waits until then."""
        await db.execute("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", key)

    @classmethod
    async def _held_ratings(cls, db: asyncpg.Connection, kept: Ratings, guild: str, pool: tuple[str, ...],
                            users: Sequence[str]) -> dict[str, Rating]:
        """The ratings of ``users`` (sorted) that ``kept`` has, each held until the transaction ends: the rating
        read is the one the transaction's write replaces, whatever other processes end at the same moment."""
        now = {}
        for user in users:
            await cls._hold(db, ":".join((kept.table, guild, *pool, user)))
            row = await db.fetchrow(f'SELECT rating, rd, volatility FROM {kept.table} WHERE guild = $1'
                                    f' AND {kept.where("$", 2)} AND "user" = ${len(pool) + 2}', guild, *pool, user)
            if row is not None:
                now[user] = Rating(*row)
        return now

    @staticmethod
    async def _save_ratings(db: asyncpg.Connection, kept: Ratings, guild: str, pool: tuple[str, ...],
                            changes: Sequence[tuple[str, str, Rating]]) -> None:
        upsert = kept.upsert([f"${k}" for k in range(1, len(kept.keys) + 7)])
        for user, name, r in changes:
            await db.execute(upsert, guild, *pool, user, name, r.rating, r.rd, r.volatility)

    async def _leaderboard(self, kept: Ratings, guild: str, pool: tuple[str, ...], limit: int) -> list[Standing]:
        async with self.connection() as db:
            rows = await db.fetch(f'SELECT "user", name, rating, rd, volatility, {kept.counted} FROM {kept.table}'
                                  f" WHERE guild = $1 AND {kept.where('$', 2)} ORDER BY rating DESC"
                                  f" LIMIT ${len(pool) + 2}", guild, *pool, limit)
        return [Standing(u, n, Rating(r, rd, vol), g) for u, n, r, rd, vol, g in rows]

    # languages

    async def set_language(self, guild: str, language: str | None) -> None:
        async with self.connection() as db:
            if language is None:
                await db.execute("DELETE FROM guild_languages WHERE guild = $1", guild)
            else:
                await db.execute("INSERT INTO guild_languages (guild, language) VALUES ($1, $2) ON CONFLICT (guild)"
                                 " DO UPDATE SET language = excluded.language", guild, language)

    async def languages(self) -> dict[str, str]:
        async with self.connection() as db:
            return {row["guild"]: row["language"] for row in await db.fetch("SELECT guild, language FROM guild_languages")}

    # the daily puzzle

    async def set_daily(self, guild: str, channel: str | None, hour: int = 0, variant: str = "") -> None:
        async with self.connection() as db:
            if channel is None:
                await db.execute("DELETE FROM dailies WHERE guild = $1", guild)
            else:
                await db.execute("INSERT INTO dailies (guild, channel, hour, variant) VALUES ($1, $2, $3, $4)"
                                 " ON CONFLICT (guild) DO UPDATE SET channel = excluded.channel,"
                                 " hour = excluded.hour, variant = excluded.variant", guild, channel, hour, variant)

    async def dailies(self) -> list[Daily]:
        async with self.connection() as db:
            rows = await db.fetch("SELECT guild, channel, hour, variant, last_day FROM dailies ORDER BY guild")
        return [Daily(*row) for row in rows]

    async def mark_daily(self, guild: str, day: str) -> bool:
        async with self.connection() as db:
            status = await db.execute("UPDATE dailies SET last_day = $1 WHERE guild = $2"
                                      " AND (last_day IS NULL OR last_day <> $1)", day, guild)
        return status == "UPDATE 1"

    async def daily_solvers(self, guild: str, day: str) -> list[str]:
        async with self.connection() as db:
            rows = await db.fetch("SELECT a.name FROM puzzle_attempts a JOIN served_puzzles s ON s.id = a.served"
                                  " WHERE s.guild = $1 AND s.day = $2 AND s.kind = 'daily' AND a.solved"
                                  " ORDER BY s.ended, s.id, a.place", guild, day)
        return [r["name"] for r in rows]
