"""A game's evaluation graph as a PNG, the way lichess and lidraughts draw it.

    png = render_graph(analysis)                        # an engine.analysis.Analysis
    png = render_graph(analysis, GraphOptions(width=800, height=240))
    points = graph_points(analysis, 600, 200)          # the pixel (x, y) of each position, the start's first

x is the ply (the start at the left, the final position at the right); y is
White's winning chances (``engine.analysis.winning_chances`` with the game's
``chances_scale``), +1 at the top and -1 at the bottom, so that a big
advantage flattens out instead of running off the scale; a forced win or
loss (beyond ``ENDING_BOUND``) is drawn at +-1. The area between the curve
and the middle line is light where White is better and dark where Black is.
A dot in ``JUDGEMENT_COLOURS`` marks the position after each judged move.

The image draws its own background (a dark slate card, mid-grey plot), so
it reads on chat clients' dark and light backgrounds alike. A pure function:
an analysis and options in, PNG bytes out.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

from PIL import Image, ImageDraw, ImageFont

from engine import game_type
from engine.analysis import Analysis, decisive, winning_chances
from renders.board import PNG_COMPRESSION
from renders.drawing import SUPERSAMPLE, _fit, font, font_for
from renders.themes import RGB

JUDGEMENT_COLOURS: dict[str, str] = {"inaccuracy": "#56b4e9", "mistake": "#e69f00", "blunder": "#db3031"}
"""Each judgement's mark, as CSS writes it, so that the web page's graph and move list can use the same: sky
blue and orange from the Okabe-Ito palette (told apart under colour blindness) and a red, as lichess marks them."""

FRAME: RGB = (43, 45, 49)
"""The card around the plot: caption and move numbers."""
FRAME_TEXT: RGB = (222, 224, 227)
PLOT: RGB = (104, 108, 116)
"""The plot where neither side's area reaches."""
WHITE_AREA: RGB = (238, 236, 230)
BLACK_AREA: RGB = (22, 23, 26)
MIDLINE: RGB = (160, 164, 171)
"""Equal chances, across the plot."""
GRID: RGB = (118, 122, 130)
"""Faint lines at the numbered moves (seen only where no area covers them)."""
TICK_SPACING = 44
"""Pixels at least between two move numbers along the x axis."""
TICK_STEPS = (1, 2, 5, 10, 20, 25, 50, 100, 200, 500)


@dataclass(frozen=True)
class GraphOptions:
    """How to draw a graph."""

    width: int = 600
    height: int = 200
    caption: str | None = None
    """The line above the graph; None: the game's name and what the graph shows ('English · White's winning
    chances'), '' for none."""
    legend: dict[str, str] | None = None
    """The legend's word for each judgement (a translation of them); None: its name."""

    def __post_init__(self) -> None:
        if not 160 <= self.width <= 2000:
            raise ValueError("the width must be between 160 and 2000 pixels")
        if not 80 <= self.height <= 1000:
            raise ValueError("the height must be between 80 and 1000 pixels")


@dataclass(frozen=True)
class GraphLayout:
    """Pixel geometry of a graph of ``width`` x ``height``: the plot's box, with room above and below for
    text, and inside it a margin so that a dot at +-1 stays whole."""

    width: int
    height: int

    @property
    def bar(self) -> int:
        """The height of the caption bar above the plot and of the move numbers' bar below it."""
        return max(14, round(self.height * 0.11))

    @property
    def side(self) -> int:
        return max(6, round(self.width * 0.015))

    @property
    def dot(self) -> float:
        """The radius of a judged move's dot."""
        return max(3.0, self.height * 0.022)

    @property
    def box(self) -> tuple[int, int, int, int]:
        """The plot's left, top, right and bottom pixels."""
        return self.side, self.bar, self.width - self.side, self.height - self.bar

    @property
    def mid(self) -> float:
        _, top, _, bottom = self.box
        return (top + bottom) / 2

    def x(self, ply: int, count: int) -> float:
        """The x of position ``ply`` of ``count`` positions."""
        left, _, right, _ = self.box
        inset = self.dot + 1
        if count < 2:
            return left + inset
        return left + inset + (right - left - 2 * inset) * ply / (count - 1)

    def y(self, chances: float) -> float:
        """The y of White's winning chances (-1 to +1)."""
        _, top, _, bottom = self.box
        half = (bottom - top) / 2 - self.dot - 1
        return self.mid - half * max(-1.0, min(1.0, chances))


def white_chances(score: int, scale: float) -> float:
    """White's winning chances of a score from White's side: a forced result counts as certain."""
    if decisive(score):
        return 1.0 if score > 0 else -1.0
    return winning_chances(score, scale)


def graph_points(analysis: Analysis, width: int, height: int) -> list[tuple[float, float]]:
    """The pixel (x, y) of each position of the game (``analysis.scores``' order) on a graph of that size."""
    lay = GraphLayout(width, height)
    scale = game_type(analysis.game).chances_scale
    count = len(analysis.scores)
    return [(lay.x(ply, count), lay.y(white_chances(score, scale))) for ply, score in enumerate(analysis.scores)]


def move_numbers(analysis: Analysis, width: int, height: int) -> list[tuple[int, int]]:
    """(move number, position) pairs to write along the x axis: the position where that move starts, sparsely
    enough that the numbers stand at least ``TICK_SPACING`` pixels apart."""
    count = len(analysis.scores)
    if count < 2:
        return []
    lay = GraphLayout(width, height)
    per_move = 2 * (lay.x(1, count) - lay.x(0, count))
    step = next((s for s in TICK_STEPS if s * per_move >= TICK_SPACING), TICK_STEPS[-1])
    first = game_type(analysis.game).first
    offset = 0 if not analysis.moves or analysis.moves[0].mover == first else 1
    ticks = []
    for number in range(step, (count + offset) // 2 + 2, step):
        ply = 2 * (number - 1) - offset
        if 0 <= ply < count:
            ticks.append((number, ply))
    return ticks


def render_graph(analysis: Analysis, options: GraphOptions | None = None) -> bytes:
    """The evaluation graph of a game as PNG bytes."""
    options = options or GraphOptions()
    img = graph_image(analysis, options)
    buf = io.BytesIO()
    img.save(buf, "PNG", compress_level=PNG_COMPRESSION)
    return buf.getvalue()


def graph_image(analysis: Analysis, options: GraphOptions) -> Image.Image:
    """The graph as an RGB image (drawn ``SUPERSAMPLE`` times larger and reduced, for smooth edges)."""
    w, h, s = options.width, options.height, SUPERSAMPLE
    lay = GraphLayout(w, h)
    img = Image.new("RGB", (w * s, h * s), FRAME)
    draw = ImageDraw.Draw(img)
    left, top, right, bottom = (v * s for v in lay.box)
    draw.rectangle((left, top, right - 1, bottom - 1), fill=PLOT)
    ticks = move_numbers(analysis, w, h)
    for _, ply in ticks:
        x = lay.x(ply, len(analysis.scores)) * s
        draw.line((x, top, x, bottom - 1), fill=GRID, width=s)

    points = [(x * s, y * s) for x, y in graph_points(analysis, w, h)]
    mid = round(lay.mid * s)
    if len(points) >= 2:
        area = Image.new("L", img.size, 0)
        ImageDraw.Draw(area).polygon([(points[0][0], mid), *points, (points[-1][0], mid)], fill=255)
        img.paste(WHITE_AREA, (left, top, right, mid), area.crop((left, top, right, mid)))
        img.paste(BLACK_AREA, (left, mid, right, bottom), area.crop((left, mid, right, bottom)))
    draw.line((left, mid, right - 1, mid), fill=MIDLINE, width=s)

    r = lay.dot * s
    for move in analysis.moves:
        if move.judgement is None or move.ply + 1 >= len(points):
            continue
        x, y = points[move.ply + 1]
        draw.ellipse((x - r, y - r, x + r, y + r), fill=JUDGEMENT_COLOURS[move.judgement], outline=FRAME,
                     width=max(1, round(r / 4)))

    bar_mid = lay.bar * s / 2
    caption = _caption(analysis) if options.caption is None else options.caption
    words = {name: (options.legend or {}).get(name, name) for name in JUDGEMENT_COLOURS}
    text = font_for(caption + "".join(words.values()), max(9, round(lay.bar * 0.62)) * s)
    legend = _legend(draw, text, right, bar_mid, r, words, dry=True)
    if text.getlength(caption) + 4 * r + legend <= right - left:
        _legend(draw, text, right, bar_mid, r, words, dry=False)
    if caption:  # alone, shortened if need be, where both do not fit
        draw.text((left, bar_mid), _fit(caption, text, right - left), font=text, fill=FRAME_TEXT, anchor="lm")

    numbers = font(max(8, round(lay.bar * 0.56)) * s)
    below = (h * s + bottom) / 2
    for number, ply in ticks:
        x = lay.x(ply, len(analysis.scores)) * s
        draw.text((x, below), str(number), font=numbers, fill=FRAME_TEXT, anchor="mm")
    return img.reduce(s)  # the mean of each s x s block: smooth edges, exact colours inside


def _caption(analysis: Analysis) -> str:
    return f"{analysis.game.capitalize()} · White's winning chances"


def _legend(draw: ImageDraw.ImageDraw, text: ImageFont.FreeTypeFont | ImageFont.ImageFont, right: float, y: float,
            r: float, words: dict[str, str], dry: bool) -> float:
    """Write the legend (a dot and ``words`` for each judgement) ending at ``right``; its width. ``dry``: measure
    only."""
    gap = 2.5 * r
    width = sum(3 * r + text.getlength(words[name]) for name in JUDGEMENT_COLOURS) + gap * (len(JUDGEMENT_COLOURS) - 1)
    x = right - width
    for name, colour in JUDGEMENT_COLOURS.items():
        if not dry:
            draw.ellipse((x, y - r, x + 2 * r, y + r), fill=colour)
            draw.text((x + 3 * r, y), words[name], font=text, fill=FRAME_TEXT, anchor="lm")
        x += 3 * r + text.getlength(words[name]) + gap
    return width
