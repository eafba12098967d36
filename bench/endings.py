"""Does the search play the endgame databases' endings right? Won ones converted, drawn ones held.

    .venv/bin/python bench/endings.py --variant all --won 50 --drawn 50 --time 0.1

For each variant, draws positions of exactly ``--pieces`` pieces at random
from the databases (build them first: ``python -m engine egtb build``):
``--won`` the side to move wins, at least ``--min-plies`` from the end, with
no capture on the board, and sooner than any counting rule could draw it (the
databases know no move counts: a win of International or Brazilian that needs
more than the 5-move rule's 10 plies may be a draw under the rules, and the
search rightly plays it as one); ``--drawn``
the sides' material differs and nothing is to be taken. Each is played out
by the engine against itself (level 6, ``--time`` a move, both sides reading
the databases). Printed: won endings won, and their length against the
databases' shortest; drawn endings drawn; each failure with its FEN.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.draughts.endgame_solve import position_at  # noqa: E402
from engine.draughts.endgames import DRAW, L_BITS, WIN, Endgames, rotate  # noqa: E402
from engine.draughts.fen import to_fen  # noqa: E402
from engine.draughts.game import ENDGAME_5_PLIES, Game  # noqa: E402
from engine.draughts.position import Position  # noqa: E402
from engine.draughts.rules import legal_moves  # noqa: E402
from engine.draughts.variants import VARIANTS, Variant, variant  # noqa: E402
from engine.game import Color  # noqa: E402
from engine.games import game_type  # noqa: E402
from engine.search import Limits, Searcher  # noqa: E402

MAX_PLIES = 300


def sample(held: Endgames, want: int, count: int, min_plies: int, pieces: int, rng: random.Random) -> list[tuple[str, int]]:
    """``count`` (FEN, plies) of positions the databases value ``want`` for the side to move."""
    lay = held.layout
    v = lay.variant
    tables = [t for t in lay.tables if sum(t[:4]) == pieces]
    found: list[tuple[str, int]] = []
    seen = set()
    while len(found) < count:
        a, b, c, d, _, size = rng.choice(tables)
        me, opp, kings, valid = position_at(a, b, c, d, rng.randrange(size), lay.vector, lay.binom)
        if not valid:
            continue
        turn = rng.choice((Color.WHITE, Color.BLACK))
        if turn == Color.BLACK:  # the tables are stored as if White moved: turn the board for Black
            me, opp, kings = (rotate(np.uint64(x), lay.vector[L_BITS]) for x in (me, opp, kings))
        white, black = (int(me), int(opp)) if turn == Color.WHITE else (int(opp), int(me))
        pos = Position(v, white, black, int(kings), turn)
        value, plies = held.value(pos)
        if value != want or any(m.captures for m in legal_moves(pos)):
            continue
        if want == WIN and not min_plies <= plies <= rules_allow(v):
            continue
        fen = to_fen(pos)
        if fen not in seen:
            seen.add(fen)
            found.append((fen, plies))
    return found


def rules_allow(v: Variant) -> int:
    """Plies within which no counting rule can end a won ending first: the king-move rule's, and where lone-king
    rules apply, the 5-move rule's (a capture on the way may start it afresh, so the shortest limit counts)."""
    return min(v.king_move_limit, ENDGAME_5_PLIES if v.endgame_limits else MAX_PLIES)


def play_out(job: tuple[str, str, float]) -> tuple[str, str, int]:
    """Play a position out, engine against itself: (FEN, result '1-0'/'0-1'/'draw', plies)."""
    name, fen, seconds = job
    v = variant(name)
    searcher = Searcher(game_type(name))
    game = Game(v, fen)
    first = game.turn
    while game.result() is None and len(game.moves) < MAX_PLIES:
        found = searcher.search(game.position, Limits(time=seconds), game.history())
        game.play(found.move)
    result = game.result()
    if result is None or result.winner is None:
        return fen, "draw", len(game.moves)
    return fen, "mover won" if result.winner == first else "mover lost", len(game.moves)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--variant", default="all", choices=sorted(VARIANTS) + ["all"])
    parser.add_argument("--pieces", type=int, default=4)
    parser.add_argument("--won", type=int, default=50)
    parser.add_argument("--drawn", type=int, default=50)
    parser.add_argument("--min-plies", type=int, default=7, help="won positions at least this far from the end")
    parser.add_argument("--time", type=float, default=0.1, help="seconds a move")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    names = sorted(VARIANTS) if args.variant == "all" else [args.variant]
    status = 0
    with ProcessPoolExecutor(args.jobs) as pool:
        for name in names:
            status |= run_variant(variant(name), args, pool)
    return status


def run_variant(v: Variant, args: argparse.Namespace, pool: ProcessPoolExecutor) -> int:
    held = Endgames.open(v, args.pieces)
    if held is None or held.pieces < args.pieces:
        print(f"{v.name}: no {args.pieces}-piece database; run: python -m engine egtb build --variant {v.name} "
              f"--pieces {args.pieces}")
        return 1
    rng = random.Random(args.seed)
    t0 = time.perf_counter()
    won = sample(held, WIN, args.won, args.min_plies, args.pieces, rng)
    drawn = sample(held, DRAW, args.drawn, 0, args.pieces, rng)
    shortest = dict(won)
    jobs = [(v.name, fen, args.time) for fen, _ in won + drawn]
    results = list(pool.map(play_out, jobs))
    wins = [(fen, plies) for fen, outcome, plies in results[: len(won)] if outcome == "mover won"]
    held_draws = [fen for fen, outcome, _ in results[len(won):] if outcome == "draw"]
    longer = sorted(plies - shortest[fen] for fen, plies in wins)
    print(f"{v.name} ({args.pieces} pieces, {args.time:g} s a move, {time.perf_counter() - t0:.0f} s): "
          f"won endings won {len(wins)}/{len(won)} "
          f"(plies over the shortest win: median {longer[len(longer) // 2] if longer else 0}, "
          f"most {longer[-1] if longer else 0}); drawn endings held {len(held_draws)}/{len(drawn)}", flush=True)
    for fen, outcome, plies in results:
        if (fen in shortest and outcome != "mover won") or (fen not in shortest and outcome != "draw"):
            print(f"  {'won' if fen in shortest else 'drawn'} {fen}: {outcome} after {plies} plies")
    return 0 if len(wins) == len(won) and len(held_draws) == len(drawn) else 1


if __name__ == "__main__":
    sys.exit(main())
