"""``python -m engine net``: fit a network to a training run's games and add it to a weights file.

Reads the games ``python -m engine train`` left in ``DATA/VARIANT/round-R/`` (every tenth file held out, as the
training's rounds hold it out), fits the network (``engine.training.network``) from random weights to the same
targets as the pattern fit, and writes a weights file: the learned weights of ``--weights`` with the network
added, which the search then evaluates with (``engine.draughts.network``). It prints the held-out loss of the
patterns, of the network, and of the network in the search's own arithmetic:

    python -m engine net --variant english --data train-data --rounds 1 2 --out english-net.npz
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

from engine.draughts.variants import VARIANTS, variant


def add_parser(sub) -> None:
    p = sub.add_parser("net", help="fit a network to a training run's games and add it to a weights file")
    p.add_argument("--variant", required=True, choices=sorted(VARIANTS), type=str.lower)
    p.add_argument("--data", type=Path, required=True, help="the training run's folder (train --data)")
    p.add_argument("--rounds", type=int, nargs="+", required=True, help="the rounds whose games to fit")
    p.add_argument("--weights", type=Path, help="the learned weights to add the network to; default the shipped")
    p.add_argument("--hidden", type=int, default=128, help="units of the first layer; default 128")
    p.add_argument("--epochs", type=int, default=8, help="passes over the positions; default 8")
    p.add_argument("--out", type=Path, required=True, help="the weights file to write (.npz)")


def run(args: argparse.Namespace) -> int:
    from engine.draughts.weight_files import WEIGHTS_DIR, load_evaluator, starting_evaluator
    from engine.draughts.position import Position
    from engine.game import Color
    from engine.training.fit import best_scale, cross_entropy, design, loss, sigmoid, targets
    from engine.training.network import (Network, active_inputs, cross_entropy_mean, fit_network, inputs_count,
                                         mover_targets, write_network)
    from engine.training.pipeline import fitted_from, samples
    from engine.training.plan import Plan

    v = variant(args.variant)
    weights = args.weights or WEIGHTS_DIR / f"{v.name}.npz"
    folders = [args.data / v.name / f"round-{r}" for r in args.rounds]
    try:
        start = starting_evaluator(v)
        train, held = samples(folders, False, start), samples(folders, True, start)
        model = fitted_from(weights, v, True)
    except (OSError, ValueError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    print(f"{v.name}: {len(train):,} positions to fit, {len(held):,} held out (rounds {args.rounds})")
    d_train, d_held = design(v, train, True), design(v, held, True)
    scale = best_scale(model, d_train, train)
    share = Plan(v.name).result_share  # the pattern fit's targets
    y_train, y_held = targets(train, scale, share), targets(held, scale, share)
    print(f"scale {scale:.0f}; the patterns of {weights.name}: held-out loss {loss(model, d_held, y_held, scale):.5f}")
    a_train, a_held = active_inputs(v, train), active_inputs(v, held)
    t_train, t_held = mover_targets(train, y_train), mover_targets(held, y_held)
    net = Network.random(inputs_count(v), args.hidden, seed=1)
    began = time.perf_counter()

    def on_epoch(epoch: int, value: float) -> None:
        print(f"  epoch {epoch + 1}: training loss {value:.5f}, held-out {cross_entropy_mean(net, a_held, t_held):.5f}"
              f" ({time.perf_counter() - began:.0f} s)", flush=True)

    fit_network(net, a_train, t_train, args.epochs, seed=2, on_epoch=on_epoch)
    print(f"network {inputs_count(v)}-{args.hidden}-32-1: held-out loss {cross_entropy_mean(net, a_held, t_held):.5f}")
    command = (f"python -m engine net --variant {v.name} --data {args.data} --rounds {' '.join(map(str, args.rounds))}"
               f"{f' --weights {args.weights}' if args.weights else ''} --hidden {args.hidden} --epochs {args.epochs}"
               f" --out {args.out}")
    write_network(args.out, weights, net, scale, command)
    ev = load_evaluator(v, args.out)
    scores = np.array([ev.score(Position(v, int(w), int(b), int(k), Color(int(t))))
                       for w, b, k, t in zip(held.white, held.black, held.kings, held.turn)], dtype=np.float64)
    print(f"in the search's arithmetic: held-out loss {cross_entropy(sigmoid(scores / scale), t_held).mean():.5f}")
    print(f"written to {args.out}: the patterns of {weights.name} and the network")
    return 0
