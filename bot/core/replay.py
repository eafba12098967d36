"""Games rebuilt from the database: a stored game replayed into a table (at start-up), or a table brought back in
line with the database when another process has moved its game (a ``MoveConflict``)."""

from __future__ import annotations

import asyncio
import logging
from typing import Any, Protocol

from bot.clocks import Clocks, TimeControl
from bot.core.registry import Registry
from bot.core.state import Keeps, Tells
from bot.events import Ended, Started
from bot.store import StoredGame
from bot.replies import User
from bot.tables import Kind, Table, stored_seats
from engine import GameRecord, MoveError, game_type

log = logging.getLogger(__name__)


class Needs(Tells, Keeps, Protocol):
    """What replaying a stored game uses of the core's state."""

    tables: Registry


def replayed_record(stored: StoredGame) -> GameRecord[Any, Any] | None:
    """A stored game's record, its moves replayed; None (and logged) if they cannot be."""
    game = game_type(stored.variant).new_game(stored.start_fen)
    try:
        for text in stored.moves:
            game.play_text(text)
    except MoveError:
        log.exception("game %d cannot be replayed; left as it is in the database", stored.id)
        return None
    return game


def replayed(s: Needs, stored: StoredGame, restart: bool = False) -> Table | None:
    """The table of a stored game, its moves replayed; None (and logged) if they cannot be. Its clocks are as they
    were after its last move; at a ``restart`` a real-time game's start again then (the time the bot was away is
    charged to nobody), while a correspondence move's deadline stays the date it was."""
    game = replayed_record(stored)
    if game is None:
        return None
    settings = stored.settings
    seats = stored_seats(stored.seats)
    starter = User(*settings["starter"]) if settings.get("starter") else None
    control = TimeControl.from_json(settings.get("control"))
    now = s.clock()
    clocks_after = [Clocks.from_json(c) if c else None for c in stored.clocks]
    clocks_after += [None] * (len(stored.moves) - len(clocks_after))
    clocks = (clocks_after[-1] if clocks_after else None) or Clocks.started(control, now)
    if restart and not control.correspondence:
        clocks = clocks.resumed(now)
    # (a correspondence player reminded of this move, its clock started at that moment, is not reminded again)
    berserk = frozenset(settings.get("berserk", ()))
    for colour, seat in seats.items():  # went berserk, not moved since: the clocks kept are from before it
        if seat.user is not None and seat.user.id in berserk and not any(
                p.turn is colour for p in game.positions[:-1]):
            clocks = clocks.berserk(colour, control)
    return Table(stored.id, stored.guild, stored.channel, settings.get("channel_name", stored.channel),
                 Kind(stored.kind), game, seats, settings["budget"], starter=starter, control=control,
                 clocks=clocks if control.timed else None,
                 rated=settings["rated"], delay=settings.get("delay", 0.0),
                 takebacks_used=settings.get("takebacks_used", 0), last_activity=now, version=stored.version,
                 clocks_after=clocks_after, tournament=int(settings.get("tournament", 0)), berserk=berserk,
                 reminded=control.correspondence and settings.get("reminded") == round(clocks.since, 3))


async def reload(s: Needs, table: Table) -> None:
    """Make ``table``'s game what the database holds (under its lock): another process wrote it. A game the
    database has ended (the process that ended it announced it in its chat) is dropped from this process, its bot
    stopped, and its end told to this process's followers."""
    stored = await s.store.game(table.id)
    fresh = replayed(s, stored) if stored is not None else None
    finished = await s.store.finished_game(table.id) if fresh is not None else None
    if fresh is None or finished is not None:
        s.tables.close(table)
        for task in (table.task, table.flag):
            if task is not None and task is not asyncio.current_task():
                task.cancel()
        if fresh is not None and finished is not None and finished.ending is not None:
            table.game = fresh.game
            s.tell(table, Ended, finished.ending.said(table.names(), fresh.game), ending=finished.ending,
                   pdn=finished.pdn)
        return
    table.game = fresh.game
    table.version = fresh.version
    table.takebacks_used = fresh.takebacks_used
    table.clocks, table.clocks_after = fresh.clocks, fresh.clocks_after
    table.draw_offer = table.takeback_offer = None
    table.last_activity, table.reminded = s.clock(), fresh.reminded  # someone is playing it, elsewhere
    s.tell(table, Started, "")  # its followers get it whole, as it is now
