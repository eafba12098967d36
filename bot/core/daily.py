"""A server's daily puzzle: its administrators choose a channel and an hour (UTC); the clock posts one puzzle a day
there, the same for every server that day (per variant), and `daily` says who solved it.

    daily                       where and when, and who solved today's
    daily here [hour H] [variant]   post it in this channel at H:00 UTC (Manage Server)
    daily off                   stop it (Manage Server)

A day's post waits while a game is on in the channel (its moves come first); a
puzzle on there ends, with its answer, for the daily one. Each post is noted in
the database before it is made, so a restart, or another process, never posts a
day twice.
"""

from __future__ import annotations

import hashlib
import logging
from dataclasses import replace
from datetime import datetime, timezone
from typing import Protocol

from bot.commands import ALIASES, whole_number
from bot.core import puzzles
from bot.core.state import DEFAULT_VARIANT, Refusal
from bot.store import Daily, MoveConflict, SaveFailed, ServedPuzzle
from bot.translation import join, tr
from engine.puzzles.puzzle import Puzzle

log = logging.getLogger(__name__)

USAGE = tr("Usage: `daily here [hour 0-23] [variant]` or `daily off`.")
MANAGERS_ONLY = tr("Only the server's administrators (Manage Server) choose the daily puzzle.")


class Needs(puzzles.Needs, Protocol):
    """What the daily puzzles use of the core's state: the puzzles', and each server's daily puzzle."""

    dailies: dict[str, Daily]


def day_of(seconds: float) -> tuple[str, int]:
    """The UTC day ('YYYY-MM-DD') and hour of a time."""
    moment = datetime.fromtimestamp(seconds, timezone.utc)
    return moment.strftime("%Y-%m-%d"), moment.hour


def puzzle_of_the_day(variant: str, day: str) -> Puzzle:
    """The day's puzzle of ``variant``: the same everywhere that day, drawn from the shipped set by the date."""
    pool = sorted(puzzles.puzzle_set(variant).values(), key=lambda p: p.id)
    if not pool:
        raise Refusal(tr("There are no {variant} puzzles.", variant=variant))
    digest = int(hashlib.sha256(f"{variant} {day}".encode()).hexdigest(), 16)
    return pool[digest % len(pool)]


async def command(s: Needs, msg, words: list[str]) -> None:
    """`daily`, `daily here [hour H] [variant]`, `daily off`."""
    if not words:
        await s.say(msg.channel, await _status(s, msg), to=msg)
        return
    if not msg.manager:
        raise Refusal(MANAGERS_ONLY)
    if words == ["off"]:
        await s.store.set_daily(msg.guild, None)
        s.dailies.pop(msg.guild, None)
        await s.say(msg.channel, tr("No more daily puzzles on this server."), to=msg)
        return
    if words[0] != "here":
        raise Refusal(USAGE)
    hour, variant, rest = 0, DEFAULT_VARIANT, words[1:]
    while rest:
        word = rest.pop(0).lower()
        if word == "hour" and rest and (number := whole_number(rest[0])) is not None and 0 <= number <= 23:
            hour = number
            rest.pop(0)
        elif ALIASES.get(word) in puzzles.DRAUGHTS and puzzles.puzzle_set(ALIASES[word]):
            variant = ALIASES[word]
        else:
            raise Refusal(tr("Usage: `daily here [hour 0-23] [variant]` or `daily off` (the hour is 0 to 23, in UTC)."))
    await s.store.set_daily(msg.guild, msg.channel, hour, variant)
    old = s.dailies.get(msg.guild)
    s.dailies[msg.guild] = Daily(msg.guild, msg.channel, hour, variant, old.last_day if old else None)
    await s.say(msg.channel, tr("The daily {variant} puzzle will be posted here every day at {time} UTC.",
                                variant=variant, time=f"{hour:02d}:00"), to=msg)


async def _status(s: Needs, msg) -> str:
    guild = msg.guild
    daily = s.dailies.get(guild)
    if daily is None:
        return tr("No daily puzzle is set on this server. Its administrators: `daily here [hour 0-23] [variant]` or "
                  "`daily off`.")
    day, _ = day_of(s.clock())
    values = dict(variant=daily.variant, time=f"{daily.hour:02d}:00")
    text = (tr("The daily {variant} puzzle is posted here at {time} UTC.", **values) if daily.channel == msg.channel
            else tr("The daily {variant} puzzle is posted in another channel (`daily` there says so) at {time} UTC.",
                    **values))
    if daily.last_day == day:
        solvers = await s.store.daily_solvers(guild, day)
        text = join([text, tr("Today's was solved by {names}.", names=", ".join(solvers)) if solvers
                     else tr("Nobody has solved today's yet.")])
    return text


async def load(s: Needs, owns) -> None:
    """The daily settings of the servers this process serves."""
    s.dailies = {d.guild: d for d in await s.store.dailies() if owns(d.guild)}


async def tick(s: Needs) -> None:
    """Post each server's daily puzzle once its hour has come today (and its channel has no game on). A post that
    fails (the database, a puzzle that came on meanwhile) is tried again at the next tick; the database keeps a
    day's daily puzzle once a server, so no two processes, and no restart, post it twice."""
    day, hour = day_of(s.clock())
    for guild, daily in list(s.dailies.items()):
        if daily.last_day == day or hour < daily.hour or daily.channel in s.tables or daily.channel in s.opening:
            continue
        try:
            await _post(s, daily, day)
        except MoveConflict:  # that day's is in the database already: posted by another process, or before
            pass
        except (Refusal, SaveFailed) as error:
            log.warning("could not post the daily puzzle of %s in server %s (%s); trying again", day, guild, error)
            continue
        s.dailies[guild] = replace(daily, last_day=day)
        await s.store.mark_daily(guild, day)


async def _post(s: Needs, daily: Daily, day: str) -> None:
    await puzzles.end_for_game(s, daily.channel, daily=True)
    puzzle = puzzle_of_the_day(daily.variant, day)
    strengths = await s.store.puzzle_strengths(daily.variant)
    served = ServedPuzzle(0, daily.guild, daily.channel, daily.variant, puzzle.id, "daily", puzzle.position,
                          puzzle.solution, "", "", s.clock(), day=day)
    await puzzles.post(s, served, puzzles.strength_of(puzzle, strengths), None)
    log.info("posted the daily puzzle of %s in server %s", day, daily.guild)
