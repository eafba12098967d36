"""The clock: reminders to idle players, abandoned games, expired challenges, and bot moves to restart."""

from __future__ import annotations

import logging

from bot.core import daily
from bot.core.bot_moves import kick
from bot.core.results import finish, finish_by_rules
from bot.core.state import State
from bot.tables import Outcome

log = logging.getLogger(__name__)


async def tick(s: State) -> None:
    """Remind idle players, end abandoned games, drop expired challenges, post the daily puzzles; run every few
    seconds."""
    now = s.clock()
    for channel, challenge in list(s.challenges.items()):
        if s.expired(challenge):
            del s.challenges[channel]
            await s.say(channel, f"{challenge.challenger.name}'s challenge expired unanswered.",
                        mentions=(challenge.challenger,))
    for table in list(s.tables.values()):
        if table.game.result() is not None:  # its end could not be saved before
            async with table.lock:
                if s.current(table):
                    await finish_by_rules(s, table)
            continue
        seat = table.to_move
        if seat.user is None:
            kick(s, table)  # restarts a bot move that could not be saved, say
            continue
        idle = now - table.last_activity
        async with table.lock:
            if not s.current(table) or table.to_move != seat:
                continue
            if idle >= s.config.abandon_after:
                colour = table.game.turn
                moved = any(p.turn == colour for p in table.game.positions[:-1])
                if moved:
                    await finish(s, table, colour.opponent, f"{seat.name} abandoned the game")
                else:
                    await finish(s, table, None, f"{seat.name} never made a first move", outcome=Outcome.ABORTED)
            elif idle >= s.config.remind_after and not table.reminded:
                table.reminded = True
                left = (s.config.abandon_after - idle) / 60
                await s.say(table.channel, f"{seat.name}, it is your move in {table.title()}. "
                            f"The game is given up in {left:.0f} minutes without one.", mentions=(seat.user,))
    try:
        await daily.tick(s)
    except Exception:  # the games' duties above are done whatever befalls the daily puzzles
        log.exception("the daily puzzles' tick failed")
