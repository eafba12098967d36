"""Puzzle training for one person on the web page: the next puzzle near their puzzle rating (of a theme they chose,
if they chose one) that they have not had, their first result on each puzzle rated, their history, and the streak:
puzzles of rising difficulty until the first miss.

A person's first result on a puzzle is rated as a puzzle in chat is (Glicko-2 against the puzzle's own rating): a
wrong move, or the solution shown before the answer, loses; solving it wins. After a wrong move they may keep
trying, but nothing more counts, and the puzzle is not given to them again. Streak puzzles are never rated: the
streak is its own score; a puzzle first tried in a streak is kept as had, unrated, so it is never rated later.
"""

from __future__ import annotations

import logging
import random
import time
from functools import cache

from bot.core.puzzles import DRAUGHTS, pick, puzzle_set, starting_strength, strength_of
from bot.ratings import Change, RatedPuzzle
from bot.replies import User
from bot.store import Attempt, MoveConflict, SaveFailed, ServedPuzzle, Store
from engine.puzzles.puzzle import Puzzle

log = logging.getLogger(__name__)

PAGE_CHANNEL = "web-puzzles"
"""The channel the page's puzzles are kept under (one person each, and never on: see ``Store.tried_puzzle``)."""
STREAK_RUNGS = 30
"""A streak climbs the puzzles sorted by their rating in this many rungs, a puzzle from each, then stays on top."""


def themed(variant: str, theme: str | None) -> list[Puzzle]:
    """The shipped puzzles of ``variant``, of ``theme`` only when one is given."""
    found = list(puzzle_set(variant).values()) if variant in DRAUGHTS else []
    return [p for p in found if theme is None or p.theme == theme]


@cache
def themes(variant: str) -> dict[str, int]:
    """The themes ``variant``'s puzzles have, and how many each has, the most first."""
    count: dict[str, int] = {}
    for found in themed(variant, None):
        count[found.theme] = count.get(found.theme, 0) + 1
    return dict(sorted(count.items(), key=lambda item: -item[1]))


async def next_puzzle(store: Store, guild: str, user: str, variant: str, theme: str | None,
                      rng: random.Random) -> Puzzle | None:
    """A puzzle of ``variant`` (and ``theme``) near the person's puzzle rating that they have not had (any, once
    they have had them all, or when the database does not answer); None if there is none of that theme."""
    found = themed(variant, theme)
    if not found:
        return None
    try:
        rating = (await store.puzzle_rating(guild, variant, user))[0].rating
        strengths, seen = await store.puzzle_strengths(variant), await store.puzzles_seen(guild, variant, user)
    except SaveFailed as error:  # the database is down: any puzzle rather than none
        log.warning("the next puzzle is any one: the database did not answer (%s)", error)
        return rng.choice(found)
    return pick(found, strengths, seen, rating, rng)


async def first_result(store: Store, guild: str, person: User, puzzle: Puzzle, solved: bool,
                       rated: bool = True) -> Change | None:
    """The person's result on ``puzzle``, kept when it is their first on it, and rated unless ``rated`` is False (a
    streak's): their rating's change; None for a result not rated, and for a later one, which is not kept (they had
    the puzzle before). A first result kept unrated counts as having had it: a later one is never rated either, so
    a streak's tries cannot be turned into a rated win. Two first results at once keep one (the database's unique
    index on a person's page puzzles): the other is a later one."""
    if puzzle.id in await store.puzzles_seen(guild, puzzle.variant, person.id):
        return None
    served = ServedPuzzle(0, guild, PAGE_CHANNEL, puzzle.variant, puzzle.id, "puzzle", puzzle.position,
                          tuple(puzzle.solution), person.id, person.name, time.time())
    judged = RatedPuzzle(((person.id, person.name),), solved, starting_strength(puzzle)) if rated else None
    try:
        changes = await store.tried_puzzle(served, "solved" if solved else "failed",
                                           Attempt(person.id, person.name, solved), judged)
    except MoveConflict:
        return None
    return changes[0] if changes else None


async def streak_puzzle(store: Store, variant: str, rung: int, seed: int) -> Puzzle | None:
    """Rung ``rung`` (from 0) of the streak that ``seed`` chose: a puzzle of the ``rung``-th of ``STREAK_RUNGS``
    slices of ``variant``'s puzzles sorted by their ratings (the top one beyond the last), the same for the same
    seed, so a reload asks for the same puzzle; None if ``variant`` has none."""
    found = themed(variant, None)
    if not found:
        return None
    strengths = await store.puzzle_strengths(variant)
    ladder = sorted(found, key=lambda p: (strength_of(p, strengths).rating, p.id))
    size = max(1, len(ladder) // STREAK_RUNGS)
    start = min(max(rung, 0) * size, len(ladder) - size)
    return random.Random(seed * 1009 + rung).choice(ladder[start:start + size])
