"""The board as monospace text, for the terminal chat and for channels where images are not allowed.

    11 . b . b . b . b      each playable square shows its piece (w b, W B for kings; Tablut: W K B),
    ...                     or its number when empty (or a mark: Tablut's throne +, camps #, escapes :);
                            the last move's squares are bracketed and captured pieces show as x.
"""

from __future__ import annotations

from typing import Any

from engine import GameType

MARKS = {"throne": "+", "camp": "#", "escape": ":"}


def text_diagram(game: GameType[Any, Any], position: Any, *, last_move: Any = None, labels: str | None = None,
                 flipped: bool = False, status: str | None = None) -> str:
    """A diagram of the position; ``labels`` 'numbers' (empty dark squares show their number) or 'coordinates'
    where the game has the choice; ``status``: the last line (a translation of it; default: whose turn it is, in
    English)."""
    grid = game.grid(labels)
    letters = dict(grid.letters)
    width = max((len(text) for _, text in grid.labels), default=len(str(len(grid.playable))) if grid.playable else 1)
    pieces = dict(game.pieces(position))
    names, marks = dict(grid.labels), dict(grid.marks)
    path = set(game.path(last_move)) if last_move is not None else set()
    captured = {game.cell(sq) for sq in last_move.captures} if last_move is not None else set()
    order = list(range(grid.size - 1, -1, -1) if flipped else range(grid.size))
    lines = []
    for row in order:
        cells = []
        for col in order:
            cell = (row, col)
            if grid.playable and cell not in grid.playable:
                text = ""
            elif cell in pieces:
                text = letters[pieces[cell]]
            elif cell in captured:
                text = "x"
            else:
                text = names.get(cell) or MARKS.get(marks.get(cell, ""), ".")
            cells.append(f"[{text.rjust(width)}]" if cell in path else f" {text.rjust(width)} ")
        line = "".join(cells)
        lines.append((f"{grid.ranks[row]:>{width}} {line}" if grid.ranks else line).rstrip())
    if grid.files:
        lines.append(" " * (width + 1) + "".join(f" {grid.files[c].rjust(width)} " for c in order).rstrip())
    lines.append(status if status is not None else f"{position.turn} to move")
    return "\n".join(lines)
