"""Finds breakthrough positions for ``test_search.py``: run by hand, prints one line per position found.

    .venv/bin/python tests/find_breakthroughs.py russian --count 2 --seed 1

A position qualifies when the plain material minimax of ``engine.draughts.baseline`` says, at a shallow
depth, that exactly one quiet move wins a king for a man (the breakthrough), and, at the deeper depth the
test lets the search use, that this move still scores strictly better than every other move. The second
condition matters: a breakthrough that is only unique at the shallow depth can be matched by a waiting
move a few plies later, and then a search that prefers the waiting move is not wrong.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import format_move, legal_moves, make, start_position, to_fen, variant  # noqa: E402
from engine.draughts.baseline import _material, _negamax  # noqa: E402
from engine.draughts.evaluation_tables import W_KING, W_MAN  # noqa: E402
from engine.draughts.weight_files import load_evaluator  # noqa: E402


def scores(pos, depth, man, king):
    return {m: -_negamax(make(pos, m), depth - 1, -10**6, 10**6, man, king, 1) for m in legal_moves(pos)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("variant")
    ap.add_argument("--count", type=int, default=1)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--shallow", type=int, default=5)
    ap.add_argument("--deep", type=int, default=10)
    ap.add_argument("--pieces", type=int, default=9, help="at most this many pieces on the board")
    args = ap.parse_args()
    v = variant(args.variant)
    w = load_evaluator(v).weights
    man, king = int(w[W_MAN]), int(w[W_KING])
    rng = random.Random(args.seed)
    found = 0
    while found < args.count:
        pos = start_position(v)
        while legal_moves(pos) and bin(pos.white | pos.black).count("1") > args.pieces:
            pos = make(pos, rng.choice(legal_moves(pos)))
        moves = legal_moves(pos)
        if not moves or pos.kings or moves[0].is_capture:
            continue
        base = _material(pos, man, king)
        shallow = scores(pos, args.shallow, man, king)
        best = [m for m, s in shallow.items() if s >= base + king - man]
        if len(best) != 1 or best[0].is_capture:
            continue
        deep = scores(pos, args.deep, man, king)
        if any(s >= deep[best[0]] for m, s in deep.items() if m != best[0]):
            continue
        found += 1
        print(f'("{v.name}", "{to_fen(pos)}", "{format_move(pos, best[0])}", {args.shallow}),', flush=True)


if __name__ == "__main__":
    main()
