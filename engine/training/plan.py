"""The settings of a training run, with the command that gives them (kept apart so the command line reads its
defaults without loading the training)."""

from __future__ import annotations

import shlex
from dataclasses import asdict, dataclass


@dataclass(frozen=True)
class Plan:
    variant: str
    rounds: int = 3
    games: int = 4000
    """Games a round."""
    nodes: int = 4000
    """Nodes a move."""
    seed: int = 1
    epochs: int = 12
    result_share: float = 0.7
    """How much of the target is the game's result (the rest: the search's score)."""
    prior: float = 0.03
    """How strongly the counts' weights (tempo, balance, runaways...) are held near the hand-set ones. Free, they
    drift to values that predict results a little better (Russian: held-out loss 0.6289 free, 0.6301 held at 0.03)
    but price a runaway man above a king and two men up in an ending at 1.3 men, and the search then misses shots
    that win a man."""
    patterns: str = "small"
    """The pattern regions fitted: "small" (4x4 regions only) or "large" (the 4x6 regions of Scan 3's kind added
    to the small ones)."""
    start: str = "hand"
    """What round 0's games are played with and its fit starts from: "hand" (the hand-set weights, patterns at
    zero) or "shipped" (the engine's learned weights when the run began, copied into the run's folder)."""
    match_games: int = 200
    """Games of the match after each round: its weights at level 6 against the weights its games were played
    with. A round that does not score above half is not kept: the next round plays and fits from the last kept."""
    match_time: float = 0.1
    """Seconds a move in that match."""

    @property
    def command(self) -> str:
        words = ["python", "-m", "engine", "train", "--variant", self.variant]
        for name, value in asdict(self).items():
            if name != "variant":
                words += [f"--{name.replace('_', '-')}", str(value)]
        return shlex.join(words)
