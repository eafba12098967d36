"""Every game the bot plays, by name: the four draughts variants and Tablut, each a ``GameType``.

    from engine import game_type
    english = game_type("english")
    game = english.new_game()
    game.play_text("11-15")
"""

from __future__ import annotations

from typing import Any

from engine.draughts.game import DRAUGHTS
from engine.game import GameType
from engine.tablut.game import TABLUT

GAMES: dict[str, GameType[Any, Any]] = {**DRAUGHTS, TABLUT.name: TABLUT}
NAMES = tuple(GAMES)


def game_type(name: str) -> GameType[Any, Any]:
    """The game called ``name`` (case-insensitive); ValueError naming the choices for anything else."""
    try:
        return GAMES[name.strip().lower()]
    except KeyError:
        raise ValueError(f"unknown game {name!r}; choose one of {', '.join(NAMES)}") from None


def warm_up() -> None:
    """Load the compiled code a front end's process calls (every game's moves, notation and keys), so the first
    game of each does not pay for it (about 0.2 s, measured)."""
    for game in GAMES.values():
        record = game.new_game()
        game.legal_texts(record.position)
        record.history()
