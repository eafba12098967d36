"""Fit how a game's scores become winning chances: the ``k`` of ``wc = 2 / (1 + exp(-k * score)) - 1``.

Plays games of the engine against itself (levels with evaluation noise, so
that the games differ and some are lost), scores every position with a short
search, and finds the ``k`` for which ``(1 + wc) / 2`` best predicts the
result from the mover's side (1 a win, 0.5 a draw, 0 a loss; log-likelihood).
Draughts uses the field's 0.004; this measures what suits Tablut (and checks
draughts against it).

    .venv/bin/python bench/chances_scale.py --game tablut --games 100
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import game_type  # noqa: E402
from engine.search import ENDING_BOUND, Limits, Searcher  # noqa: E402
from engine.search.levels import choose_move, level  # noqa: E402

OPENING_PLIES = 4  # random moves first, so that the games differ
MAX_PLIES = 300


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="tablut")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--level", type=int, default=4)
    parser.add_argument("--nodes", type=int, default=20_000, help="nodes of the search that scores a position")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    kind = game_type(args.game)
    rng = random.Random(args.seed)
    player, judge = Searcher(kind, tt_mb=16), Searcher(kind, tt_mb=16)
    samples: list[tuple[int, float]] = []
    results = {"win": 0, "draw": 0}
    for n in range(args.games):
        record = kind.new_game()
        for _ in range(OPENING_PLIES):
            if record.result() is None:
                record.play(rng.choice(record.legal_moves()))
        scored = []
        while record.result() is None and len(record.moves) < MAX_PLIES:
            judge.clear()
            score = judge.search(record.position, Limits(nodes=args.nodes), record.history()).score
            if abs(score) < ENDING_BOUND:
                scored.append((score, record.turn))
            record.play(choose_move(player, record.position, level(args.level), 1.0, record.history(), rng).move)
        result = record.result()
        winner = None if result is None else result.winner
        results["draw" if winner is None else "win"] += 1
        for score, mover in scored:
            samples.append((score, 0.5 if winner is None else float(winner == mover)))
        print(f"\rgame {n + 1}/{args.games}: {len(samples)} positions, {results}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    best = max((k / 10000 for k in range(2, 200)), key=lambda k: _likelihood(samples, k))
    print(f"{args.game}: {len(samples)} positions from {args.games} games ({results}); best k = {best:.4f} "
          f"(log-likelihood a position {_likelihood(samples, best) / len(samples):.4f}; "
          f"at 0.004: {_likelihood(samples, 0.004) / len(samples):.4f})")


def _likelihood(samples: list[tuple[int, float]], k: float) -> float:
    total = 0.0
    for score, result in samples:
        p = 1 / (1 + math.exp(-k * max(-1000, min(1000, score))))
        p = min(max(p, 1e-9), 1 - 1e-9)
        total += result * math.log(p) + (1 - result) * math.log(1 - p)
    return total


if __name__ == "__main__":
    main()
