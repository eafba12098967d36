"""Draughts and Tablut: rules, notation, records and search, behind one game interface.

One import line serves a game, its legal moves and a search::

    from engine import Limits, Searcher, game_type
    english = game_type("english")             # or international, brazilian, russian, tablut
    game = english.new_game()
    game.play_text("11-15")
    print(english.legal_texts(game.position))
    result = Searcher(english).search(game.position, Limits(time=0.5), game.history())
    print(english.write_move(game.position, result.move), result.score)

Every game is a ``GameType`` (``engine.game``), looked up by name in
``engine.games``; its records are ``GameRecord``s. Draughts' own free
functions over immutable values are here too (``start_position``,
``legal_moves``, ``make``, ``parse_move``, ``to_fen``, ...), as are its
record ``Game`` and variants. The packages: ``engine.draughts``,
``engine.tablut``, ``engine.search`` (the shared search and the levels), and
``engine.tools`` (command line, Hub, matches, bench). ``engine`` imports
nothing from ``renders`` or ``bot``.
"""

from engine import compiled_cache

compiled_cache.refresh()  # before any compiled kernel is loaded

from engine.board import Board, Outcome
from engine.draughts.fen import parse_fen, to_fen
from engine.draughts.game import Game
from engine.draughts.notation import format_move, legal_move_texts, parse_move
from engine.draughts.position import Move, Position
from engine.draughts.rules import key, legal_moves, make, perft, start_position
from engine.draughts.variants import VARIANTS, Variant, variant
from engine.errors import AmbiguousMoveError, FenError, IllegalMoveError, InvalidMoveError, MoveError, Words
from engine.game import Color, GameRecord, GameType, Result, Termination
from engine.games import NAMES, game_type
from engine.search import History, Limits, Searcher, SearchResult
from engine.search.levels import choose_move, level

__all__ = [
    "AmbiguousMoveError", "Board", "Color", "FenError", "Game", "GameRecord", "GameType", "History", "IllegalMoveError",
    "InvalidMoveError", "Limits", "Move", "MoveError", "NAMES", "Outcome", "Position", "Result", "SearchResult", "Searcher",
    "Termination", "VARIANTS", "Variant", "Words", "choose_move", "format_move", "game_type", "key", "legal_move_texts",
    "legal_moves", "level", "make", "parse_fen", "parse_move", "perft", "start_position", "to_fen", "variant",
]
