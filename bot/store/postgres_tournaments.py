"""Tournaments in PostgreSQL: ``PostgresStore``'s part for them (``bot.store.tournament_rows`` has the
statements)."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING

import asyncpg

from bot.store import tournament_rows as rows
from bot.tournament.event import Entrant, Pairing, Status, Tournament

_INSERT_TOURNAMENT = rows.numbered(rows.INSERT_TOURNAMENT)
_SELECT_TOURNAMENT = rows.numbered(rows.SELECT_TOURNAMENT)
_SELECT_ENTRANTS = rows.numbered(rows.SELECT_ENTRANTS)
_SELECT_PAIRINGS = rows.numbered(rows.SELECT_PAIRINGS)
_PLAYER_TOURNAMENTS = rows.numbered(rows.PLAYER_TOURNAMENTS)
_GUILD_TOURNAMENTS = rows.numbered(rows.GUILD_TOURNAMENTS)
_PUT_ENTRANT = rows.numbered(rows.PUT_ENTRANT)
_ADVANCE = rows.numbered(rows.ADVANCE)
_INSERT_PAIRING = rows.numbered(rows.INSERT_PAIRING)
_STEP = rows.numbered(rows.STEP)
_LINK = rows.numbered(rows.LINK)


class PostgresTournaments:
    """Mixed into ``PostgresStore``, whose connections it uses."""

    if TYPE_CHECKING:
        def connection(self, transaction: bool = False) -> contextlib.AbstractAsyncContextManager[
            asyncpg.Connection]: ...

    async def create_tournament(self, tournament: Tournament) -> int:
        async with self.connection() as db:
            return int(await db.fetchval(_INSERT_TOURNAMENT, *rows.tournament_values(tournament, time.time())))

    async def tournament(self, tournament: int) -> Tournament | None:
        async with self.connection() as db, db.transaction(isolation="repeatable_read", readonly=True):
            row = await db.fetchrow(_SELECT_TOURNAMENT, tournament)  # (the three reads from one moment)
            if row is None:
                return None
            entrants = await db.fetch(_SELECT_ENTRANTS, tournament)
            pairings = await db.fetch(_SELECT_PAIRINGS, tournament)
        return rows.read_tournament(tuple(row), [tuple(e) for e in entrants], [tuple(p) for p in pairings])

    async def live_tournaments(self) -> list[int]:
        async with self.connection() as db:
            return [r[0] for r in await db.fetch(rows.LIVE_TOURNAMENTS)]

    async def tournaments_of(self, guild: str, user: str | None = None, limit: int = 10) -> list[int]:
        async with self.connection() as db:
            found = (await db.fetch(_PLAYER_TOURNAMENTS, guild, user, limit) if user is not None
                     else await db.fetch(_GUILD_TOURNAMENTS, guild, limit))
        return [r[0] for r in found]

    async def put_entrant(self, tournament: int, entrant: Entrant) -> None:
        async with self.connection(transaction=True) as db:
            await db.execute(_PUT_ENTRANT, *rows.entrant_values(tournament, entrant))
            await db.execute(_STEP, tournament)

    async def link_game(self, tournament: int, pairing: Pairing, game: int) -> bool:
        async with self.connection() as db:
            return await db.execute(_LINK, game, tournament, pairing.round, pairing.board) == "UPDATE 1"

    async def advance_tournament(self, tournament: Tournament, status: Status, round: int,
                                 pairings: Sequence[Pairing] = ()) -> bool:
        async with self.connection(transaction=True) as db:
            changed = await db.execute(_ADVANCE, status.value, round, tournament.starts, tournament.id,
                                       tournament.version)
            if changed != "UPDATE 1":
                return False
            await db.executemany(_INSERT_PAIRING, [rows.pairing_values(tournament, p) for p in pairings])
        return True
