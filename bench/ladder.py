"""The levels' ladder: each level against the one below, and the ratings the bot gives its levels.

    .venv/bin/python bench/ladder.py --games 40 --time 0.1 --jobs 2 [--variant english ...]

For every draughts variant, level N plays level N-1 (N = 2..6) over balanced
openings, colours swapped, ``--time`` seconds a move. Level 1 (random moves)
is anchored at 600; each level above is rated the one below plus the Elo
difference measured between them, but never more than a clean sweep of as
many games proves (the low end of its 95% interval: +407 in 40 games), so
that no result counts more than a better one. The table is printed and
written to ``bot/level_ratings.json`` (with this command), which the bot uses
for rated games against its levels. A step won by no more than 60% is flagged:
the levels are meant to be distinct.

Each step's games are written to ``--games-dir`` (default ``ladder-games/``,
kept out of git) as they end; run the same command again after an
interruption and it goes on where it stopped. The files do not say which
engine played them: after a change to the search or the weights, give
``--fresh`` to play every step anew.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.draughts.variants import VARIANTS, variant  # noqa: E402
from engine.tools.match import Summary, kept_games, match_to_file, summarize  # noqa: E402

ANCHOR = 600  # level 1, random moves
OUT = ROOT / "bot" / "level_ratings.json"


def sweep_proves(games: int) -> float:
    """The most a step of ``games`` games counts: the low end of a clean sweep's 95% interval. (A sweep's estimate
    is unbounded, and the estimates of results near it are far above what so few games show.)"""
    return Summary(games, 0, 0).elo()[1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--time", type=float, default=0.1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--variant", action="append", choices=sorted(VARIANTS),
                        help="only these variants (again for more); the others keep their ratings in the file")
    parser.add_argument("--games-dir", type=Path, default=ROOT / "ladder-games", help="where each step's games go")
    parser.add_argument("--fresh", action="store_true", help="play every step anew instead of resuming")
    args = parser.parse_args()
    args.games_dir.mkdir(exist_ok=True)
    table = json.loads(OUT.read_text()) if OUT.exists() else {}
    for name in args.variant or sorted(VARIANTS):
        ratings = {1: float(ANCHOR)}
        for n in range(2, 7):
            a, b, pdn = f"level:{n}", f"level:{n - 1}", args.games_dir / f"{name}-{n}-{n - 1}.pdn"
            try:
                kept = [] if args.fresh else kept_games(pdn, a, b, variant(name), args.games, args.time)
            except ValueError as e:
                print(f"error: {e}; give --fresh to play the ladder anew", file=sys.stderr)
                return 2
            s = summarize(match_to_file(a, b, variant(name), args.games, args.time, pdn, kept, args.jobs,
                                        on_game=lambda _, done: print(f"\r{name}: level {n} vs {n - 1}: game "
                                                                      f"{len(done)} of {args.games}", end="",
                                                                      file=sys.stderr, flush=True)))
            print(file=sys.stderr)
            elo, low, _ = s.elo()
            step = min(elo, sweep_proves(s.games))
            ratings[n] = ratings[n - 1] + step
            flag = "" if s.score > 0.6 else "   <- not above 60%"
            print(f"{name}: level {n} vs {n - 1}: {s}{flag}", flush=True)
        table[name] = {str(n): round(r) for n, r in ratings.items()}
        print(f"{name}: " + ", ".join(f"level {n} {r:.0f}" for n, r in ratings.items()), flush=True)
        table.setdefault("_made_by", {})[name] = (f"python bench/ladder.py --games {args.games} --time {args.time:g} "
                                                  f"--jobs {args.jobs} --variant {name}")
    OUT.write_text(json.dumps(table, indent=2, sort_keys=True) + "\n")
    print(f"written to {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
