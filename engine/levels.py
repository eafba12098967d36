"""Difficulty levels 1 to 6: how the bot plays down to a beginner.

Level 1 plays a random legal move. Levels 2 to 5 search to a shallow depth
with noise on the evaluation, so they miss deep shots and misjudge quiet
positions, as people do, but still take what is offered in front of them.
Level 6 is the full search for the whole budget.

With a seed, levels 1 to 5 are reproducible: the same position, level and
seed give the same move (their search is depth-bound and starts from empty
tables of its own, so a searcher shared with full-strength games keeps what
it learnt). Level 6 is bound by time, so only its strength is reproducible.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from engine.position import Position
from engine.search import History, Limits, Searcher, SearchResult, random_move


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


def choose_move(searcher: Searcher, position: Position, lvl: Level, budget: float,
                history: History = History(), rng: random.Random | None = None) -> SearchResult:
    """The move a player of level ``lvl`` makes in at most ``budget`` seconds."""
    rng = rng or random.Random()
    if lvl.depth == 0:
        move = random_move(position, rng)
        return SearchResult(move, 0, 0, (move,), 0, 0.0)
    if lvl.depth is None:
        return searcher.search(position, Limits(time=budget), history)
    # fresh tables: the same move for the same seed, and the full-strength tables left alone
    return searcher.search(position, Limits(time=budget, depth=lvl.depth), history,
                           noise=lvl.noise, seed=rng.getrandbits(63), fresh=True)
