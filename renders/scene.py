"""What a board image shows, in grid terms, independent of the game.

A ``Grid`` is the empty board (size, playable cells, labels); a ``Scene``
puts pieces, the last move, ghosts and markers on it. Cells are (row, column)
with row 0 at the top as the first player's opponent sits, before any flip.
Draughts builds scenes in ``renders.draughts``; Tablut's 9x9 board (throne,
camps, escape squares) fits the same shape through ``Grid.marks``.

Pieces are one character: ``w``/``W`` White man/king, ``b``/``B`` Black
man/king (Tablut will add its own kinds).
"""

from __future__ import annotations

from dataclasses import dataclass

Cell = tuple[int, int]


@dataclass(frozen=True)
class Grid:
    """The empty board: drawn once per theme, size and orientation, then cached."""

    size: int
    """Cells per side."""
    playable: frozenset[Cell]
    """Cells drawn in the dark colour (pieces stand on them)."""
    labels: tuple[tuple[Cell, str], ...] = ()
    """Small text in a cell's corner (square numbers)."""
    files: str = ""
    """Column names along the top and bottom edges, left to right ('' for none)."""
    ranks: tuple[str, ...] = ()
    """Row names along the left and right edges, top to bottom."""
    marks: tuple[tuple[Cell, str], ...] = ()
    """Special cells drawn on the board itself (Tablut: 'throne', 'camp', 'escape')."""


@dataclass(frozen=True)
class Scene:
    """One position to draw on a grid."""

    grid: Grid
    pieces: tuple[tuple[Cell, str], ...]
    path: tuple[Cell, ...] = ()
    """The last move: its start, every landing square, its end."""
    ghosts: tuple[tuple[Cell, str], ...] = ()
    """Pieces the last move captured, drawn faded where they stood."""
    targets: frozenset[Cell] = frozenset()
    """Cells to mark with a dot (legal destinations of one piece)."""
    selected: Cell | None = None
    """The piece whose destinations are shown."""
    turn: str = ""
    """'w' or 'b': the side to move, shown by a small disc ('' for none)."""
    turn_text: str = ""
    caption: str = ""
