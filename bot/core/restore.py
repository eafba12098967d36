"""Restore at start-up: the unfinished games of the database, replayed into tables."""

from __future__ import annotations

import logging
from collections.abc import Callable

from bot.core import flags
from bot.core.bot_moves import kick
from bot.core.results import finish_by_rules
from bot.core.replay import replayed
from bot.core.state import Plays
from bot.events import Started
from bot.store import SaveFailed, StoreError
from bot.tables import Table

log = logging.getLogger(__name__)


async def restore(s: Plays, owns: Callable[[str], bool]) -> list[Table]:
    """Bring back every unfinished game of the servers ``owns`` says this process serves; the bot moves where it
    is to move."""
    restored = []
    try:
        unfinished = await s.store.active_games()
    except SaveFailed as error:  # the bot cannot start without its games: say why, as for a database not found
        raise StoreError(f"cannot read the unfinished games: {error}") from None
    for stored in unfinished:
        if not owns(stored.guild):
            continue
        table = replayed(s, stored, restart=True)
        if table is None:
            continue
        s.tables.open(table)
        s.tell(table, Started, "")  # followers (the web tier's pages) get it whole, as it is now
        restored.append(table)
        if table.game.result() is not None:
            async with table.lock:
                await finish_by_rules(s, table)
        else:
            flags.watch(s, table)
            kick(s, table)
    return restored
