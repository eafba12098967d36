"""Immutable, hashable value types: a position and a move."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.draughts.variants import Variant
from engine.game import Color


@dataclass(frozen=True)
class Move:
    """A move: where the piece starts and ends, and what it takes.

    Two capture paths with the same start, end and captured set are one move
    (the FMJD convention), so ``path`` is kept for display only and is not part
    of equality.
    """

    start: int
    """PDN square the piece leaves."""
    end: int
    """PDN square the piece stops on (may equal ``start`` after a round trip)."""
    captures: tuple[int, ...] = ()
    """PDN squares of the pieces taken, ascending."""
    crowns: bool = False
    """The moving man becomes a king."""
    path: tuple[int, ...] = field(default=(), compare=False)
    """Every square the piece stands on, from start to end (one found path)."""

    @property
    def is_capture(self) -> bool:
        return bool(self.captures)


@dataclass(frozen=True)
class Position:
    """Where the pieces stand and who is to move; nothing about the game's history.

    Bitboards use the kernel's layout (see ``Variant.bit``).
    """

    variant: Variant
    white: int
    """Bits of White's pieces (men and kings)."""
    black: int
    """Bits of Black's pieces."""
    kings: int
    """Bits of the kings of both sides."""
    turn: Color
    """The side to move."""

    def piece_at(self, square: int) -> str | None:
        """'w' / 'W' for a White man / king, 'b' / 'B' for Black's, None if empty."""
        bit = self.variant.bit(square)
        if self.white & bit:
            return "W" if self.kings & bit else "w"
        if self.black & bit:
            return "B" if self.kings & bit else "b"
        return None

    def pieces(self, color: Color) -> int:
        return self.white if color == Color.WHITE else self.black

    def count(self, color: Color) -> tuple[int, int]:
        """(men, kings) of one side."""
        bb = self.pieces(color)
        kings = (bb & self.kings).bit_count()
        return bb.bit_count() - kings, kings

    def __str__(self) -> str:
        """A plain text diagram: rows from White's far side, '.' for empty dark squares."""
        v = self.variant
        lines = []
        for row in range(v.size):
            cells = []
            for col in range(v.size):
                sq = v.square_at(row, col)
                cells.append(" " if sq is None else (self.piece_at(sq) or "."))
            lines.append(" ".join(cells))
        lines.append(f"{self.turn} to move")
        return "\n".join(lines)
