"""``python -m engine analyse FILE``: every move of every game in a PDN file judged, written back as PDN.

The judgements are the record's symbols (``?!`` an inaccuracy, ``?`` a
mistake, ``??`` a blunder), each followed by a comment with the better line,
so the output loads in any PDN viewer. A progress bar and each game's figures
go to standard error.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

from engine.analysis import NODES, Analysis, analyse, annotated
from engine.progress import progress_bar
from engine.games import NAMES
from engine.record_reader import RecordError, read_games
from engine.search import Searcher


def add_parser(sub) -> None:
    p = sub.add_parser("analyse", aliases=["analyze"],
                       help="judge every move of the games in a PDN file; print them as annotated PDN")
    p.add_argument("pdn", type=Path, help="the PDN file ('-' for standard input)")
    p.add_argument("--nodes", type=int, default=NODES, help=f"nodes searched a position; default {NODES:,}")
    p.add_argument("--game", choices=NAMES, type=str.lower,
                   help="the game of records that have no GameType (or Game) tag")
    p.add_argument("--out", type=Path, help="write the annotated PDN here instead of standard output")
    p.add_argument("--quiet", action="store_true", help="no progress bar")


def run(args: argparse.Namespace) -> int:
    try:
        text = sys.stdin.read() if str(args.pdn) == "-" else args.pdn.read_text(encoding="utf-8")
        games = read_games(text, args.game)
    except (OSError, UnicodeDecodeError, RecordError) as error:
        print(f"cannot read {args.pdn}: {error}", file=sys.stderr)
        return 2
    if args.nodes < 1:
        print("--nodes must be at least 1", file=sys.stderr)
        return 2
    searchers: dict[str, Searcher] = {}
    out = []
    for n, read in enumerate(games, 1):
        record = read.record
        searcher = searchers.setdefault(record.type.name, Searcher(record.type, tt_mb=16))
        show = None if args.quiet else _bar(f"game {n}/{len(games)}")
        analysis = analyse(record, args.nodes, searcher, show)
        print(f"game {n}: {figures(analysis)}", file=sys.stderr)
        out.append(annotated(record, analysis, read.tags))
    text = "\n".join(out)
    if args.out:
        args.out.write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0


def figures(analysis: Analysis) -> str:
    """Each side's counts, average loss and accuracy, on one line."""
    return "; ".join(f"{colour} {p.inaccuracies} inaccuracies, {p.mistakes} mistakes, {p.blunders} blunders, "
                     f"average loss {p.average_loss}, accuracy {p.accuracy:.1f}%"
                     for colour, p in analysis.players.items())


def _bar(what: str) -> Callable[[int, int], None]:
    bar = progress_bar(count=lambda done, total: f"{done}/{total} positions")
    return lambda done, total: bar(what, done, total)
