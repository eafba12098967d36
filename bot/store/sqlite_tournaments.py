"""Tournaments in SQLite: ``SqliteStore``'s part for them (``bot.store.tournament_rows`` has the statements)."""

from __future__ import annotations

import contextlib
import sqlite3
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING

from bot.store import tournament_rows as rows
from bot.tournament.event import Entrant, Pairing, Status, Tournament


class SqliteTournaments:
    """Mixed into ``SqliteStore``, whose connection and transactions it uses."""

    db: sqlite3.Connection
    if TYPE_CHECKING:
        def _transaction(self) -> contextlib.AbstractContextManager[None]: ...

        def _reading(self) -> contextlib.AbstractContextManager[None]: ...

    async def create_tournament(self, tournament: Tournament) -> int:
        with self._transaction():
            return int(self.db.execute(rows.INSERT_TOURNAMENT,
                                       rows.tournament_values(tournament, time.time())).fetchone()[0])

    async def tournament(self, tournament: int) -> Tournament | None:
        with self._reading():
            row = self.db.execute(rows.SELECT_TOURNAMENT, (tournament,)).fetchone()
            if row is None:
                return None
            entrants = self.db.execute(rows.SELECT_ENTRANTS, (tournament,)).fetchall()
            pairings = self.db.execute(rows.SELECT_PAIRINGS, (tournament,)).fetchall()
        return rows.read_tournament(row, entrants, pairings)

    async def live_tournaments(self) -> list[int]:
        with self._reading():
            return [r[0] for r in self.db.execute(rows.LIVE_TOURNAMENTS).fetchall()]

    async def tournaments_of(self, guild: str, user: str | None = None, limit: int = 10) -> list[int]:
        with self._reading():
            found = (self.db.execute(rows.PLAYER_TOURNAMENTS, (guild, user, limit)) if user is not None
                     else self.db.execute(rows.GUILD_TOURNAMENTS, (guild, limit)))
            return [r[0] for r in found.fetchall()]

    async def put_entrant(self, tournament: int, entrant: Entrant) -> None:
        with self._transaction():
            self.db.execute(rows.PUT_ENTRANT, rows.entrant_values(tournament, entrant))
            self.db.execute(rows.STEP, (tournament,))

    async def link_game(self, tournament: int, pairing: Pairing, game: int) -> bool:
        with self._transaction():
            return self.db.execute(rows.LINK, (game, tournament, pairing.round, pairing.board)).rowcount == 1

    async def advance_tournament(self, tournament: Tournament, status: Status, round: int,
                                 pairings: Sequence[Pairing] = ()) -> bool:
        with self._transaction():
            changed = self.db.execute(rows.ADVANCE, (status.value, round, tournament.starts, tournament.id,
                                                    tournament.version))
            if changed.rowcount != 1:
                return False
            self.db.executemany(rows.INSERT_PAIRING, [rows.pairing_values(tournament, p) for p in pairings])
        return True
