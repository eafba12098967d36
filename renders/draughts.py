"""Draughts boards as PNG images and GIF replays.

    png = render_png(position, RenderOptions(theme="contrast", flipped=True),
                     last_move=move, before=previous_position)
    gif = render_gif(game)

Pure functions: a position and options in, image bytes out; nothing is kept
between calls except the caches of empty boards and piece sprites.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, replace
from functools import lru_cache

from PIL import Image

from engine import Color, Game, Move, Position, Variant, format_move, legal_moves
from engine.pdn import move_label
from renders.drawing import draw_scene, indexed
from renders.scene import Cell, Grid, Scene
from renders.themes import theme

LABELS = ("numbers", "coordinates", "none")


@dataclass(frozen=True)
class RenderOptions:
    """How to draw a board."""

    width: int = 720
    """Image width in pixels (the height follows); about 640-800 reads well on a phone."""
    theme: str = "wood"
    """'wood' or 'contrast' (high contrast, colour-blind safe)."""
    flipped: bool = False
    """Draw the board from Black's side (Black's men at the bottom)."""
    labels: str | None = None
    """'numbers' (on the dark squares), 'coordinates' (on the edges) or 'none'; None: the variant's own."""
    caption: str = ""
    """A line above the board: players, move number, result."""
    show_turn: bool = True
    """Say whose turn it is below the board."""

    def __post_init__(self) -> None:
        theme(self.theme)  # raises on an unknown theme
        if self.labels is not None and self.labels not in LABELS:
            raise ValueError(f"unknown labels {self.labels!r}; choose one of {', '.join(LABELS)}")
        if not 120 <= self.width <= 2000:
            raise ValueError("the width must be between 120 and 2000 pixels")


def cell_of(v: Variant, square: int) -> Cell:
    return v.row_col(square)


@lru_cache(maxsize=16)
def grid(v: Variant, labels: str) -> Grid:
    dark = frozenset(cell_of(v, sq) for sq in range(1, v.squares + 1))
    if labels == "numbers":
        return Grid(v.size, dark, tuple((cell_of(v, sq), str(sq)) for sq in range(1, v.squares + 1)))
    if labels == "coordinates":
        return Grid(v.size, dark, (), "abcdefghij"[: v.size], tuple(str(v.size - r) for r in range(v.size)))
    return Grid(v.size, dark)


def scene(position: Position, options: RenderOptions = RenderOptions(), last_move: Move | None = None,
          before: Position | None = None, destinations_of: int | None = None) -> Scene:
    """What to draw: the pieces, the last move's path and captures, and optional destinations."""
    v = position.variant
    labels = options.labels or ("coordinates" if v.coordinates else "numbers")
    pieces = tuple((cell_of(v, sq), p) for sq in range(1, v.squares + 1) if (p := position.piece_at(sq)))
    path: tuple[Cell, ...] = ()
    ghosts: tuple[tuple[Cell, str], ...] = ()
    if last_move is not None:
        squares = last_move.path or (last_move.start, last_move.end)
        path = tuple(cell_of(v, sq) for sq in squares)
        if before is not None:
            ghosts = tuple((cell_of(v, sq), p) for sq in last_move.captures if (p := before.piece_at(sq)))
    targets: frozenset[Cell] = frozenset()
    selected = None
    if destinations_of is not None:
        selected = cell_of(v, destinations_of)
        targets = frozenset(cell_of(v, m.end) for m in legal_moves(position) if m.start == destinations_of)
    turn_text = f"{position.turn} to move"
    if not legal_moves(position):
        turn_text = f"{position.turn} has no move"
    turn = ("w" if position.turn == Color.WHITE else "b") if options.show_turn else ""
    return Scene(grid(v, labels), pieces, path, ghosts, targets, selected, turn,
                 turn_text if options.show_turn else "", options.caption)


def render_image(position: Position, options: RenderOptions = RenderOptions(), *, last_move: Move | None = None,
                 before: Position | None = None, destinations_of: int | None = None) -> Image.Image:
    s = scene(position, options, last_move, before, destinations_of)
    return draw_scene(s, theme(options.theme), options.width, options.flipped)


def render_png(position: Position, options: RenderOptions = RenderOptions(), *, last_move: Move | None = None,
               before: Position | None = None, destinations_of: int | None = None) -> bytes:
    """The board as PNG bytes. ``before`` (the position before ``last_move``) lets captured pieces show as ghosts."""
    img = _indexed(position, options, last_move=last_move, before=before, destinations_of=destinations_of)
    buf = io.BytesIO()
    img.save(buf, "PNG", compress_level=PNG_COMPRESSION)
    return buf.getvalue()


# zlib level for PNGs: 3 encodes a palette board in about 3 ms; 6 takes three times as long for 30% less.
PNG_COMPRESSION = 3


def _indexed(position: Position, options: RenderOptions, **marks) -> Image.Image:
    s = scene(position, options, marks.get("last_move"), marks.get("before"), marks.get("destinations_of"))
    th = theme(options.theme)
    return indexed(draw_scene(s, th, options.width, options.flipped), s.grid, th, options.width, options.flipped)

FRAME_MS = 900
LAST_FRAME_MS = 4000
GIF_WIDTH = 480


def render_gif(game: Game, options: RenderOptions = RenderOptions(width=GIF_WIDTH), frame_ms: int = FRAME_MS,
               last_frame_ms: int = LAST_FRAME_MS) -> bytes:
    """The whole game as an animated GIF: the start, then one frame per ply, with a pause on the last.

    Each frame's caption adds the move just played (``12... 23x14``) to ``options.caption``.
    """
    frames = [_indexed(game.positions[0], options)]
    for ply, (before, move, after) in enumerate(zip(game.positions, game.moves, game.positions[1:])):
        said = f"{move_label(game, ply)} {format_move(before, move)}"
        caption = f"{options.caption} · {said}" if options.caption else said
        frames.append(_indexed(after, replace(options, caption=caption), last_move=move, before=before))
    return animate(frames, frame_ms, last_frame_ms)


def animate(frames: list[Image.Image], frame_ms: int = FRAME_MS, last_frame_ms: int = LAST_FRAME_MS) -> bytes:
    """Palette frames as an animated GIF that loops, pausing on the last frame."""
    buf = io.BytesIO()
    durations = [frame_ms] * (len(frames) - 1) + [last_frame_ms]
    frames[0].save(buf, "GIF", save_all=True, append_images=frames[1:], duration=durations, loop=0,
                    optimize=False)
    return buf.getvalue()
