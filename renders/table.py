"""A table as a PNG: a tournament's standings, drawn on the same dark card as the evaluation graph so it reads
on chat clients' dark and light backgrounds alike.

    png = render_table("Tournament #3 · after round 2", ["#", "Player", "Points"], [["1", "ana", "2"], ...])

The first column and every column after the second are right-aligned (places, points, tie-breaks); the second
(names) is left-aligned and cut with an ellipsis where too long. Rows in ``marked`` are drawn brighter (the
podium, say). A pure function: words in, PNG bytes out."""

from __future__ import annotations

import io
from collections.abc import Collection, Sequence

from PIL import Image, ImageDraw

from renders.board import PNG_COMPRESSION
from renders.drawing import _fit, font_for
from renders.graph import FRAME, FRAME_TEXT, PLOT
from renders.themes import RGB

ROW = 30  # pixels a row
PAD = 14
TEXT_SIZE = 17
TITLE_SIZE = 20
NAME_WIDTH = 240  # the names' column at most
STRIPE: RGB = (52, 54, 59)
"""Every other row's ground, so a long table reads across."""
MARKED: RGB = (255, 214, 102)
"""The rows ``marked``: a gold."""
MAX_ROWS = 40


def render_table(title: str, header: Sequence[str], rows: Sequence[Sequence[str]],
                 marked: Collection[int] = ()) -> bytes:
    """The table as PNG bytes: ``title`` above, ``header`` then ``rows`` (at most ``MAX_ROWS``)."""
    rows = list(rows)[:MAX_ROWS]
    every = [list(header), *map(list, rows)]
    columns = max(len(r) for r in every)
    widths = []
    for c in range(columns):
        cells = [r[c] for r in every if c < len(r)]
        wide = max(_width(cell, TEXT_SIZE) for cell in cells) + PAD
        widths.append(min(wide, NAME_WIDTH) if c == 1 else wide)
    width = max(sum(widths) + 2 * PAD, _width(title, TITLE_SIZE) + 2 * PAD)
    height = PAD + ROW + ROW * len(every) + PAD
    img = Image.new("RGB", (width, height), FRAME)
    draw = ImageDraw.Draw(img)
    draw.text((PAD, PAD + ROW // 2), title, font=font_for(title, TITLE_SIZE), fill=FRAME_TEXT, anchor="lm")
    top = PAD + ROW
    draw.rectangle((PAD, top, width - PAD - 1, top + ROW - 1), fill=PLOT)
    for k, row in enumerate(every):
        y = top + k * ROW
        if k and k % 2 == 0:
            draw.rectangle((PAD, y, width - PAD - 1, y + ROW - 1), fill=STRIPE)
        colour = MARKED if k - 1 in marked else FRAME_TEXT
        x = PAD
        for c, cell in enumerate(row):
            f = font_for(cell, TEXT_SIZE)
            if c == 1:
                draw.text((x + PAD // 2, y + ROW // 2), _fit(cell, f, widths[c] - PAD), font=f, fill=colour,
                          anchor="lm")
            else:
                draw.text((x + widths[c] - PAD // 2, y + ROW // 2), cell, font=f, fill=colour, anchor="rm")
            x += widths[c]
    buf = io.BytesIO()
    img.save(buf, "PNG", compress_level=PNG_COMPRESSION)
    return buf.getvalue()


def _width(text: str, size: int) -> int:
    return round(font_for(text, size).getlength(text))
