"""A core ``Board`` drawn for people: PNG bytes or a text diagram. Front ends call these (the PNG in a thread)."""

from __future__ import annotations

from typing import Any

from bot.clocks import clock_words
from bot.replies import Board, Standings
from bot.words import JUDGEMENTS, game_name, position_status
from bot.translation import ENGLISH, render, tr
from engine import GameRecord, game_type
from engine.games import GAMES
from engine.analysis import Analysis
from renders import (GraphOptions, RenderOptions, render_gif, render_graph, render_png, render_table,
                     text_diagram)

REPLAY_WIDTH = 360  # pixels; a replay of a long game stays a few MB


def board_png(board: Board, theme: str = "wood", language: str = ENGLISH) -> bytes:
    """The board as a PNG, its caption and status in ``language`` (the clocks after the status, in a timed
    game)."""
    status = render(board.status, language) if board.status else None
    if board.clocks is not None:
        status = " · ".join(part for part in (status, render(clock_line(board), language)) if part)
    options = RenderOptions(theme=theme, flipped=board.flipped, caption=render(board.caption, language),
                            status=status)
    return render_png(game_type(board.game), board.position, options, last_move=board.last_move,
                      before=board.before)


def board_text(board: Board, language: str = ENGLISH) -> str:
    """The board as a text diagram, its last lines in ``language`` (the clocks last, in a timed game)."""
    status = render(board.status, language) if board.status and language != ENGLISH else None
    diagram = text_diagram(game_type(board.game), board.position, last_move=board.last_move, flipped=board.flipped,
                           status=status)
    return diagram if board.clocks is None else f"{diagram}\n{render(clock_line(board), language)}"


def clock_line(board: Board, named: bool = True) -> str:
    """A timed game's clocks as the board shows them: "Clocks: White 4:59, Black 0:07.3" (without "Clocks:" where
    they are ``named`` otherwise, as a field of their own)."""
    assert board.clocks is not None
    white, black = (clock_words(seconds) for seconds in board.clocks)
    if not named:
        return tr("White {white}, Black {black}", white=white, black=black)
    return tr("Clocks: White {white}, Black {black}", white=white, black=black)


def graph_png(analysis: Analysis, language: str = ENGLISH) -> bytes:
    """A game's evaluation graph, its mistakes marked, its words in ``language``."""
    caption = tr("{game} · White's winning chances", game=game_name(analysis.game))
    legend = {name: render(word, language) for name, word in JUDGEMENTS.items()}
    return render_graph(analysis, GraphOptions(caption=render(caption, language), legend=legend))


def standings_png(standings: Standings, language: str = ENGLISH) -> bytes:
    """A tournament's standings as a table, its words in ``language``."""
    return render_table(render(standings.title, language), [render(h, language) for h in standings.header],
                        standings.rows, marked=range(standings.marked))


def replay_gif(game: GameRecord[Any, Any], language: str = ENGLISH) -> bytes:
    """The whole game as an animated GIF, its caption and the words under each frame in ``language``."""
    statuses = None if language == ENGLISH else [render(position_status(game.type, position), language)
                                                 for position in game.positions]
    return render_gif(game, RenderOptions(width=REPLAY_WIDTH, caption=render(game_name(game.type.name), language)),
                      statuses=statuses)


def warm_up() -> None:
    """Draw one board of each size and orientation, so the first real board pays no font or cache set-up
    (the first render takes about 0.5 s, later ones about 5 ms)."""
    for game in GAMES.values():
        for flipped in (False, True):
            board_png(Board(0, game.name, game.start(), flipped=flipped, caption="warm-up"))
