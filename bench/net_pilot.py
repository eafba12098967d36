"""A small network against the pattern weights, on the same games: both judged by the loss on the games kept out
of the fit, as the training's rounds are.

Reads a training run's games as ``python -m engine train`` leaves them (``DATA/VARIANT/round-R/games-*.npz``,
every tenth file held out). The pattern weights are a weights file (``--weights``: the round's own fit, say), the
network is fitted here from random weights:

    .venv/bin/python bench/net_pilot.py --variant english --data train-data --rounds 1 2 \\
        --weights train-data/english/round-2.npz --hidden 128 --epochs 8
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.draughts.evaluation import Evaluator  # noqa: E402
from engine.draughts.position import Position  # noqa: E402
from engine.draughts.variants import variant  # noqa: E402
from engine.training.fit import best_scale, design, loss, targets  # noqa: E402
from engine.training.network import (Network, active_inputs, cross_entropy_mean, fit_network,  # noqa: E402
                                     inputs_count, mover_targets, write_network)
from engine.game import Color  # noqa: E402
from engine.training.pipeline import fitted_from, samples  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", required=True)
    parser.add_argument("--data", type=Path, default=Path("train-data"))
    parser.add_argument("--rounds", type=int, nargs="+", default=[0])
    parser.add_argument("--weights", type=Path, required=True, help="the pattern weights to compare with")
    parser.add_argument("--hidden", type=int, default=128)
    parser.add_argument("--epochs", type=int, default=8)
    parser.add_argument("--rate", type=float, default=1e-3)
    parser.add_argument("--batch", type=int, default=256)
    parser.add_argument("--limit", type=int, default=0, help="fit on this many positions at most (0: all)")
    parser.add_argument("--result-share", type=float, default=0.7)
    parser.add_argument("--out", type=Path, help="write a weights file here: --weights' with the network added")
    args = parser.parse_args()
    v = variant(args.variant)
    folders = [args.data / v.name / f"round-{r}" for r in args.rounds]
    ev = Evaluator.start(v)
    train, held = samples(folders, False, ev), samples(folders, True, ev)
    print(f"{v.name}: {len(train):,} positions to fit, {len(held):,} held out (rounds {args.rounds})")
    model = fitted_from(args.weights, v, True)
    d_train, d_held = design(v, train, True), design(v, held, True)
    scale = best_scale(model, d_train, train)
    y_train, y_held = targets(train, scale, args.result_share), targets(held, scale, args.result_share)
    print(f"scale {scale:.0f}; patterns ({args.weights.name}): held-out loss {loss(model, d_held, y_held, scale):.5f}")
    a_train, a_held = active_inputs(v, train), active_inputs(v, held)
    t_train, t_held = mover_targets(train, y_train), mover_targets(held, y_held)
    if args.limit:
        pick = np.random.default_rng(1).permutation(len(t_train))[:args.limit]
        a_train, t_train = a_train[pick], t_train[pick]
    net = Network.random(inputs_count(v), args.hidden, seed=1)
    began = time.perf_counter()

    def on_epoch(epoch: int, value: float) -> None:
        print(f"  epoch {epoch + 1}: training loss {value:.5f}, held-out {cross_entropy_mean(net, a_held, t_held):.5f}"
              f" ({time.perf_counter() - began:.0f} s)", flush=True)

    fit_network(net, a_train, t_train, args.epochs, seed=2, batch=args.batch, rate=args.rate, on_epoch=on_epoch)
    print(f"network {inputs_count(v)}-{args.hidden}-32-1 on {len(t_train):,} positions: held-out loss "
          f"{cross_entropy_mean(net, a_held, t_held):.5f}")
    if args.out:
        write_network(args.out, args.weights, net, scale, " ".join(["python", *sys.argv]))
        print(f"written to {args.out}, with {args.weights.name}'s patterns")
        ev = Evaluator.load(v, args.out)  # the search's integers
        scores = np.array([ev.score(Position(v, int(w), int(b), int(k), Color(int(t))))
                           for w, b, k, t in zip(held.white, held.black, held.kings, held.turn)], dtype=np.float64)
        p = 1 / (1 + np.exp(-scores / scale))
        integer = float(-(t_held * np.log(p + 1e-7) + (1 - t_held) * np.log(1 - p + 1e-7)).mean())
        print(f"the same in the search's integers: held-out loss {integer:.5f}")


if __name__ == "__main__":
    main()
