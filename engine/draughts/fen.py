"""PDN FEN: ``W:W31,32,K33:B1,2,K3`` (side to move, then both colour groups).

Read leniently: either colour group first, any case, spaces, ranges such as
``21-32``, a trailing full stop, numbers or coordinates on any board. Written
with square numbers, or coordinates for the variants that use them
(``W:Wc3,e3,Kg1:Bd4,f6``).
"""

from __future__ import annotations

from engine.draughts.position import Position
from engine.draughts.variants import Variant
from engine.errors import FenError
from engine.game import Color

_COLORS = {"W": Color.WHITE, "B": Color.BLACK}
EXAMPLE = "W:W31,32,K33:B1,2,K3"


def parse_fen(variant: Variant, text: str) -> Position:
    """The position a FEN describes; raises FenError saying what is wrong."""
    fen = text.strip().rstrip(".").replace(" ", "")
    fields = fen.split(":")
    if len(fields) != 3 or fields[0].upper() not in _COLORS:
        raise FenError(f"cannot read the FEN {text.strip()!r}: write it like {EXAMPLE}", text)
    turn = _COLORS[fields[0].upper()]
    bits = {Color.WHITE: 0, Color.BLACK: 0}
    kings = 0
    seen: dict[int, Color] = {}
    groups = set()
    half, last = variant.half, variant.squares
    crowning = {Color.WHITE: range(1, half + 1), Color.BLACK: range(last - half + 1, last + 1)}  # each side's far row
    for group in fields[1:]:
        color = _COLORS.get(group[:1].upper())
        if color is None:
            raise FenError(f"each piece list must start with W or B, not {group[:1] or 'nothing'!r}: {EXAMPLE}", text)
        if color in groups:
            raise FenError(f"the {color} pieces are listed twice", text)
        groups.add(color)
        for item in filter(None, group[1:].split(",")):
            king = item[0] in "Kk"
            name = item[1:] if king else item
            for sq in [int(name)] if name.isdigit() and 1 <= int(name) <= last else _squares(variant, name, text):
                if sq in seen:
                    raise FenError(f"square {variant.square_name(sq)} holds two pieces", text)
                seen[sq] = color
                if not king and sq in crowning[color]:
                    raise FenError(f"a {color} man on {variant.square_name(sq)} stands on its crowning row; "
                                   f"it would be a king (K{variant.square_name(sq)})", text)
                bits[color] |= variant.bit(sq)
                if king:
                    kings |= variant.bit(sq)
    for color in Color:
        n = bits[color].bit_count()
        if n > variant.men_per_side:
            raise FenError(f"{color} has {n} pieces; {variant.name} allows at most {variant.men_per_side}", text)
    return Position(variant, bits[Color.WHITE], bits[Color.BLACK], kings, turn)


def _squares(variant: Variant, item: str, fen: str) -> list[int]:
    try:
        if "-" in item:
            lo, hi = (variant.parse_square(x) for x in item.split("-", 1))
            return list(range(lo, hi + 1))
        return [variant.parse_square(item)]
    except ValueError as e:
        raise FenError(f"bad square in the FEN: {e}", fen) from None


def to_fen(position: Position, coordinates: bool | None = None) -> str:
    """The FEN of a position: White's pieces first, kings marked K."""
    v = position.variant
    coords = v.coordinates if coordinates is None else coordinates
    # numbers ascending; coordinates rank by rank from a1, as players list them
    order = (lambda sq: (-v.row_col(sq)[0], v.row_col(sq)[1])) if coords else (lambda sq: sq)
    groups = []
    for color, letter in ((Color.WHITE, "W"), (Color.BLACK, "B")):
        bb = position.pieces(color)
        items = [("K" if v.bit(sq) & position.kings else "") + v.square_name(sq, coords)
                 for sq in sorted(v.squares_of(bb), key=order)]
        groups.append(letter + ",".join(items))
    return ("W" if position.turn == Color.WHITE else "B") + ":" + ":".join(groups)
