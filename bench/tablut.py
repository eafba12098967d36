"""Tablut strength and speed: the search from the start, and level 6 against level 1 and the seed's minimax.

    .venv/bin/python bench/tablut.py --games 20 --time 0.3 --jobs 2

Printed: nodes per second and depth reached in 1 s from the start position
(median of ``--runs`` searches, fresh tables each); then level 6 (``--time``
seconds a move) against level 1 (random moves) and against the seed's player
(alpha-beta minimax to depth 2 with its evaluation, ``engine.tablut.baseline``),
``--games`` games each, half with each colour: wins, draws, losses and the
score of level 6. A game that reaches ``--max-plies`` is a draw.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.game import Color  # noqa: E402
from engine.search import Limits, Searcher  # noqa: E402
from engine.search.levels import choose_move, level  # noqa: E402
from engine.tablut.baseline import minimax_move  # noqa: E402
from engine.tablut.game import TABLUT, TablutGame  # noqa: E402
from engine.tablut.rules import start_position  # noqa: E402
from engine.tablut.search import tablut_history  # noqa: E402

_searcher: Searcher | None = None


def _ours() -> Searcher:
    global _searcher
    if _searcher is None:
        _searcher = Searcher(TABLUT, tt_mb=32)
        _searcher.warm_up()
    return _searcher


def play(job: tuple[str, Color, float, int, int]) -> tuple[str, Color, float, int, str]:
    """One game of level 6 (playing ``colour``) against ``opponent``; (opponent, colour, score, plies, how)."""
    opponent, colour, budget, seed, max_plies = job
    rng = random.Random(seed)
    game = TablutGame()
    searcher = _ours()
    searcher.clear()
    while game.result() is None and len(game.moves) < max_plies:
        if game.turn == colour:
            move = choose_move(searcher, game.position, level(6), budget, tablut_history(game.positions)).move
        elif opponent == "level1":
            move = rng.choice(game.legal_moves())
        else:
            move = minimax_move(game.position, 2, rng)
        game.play(move)
    result = game.result()
    if result is None:
        return opponent, colour, 0.5, len(game.moves), f"{max_plies} plies"
    score = 0.5 if result.winner is None else float(result.winner == colour)
    return opponent, colour, score, len(game.moves), result.reason


def speed(runs: int) -> tuple[float, float]:
    """Median nodes/s and depth of 1 s searches from the start."""
    searcher = _ours()
    nps, depths = [], []
    for _ in range(runs):
        searcher.clear()
        r = searcher.search(start_position(), Limits(time=1.0))
        nps.append(r.nps)
        depths.append(r.depth)
    return statistics.median(nps), statistics.median(depths)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="games against each opponent (0: the speed only)")
    parser.add_argument("--time", type=float, default=0.3, help="level 6's seconds a move")
    parser.add_argument("--jobs", type=int, default=2, help="games played at once")
    parser.add_argument("--runs", type=int, default=5, help="1 s searches for the speed figure")
    parser.add_argument("--max-plies", type=int, default=300)
    args = parser.parse_args()
    nps, depth = speed(args.runs)
    print(f"search from the start, 1 s: {nps / 1e6:.2f} M nodes/s, depth {depth:g} (median of {args.runs})")
    if args.games < 2:  # the speed figure only
        return
    jobs = [(opponent, colour, args.time, 1000 * i + (colour == Color.BLACK), args.max_plies)
            for opponent in ("level1", "minimax2") for i in range(args.games // 2) for colour in Color]
    t0 = time.time()
    with multiprocessing.get_context("spawn").Pool(args.jobs) as pool:
        results = pool.map(play, jobs)
    for opponent, name in (("level1", "level 1 (random)"), ("minimax2", "the seed's minimax, depth 2")):
        mine = [r for r in results if r[0] == opponent]
        wins = sum(1 for r in mine if r[2] == 1.0)
        draws = sum(1 for r in mine if r[2] == 0.5)
        score = sum(r[2] for r in mine) / len(mine)
        plies = statistics.median(r[3] for r in mine)
        by_colour = ", ".join(f"as {c}: {sum(r[2] for r in mine if r[1] == c):g}/{sum(1 for r in mine if r[1] == c)}"
                              for c in Color)
        print(f"level 6 ({args.time:g} s a move) vs {name}: +{wins} ={draws} -{len(mine) - wins - draws}, "
              f"score {score:.0%} ({by_colour}); median {plies:g} plies")
        for r in mine:
            if r[2] < 1.0:
                print(f"  not won: level 6 as {r[1]}, {r[3]} plies, {r[4]}")
    print(f"({len(jobs)} games in {time.time() - t0:.0f} s, {args.jobs} at a time)")


if __name__ == "__main__":
    main()
