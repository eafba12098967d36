"""What a board image shows, in grid terms, independent of the game.

A ``Grid`` (``engine.game``) is the empty board a game gives (size, playable
cells, labels, marks such as Tablut's throne and camps); a ``Scene`` puts
pieces, the last move, ghosts and markers on it. Cells are (row, column) with
row 0 at the top as the first player's opponent sits, before any flip.

Pieces are one character: ``w``/``W`` White man/king, ``b``/``B`` Black
man/king (Tablut's king is a ``W``).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.game import Cell, Grid

__all__ = ["Cell", "Grid", "Scene"]


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
