"""Game analysis: its speed on one core, and whether it tells a strong player from a weak one.

    .venv/bin/python bench/analysis.py speed
    .venv/bin/python -m engine match --variant international level:6 level:3 --games 20 --time 0.1 --pdn six-three.pdn
    .venv/bin/python bench/analysis.py quality six-three.pdn

``speed`` analyses the games of a small match of level 6 against itself
(played first, International, 0.1 s a move) at the default effort and prints
the positions analysed a second on one core (median over the games) and the
time each game took, scaled to 100 plies. ``quality`` analyses every game of
a match file and prints, per player (the White and Black tags), the
inaccuracies, mistakes and blunders a game and the accuracy.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import Color  # noqa: E402
from engine.analysis import NODES, analyse  # noqa: E402
from engine.record_reader import read_games  # noqa: E402
from engine.search import Searcher  # noqa: E402
from engine.tools.cli import main as engine  # noqa: E402


def speed(args: argparse.Namespace) -> None:
    pdn = Path(tempfile.mkdtemp()) / "games.pdn"
    engine(["match", "--variant", args.variant, "level:6", "level:6", "--games", str(args.games), "--time", "0.1",
            "--pdn", str(pdn)])
    rates, per_100 = [], []
    for read in read_games(pdn.read_text()):
        record = read.record
        searcher = Searcher(record.type, tt_mb=16)
        started = time.perf_counter()
        analyse(record, args.nodes, searcher)
        spent = time.perf_counter() - started
        positions = len(record.moves) + 1
        rates.append(positions / spent)
        per_100.append(spent * 100 / len(record.moves))
        print(f"{len(record.moves)} plies: {spent:.1f} s, {positions / spent:.1f} positions/s", flush=True)
    print(f"{args.variant}, {args.nodes:,} nodes a position, one core: median {statistics.median(rates):.1f} "
          f"positions/s; a 100-ply game median {statistics.median(per_100):.1f} s "
          f"(min {min(per_100):.1f}, max {max(per_100):.1f}; {len(rates)} games)")


def quality(args: argparse.Namespace) -> None:
    figures: dict[str, list] = defaultdict(list)
    games = read_games(Path(args.pdn).read_text())
    for n, read in enumerate(games, 1):
        analysis = analyse(read.record, args.nodes)
        for colour, tag in ((Color.WHITE, "White"), (Color.BLACK, "Black")):
            figures[read.tags.get(tag, str(colour))].append(analysis.players[colour])
        print(f"\rgame {n}/{len(games)}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    print(f"{len(games)} games of {args.pdn}, {args.nodes:,} nodes a position")
    print("| player | games | inaccuracies a game | mistakes a game | blunders a game | average loss | accuracy |")
    print("|---|---|---|---|---|---|---|")
    for name, players in sorted(figures.items()):
        def mean(attribute: str) -> float:
            return statistics.fmean(getattr(p, attribute) for p in players)
        print(f"| {name} | {len(players)} | {mean('inaccuracies'):.2f} | {mean('mistakes'):.2f} | "
              f"{mean('blunders'):.2f} | {mean('average_loss'):.1f} | {mean('accuracy'):.1f}% |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="what", required=True)
    p = sub.add_parser("speed")
    p.add_argument("--variant", default="international")
    p.add_argument("--games", type=int, default=4)
    p.add_argument("--nodes", type=int, default=NODES)
    p = sub.add_parser("quality")
    p.add_argument("pdn")
    p.add_argument("--nodes", type=int, default=NODES)
    args = parser.parse_args()
    speed(args) if args.what == "speed" else quality(args)


if __name__ == "__main__":
    main()
