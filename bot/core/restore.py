"""Restore at start-up: the unfinished games of the database, replayed into tables."""

from __future__ import annotations

import logging
from collections.abc import Callable

from bot.core.bot_moves import kick
from bot.core.results import finish_by_rules
from bot.core.state import State
from bot.store import StoredGame
from bot.tables import Kind, Seat, Table, User
from engine import Color, MoveError, game_type

log = logging.getLogger(__name__)


async def restore(s: State, owns: Callable[[str], bool]) -> list[Table]:
    """Bring back every unfinished game of the servers ``owns`` says this process serves; the bot moves where it
    is to move."""
    restored = []
    for stored in s.store.active_games():
        if not owns(stored.guild):
            continue
        table = _replayed(s, stored)
        if table is None:
            continue
        s.tables[stored.channel] = table
        restored.append(table)
        if table.game.result() is not None:
            async with table.lock:
                await finish_by_rules(s, table)
        else:
            kick(s, table)
    return restored


def _replayed(s: State, stored: StoredGame) -> Table | None:
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
