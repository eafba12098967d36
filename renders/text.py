"""The board as monospace text, for the terminal chat and for channels where images are not allowed.

    11 . b . b . b . b      each dark square shows its piece (w b, W B for kings),
    ...                     or its number when empty; the last move's squares are
                            bracketed and captured pieces show as x.
"""

from __future__ import annotations

from engine import Move, Position


def text_diagram(position: Position, *, last_move: Move | None = None, labels: str | None = None,
                 flipped: bool = False) -> str:
    """A diagram of the position; ``labels`` 'numbers' (empty dark squares show their number) or 'coordinates'."""
    v = position.variant
    labels = labels or ("coordinates" if v.coordinates else "numbers")
    width = 2 if v.squares < 100 else 3
    path = set(last_move.path or (last_move.start, last_move.end)) if last_move else set()
    captured = set(last_move.captures) if last_move else set()
    rows = range(v.size - 1, -1, -1) if flipped else range(v.size)
    cols = list(range(v.size - 1, -1, -1) if flipped else range(v.size))
    lines = []
    for row in rows:
        cells = []
        for col in cols:
            sq = v.square_at(row, col)
            if sq is None:
                text = ""
            elif (piece := position.piece_at(sq)) is not None:
                text = piece
            elif sq in captured:
                text = "x"
            elif labels == "numbers":
                text = str(sq)
            else:
                text = "."
            cell = text.rjust(width)
            if sq in path:
                cell = f"[{cell}]"
            else:
                cell = f" {cell} "
            cells.append(cell)
        line = "".join(cells).rstrip()
        if labels == "coordinates":
            line = f"{v.size - row:>2} {''.join(cells)}"
        lines.append(line.rstrip())
    if labels == "coordinates":
        files = "abcdefghij"[: v.size]
        names = [files[c] for c in cols]
        lines.append("   " + "".join(f" {n.rjust(width)} " for n in names).rstrip())
    lines.append(f"{position.turn} to move")
    return "\n".join(lines)
