"""Drawing a ``Scene`` with Pillow.

The empty board of each (grid, theme, width, orientation) is drawn once and
cached, and so are the piece sprites (drawn four times larger and scaled
down, for smooth edges); a render copies the board, fills the last move's
squares, pastes sprites and writes two lines of text.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from renders.scene import Cell, Grid, Scene
from renders.themes import RGB, Theme, blend

SUPERSAMPLE = 4
PIECE_RADIUS = 0.40  # of a cell: a piece's outer edge (the SVG draws pieces by the same measures)
PIECE_EDGE = 0.035  # of a cell: the outline's width
PIECE_RING = 0.72  # of the radius: the inner ring


@dataclass(frozen=True)
class Layout:
    """Pixel geometry of one image."""

    width: int
    height: int
    cell: int
    margin: int
    bar: int
    size: int
    flipped: bool

    @property
    def board_top(self) -> int:
        return self.bar + self.margin

    def origin(self, cell: Cell) -> tuple[int, int]:
        """Top-left pixel of a cell, after the flip."""
        r, c = cell
        if self.flipped:
            r, c = self.size - 1 - r, self.size - 1 - c
        return self.margin + c * self.cell, self.board_top + r * self.cell

    def centre(self, cell: Cell) -> tuple[int, int]:
        x, y = self.origin(cell)
        return x + self.cell // 2, y + self.cell // 2


def layout(grid: Grid, width: int, flipped: bool) -> Layout:
    edge_labels = bool(grid.files or grid.ranks)
    margin = max(4, round(width * (0.045 if edge_labels else 0.018)))
    cell = (width - 2 * margin) // grid.size
    board = cell * grid.size
    bar = max(18, round(width * 0.06))
    return Layout(board + 2 * margin, bar + margin + board + margin + bar, cell, margin, bar, grid.size, flipped)


@lru_cache(maxsize=32)
def font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """Pillow's built-in scalable font: nothing to install, the same on every machine."""
    return ImageFont.load_default(size=size)


WIDE_FONT = Path(__file__).resolve().parent / "fonts" / "DejaVuSans.ttf"
"""A font with the scripts Pillow's built-in one lacks (Cyrillic, Greek), shipped with the package (fonts/LICENSE)."""


@lru_cache(maxsize=32)
def _wide(size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(WIDE_FONT), size)


def font_for(text: str, size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """The font to write ``text`` in: the built-in one for plain ASCII (and "·", "…"), else one with the text's
    glyphs (the built-in font has no accented letters nor Cyrillic: they would be boxes)."""
    return font(size) if all(c.isascii() or c in "·…" for c in text) else _wide(size)


@lru_cache(maxsize=64)
def empty_board(grid: Grid, th: Theme, width: int, flipped: bool) -> Image.Image:
    """The board without pieces (cached; copy before drawing on it)."""
    lay = layout(grid, width, flipped)
    img = Image.new("RGB", (lay.width, lay.height), th.frame)
    draw = ImageDraw.Draw(img)
    for r in range(grid.size):
        for c in range(grid.size):
            x, y = lay.origin((r, c))
            colour = th.dark if (r, c) in grid.playable else th.light
            draw.rectangle((x, y, x + lay.cell - 1, y + lay.cell - 1), fill=colour)
    for cell, kind in grid.marks:
        _draw_mark(draw, lay, th, cell, kind)
    for cell, text in grid.labels:
        _draw_label(draw, lay, th, cell, text, th.square_text)
    edge = font(max(9, round(lay.margin * 0.6)))
    n = grid.size
    for c, name in enumerate(grid.files):
        col = n - 1 - c if flipped else c
        x = lay.margin + col * lay.cell + lay.cell // 2
        for y in (lay.bar + lay.margin // 2, lay.board_top + n * lay.cell + lay.margin // 2):
            draw.text((x, y), name, font=edge, fill=th.frame_text, anchor="mm")
    for r, name in enumerate(grid.ranks):
        row = n - 1 - r if flipped else r
        y = lay.board_top + row * lay.cell + lay.cell // 2
        for x in (lay.margin // 2, lay.margin + n * lay.cell + lay.margin // 2):
            draw.text((x, y), name, font=edge, fill=th.frame_text, anchor="mm")
    return img


def _draw_label(draw: ImageDraw.ImageDraw, lay: Layout, th: Theme, cell: Cell, text: str, colour: RGB) -> None:
    x, y = lay.origin(cell)
    pad = max(1, lay.cell // 24)
    draw.text((x + pad, y + pad), text, font=font(max(8, round(lay.cell * 0.2))), fill=colour)


def _draw_mark(draw: ImageDraw.ImageDraw, lay: Layout, th: Theme, cell: Cell, kind: str) -> None:
    """Special cells (Tablut): a hatched throne, tinted camps, ringed escapes."""
    x, y = lay.origin(cell)
    c = lay.cell
    if kind == "throne":
        draw.rectangle((x, y, x + c - 1, y + c - 1), fill=blend(th.highlight, th.light, 0.5))
        draw.line((x, y, x + c - 1, y + c - 1), fill=th.path, width=max(1, c // 30))
        draw.line((x, y + c - 1, x + c - 1, y), fill=th.path, width=max(1, c // 30))
    elif kind == "camp":
        draw.rectangle((x, y, x + c - 1, y + c - 1), fill=blend(th.dark, th.light, 0.5))
    elif kind == "escape":
        inset = c // 10
        draw.rectangle((x + inset, y + inset, x + c - 1 - inset, y + c - 1 - inset), outline=th.target,
                       width=max(1, c // 20))


@lru_cache(maxsize=128)
def sprite(piece: str, cell: int, th: Theme, ghost: bool) -> Image.Image:
    """An RGBA piece image of one cell's size; ``ghost``: faded, for a captured piece."""
    big = cell * SUPERSAMPLE
    img = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    white = piece.lower() == "w"
    fill, edge = (th.white_piece, th.white_edge) if white else (th.black_piece, th.black_edge)
    mid = big / 2
    r = big * PIECE_RADIUS
    line = max(SUPERSAMPLE, round(big * PIECE_EDGE))
    alpha = round(255 * th.ghost_alpha) if ghost else 255
    draw.ellipse((mid - r, mid - r, mid + r, mid + r), fill=fill + (alpha,), outline=edge + (alpha,), width=line)
    inner = r * PIECE_RING
    draw.ellipse((mid - inner, mid - inner, mid + inner, mid + inner), outline=edge + (alpha,),
                 width=max(1, line // 2))
    if piece.isupper():
        crown = (th.white_crown if white else th.black_crown) + (alpha,)
        draw.polygon(crown_points(mid, mid, r), fill=crown, outline=edge + (alpha,))
    return img.resize((cell, cell), Image.Resampling.LANCZOS)


def crown_points(cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    """A three-pointed crown filling the middle of a piece of radius ``r``."""
    left, right = cx - 0.52 * r, cx + 0.52 * r
    bottom, top, valley = cy + 0.34 * r, cy - 0.42 * r, cy - 0.02 * r
    return [(left, bottom), (left, top), (cx - 0.26 * r, valley), (cx, top - 0.08 * r),
            (cx + 0.26 * r, valley), (right, top), (right, bottom)]


def draw_scene(scene: Scene, th: Theme, width: int, flipped: bool) -> Image.Image:
    """The scene as an RGB image."""
    lay = layout(scene.grid, width, flipped)
    img = empty_board(scene.grid, th, width, flipped).copy()
    draw = ImageDraw.Draw(img)
    c = lay.cell
    labels = dict(scene.grid.labels)
    marked = set(scene.path) | ({scene.selected} if scene.selected else set())
    for cell in marked:
        x, y = lay.origin(cell)
        draw.rectangle((x, y, x + c - 1, y + c - 1), fill=th.highlight)
        if cell in labels:
            _draw_label(draw, lay, th, cell, labels[cell], th.frame)
    if len(scene.path) >= 2:
        draw.line([lay.centre(cell) for cell in scene.path], fill=th.path, width=max(2, c // 12), joint="curve")
    for cell, piece in scene.ghosts:
        img.paste(sprite(piece, c, th, True), lay.origin(cell), sprite(piece, c, th, True))
    for cell, piece in scene.pieces:
        s = sprite(piece, c, th, False)
        img.paste(s, lay.origin(cell), s)
    dot = max(3, c // 7)
    for cell in scene.targets:
        x, y = lay.centre(cell)
        draw.ellipse((x - dot, y - dot, x + dot, y + dot), fill=th.target, outline=th.frame)
    size = max(10, round(lay.bar * 0.5))
    if scene.caption:
        text = font_for(scene.caption, size)
        draw.text((lay.margin, lay.bar // 2), _fit(scene.caption, text, lay.width - 2 * lay.margin),
                  font=text, fill=th.frame_text, anchor="lm")
    if scene.turn:
        y = lay.height - lay.bar // 2
        r = round(lay.bar * 0.28)
        fill, edge = (th.white_piece, th.white_edge) if scene.turn == "w" else (th.black_piece, th.black_edge)
        draw.ellipse((lay.margin, y - r, lay.margin + 2 * r, y + r), fill=fill, outline=th.frame_text,
                     width=max(1, r // 5))
        draw.text((lay.margin + 3 * r, y), scene.turn_text, font=font_for(scene.turn_text, size), fill=th.frame_text,
                  anchor="lm")
    return img


PALETTE_COLOURS = 64


@lru_cache(maxsize=64)
def palette(grid: Grid, th: Theme, width: int, flipped: bool, kinds: str = "wWbB") -> Image.Image:
    """A palette image holding every colour a board can show (cached with the empty board).

    Drawn from a sample scene with each kind of piece, ghosts, a highlighted
    path with pieces on it, destination dots and text; mapping renders onto it
    is far quicker than quantizing each one, and the PNGs shrink to a third.
    """
    cells = sorted(grid.playable) or [(r, c) for r in range(grid.size) for c in range(grid.size)]
    n = len(kinds)
    pieces = tuple((cells[i], k) for i, k in enumerate(kinds))
    ghosts = tuple((cells[n + i], k) for i, k in enumerate(kinds))
    path = tuple(cells[2 * n: 3 * n])
    on_path = tuple((cell, k) for cell, k in zip(path, kinds))
    sample = Scene(grid, pieces + on_path, path, ghosts, frozenset(cells[3 * n: 3 * n + 2]), None, "w",
                   "White to move 0123456789", "Sample caption 0123456789")
    # the theme's own colours exactly, then the in-between shades of edges and text
    exact: list[RGB] = []
    for colour in (th.light, th.dark, th.frame, th.frame_text, th.square_text, th.white_piece, th.white_edge,
                   th.black_piece, th.black_edge, th.white_crown, th.black_crown, th.highlight, th.path, th.target,
                   blend(th.highlight, th.light, 0.5), blend(th.dark, th.light, 0.5)):
        exact.append(colour)
    for colour in (th.white_piece, th.white_edge, th.black_piece, th.black_edge, th.white_crown, th.black_crown):
        exact += [blend(colour, th.dark, th.ghost_alpha), blend(colour, th.path, th.ghost_alpha)]
    exact = list(dict.fromkeys(exact))
    shades = draw_scene(sample, th, width, flipped).quantize(colors=PALETTE_COLOURS - len(exact),
                                                              method=Image.Quantize.MEDIANCUT)
    rest = (shades.getpalette() or [])[: 3 * (PALETTE_COLOURS - len(exact))]
    pal = Image.new("P", (1, 1))
    pal.putpalette([x for colour in exact for x in colour] + rest)
    return pal


def indexed(img: Image.Image, grid: Grid, th: Theme, width: int, flipped: bool) -> Image.Image:
    """The image mapped onto its board's palette (for PNG and GIF)."""
    return img.quantize(palette=palette(grid, th, width, flipped), dither=Image.Dither.NONE)


def _fit(text: str, f: ImageFont.FreeTypeFont | ImageFont.ImageFont, width: int) -> str:
    """The text, shortened with an ellipsis to fit ``width`` pixels."""
    if f.getlength(text) <= width:
        return text
    while text and f.getlength(text + "…") > width:
        text = text[:-1]
    return text + "…"
