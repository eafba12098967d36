"""Boards of every game as SVG: the same scene, geometry and themes as the PNGs, drawn as vectors that stay sharp at
any size, plus arrows and marked squares. An ``Svg`` shows itself in Jupyter (``_repr_svg_``), as python-chess's
boards do::

    from engine import Board
    from renders import board_svg, render_svg
    board = Board("international")
    board.push_text("32-28")
    board_svg(board, arrows=[Arrow(28, 22)], marks=[17])     # a notebook cell shows it as it is
    render_svg(game_type("english"), position, RenderOptions(flipped=True))   # any game, as render_png takes it
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any
from xml.sax.saxutils import escape

from engine import Board, GameType
from renders.board import RenderOptions, scene
from renders.drawing import PIECE_EDGE, PIECE_RADIUS, PIECE_RING, Layout, crown_points, layout
from renders.scene import Cell, Scene
from renders.themes import RGB, Theme, blend, theme

ARROW_OPACITY = 0.75


@dataclass(frozen=True)
class Arrow:
    """An arrow from one square to another (game square numbers; Tablut's are 0-80), in ``colour`` (any CSS
    colour; None: the theme's colour for destinations)."""

    start: int
    end: int
    colour: str | None = None


class Svg(str):
    """SVG text that a notebook shows as the picture it is."""

    def _repr_svg_(self) -> str:
        return str(self)


def render_svg(game: GameType[Any, Any], position: Any, options: RenderOptions = RenderOptions(), *,
               last_move: Any = None, before: Any = None, destinations_of: int | None = None,
               arrows: Iterable[Arrow | tuple[int, int]] = (), marks: Iterable[int] = ()) -> Svg:
    """The board as SVG, as ``render_png`` draws it (the same arguments), with ``arrows`` and ``marks`` (squares
    ringed) on top."""
    s = scene(game, position, options, last_move, before, destinations_of)
    drawn = [a if isinstance(a, Arrow) else Arrow(*a) for a in arrows]
    return Svg(draw_svg(s, theme(options.theme), options.width, options.flipped,
                        [(game.cell(a.start), game.cell(a.end), a.colour) for a in drawn],
                        [game.cell(square) for square in marks]))


def board_svg(board: Board, options: RenderOptions = RenderOptions(), *,
              arrows: Iterable[Arrow | tuple[int, int]] = (), marks: Iterable[int] = ()) -> Svg:
    """A library ``Board`` as SVG, its last move shown with the pieces it took."""
    record = board.record
    last = record.moves[-1] if record.moves else None
    before = record.positions[-2] if record.moves else None
    return render_svg(board.game_type, board.position, options, last_move=last, before=before, arrows=arrows,
                      marks=marks)


def _rgb(colour: RGB) -> str:
    return "#%02x%02x%02x" % colour


def draw_svg(s: Scene, th: Theme, width: int, flipped: bool, arrows: list[tuple[Cell, Cell, str | None]],
             marks: list[Cell]) -> str:
    lay = layout(s.grid, width, flipped)
    c = lay.cell
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{lay.width}" height="{lay.height}" '
           f'viewBox="0 0 {lay.width} {lay.height}" font-family="DejaVu Sans, Arial, sans-serif">',
           f'<rect width="{lay.width}" height="{lay.height}" fill="{_rgb(th.frame)}"/>']
    marked = set(s.path) | ({s.selected} if s.selected else set())
    for r in range(s.grid.size):
        for col in range(s.grid.size):
            cell = (r, col)
            colour = th.highlight if cell in marked else th.dark if cell in s.grid.playable else th.light
            out.append(_square(lay, cell, colour))
    out += [_mark(lay, th, cell, kind) for cell, kind in s.grid.marks if cell not in marked]
    labels = dict(s.grid.labels)
    size = max(8, round(c * 0.2))
    pad = max(1, c // 24)
    for cell, text in labels.items():
        x, y = lay.origin(cell)
        colour = th.frame if cell in marked else th.square_text
        out.append(f'<text x="{x + pad}" y="{y + pad}" font-size="{size}" fill="{_rgb(colour)}" '
                   f'dominant-baseline="hanging">{escape(text)}</text>')
    out += _edges(s, lay, th)
    if len(s.path) >= 2:
        points = " ".join(f"{x},{y}" for x, y in (lay.centre(cell) for cell in s.path))
        out.append(f'<polyline points="{points}" fill="none" stroke="{_rgb(th.path)}" '
                   f'stroke-width="{max(2, c // 12)}" stroke-linejoin="round" stroke-linecap="round"/>')
    out += [_piece(lay, th, cell, piece, th.ghost_alpha) for cell, piece in s.ghosts]
    out += [_piece(lay, th, cell, piece, 1.0) for cell, piece in s.pieces]
    dot = max(3, c // 7)
    for cell in sorted(s.targets):
        x, y = lay.centre(cell)
        out.append(f'<circle cx="{x}" cy="{y}" r="{dot}" fill="{_rgb(th.target)}" stroke="{_rgb(th.frame)}"/>')
    for cell in marks:
        x, y = lay.origin(cell)
        inset = c // 12
        out.append(f'<rect x="{x + inset}" y="{y + inset}" width="{c - 2 * inset}" height="{c - 2 * inset}" '
                   f'fill="none" stroke="{_rgb(th.target)}" stroke-width="{max(2, c // 14)}"/>')
    out += [_arrow(lay, th, start, end, colour) for start, end, colour in arrows]
    out += _bars(s, lay, th)
    out.append("</svg>")
    return "\n".join(out)


def _square(lay: Layout, cell: Cell, colour: RGB) -> str:
    x, y = lay.origin(cell)
    return f'<rect x="{x}" y="{y}" width="{lay.cell}" height="{lay.cell}" fill="{_rgb(colour)}"/>'


def _mark(lay: Layout, th: Theme, cell: Cell, kind: str) -> str:
    """Special cells (Tablut), as the PNG draws them: a crossed throne, tinted camps, ringed escapes."""
    x, y = lay.origin(cell)
    c = lay.cell
    if kind == "throne":
        line = f'stroke="{_rgb(th.path)}" stroke-width="{max(1, c // 30)}"'
        return (f'<rect x="{x}" y="{y}" width="{c}" height="{c}" fill="{_rgb(blend(th.highlight, th.light, 0.5))}"/>'
                f'<line x1="{x}" y1="{y}" x2="{x + c}" y2="{y + c}" {line}/>'
                f'<line x1="{x}" y1="{y + c}" x2="{x + c}" y2="{y}" {line}/>')
    if kind == "camp":
        return f'<rect x="{x}" y="{y}" width="{c}" height="{c}" fill="{_rgb(blend(th.dark, th.light, 0.5))}"/>'
    inset = c // 10
    return (f'<rect x="{x + inset}" y="{y + inset}" width="{c - 2 * inset}" height="{c - 2 * inset}" fill="none" '
            f'stroke="{_rgb(th.target)}" stroke-width="{max(1, c // 20)}"/>')


def _edges(s: Scene, lay: Layout, th: Theme) -> list[str]:
    """Coordinates on the frame (Russian, Brazilian), as the PNG writes them."""
    out = []
    n = s.grid.size
    size = max(9, round(lay.margin * 0.6))
    style = f'font-size="{size}" fill="{_rgb(th.frame_text)}" text-anchor="middle" dominant-baseline="central"'
    for c, name in enumerate(s.grid.files):
        x = lay.margin + (n - 1 - c if lay.flipped else c) * lay.cell + lay.cell // 2
        for y in (lay.bar + lay.margin // 2, lay.board_top + n * lay.cell + lay.margin // 2):
            out.append(f'<text x="{x}" y="{y}" {style}>{escape(name)}</text>')
    for r, name in enumerate(s.grid.ranks):
        y = lay.board_top + (n - 1 - r if lay.flipped else r) * lay.cell + lay.cell // 2
        for x in (lay.margin // 2, lay.margin + n * lay.cell + lay.margin // 2):
            out.append(f'<text x="{x}" y="{y}" {style}>{escape(name)}</text>')
    return out


def _piece(lay: Layout, th: Theme, cell: Cell, piece: str, opacity: float) -> str:
    """A man (two rings) or a king (a crown inside), as the PNG's sprite draws them."""
    cx, cy = lay.origin(cell)
    mid = lay.cell / 2
    cx_, cy_ = cx + mid, cy + mid
    r = lay.cell * PIECE_RADIUS
    line = max(1.0, lay.cell * PIECE_EDGE)
    white = piece.lower() == "w"
    fill, edge = (th.white_piece, th.white_edge) if white else (th.black_piece, th.black_edge)
    parts = [f'<g opacity="{opacity:g}">',
             f'<circle cx="{cx_:g}" cy="{cy_:g}" r="{r - line / 2:g}" fill="{_rgb(fill)}" stroke="{_rgb(edge)}" '
             f'stroke-width="{line:g}"/>',
             f'<circle cx="{cx_:g}" cy="{cy_:g}" r="{r * PIECE_RING - line / 4:g}" fill="none" stroke="{_rgb(edge)}" '
             f'stroke-width="{max(0.5, line / 2):g}"/>']
    if piece.isupper():
        crown = th.white_crown if white else th.black_crown
        points = " ".join(f"{x:.1f},{y:.1f}" for x, y in crown_points(cx_, cy_, r))
        parts.append(f'<polygon points="{points}" fill="{_rgb(crown)}" stroke="{_rgb(edge)}" stroke-width="1"/>')
    parts.append("</g>")
    return "".join(parts)


def _arrow(lay: Layout, th: Theme, start: Cell, end: Cell, colour: str | None) -> str:
    """A thick line from one cell's centre towards another's, ending in a head at its centre."""
    (x1, y1), (x2, y2) = lay.centre(start), lay.centre(end)
    paint = escape(colour, {'"': "&quot;"}) if colour else _rgb(th.target)
    dx, dy = x2 - x1, y2 - y1
    length = max(1.0, (dx * dx + dy * dy) ** 0.5)
    ux, uy = dx / length, dy / length
    head, width = lay.cell * 0.45, lay.cell * 0.16
    bx, by = x2 - ux * head, y2 - uy * head  # where the head begins
    left = (bx - uy * head * 0.6, by + ux * head * 0.6)
    right = (bx + uy * head * 0.6, by - ux * head * 0.6)
    return (f'<g opacity="{ARROW_OPACITY}"><line x1="{x1}" y1="{y1}" x2="{bx:.1f}" y2="{by:.1f}" stroke="{paint}" '
            f'stroke-width="{width:.1f}" stroke-linecap="round"/><polygon points="{x2},{y2} {left[0]:.1f},'
            f'{left[1]:.1f} {right[0]:.1f},{right[1]:.1f}" fill="{paint}"/></g>')


def _bars(s: Scene, lay: Layout, th: Theme) -> list[str]:
    """The caption above the board and whose turn it is below, as the PNG writes them."""
    out = []
    size = max(10, round(lay.bar * 0.5))
    text = f'font-size="{size}" fill="{_rgb(th.frame_text)}" dominant-baseline="central"'
    if s.caption:
        out.append(f'<text x="{lay.margin}" y="{lay.bar // 2}" {text}>{escape(s.caption)}</text>')
    if s.turn:
        y = lay.height - lay.bar // 2
        r = round(lay.bar * 0.28)
        fill = th.white_piece if s.turn == "w" else th.black_piece
        out.append(f'<circle cx="{lay.margin + r}" cy="{y}" r="{r}" fill="{_rgb(fill)}" '
                   f'stroke="{_rgb(th.frame_text)}" stroke-width="{max(1, r // 5)}"/>')
        out.append(f'<text x="{lay.margin + 3 * r}" y="{y}" {text}>{escape(s.turn_text)}</text>')
    return out
