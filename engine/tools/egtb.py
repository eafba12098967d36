"""``python -m engine egtb build|verify|probe``: make, check and read the endgame databases."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from engine.draughts.endgame_build import BUILD_BYTES, build, physical_memory, verify
from engine.draughts.endgames import DRAW, LOSS, MAX_PIECES, WIN, Endgames, Layout, default_directory, paths
from engine.draughts.fen import parse_fen
from engine.draughts.variants import VARIANTS, variant
from engine.errors import FenError
from engine.lifeline import end_with
from engine.progress import progress_bar

DEFAULT_PIECES = 4


def add_parser(sub) -> None:
    p = sub.add_parser("egtb", help="endgame databases: build (retrograde analysis), verify, probe")
    p.add_argument("action", choices=("build", "verify", "probe"))
    p.add_argument("--variant", required=True, choices=sorted(VARIANTS) + ["all"], type=str.lower)
    p.add_argument("--pieces", type=int, default=DEFAULT_PIECES, choices=range(2, MAX_PIECES + 1),
                   help=f"most pieces on the board; default {DEFAULT_PIECES}")
    p.add_argument("--dir", type=Path, help=f"where the databases are kept; default ENGINE_EGTB_DIR or {default_directory()}")
    p.add_argument("--fen", help="probe: the position")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.add_argument("--end-with-input", action="store_true",
                   help="stop when standard input closes: a program that runs this in the background holds it open, "
                        "so it ends with that program however that one ends")


def run(args: argparse.Namespace) -> int:
    if args.end_with_input:
        end_with(sys.stdin.fileno())
    directory = args.dir or default_directory()
    names = sorted(VARIANTS) if args.variant == "all" else [args.variant]
    status = 0
    for name in names:
        v = variant(name)
        if args.action == "build":
            status |= _build(v, args.pieces, directory, args.quiet)
        elif args.action == "verify":
            status |= _verify(v, args.pieces, directory, args.quiet)
        else:
            status |= _probe(v, args.pieces, directory, args.fen)
    return status


def _build(v, pieces: int, directory: Path, quiet: bool) -> int:
    """Build every piece count up to ``pieces`` that is not built yet (each one is a point to resume from)."""
    need, have = BUILD_BYTES * Layout.of(v, pieces).positions, physical_memory()
    if have and need > 0.9 * have:
        print(f"{v.name} {pieces} pieces: the build needs about {need / 2**30:.1f} GB of memory and this machine has "
              f"{have / 2**30:.1f} GB; build fewer pieces", file=sys.stderr)
        return 2
    for n in range(2, pieces + 1):
        held = Endgames.open(v, n, directory)
        if held is not None and held.pieces == n:
            print(f"{v.name} {n} pieces: built already ({paths(v, n, directory)[0]})")
            continue
        command = f"python -m engine egtb build --variant {v.name} --pieces {n}"
        made = build(v, n, directory, None if quiet else progress_bar(), command)
        size = (made.wdl.stat().st_size + made.dist.stat().st_size) / 2**20
        print(f"{v.name} {n} pieces: {made.positions:,} positions in {made.seconds:.1f} s, {size:.1f} MB; "
              f"wins {made.counts['wins']:,}, losses {made.counts['losses']:,}, draws {made.counts['draws']:,}; "
              f"longest win {made.longest} plies", flush=True)
    return 0


def _verify(v, pieces: int, directory: Path, quiet: bool) -> int:
    held = Endgames.open(v, pieces, directory)
    if held is None:
        print(f"{v.name}: no database built in {directory}; run: python -m engine egtb build --variant {v.name}",
              file=sys.stderr)
        return 1
    checked, wrong, first = verify(held, None if quiet else progress_bar())
    if wrong:
        print(f"{v.name} {held.pieces} pieces: {wrong:,} of {checked:,} positions disagree with their moves; "
              f"first: {first}")
        return 1
    print(f"{v.name} {held.pieces} pieces: all {checked:,} positions agree with their moves' values")
    return 0


def _probe(v, pieces: int, directory: Path, fen: str | None) -> int:
    if not fen:
        print("error: probe needs --fen", file=sys.stderr)
        return 2
    try:
        position = parse_fen(v, fen)
    except FenError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    held = Endgames.open(v, pieces, directory)
    value, plies = held.value(position) if held is not None else (-1, 0)
    if value < 0:
        print(f"{v.name}: not in the databases built in {directory}")
        return 1
    words = {WIN: f"won in {plies} plies", LOSS: f"lost in {plies} plies", DRAW: "drawn"}[value]
    print(f"{v.name}: {position.turn} to move: {words}")
    return 0
