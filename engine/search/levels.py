"""Difficulty levels 1 to 6: how the bot plays down to a beginner.

Level 1 plays a random legal move. Levels 2 to 5 search to a shallow depth
with noise on the evaluation, so they miss deep shots and misjudge quiet
positions, as people do, but still take what is offered in front of them.
Level 6 is the full search for the whole budget.

With a seed, levels 1 to 5 are reproducible: the same position, level and
seed give the same move (their search is depth-bound and starts from empty
tables of its own, so a searcher shared with full-strength games keeps what
it learnt). Level 6 is bound by time, which no seed repeats; asked to be
``reproducible`` it searches a node count instead (what this machine searches
in the budget, with fresh tables), for tests and repeatable matches.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from engine.game import History
from engine.search.searcher import M, P, Limits, Searcher, SearchResult


@dataclass(frozen=True)
class Level:
    """How one difficulty level searches."""

    number: int
    """1 (weakest) to 6 (strongest)."""
    name: str
    """A word for players."""
    depth: int | None
    """Deepest iteration; None: as deep as the budget allows; 0: no search (a random move)."""
    noise: int
    """Evaluation noise, hundredths of a man."""


LEVELS = {
    1: Level(1, "beginner", 0, 0),
    2: Level(2, "novice", 2, 60),
    3: Level(3, "casual", 3, 40),
    4: Level(4, "club", 5, 25),
    5: Level(5, "strong", 8, 10),
    6: Level(6, "master", None, 0),
}


def level(number: int) -> Level:
    if number not in LEVELS:
        raise ValueError(f"there is no level {number}: choose 1 (beginner) to 6 (master)")
    return LEVELS[number]


# Nodes a reproducible level-6 search spends per second of budget: below the speed measured on
# this machine (BENCHMARKS.md), so it also keeps to the budget here.
NODES_PER_SECOND = 1_500_000


def choose_move(searcher: Searcher[P, M], position: P, lvl: Level, budget: float,
                history: History = History(), rng: random.Random | None = None,
                reproducible: bool = False) -> SearchResult[M]:
    """The move a player of level ``lvl`` makes in at most ``budget`` seconds.

    ``reproducible``: with a seeded ``rng``, the same move every time on any
    machine (levels 2-5 then search their whole depth even past the budget;
    level 6 searches a node count).
    """
    rng = rng or random.Random()
    if lvl.depth == 0:
        move = rng.choice(searcher.game.legal_moves(position))
        return SearchResult(move, 0, 0, (move,), 0, 0.0)
    if lvl.depth is None:
        if reproducible:
            return searcher.search(position, Limits(nodes=max(1000, int(budget * NODES_PER_SECOND))), history,
                                   fresh=True)
        return searcher.search(position, Limits(time=budget), history)
    # fresh tables: the same move for the same seed, and the full-strength tables left alone
    limits = Limits(depth=lvl.depth) if reproducible else Limits(time=budget, depth=lvl.depth)
    return searcher.search(position, limits, history, noise=lvl.noise, seed=rng.getrandbits(63), fresh=True)
