"""Draughts rules, notation and search.

The rules are free functions over immutable values::

    from engine import variant, start_position, legal_moves, make, parse_move
    pos = start_position(variant("english"))
    pos = make(pos, parse_move(pos, "11-15"))

``Game`` keeps a game's history and decides its result. The search lives in
``engine.search`` (``Searcher``, ``Limits``), the difficulty levels in
``engine.levels``; they are imported on demand, so ``import engine`` stays
quick. ``engine`` imports nothing from ``renders`` or ``bot``.
"""

from engine.errors import AmbiguousMoveError, FenError, IllegalMoveError, InvalidMoveError, MoveError
from engine.fen import parse_fen, to_fen
from engine.game import Game, Result
from engine.notation import format_move, legal_move_texts, parse_move
from engine.position import Move, Position
from engine.rules import key, legal_moves, make, perft, start_position
from engine.variants import VARIANTS, Color, Variant, variant

__all__ = [
    "AmbiguousMoveError", "Color", "FenError", "Game", "IllegalMoveError", "InvalidMoveError", "Move",
    "MoveError", "Position", "Result", "VARIANTS", "Variant", "format_move", "key", "legal_move_texts",
    "legal_moves", "make", "parse_fen", "parse_move", "perft", "start_position", "to_fen", "variant",
]
