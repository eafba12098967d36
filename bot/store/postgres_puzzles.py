"""Puzzles in PostgreSQL: ``PostgresStore``'s part for them (those served in channels, those tried alone on the
web page, people's puzzle ratings and histories, each puzzle's own rating)."""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING

import asyncpg

from bot.ratings import Change, RatedPuzzle, Rating
from bot.store.base import (PUZZLE_HISTORY, PUZZLE_RATINGS, Attempt, MoveConflict, PuzzleTry, Ratings, SaveFailed,
                            ServedPuzzle, Standing)
from bot.store.tournament_rows import numbered

_SERVED_COLUMNS = ("id, guild, channel, variant, puzzle, kind, position, solution, asker, asker_name, started, ply, day,"
                   " movers")
_HISTORY = numbered(PUZZLE_HISTORY)


class PostgresPuzzles:
    """Mixed into ``PostgresStore``, whose connections and ratings it uses."""

    if TYPE_CHECKING:
        def connection(self, transaction: bool = False) -> contextlib.AbstractAsyncContextManager[
            asyncpg.Connection]: ...

        async def _rating(self, kept: Ratings, guild: str, pool: tuple[str, ...], user: str) -> tuple[Rating, int]: ...

        @staticmethod
        async def _hold(db: asyncpg.Connection, key: str) -> None: ...

        @classmethod
        async def _held_ratings(cls, db: asyncpg.Connection, kept: Ratings, guild: str, pool: tuple[str, ...],
                                users: Sequence[str]) -> dict[str, Rating]: ...

        @staticmethod
        async def _save_ratings(db: asyncpg.Connection, kept: Ratings, guild: str, pool: tuple[str, ...],
                                changes: Sequence[tuple[str, str, Rating]]) -> None: ...

        async def _leaderboard(self, kept: Ratings, guild: str, pool: tuple[str, ...],
                               limit: int) -> list[Standing]: ...

    async def start_puzzle(self, served: ServedPuzzle) -> int:
        try:
            async with self.connection() as db:
                return int(await db.fetchval(
                    "INSERT INTO served_puzzles (guild, channel, variant, puzzle, kind, position, solution, ply,"
                    " asker, asker_name, status, day, started)"
                    " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'on', $11, $12) RETURNING id",
                    served.guild, served.channel, served.variant, served.puzzle, served.kind, served.position,
                    " ".join(served.solution), served.ply, served.asker, served.asker_name, served.day,
                    served.started))
        except SaveFailed as error:
            if isinstance(error.__cause__, asyncpg.UniqueViolationError):
                raise MoveConflict(f"channel {served.channel} has a puzzle on already") from error
            raise

    async def advance_puzzle(self, served: int, ply: int, movers: Sequence[tuple[str, str]] = ()) -> None:
        async with self.connection() as db:
            status = await db.execute("UPDATE served_puzzles SET ply = $1, movers = $3 WHERE id = $2"
                                      " AND status = 'on' AND ply < $1", ply, served,
                                      json.dumps([list(m) for m in movers]))
        if status != "UPDATE 1":
            raise MoveConflict(f"puzzle {served} is no longer on before ply {ply}")

    async def end_puzzle(self, served: int, outcome: str, attempts: Sequence[Attempt],
                         rated: RatedPuzzle | None = None) -> list[Change]:
        async with self.connection(transaction=True) as db:
            row = await db.fetchrow("UPDATE served_puzzles SET status = $1, ended = $2 WHERE id = $3"
                                    " AND status = 'on' RETURNING guild, variant, puzzle", outcome, time.time(), served)
            if row is None:
                raise MoveConflict(f"puzzle {served} has ended already")
            return await self._ended(db, served, row["guild"], row["variant"], row["puzzle"], attempts, rated)

    async def tried_puzzle(self, served: ServedPuzzle, outcome: str, attempt: Attempt,
                           rated: RatedPuzzle | None = None) -> list[Change]:
        try:
            return await self._tried(served, outcome, attempt, rated)
        except SaveFailed as error:
            if isinstance(error.__cause__, asyncpg.UniqueViolationError):
                raise MoveConflict(f"{served.asker} has tried puzzle {served.puzzle} already") from error
            raise

    async def _tried(self, served: ServedPuzzle, outcome: str, attempt: Attempt,
                     rated: RatedPuzzle | None) -> list[Change]:
        async with self.connection(transaction=True) as db:
            row = await db.fetchval(
                "INSERT INTO served_puzzles (guild, channel, variant, puzzle, kind, position, solution, ply,"
                " asker, asker_name, status, day, started, ended)"
                " VALUES ($1, $2, $3, $4, $5, $6, $7, 0, $8, $9, $10, $11, $12, $13) RETURNING id",
                served.guild, served.channel, served.variant, served.puzzle, served.kind, served.position,
                " ".join(served.solution), served.asker, served.asker_name, outcome, served.day, served.started,
                time.time())
            return await self._ended(db, int(row), served.guild, served.variant, served.puzzle, [attempt], rated)

    async def _ended(self, db: asyncpg.Connection, served: int, guild: str, variant: str, puzzle: str,
                     attempts: Sequence[Attempt], rated: RatedPuzzle | None) -> list[Change]:
        """A puzzle's end, inside its transaction: the attempts, and the ratings when it is ``rated``."""
        await db.executemany('INSERT INTO puzzle_attempts (served, "user", name, solved, place)'
                             " VALUES ($1, $2, $3, $4, $5)",
                             [(served, a.user, a.name, a.solved, place) for place, a in enumerate(attempts)])
        if rated is None:
            return []
        # held until the transaction ends, the puzzle first and then its people, in one order by every end
        await self._hold(db, f"puzzle_strengths:{variant}:{puzzle}")
        known = await db.fetchrow("SELECT rating, rd, volatility FROM puzzle_strengths WHERE variant = $1"
                                  " AND puzzle = $2", variant, puzzle)
        now = await self._held_ratings(db, PUZZLE_RATINGS, guild, (variant,), rated.users())
        changes, strength = rated.changes(now, Rating(*known) if known else None)
        await self._save_ratings(db, PUZZLE_RATINGS, guild, (variant,), [(c.user, c.name, c.after) for c in changes])
        await db.executemany('UPDATE puzzle_attempts SET rating = $1 WHERE served = $2 AND "user" = $3',
                             [(c.after.rating, served, c.user) for c in changes])
        await db.execute(
            "INSERT INTO puzzle_strengths (variant, puzzle, rating, rd, volatility, attempts)"
            " VALUES ($1, $2, $3, $4, $5, 1) ON CONFLICT (variant, puzzle) DO UPDATE SET"
            " rating = excluded.rating, rd = excluded.rd, volatility = excluded.volatility,"
            " attempts = puzzle_strengths.attempts + 1",
            variant, puzzle, strength.rating, strength.rd, strength.volatility)
        return changes

    async def puzzle_history(self, guild: str, user: str, limit: int = 50) -> list[PuzzleTry]:
        async with self.connection() as db:
            rows = await db.fetch(_HISTORY, user, guild, limit)
        return [PuzzleTry(r["variant"], r["puzzle"], r["solved"], r["ended"], r["rating"]) for r in rows]

    async def puzzles_on(self) -> list[ServedPuzzle]:
        async with self.connection() as db:
            rows = await db.fetch(f"SELECT {_SERVED_COLUMNS} FROM served_puzzles WHERE status = 'on' ORDER BY id")
        return [ServedPuzzle(r["id"], r["guild"], r["channel"], r["variant"], r["puzzle"], r["kind"], r["position"],
                             tuple(r["solution"].split()), r["asker"], r["asker_name"], r["started"], r["ply"],
                             r["day"], tuple((u, n) for u, n in json.loads(r["movers"]))) for r in rows]

    async def puzzle_rating(self, guild: str, variant: str, user: str) -> tuple[Rating, int]:
        return await self._rating(PUZZLE_RATINGS, guild, (variant,), user)

    async def puzzle_strengths(self, variant: str) -> dict[str, tuple[Rating, int]]:
        async with self.connection() as db:
            rows = await db.fetch("SELECT puzzle, rating, rd, volatility, attempts FROM puzzle_strengths"
                                  " WHERE variant = $1", variant)
        return {puzzle: (Rating(r, rd, vol), n) for puzzle, r, rd, vol, n in rows}

    async def puzzles_seen(self, guild: str, variant: str, user: str) -> set[str]:
        async with self.connection() as db:
            rows = await db.fetch('SELECT s.puzzle FROM puzzle_attempts a JOIN served_puzzles s ON s.id = a.served'
                                  ' WHERE a."user" = $1 AND s.guild = $2 AND s.variant = $3', user, guild, variant)
        return {r["puzzle"] for r in rows}

    async def puzzle_leaderboard(self, guild: str, variant: str, limit: int = 10) -> list[Standing]:
        return await self._leaderboard(PUZZLE_RATINGS, guild, (variant,), limit)
