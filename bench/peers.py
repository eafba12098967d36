"""The engine library beside its Python peers, measured in one run on one machine: py-draughts (pure Python and
numpy) and dame-rs (Rust), International draughts.

    python -m venv /tmp/peers && /tmp/peers/bin/pip install ./packages/draughts-engine py-draughts dame-rs
    /tmp/peers/bin/python bench/peers.py

Figures (medians of --repeat runs):
- import: seconds to start Python and import the library (a process each time);
- FEN to legal moves: microseconds a position to read its FEN into a board and list its legal moves, over
  positions from seeded random games (a board keeps its list once made, so each is read anew; the three must
  agree on every list's length, or the run stops);
- push and pop: microseconds for one move made and taken back through the library's board;
- perft 4 by the board API: the 4,265 move sequences of 4 plies from the start, counted through each library's
  board (legal moves, push, pop), as a Python program would;
- and the compiled perft of this engine and of dame-rs (py-draughts has none), depth 7 from the start.
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import time

import dame
import draughts

from engine import Board

LIBRARIES = ("draughts-engine", "py-draughts", "dame-rs")
IMPORTS = {"draughts-engine": "from engine import Board", "py-draughts": "import draughts", "dame-rs": "import dame"}


def boards(fen: str) -> dict[str, object]:
    return {"draughts-engine": Board("international", fen), "py-draughts": draughts.Board.from_fen(fen),
            "dame-rs": dame.Board(fen)}


def positions(count: int, seed: int) -> list[str]:
    """FENs from seeded random games, every few plies, game over or not."""
    rng, found = random.Random(seed), []
    while len(found) < count:
        board = Board("international")
        while not board.is_game_over() and len(found) < count and len(board.move_stack) < 150:
            board.push(rng.choice(board.legal_moves))
            if rng.random() < 0.2 and not board.is_game_over():
                found.append(board.fen())
    return found


def perft(board: object, depth: int) -> int:
    if depth == 0:
        return 1
    total = 0
    for move in list(board.legal_moves):  # type: ignore[attr-defined]
        board.push(move)  # type: ignore[attr-defined]
        total += perft(board, depth - 1)
        board.pop()  # type: ignore[attr-defined]
    return total


def median_time(work, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        work()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--positions", type=int, default=300)
    args = parser.parse_args()
    fens = positions(args.positions, 7)
    sets = [boards(fen) for fen in fens]
    for fen, made in zip(fens, sets):
        counts = {name: len(b.legal_moves) for name, b in made.items()}  # type: ignore[attr-defined]
        if len(set(counts.values())) != 1:
            sys.exit(f"the libraries disagree on {fen}: {counts}")
    rows = {}
    for name in LIBRARIES:
        started = [time.perf_counter()]
        imports = []
        for _ in range(args.repeat):
            started[0] = time.perf_counter()
            subprocess.run([sys.executable, "-c", IMPORTS[name]], check=True)
            imports.append(time.perf_counter() - started[0])
        mine = [made[name] for made in sets]
        read = {"draughts-engine": lambda fen: Board("international", fen), "py-draughts": draughts.Board.from_fen,
                "dame-rs": dame.Board}[name]
        legal = median_time(lambda: [read(fen).legal_moves for fen in fens], args.repeat) / len(fens)  # type: ignore

        def push_pop() -> None:
            for b in mine:
                b.push(b.legal_moves[0])  # type: ignore[attr-defined]
                b.pop()  # type: ignore[attr-defined]
        moves = median_time(push_pop, args.repeat) / len(mine)
        start = boards(Board("international").fen())[name]
        counted = perft(start, 4)
        assert counted == 4265, (name, counted)
        tree = median_time(lambda: perft(start, 4), args.repeat)
        rows[name] = (statistics.median(imports), legal, moves, tree)
    ours = rows["draughts-engine"]
    print(f"{'library':<16} {'import':>8} {'FEN+legal':>12} {'push+pop':>10} {'perft 4 (API)':>14}   "
          "its time / ours (above 1: ours is quicker)")
    for name, (imp, legal, moves, tree) in rows.items():
        ratios = "" if name == "draughts-engine" else (f"   import {imp / ours[0]:.2f}, FEN+legal {legal / ours[1]:.2f}, "
                                                        f"push+pop {moves / ours[2]:.2f}, perft {tree / ours[3]:.2f}")
        print(f"{name:<16} {imp:7.2f}s {legal * 1e6:9.1f} us {moves * 1e6:7.1f} us {tree:12.4f} s{ratios}")
    assert Board("international").perft(7) == dame.perft(dame.Board(), 7) == 1049442
    ours_perft = median_time(lambda: Board("international").perft(7), args.repeat)
    theirs = median_time(lambda: dame.perft(dame.Board(), 7), args.repeat)
    print(f"compiled perft, the 1,049,442 leaves of depth 7: draughts-engine (Board.perft) {ours_perft:.3f} s "
          f"({1049442 / ours_perft / 1e6:.1f} M a second), dame-rs (dame.perft) {theirs:.3f} s "
          f"({1049442 / theirs / 1e6:.1f} M a second): {theirs / ours_perft:.2f}; py-draughts has none")
    print(f"{len(fens)} positions, every legal-move count the same in all three; medians of {args.repeat}")


if __name__ == "__main__":
    main()
