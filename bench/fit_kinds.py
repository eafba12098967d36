"""Which pattern regions suit a variant: fit the small ones alone and the small with the large on the same
games, and compare the losses on the games kept out of the fit (``--drop`` holds count features at zero, to
weigh them the same way).

Reads a training run's games as ``python -m engine train`` leaves them
(``DATA/VARIANT/round-R/games-*.npz``, every tenth file held out), starts
both fits from the weights that round's games were played with
(the run's ``start.npz``, or the last kept round's before it),
and writes each fit's weights for a match:

    .venv/bin/python bench/fit_kinds.py --variant english --data train-data --round 0 --out fits/
    .venv/bin/python -m engine match --variant english "level:6,weights=fits/english-large.npz" \\
        "level:6,weights=fits/english-small.npz" --games 400 --time 0.1 --jobs 2
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.draughts.evaluation_tables import FEATURES, layout  # noqa: E402
from engine.draughts.weight_files import starting_evaluator, write_learned  # noqa: E402
from engine.draughts.variants import variant  # noqa: E402
from engine.training.fit import LARGE_RATE, best_scale, design, fit, loss, start_model, targets  # noqa: E402
from engine.training.pipeline import fitted_from, last_kept, samples  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", required=True)
    parser.add_argument("--data", type=Path, default=Path("train-data"))
    parser.add_argument("--round", type=int, default=0)
    parser.add_argument("--epochs", type=int, default=12)
    parser.add_argument("--result-share", type=float, default=0.7)
    parser.add_argument("--prior", type=float, default=0.03)
    parser.add_argument("--l2", type=float, nargs="+", default=[1e-3], help="the pattern weights' penalties to try")
    parser.add_argument("--large-rate", type=float, default=LARGE_RATE, help="the large regions' step size")
    parser.add_argument("--kinds", nargs="+", choices=("small", "large"), default=["small", "large"])
    parser.add_argument("--drop", nargs="*", default=[], metavar="FEATURE",
                        help="count features held at zero (a name, or the start of names: king_on_)")
    parser.add_argument("--out", type=Path, default=Path("fits"))
    args = parser.parse_args()
    v = variant(args.variant)
    folder = args.data / v.name
    games = folder / f"round-{args.round}"
    played_with = last_kept(folder, args.round)
    ev = starting_evaluator(v)
    train, held = samples([games], False, ev), samples([games], True, ev)
    print(f"{v.name}: {len(train):,} positions to fit, {len(held):,} held out (round {args.round})")
    args.out.mkdir(parents=True, exist_ok=True)
    dropped = [f for f, name in enumerate(FEATURES) if any(name.startswith(prefix) for prefix in args.drop)]
    if args.drop:
        print("held at zero:", ", ".join(FEATURES[f] for f in dropped))
    for kind in args.kinds:
        big = kind == "large"
        start = start_model(v, big)
        d_train, d_held = design(v, train, big), design(v, held, big)
        for d in (d_train, d_held):
            d.counts[:, dropped] = 0
        for l2 in args.l2:
            model = fitted_from(played_with, v, big)
            scale = best_scale(model, d_train, train)
            y_train = targets(train, scale, args.result_share)
            y_held = targets(held, scale, args.result_share)
            before = loss(model, d_held, y_held, scale)
            t0 = time.perf_counter()
            fit(model, d_train, y_train, scale, args.epochs, 1, l2=l2, prior=(start.counts, args.prior),
                small_rows=layout(v, False).rows, large_rate=args.large_rate)
            seconds = time.perf_counter() - t0
            after = loss(model, d_held, y_held, scale)
            l2_part = "" if len(args.l2) == 1 else f"-l2-{l2:g}"
            path = args.out / f"{v.name}-{kind}{l2_part}{'-drop' if dropped else ''}.npz"
            write_learned(path, model.counts, model.tables, " ".join(["bench/fit_kinds.py", *sys.argv[1:]]))
            print(f"{kind:5} l2 {l2:<6g} held-out loss {before:.5f} -> {after:.5f}  (fit {seconds:.0f} s; "
                  f"{path.stat().st_size / 1e6:.1f} MB: {path})", flush=True)


if __name__ == "__main__":
    main()
