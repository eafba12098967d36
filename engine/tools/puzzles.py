"""``python -m engine puzzles make|verify``: mine puzzles from the engine's own games, and check a set again.

``make`` plays game after game of one seed (``engine.puzzles.mine``) in
``--jobs`` processes and appends each proved puzzle to the set file as its
game ends, until the file holds ``--count``; the games already mined are kept
beside it (``FILE.progress``), so a run stopped at any point goes on where it
was when started again with the same seed. ``verify`` proves every puzzle of a
set again, deeper than it was found and with the endgame databases, and names
any whose solution is no longer the only win.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections import Counter
from collections.abc import Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from functools import cache
from pathlib import Path

from engine.progress import progress_bar
from engine.draughts.variants import VARIANTS
from engine.games import game_type
from engine.puzzles.mine import mine_game, proof_depth
from engine.puzzles.prove import check
from engine.puzzles.puzzle import SETS, THEMES, Puzzle, header, read_set
from engine.search import Searcher

TT_MB = 32
VERIFY_DEEPER = 2
"""``verify`` searches this many plies deeper than the proof that found the puzzle."""


def verify_depth(variant: str) -> int:
    """The depth ``verify`` proves a variant's puzzles at."""
    return proof_depth(variant) + VERIFY_DEEPER
FIELDS = "# Fields, tab-separated: position (FEN), solution, theme, depth first seen, score, source."


def add_parser(sub) -> None:
    p = sub.add_parser("puzzles", help="mine puzzles from the engine's games, or check a puzzle set again")
    actions = p.add_subparsers(dest="action", required=True)
    make = actions.add_parser("make", help="play games and keep the positions with one winning move (resumable)")
    make.add_argument("--variant", required=True, choices=sorted(VARIANTS), type=str.lower)
    make.add_argument("--count", type=int, required=True, help="puzzles the set file should hold")
    make.add_argument("--seed", type=int, default=1, help="the games' seed; default 1")
    make.add_argument("--out", type=Path, help="the set file; default puzzles-VARIANT.txt")
    make.add_argument("--jobs", type=int, default=2, help="games mined at once (one core each); default 2")
    make.add_argument("--quiet", action="store_true", help="no progress bar")
    verify = actions.add_parser("verify", help="prove every puzzle of a set again, deeper and with the databases")
    verify.add_argument("--variant", choices=["all", *sorted(VARIANTS)], default="all", type=str.lower,
                        help="the variant's shipped set, or all of them (the default)")
    verify.add_argument("--file", type=Path, help="a set file to check instead of the shipped one (give --variant)")
    verify.add_argument("--jobs", type=int, default=2, help="puzzles checked at once (one core each); default 2")
    verify.add_argument("--quiet", action="store_true", help="no progress bar")
    verify.add_argument("--drop", action="store_true",
                        help="take the puzzles that fail out of the set file (then `make` tops the set up again)")


def run(args: argparse.Namespace) -> int:
    if args.jobs < 1:
        print("--jobs must be at least 1", file=sys.stderr)
        return 2
    try:
        return _make(args) if args.action == "make" else _verify(args)
    except ValueError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2


@cache
def _searcher(variant: str) -> Searcher:
    """This process's searcher for ``variant`` (one per worker, kept between its tasks)."""
    searcher = Searcher(game_type(variant), tt_mb=TT_MB)
    searcher.warm_up()
    return searcher


def _mine(variant: str, seed: int, index: int) -> list[Puzzle]:
    return mine_game(_searcher(variant), seed, index)


def _check(puzzle: Puzzle, depth: int) -> str | None:
    return check(_searcher(puzzle.variant), puzzle, depth)


def _make(args: argparse.Namespace) -> int:
    out: Path = args.out or Path(f"puzzles-{args.variant}.txt")
    progress = out.with_name(out.name + ".progress")
    out.parent.mkdir(parents=True, exist_ok=True)
    kept = read_set(args.variant, out)
    done = _games_done(progress, args.seed)
    _write_header(out, args)
    if len(kept) >= args.count:
        print(f"{out} holds {len(kept)} puzzles already", file=sys.stderr)
        return 0
    fens, lines = {p.position for p in kept}, {p.solution for p in kept}
    show = None if args.quiet else progress_bar(count=lambda d, t: f"{d}/{t} puzzles")
    games = (i for i in _count_from(0) if i not in done)
    t0 = time.perf_counter()
    with ProcessPoolExecutor(args.jobs) as pool, out.open("a") as sink, progress.open("a") as log:
        running: dict[Future, int] = {}
        found = len(kept)
        while found < args.count:
            while len(running) < 2 * args.jobs:
                index = next(games)
                running[pool.submit(_mine, args.variant, args.seed, index)] = index
            finished, _ = wait(running, return_when=FIRST_COMPLETED)
            for future in finished:
                index = running.pop(future)
                for puzzle in future.result():  # all of a game's (the set may pass the count by a few): the game is
                    if puzzle.position not in fens and puzzle.solution not in lines:  # not mined again
                        fens.add(puzzle.position)
                        lines.add(puzzle.solution)
                        sink.write(puzzle.line() + "\n")
                        found += 1
                sink.flush()
                log.write(f"{index}\n")
                log.flush()
                if show:
                    show(f"mining {args.variant}", found, args.count)
        for future in running:
            future.cancel()
    spent, new = time.perf_counter() - t0, found - len(kept)
    print(f"{out}: {found} puzzles, {_lines(progress)} games mined; this run {new} new in {spent:.0f} s "
          f"({100 * spent / max(new, 1):.0f} s a hundred with {args.jobs} jobs)", file=sys.stderr)
    return 0


def _count_from(start: int) -> Iterator[int]:
    while True:
        yield start
        start += 1


def _lines(path: Path) -> int:
    return len(path.read_text().splitlines()) - 1 if path.exists() else 0


def _games_done(progress: Path, seed: int) -> set[int]:
    """The games of ``seed`` mined already; ValueError if the file was made with another seed."""
    if not progress.exists():
        progress.write_text(f"seed {seed}\n")
        return set()
    first, *rest = progress.read_text().splitlines() or [""]
    if first != f"seed {seed}":
        raise ValueError(f"{progress} holds the games of {first or 'no seed'}: give that --seed, or another --out")
    return {int(line) for line in rest if line.strip()}


def _write_header(out: Path, args: argparse.Namespace) -> None:
    """The set file's comment lines, saying the command that makes it as it is now (the count may have grown)."""
    title = game_type(args.variant).title
    lines = [f"# {title} puzzles: positions from the engine's own games where the side to move has one winning "
             "continuation, proved by its search (engine/puzzles).",
             f"# Made with: python -m engine puzzles make --variant {args.variant} --count {args.count} "
             f"--seed {args.seed} --out {out.as_posix()}",
             "# Checked with: python -m engine puzzles verify" + (f" --variant {args.variant} --file {out.as_posix()}"
                                                                   if out.resolve() != (SETS / f"{args.variant}.txt")
                                                                   else f" --variant {args.variant}"),
             FIELDS]
    body = out.read_text().splitlines()[len(header(out)):] if out.exists() else []
    _replace(out, lines + body)


def _verify(args: argparse.Namespace) -> int:
    if args.file and args.variant == "all":
        raise ValueError("give the --variant of the puzzles in --file")
    variants = sorted(VARIANTS) if args.variant == "all" else [args.variant]
    sets = [(v, args.file or SETS / f"{v}.txt") for v in variants]
    sets = [(v, path) for v, path in sets if path.exists() or args.file]
    if not sets:
        raise ValueError("no puzzle set to verify")
    failed = 0
    for variant, path in sets:
        failed += _verify_set(variant, path, args)
    return 1 if failed else 0


def _verify_set(variant: str, path: Path, args: argparse.Namespace) -> int:
    puzzles = read_set(variant, path)
    game = game_type(variant)
    if game.endgames_missing(4):
        print(f"note: {variant}'s endgame databases are not built; checking without them "
              f"(python -m engine egtb build --variant {variant} --pieces 4)", file=sys.stderr)
    depth = verify_depth(variant)
    show = None if args.quiet else progress_bar(count=lambda d, t: f"{d}/{t} puzzles")
    failures = []
    for n, (puzzle, reason) in enumerate(_checked(puzzles, depth, args.jobs), 1):
        if reason:
            failures.append((puzzle, reason))
        if show:
            show(f"verifying {variant}", n, len(puzzles))
    themes = Counter(p.theme for p in puzzles)
    print(f"{variant}: {len(puzzles)} puzzles (" + ", ".join(f"{themes[t]} {t}" for t in THEMES if themes[t])
          + f"), depth {depth}: {len(puzzles) - len(failures)} proved, {len(failures)} not", flush=True)
    for puzzle, reason in failures:
        print(f"  {puzzle.id} {puzzle.position}: {reason}", flush=True)
    if args.drop and failures:
        gone = {p.position for p, _ in failures}
        kept = [line for line in path.read_text().splitlines()
                if line.startswith("#") or not line.strip() or line.split("\t", 1)[0] not in gone]
        _replace(path, kept)
        print(f"  dropped from {path}: {len(failures)}", flush=True)
        return 0
    return len(failures)


def _replace(path: Path, lines: list[str]) -> None:
    """Write a set file whole or not at all (a run stopped meanwhile leaves the old file)."""
    fresh = path.with_name(path.name + ".new")
    fresh.write_text("\n".join(lines) + "\n")
    os.replace(fresh, path)


def _checked(puzzles: list[Puzzle], depth: int, jobs: int) -> Iterable[tuple[Puzzle, str | None]]:
    if jobs == 1:
        for puzzle in puzzles:
            yield puzzle, _check(puzzle, depth)
        return
    with ProcessPoolExecutor(jobs) as pool:
        yield from zip(puzzles, pool.map(_check, puzzles, [depth] * len(puzzles), chunksize=4))
