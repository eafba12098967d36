"""Loss on time: the side to move of each timed game is watched, and loses when its clock runs out.

Each move (a start, a takeback, a restore) starts a new watch (``watch``), a task that sleeps until the side to
move's time is up and then ends the game if nothing moved meanwhile. The core's tick checks every game too
(``flag``), so a clock read from an injected time (the tests') is watched as well."""

from __future__ import annotations

import asyncio

from bot.core.results import Needs, finish
from bot.ending import Ending
from bot.tables import Table
from engine import Termination

LATE = 0.05  # seconds a watch wakes after the time is up, so that the clock reads it run out


def watch(s: Needs, table: Table) -> None:
    """Watch the side to move's clock from now on, in place of the watch before (none in an untimed game)."""
    if table.flag is not None and table.flag is not asyncio.current_task():
        table.flag.cancel()
    table.flag = None
    clocks = table.clocks
    if clocks is None or not s.tables.is_on(table):
        return
    table.flag = asyncio.create_task(_wait(s, table, clocks.deadline(table.game.turn) - s.clock()),
                                     name=f"the clock of game {table.id}")


async def _wait(s: Needs, table: Table, seconds: float) -> None:
    clocks = table.clocks
    await asyncio.sleep(max(0.0, seconds) + LATE)
    async with table.lock:
        if table.clocks is clocks:  # (a move meanwhile started a watch of its own)
            await flag(s, table)


async def flag(s: Needs, table: Table) -> bool:
    """End the game (under its lock) if its side to move has run out of time: it loses, or, if it never made a
    first move, the game is aborted and counts for nothing (as lidraughts aborts it). Whether it ended."""
    if not s.tables.is_on(table) or not table.out_of_time(s.clock()):
        return False
    colour = table.game.turn
    if table.has_moved(colour):
        await finish(s, table, Ending(colour.opponent, Termination.TIME_OUT))
    else:
        await finish(s, table, Ending(None, Termination.NEVER_MOVED))
    return True
