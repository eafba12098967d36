"""A core ``Board`` drawn for people: PNG bytes or a text diagram. Front ends call these (the PNG in a thread)."""

from __future__ import annotations

from bot.tables import Board
from engine import Game, start_position, variant
from renders import RenderOptions, render_gif, render_png, text_diagram

REPLAY_WIDTH = 360  # pixels; a replay of a long game stays a few MB


def board_png(board: Board, theme: str = "wood") -> bytes:
    options = RenderOptions(theme=theme, flipped=board.flipped, caption=board.caption)
    return render_png(board.position, options, last_move=board.last_move, before=board.before)


def board_text(board: Board) -> str:
    return text_diagram(board.position, last_move=board.last_move, flipped=board.flipped)


def replay_gif(game: Game) -> bytes:
    """The whole game as an animated GIF."""
    return render_gif(game, RenderOptions(width=REPLAY_WIDTH, caption=game.variant.name.capitalize()))


def warm_up() -> None:
    """Draw one board of each size and orientation, so the first real board pays no font or cache set-up
    (the first render takes about 0.5 s, later ones about 5 ms)."""
    for name in ("english", "international", "russian"):
        for flipped in (False, True):
            board_png(Board(0, start_position(variant(name)), flipped=flipped, caption="warm-up"))
