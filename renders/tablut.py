"""Tablut boards as PNG images: the 9x9 board with its throne, camps and escape squares.

    png = render_tablut_png(position, RenderOptions(), last_move=move, before=previous_position)

White soldiers are white discs, Black's black discs, the king a white disc
with a crown; the throne is hatched, camps tinted, escape squares ringed.
Coordinates (a-i, 1-9) run along the edges.
"""

from __future__ import annotations

import io
from dataclasses import replace
from functools import lru_cache

from PIL import Image

from engine.pdn import move_label
from engine.tablut import CAMP, ESCAPES, THRONE, TablutGame, TablutMove, TablutPosition, legal_moves
from engine.variants import Color
from renders.draughts import GIF_WIDTH, PNG_COMPRESSION, RenderOptions, animate
from renders.drawing import draw_scene, indexed
from renders.scene import Cell, Grid, Scene
from renders.themes import theme

PIECES = {"W": "w", "B": "b", "K": "W"}  # Tablut piece -> sprite kind (the king: a crowned white piece)


def cell_of(sq: int) -> Cell:
    """Row 9 at the top, as White's opponent sits."""
    return 8 - sq // 9, sq % 9


@lru_cache(maxsize=1)
def grid() -> Grid:
    marks = [(cell_of(THRONE), "throne")]
    marks += [(cell_of(sq), "camp") for sq in range(81) if CAMP[sq] >= 0]
    marks += [(cell_of(sq), "escape") for sq in sorted(ESCAPES)]
    return Grid(9, frozenset(), (), "abcdefghi", tuple(str(9 - r) for r in range(9)), tuple(marks))


def scene(position: TablutPosition, options: RenderOptions = RenderOptions(), last_move: TablutMove | None = None,
          before: TablutPosition | None = None) -> Scene:
    pieces = tuple((cell_of(sq), PIECES[p]) for sq in range(81) if (p := position.piece_at(sq)))
    path: tuple[Cell, ...] = ()
    ghosts: tuple[tuple[Cell, str], ...] = ()
    if last_move is not None:
        path = (cell_of(last_move.start), cell_of(last_move.end))
        if before is not None:
            ghosts = tuple((cell_of(sq), PIECES[p]) for sq in last_move.captures if (p := before.piece_at(sq)))
    turn_text = f"{position.turn} to move" if legal_moves(position) else "game over"
    turn = ("w" if position.turn == Color.WHITE else "b") if options.show_turn else ""
    return Scene(grid(), pieces, path, ghosts, frozenset(), None, turn, turn_text if options.show_turn else "",
                 options.caption)


def render_tablut_image(position: TablutPosition, options: RenderOptions = RenderOptions(), *,
                        last_move: TablutMove | None = None, before: TablutPosition | None = None) -> Image.Image:
    s = scene(position, options, last_move, before)
    return draw_scene(s, theme(options.theme), options.width, options.flipped)


def _indexed(position: TablutPosition, options: RenderOptions, last_move: TablutMove | None = None,
             before: TablutPosition | None = None) -> Image.Image:
    img = render_tablut_image(position, options, last_move=last_move, before=before)
    return indexed(img, grid(), theme(options.theme), options.width, options.flipped)


def render_tablut_png(position: TablutPosition, options: RenderOptions = RenderOptions(), *,
                      last_move: TablutMove | None = None, before: TablutPosition | None = None) -> bytes:
    """The board as PNG bytes; ``before`` (the position before ``last_move``) shows captured pieces as ghosts."""
    buf = io.BytesIO()
    _indexed(position, options, last_move, before).save(buf, "PNG", compress_level=PNG_COMPRESSION)
    return buf.getvalue()


def render_tablut_gif(game: TablutGame, options: RenderOptions = RenderOptions(width=GIF_WIDTH)) -> bytes:
    """The whole game as an animated GIF, one frame per ply, each captioned with its move."""
    frames = [_indexed(game.positions[0], options)]
    for ply, (before, move, after) in enumerate(zip(game.positions, game.moves, game.positions[1:])):
        said = f"{move_label(game, ply)} {move}"
        caption = f"{options.caption} · {said}" if options.caption else said
        frames.append(_indexed(after, replace(options, caption=caption), move, before))
    return animate(frames)


def tablut_text(position: TablutPosition, *, last_move: TablutMove | None = None, flipped: bool = False) -> str:
    """The board as monospace text: W white soldier, K king, B black soldier; the throne is +, camps #, escape
    squares :, other empty squares .; the last move's squares bracketed, captured pieces x."""
    path = {last_move.start, last_move.end} if last_move else set()
    taken = set(last_move.captures) if last_move else set()
    rows = range(9) if flipped else range(8, -1, -1)
    cols = list(range(8, -1, -1) if flipped else range(9))
    lines = []
    for row in rows:
        cells = []
        for col in cols:
            sq = row * 9 + col
            text = position.piece_at(sq) or ("x" if sq in taken else "+" if sq == THRONE
                                               else "#" if CAMP[sq] >= 0 else ":" if sq in ESCAPES else ".")
            cells.append(f"[{text}]" if sq in path else f" {text} ")
        lines.append(f"{row + 1} {''.join(cells)}".rstrip())
    lines.append("  " + "".join(f" {'abcdefghi'[c]} " for c in cols).rstrip())
    lines.append(f"{position.turn} to move")
    return "\n".join(lines)
