"""Games rebuilt from the database: a stored game replayed into a table (at start-up), or a table brought back in
line with the database when another process has moved its game (a ``MoveConflict``)."""

from __future__ import annotations

import logging

from bot.core.state import State
from bot.store import StoredGame
from bot.tables import Kind, Seat, Table, User
from engine import Color, MoveError, game_type

log = logging.getLogger(__name__)


def replayed(s: State, stored: StoredGame) -> Table | None:
    """The table of a stored game, its moves replayed; None (and logged) if they cannot be."""
    game = game_type(stored.variant).new_game(stored.start_fen)
    try:
        for text in stored.moves:
            game.play_text(text)
    except MoveError:
        log.exception("game %d cannot be replayed; left as it is in the database", stored.id)
        return None
    settings = stored.settings
    seats = {Color.WHITE: Seat.from_json(stored.seats["white"]), Color.BLACK: Seat.from_json(stored.seats["black"])}
    starter = User(*settings["starter"]) if settings.get("starter") else None
    return Table(stored.id, stored.guild, stored.channel, settings.get("channel_name", stored.channel),
                 Kind(stored.kind), game, seats, settings["budget"], settings["rated"], settings.get("delay", 0.0),
                 starter, settings.get("takebacks_used", 0), last_activity=s.clock())


async def reload(s: State, table: Table) -> None:
    """Make ``table``'s game what the database holds (under its lock): another process moved it. A game the
    database no longer has on is dropped from this process."""
    stored = await s.store.game(table.id)
    fresh = replayed(s, stored) if stored is not None and stored.id == table.id else None
    if fresh is None or stored is None or not await _active(s, table.id):
        if s.current(table):
            del s.tables[table.channel]
        return
    table.game = fresh.game
    table.takebacks_used = fresh.takebacks_used
    table.draw_offer = table.takeback_offer = None


async def _active(s: State, game: int) -> bool:
    return await s.store.finished_game(game) is None
