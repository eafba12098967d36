"""The four draughts variants: their rules and their board geometry.

Squares are PDN numbers, 1-based, counted from the top left as White sees the
board (square 1 is b8 on 8x8 and b10 on 10x10). Black's men start on the low
numbers, White's on the high ones, on every board. Coordinates name the same
squares with a1 at White's left corner (a1 is square 29 on 8x8, 46 on 10x10).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from engine.draughts import kernel_layout
from engine.errors import phrase
from engine.game import Color


@dataclass(frozen=True)
class Variant:
    """A variant's rules, and the geometry of its board."""

    name: str
    """Name as typed on the command line: english, international, brazilian, russian."""
    size: int
    """Board width: 8 or 10."""
    first: Color
    """The side that moves first."""
    flying_kings: bool
    """Kings move and capture along whole diagonals."""
    men_capture_back: bool
    """Men capture backwards as well as forwards."""
    majority: bool
    """The capture sequence taking the most pieces is compulsory."""
    crown_mid_capture: bool
    """A man reaching the far row during a capture is crowned at once and goes on as a king."""
    king_move_limit: int
    """Plies of king moves without a capture (nor a man move) after which the game is drawn."""
    endgame_limits: bool
    """International's 16-move and 5-move rules for a lone king against small forces."""
    coordinates: bool
    """Moves and FEN are written with coordinates (c3-d4) rather than square numbers."""
    rules: np.ndarray = field(init=False, repr=False, compare=False)
    """The kernel's view of these rules (a uint64 vector, see ``kernel_layout.R_*``)."""

    def __post_init__(self) -> None:
        rules = np.zeros(kernel_layout.RULES_LEN, dtype=np.uint64)
        rules[kernel_layout.R_HALF] = self.half
        rules[kernel_layout.R_BOARD] = self.board_mask
        rules[kernel_layout.R_PROMO_WHITE] = self.row_mask(0)
        rules[kernel_layout.R_PROMO_BLACK] = self.row_mask(self.size - 1)
        rules[kernel_layout.R_FLYING] = self.flying_kings
        rules[kernel_layout.R_MEN_BACK] = self.men_capture_back
        rules[kernel_layout.R_MAJORITY] = self.majority
        rules[kernel_layout.R_CROWN_MID] = self.crown_mid_capture
        rules.flags.writeable = False
        object.__setattr__(self, "rules", rules)

    # --- geometry -------------------------------------------------------
    @property
    def half(self) -> int:
        """Playable squares per row."""
        return self.size // 2

    @property
    def squares(self) -> int:
        """Number of playable squares (32 or 50)."""
        return self.size * self.size // 2

    @property
    def men_per_side(self) -> int:
        return self.half * (self.size // 2 - 1)

    def bit(self, square: int) -> int:
        """The bitboard bit of a PDN square."""
        s = square - 1
        return 1 << (s + s // self.size)

    def square_of_bit(self, bit: int) -> int:
        """The PDN square of a single-bit bitboard."""
        b = bit.bit_length() - 1
        return b - b // (self.size + 1) + 1

    @cached_property
    def square_by_bit(self) -> dict[int, int]:
        """The PDN square of each single-bit bitboard of the board (``square_of_bit`` as a table)."""
        return {self.bit(square): square for square in range(1, self.squares + 1)}

    def squares_of(self, bb: int) -> list[int]:
        """The PDN squares set in a bitboard, ascending."""
        out = []
        while bb:
            low = bb & -bb
            out.append(self.square_of_bit(low))
            bb ^= low
        return out

    def mask(self, squares: Iterable[int]) -> int:
        bb = 0
        for sq in squares:
            bb |= self.bit(sq)
        return bb

    @property
    def board_mask(self) -> int:
        return self.mask(range(1, self.squares + 1))

    def row_mask(self, row: int) -> int:
        """Bits of a row, 0 being the top row (White's crowning row)."""
        return self.mask(range(row * self.half + 1, (row + 1) * self.half + 1))

    def row_col(self, square: int) -> tuple[int, int]:
        """(row, column) of a square, both from the top left as White sees it."""
        s = square - 1
        row = s // self.half
        col = 2 * (s % self.half) + (1 if row % 2 == 0 else 0)
        return row, col

    def square_at(self, row: int, col: int) -> int | None:
        """The PDN square at (row, column), or None for a light or off-board square."""
        if not (0 <= row < self.size and 0 <= col < self.size) or (row + col) % 2 == 0:
            return None
        return row * self.half + col // 2 + 1

    def coordinate(self, square: int) -> str:
        """The coordinate name of a square, such as 'c3' (a1 is White's left corner)."""
        row, col = self.row_col(square)
        return "abcdefghij"[col] + str(self.size - row)

    def between(self, a: int, b: int) -> list[int]:
        """Squares strictly between two squares on one diagonal, from a towards b ([] if not on one)."""
        (ra, ca), (rb, cb) = self.row_col(a), self.row_col(b)
        if a == b or abs(ra - rb) != abs(ca - cb):
            return []
        dr, dc = (1 if rb > ra else -1), (1 if cb > ca else -1)
        # squares on a diagonal between two dark squares are dark: never None
        return [self.square_at(ra + i * dr, ca + i * dc) or 0 for i in range(1, abs(rb - ra))]

    def crowning_row(self, color: Color) -> int:
        return 0 if color == Color.WHITE else self.size - 1

    def square_name(self, square: int, coordinates: bool | None = None) -> str:
        """'11' or 'c3': coordinates by default where the variant writes them."""
        if self.coordinates if coordinates is None else coordinates:
            return self.coordinate(square)
        return str(square)

    def parse_square(self, text: str) -> int:
        """A square from its number ('11') or coordinate ('c3', any case).

        Raises ValueError with ``Words`` fit to show a player (its ``str`` the English).
        """
        t = text.strip().lower()
        if t.isdigit():
            n = int(t)
            if 1 <= n <= self.squares:
                return n
            raise ValueError(phrase("there is no square {square}: the squares are numbered 1-{last}", square=t,
                                   last=self.squares))
        if len(t) >= 2 and t[0] in "abcdefghij" and t[1:].isdigit():
            col, rank = "abcdefghij".index(t[0]), int(t[1:])
            if col < self.size and 1 <= rank <= self.size:
                sq = self.square_at(self.size - rank, col)
                if sq is None:
                    raise ValueError(phrase("{square} is a light square; pieces stand on the dark squares", square=t))
                return sq
            last = "abcdefghij"[self.size - 1]
            raise ValueError(phrase("there is no square {square} on the {size}x{size} board (a1-{last})", square=t,
                                   size=self.size, last=f"{last}{self.size}"))
        raise ValueError(phrase("'{text}' is not a square: write a number such as 11 or a coordinate such as c3",
                               text=text.strip()))


ENGLISH = Variant(
    name="english", size=8, first=Color.BLACK, flying_kings=False, men_capture_back=False,
    majority=False, crown_mid_capture=False, king_move_limit=80, endgame_limits=False,
    coordinates=False,
)
INTERNATIONAL = Variant(
    name="international", size=10, first=Color.WHITE, flying_kings=True, men_capture_back=True,
    majority=True, crown_mid_capture=False, king_move_limit=50, endgame_limits=True,
    coordinates=False,
)
BRAZILIAN = Variant(
    name="brazilian", size=8, first=Color.WHITE, flying_kings=True, men_capture_back=True,
    majority=True, crown_mid_capture=False, king_move_limit=50, endgame_limits=True,
    coordinates=True,
)
RUSSIAN = Variant(
    name="russian", size=8, first=Color.WHITE, flying_kings=True, men_capture_back=True,
    majority=False, crown_mid_capture=True, king_move_limit=30, endgame_limits=False,
    coordinates=True,
)

VARIANTS: dict[str, Variant] = {v.name: v for v in (ENGLISH, INTERNATIONAL, BRAZILIAN, RUSSIAN)}


def variant(name: str) -> Variant:
    """Look a variant up by name (case-insensitive)."""
    try:
        return VARIANTS[name.strip().lower()]
    except KeyError:
        raise ValueError(f"unknown variant {name!r}; choose one of {', '.join(VARIANTS)}") from None
