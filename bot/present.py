"""A core ``Board`` drawn for people: PNG bytes or a text diagram. Front ends call these (the PNG in a thread)."""

from __future__ import annotations

from bot.tables import Board
from engine import start_position, variant
from engine.games import AnyGame
from engine.tablut import TablutGame, TablutPosition
from engine.tablut import start_position as tablut_start
from renders import RenderOptions, render_gif, render_png, text_diagram
from renders.tablut import render_tablut_gif, render_tablut_png, tablut_text

REPLAY_WIDTH = 360  # pixels; a replay of a long game stays a few MB


def board_png(board: Board, theme: str = "wood") -> bytes:
    options = RenderOptions(theme=theme, flipped=board.flipped, caption=board.caption)
    if isinstance(board.position, TablutPosition):
        return render_tablut_png(board.position, options, last_move=board.last_move,  # type: ignore[arg-type]
                                 before=board.before)  # type: ignore[arg-type]
    return render_png(board.position, options, last_move=board.last_move, before=board.before)  # type: ignore[arg-type]


def board_text(board: Board) -> str:
    if isinstance(board.position, TablutPosition):
        return tablut_text(board.position, last_move=board.last_move, flipped=board.flipped)  # type: ignore[arg-type]
    return text_diagram(board.position, last_move=board.last_move, flipped=board.flipped)  # type: ignore[arg-type]


def replay_gif(game: AnyGame) -> bytes:
    """The whole game as an animated GIF."""
    options = RenderOptions(width=REPLAY_WIDTH, caption=game.variant.name.capitalize())
    if isinstance(game, TablutGame):
        return render_tablut_gif(game, options)
    return render_gif(game, options)


def warm_up() -> None:
    """Draw one board of each size and orientation, so the first real board pays no font or cache set-up
    (the first render takes about 0.5 s, later ones about 5 ms)."""
    for name in ("english", "international", "russian"):
        for flipped in (False, True):
            board_png(Board(0, start_position(variant(name)), flipped=flipped, caption="warm-up"))
    for flipped in (False, True):
        board_png(Board(0, tablut_start(), flipped=flipped, caption="warm-up"))
