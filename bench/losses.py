"""Where a player's lost games were lost: for each loss in a match's PDN file, the ply from which the loser stays
behind in material to the end (a man 1, a king 3), and what was on the board then.

    .venv/bin/python bench/losses.py scan2-80.pdn --player level:6

Printed: the losses, the median ply (with quartiles) and the pieces on the board (with quartiles) where the
decisive deficit set in, and the endings those positions were, by pieces and kinds (men only, kings on one side,
kings on both); with ``--list``, each loss's round, ply and FEN.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.draughts.fen import to_fen  # noqa: E402
from engine.draughts.position import Position  # noqa: E402
from engine.game import Color  # noqa: E402
from engine.record_reader import read_games  # noqa: E402

WINS = {"2-0": Color.WHITE, "1-0": Color.WHITE, "0-2": Color.BLACK, "0-1": Color.BLACK}


def material(position: Position, side: Color) -> int:
    men, kings = position.count(side)
    return men + 3 * kings


def decisive(positions: list[Position], loser: Color) -> int:
    """The first ply from which the loser is behind in material at every later ply."""
    ply = len(positions) - 1
    while ply > 0 and material(positions[ply - 1], loser) < material(positions[ply - 1], loser.opponent):
        ply -= 1
    return ply


BANDS = ((0, 5, "5 pieces or fewer (the databases')"), (6, 9, "6-9 pieces"), (10, 15, "10-15 pieces"),
         (16, 40, "16 pieces or more"))


def kind(position: Position) -> str:
    """The position's band of piece counts, and where the kings are."""
    pieces = (position.white | position.black).bit_count()
    band = next(name for low, high, name in BANDS if low <= pieces <= high)
    kings = [position.count(side)[1] > 0 for side in Color]
    words = "kings on both sides" if all(kings) else "kings on one side" if any(kings) else "men only"
    return f"{band}, {words}"


def quartiles(values: list[int]) -> str:
    if len(values) < 2:
        return str(values[0]) if values else "-"
    q = statistics.quantiles(values, n=4)
    return f"{statistics.median(values):g} (quartiles {q[0]:g} and {q[2]:g})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pdn", type=Path)
    parser.add_argument("--player", required=True, help="the player whose losses to look at, as the PDN names it")
    parser.add_argument("--list", action="store_true", help="each loss's round, ply and FEN")
    args = parser.parse_args()
    plies, pieces, kinds, listed = [], [], Counter(), []
    for game in read_games(args.pdn.read_text()):
        winner = WINS.get(game.tags.get("Result", ""))
        if winner is None:
            continue
        loser = winner.opponent
        if game.tags.get("White" if loser == Color.WHITE else "Black") != args.player:
            continue
        positions = game.record.positions
        ply = decisive(positions, loser)
        at = positions[ply]
        plies.append(ply)
        pieces.append((at.white | at.black).bit_count())
        kinds[kind(at)] += 1
        listed.append(f"round {game.tags.get('Round', '?')}: ply {ply}, {to_fen(at)}")
    print(f"{args.player}: {len(plies)} losses in {args.pdn}")
    print(f"the decisive deficit set in at ply {quartiles(plies)}, with {quartiles(pieces)} pieces on the board")
    for name, count in sorted(kinds.items(), key=lambda kv: (-kv[1], kv[0])):
        print(f"  {count:3d}  {name}")
    if args.list:
        print("\n".join(listed))


if __name__ == "__main__":
    main()
