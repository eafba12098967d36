"""Boards of every game as PNG images and GIF replays, drawn from what the game says a board shows::

    english = game_type("english")
    png = render_png(english, position, RenderOptions(theme="contrast", flipped=True),
                     last_move=move, before=previous_position)
    gif = render_gif(game)            # a game record: one frame per ply

Pure functions: a game, a position and options in, image bytes out; nothing
is kept between calls except the caches of empty boards and piece sprites.
The game (``engine.game.GameType``) gives the grid, the pieces and a move's
cells; nothing here knows which game it draws.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, replace
from collections.abc import Sequence
from typing import Any

from PIL import Image

from engine import Color, GameRecord, GameType
from engine.game import LABELS
from engine.records import move_label
from renders.drawing import draw_scene, indexed
from renders.scene import Cell, Scene
from renders.themes import theme

# zlib level for PNGs: 3 encodes a palette board in about 3 ms; 6 takes three times as long for 30% less.
PNG_COMPRESSION = 3
FRAME_MS = 900
LAST_FRAME_MS = 4000
GIF_WIDTH = 480


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
    """'numbers' (on the dark squares), 'coordinates' (on the edges) or 'none'; None: the game's own."""
    caption: str = ""
    """A line above the board: players, move number, result."""
    show_turn: bool = True
    """Say whose turn it is below the board."""
    status: str | None = None
    """The words below the board (a translation of them); None: the game's own, in English."""

    def __post_init__(self) -> None:
        theme(self.theme)  # raises on an unknown theme
        if self.labels is not None and self.labels not in LABELS:
            raise ValueError(f"unknown labels {self.labels!r}; choose one of {', '.join(LABELS)}")
        if not 120 <= self.width <= 2000:
            raise ValueError("the width must be between 120 and 2000 pixels")


def scene(game: GameType[Any, Any], position: Any, options: RenderOptions = RenderOptions(), last_move: Any = None,
          before: Any = None, destinations_of: int | None = None) -> Scene:
    """What to draw: the pieces, the last move's path and captures, and optional destinations of one piece."""
    path: tuple[Cell, ...] = ()
    ghosts: tuple[tuple[Cell, str], ...] = ()
    if last_move is not None:
        path = game.path(last_move)
        if before is not None:
            was = dict(game.pieces(before))
            ghosts = tuple((cell, was[cell]) for sq in last_move.captures if (cell := game.cell(sq)) in was)
    targets: frozenset[Cell] = frozenset()
    selected = None
    if destinations_of is not None:
        selected = game.cell(destinations_of)
        targets = frozenset(game.cell(m.end) for m in game.legal_moves(position) if m.start == destinations_of)
    turn = ("w" if position.turn == Color.WHITE else "b") if options.show_turn else ""
    return Scene(game.grid(options.labels), game.pieces(position), path, ghosts, targets, selected, turn,
                 (game.status(position) if options.status is None else options.status) if options.show_turn else "",
                 options.caption)


def render_image(game: GameType[Any, Any], position: Any, options: RenderOptions = RenderOptions(), *,
                 last_move: Any = None, before: Any = None, destinations_of: int | None = None) -> Image.Image:
    s = scene(game, position, options, last_move, before, destinations_of)
    return draw_scene(s, theme(options.theme), options.width, options.flipped)


def render_png(game: GameType[Any, Any], position: Any, options: RenderOptions = RenderOptions(), *,
               last_move: Any = None, before: Any = None, destinations_of: int | None = None) -> bytes:
    """The board as PNG bytes. ``before`` (the position before ``last_move``) lets captured pieces show as ghosts."""
    img = _indexed(scene(game, position, options, last_move, before, destinations_of), options)
    buf = io.BytesIO()
    img.save(buf, "PNG", compress_level=PNG_COMPRESSION)
    return buf.getvalue()


def _indexed(s: Scene, options: RenderOptions) -> Image.Image:
    th = theme(options.theme)
    return indexed(draw_scene(s, th, options.width, options.flipped), s.grid, th, options.width, options.flipped)


def render_gif(game: GameRecord[Any, Any], options: RenderOptions = RenderOptions(width=GIF_WIDTH),
               frame_ms: int = FRAME_MS, last_frame_ms: int = LAST_FRAME_MS,
               statuses: Sequence[str] | None = None) -> bytes:
    """The whole game as an animated GIF: the start, then one frame per ply, with a pause on the last.

    Each frame's caption adds the move just played (``12... 23x14``) to ``options.caption``; ``statuses``: the
    words under each frame, one a position (a translation of them; None: the game's own).
    """
    kind = game.type
    shown = [options] * len(game.positions) if statuses is None else [replace(options, status=status)
                                                                       for status in statuses]
    frames = [_indexed(scene(kind, game.positions[0], shown[0]), options)]
    for ply, (before, move, after) in enumerate(zip(game.positions, game.moves, game.positions[1:])):
        said = f"{move_label(game, ply)} {kind.write_move(before, move)}"
        caption = f"{options.caption} · {said}" if options.caption else said
        frames.append(_indexed(scene(kind, after, replace(shown[ply + 1], caption=caption), move, before), options))
    return animate(frames, frame_ms, last_frame_ms)


def animate(frames: list[Image.Image], frame_ms: int = FRAME_MS, last_frame_ms: int = LAST_FRAME_MS) -> bytes:
    """Palette frames as an animated GIF that loops, pausing on the last frame."""
    buf = io.BytesIO()
    durations = [frame_ms] * (len(frames) - 1) + [last_frame_ms]
    frames[0].save(buf, "GIF", save_all=True, append_images=frames[1:], duration=durations, loop=0,
                    optimize=False)
    return buf.getvalue()
