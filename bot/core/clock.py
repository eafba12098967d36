"""The clock: reminders to idle players, abandoned games, expired challenges, and bot moves to restart; timed
games whose side to move ran out of time (``bot.core.flags`` watches each one too), and correspondence players
reminded before theirs runs out."""

from __future__ import annotations

import logging
from typing import Protocol

from bot.clocks import DAY, clock_words
from bot.core import daily, flags
from bot.core.bot_moves import kick
from bot.core.replay import reload
from bot.core.results import finish, finish_by_rules
from bot.store import MoveConflict, SaveFailed
from bot.tables import Challenge, Table
from bot.core.state import Plays
from bot.ending import Ending
from bot.translation import plural, tr
from engine import Termination

log = logging.getLogger(__name__)


class Needs(Plays, daily.Needs, Protocol):
    """What the clock uses of the core's state: what playing takes, the daily puzzles', and the challenges."""

    challenges: dict[str, Challenge]

    def expired(self, challenge: Challenge) -> bool: ...


async def tick(s: Needs) -> None:
    """Remind idle players, end abandoned games, drop expired challenges, post the daily puzzles; run every few
    seconds."""
    now = s.clock()
    for channel, challenge in list(s.challenges.items()):
        if s.expired(challenge):
            del s.challenges[channel]
            await s.say(channel, tr("{name}'s challenge expired unanswered.", name=challenge.challenger.name),
                        mentions=(challenge.challenger,))
    for table in list(s.tables.values()):
        if table.game.result() is not None:  # its end could not be saved before
            async with table.lock:
                if s.tables.is_on(table):
                    await finish_by_rules(s, table)
            continue
        seat = table.to_move
        if table.clocks is not None:
            async with table.lock:
                if await flags.flag(s, table):
                    continue
        if seat.user is None:
            kick(s, table)  # restarts a bot move that could not be saved, say
            continue
        if table.clocks is not None:  # the clock ends the game, not the abandoned-game rule
            await _remind_correspondence(s, table)
            continue
        idle = now - table.last_activity
        async with table.lock:
            if not s.tables.is_on(table) or table.to_move != seat:
                continue
            if idle >= s.config.abandon_after:
                colour = table.game.turn
                if table.has_moved(colour):
                    await finish(s, table, Ending(colour.opponent, Termination.ABANDONED))
                else:
                    await finish(s, table, Ending(None, Termination.NEVER_MOVED))
            elif idle >= s.config.remind_after and not table.reminded:
                table.reminded = True
                left = round((s.config.abandon_after - idle) / 60)
                await s.say(table.channel, plural(
                    "{name}, it is your move in {title}. The game is given up in {count} minute without one.",
                    "{name}, it is your move in {title}. The game is given up in {count} minutes without one.", left,
                    name=seat.name, title=table.title()), mentions=(seat.user,))
    try:
        await daily.tick(s)
    except Exception:  # the games' duties above are done whatever befalls the daily puzzles
        log.exception("the daily puzzles' tick failed")


async def _remind_correspondence(s: Needs, table: Table) -> None:
    """Remind the person to move in a correspondence game, once a move, when a day or half their time is left
    (whichever comes first): in the channel, and on Discord in a direct message too."""
    clocks, control = table.clocks, table.control
    if clocks is None or not control.correspondence or table.reminded:
        return
    seat, turn = table.to_move, table.game.turn
    left = clocks.left(turn, turn, s.clock())
    if seat.user is None or left > min(DAY, control.start / 2):
        return
    async with table.lock:
        if table.reminded or not s.tables.is_on(table) or table.game.turn is not turn:
            return
        table.reminded = True
        try:  # kept with the game (no move is removed), so that a restart does not remind again
            table.version = await s.store.remove_moves(table.id, table.version, len(table.game.moves),
                                                       table.settings())
        except (MoveConflict, SaveFailed) as error:  # the game changed, or the write's answer was lost
            log.info("game %d: its reminder could not be kept (%s)", table.id, error)
            try:
                await reload(s, table)  # (as the database has it now)
            except SaveFailed:
                table.reminded = False  # the next tick tries again
                return
            if isinstance(error, MoveConflict) or not s.tables.is_on(table) or table.game.turn is not turn:
                return
            table.reminded = True
    await s.say(table.channel, tr("{name}, it is your move in {title}: {left} left on your clock.", name=seat.name,
                                  title=table.title(), left=clock_words(left)), mentions=(seat.user,), direct=True)
