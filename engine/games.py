"""Every game the bot plays behind one set of functions: the four draughts variants and Tablut.

A front end (the bot) holds a game record (``Game`` or ``TablutGame``; both
have ``variant.name``, ``variant.first``, ``positions``, ``moves``, ``play``,
``undo`` and ``result``) and asks here for what differs: reading and writing
moves and positions, the legal moves as text, the search's view of the game,
and the game as a record to save.
"""

from __future__ import annotations

import random

from engine import tablut
from engine.baseline import minimax_move
from engine.fen import parse_fen, to_fen
from engine.game import Game
from engine.notation import format_move, is_move_text, legal_move_texts, parse_move
from engine.pdn import game_to_pdn, movetext, tagged
from engine.pdn import score_text as draughts_score
from engine.position import Move, Position
from engine.search import History, Searcher
from engine.tablut import TablutGame, TablutMove, TablutPosition
from engine.variants import VARIANTS, Color, variant

TABLUT = "tablut"
NAMES = (*VARIANTS, TABLUT)
AnyGame = Game | TablutGame
AnyPosition = Position | TablutPosition
AnyMove = Move | TablutMove
FALLBACK_DEPTH = 2  # plies of the search that runs without the search processes


def new_game(name: str, start: str | None = None) -> AnyGame:
    """A game of ``name`` from its start (or from the position ``start``)."""
    if name == TABLUT:
        return TablutGame(start)
    return Game(variant(name), start)


def first_player(name: str) -> Color:
    return tablut.TABLUT.first if name == TABLUT else variant(name).first


def position_text(position: AnyPosition) -> str:
    """FEN for draughts, the position string for Tablut."""
    return tablut.to_string(position) if isinstance(position, TablutPosition) else to_fen(position)


def read_position(name: str, text: str) -> AnyPosition:
    return tablut.from_string(text) if name == TABLUT else parse_fen(variant(name), text)


def parse(position: AnyPosition, text: str) -> AnyMove:
    """The legal move ``text`` names; a MoveError (with the legal moves) if none."""
    return tablut.parse_move(position, text) if isinstance(position, TablutPosition) else parse_move(position, text)


def reads_as_move(name: str, text: str) -> bool:
    """Whether ``text`` is a move of the game ``name`` written alone (legal or not), as ``parse`` reads moves."""
    return tablut.is_move_text(text) if name == TABLUT else is_move_text(text)


def write(position: AnyPosition, move: AnyMove, full: bool = False) -> str:
    """A move as players write it; ``full``: every landing square of a draughts capture (unambiguous)."""
    if isinstance(position, TablutPosition):
        return str(move)
    assert isinstance(move, Move)
    return format_move(position, move, full=full)


def legal_texts(position: AnyPosition) -> tuple[str, ...]:
    if isinstance(position, TablutPosition):
        return tuple(str(m) for m in tablut.legal_moves(position))
    return legal_move_texts(position)


def history(game: AnyGame) -> History:
    """What the search needs of the game before its current position (for the draw rules)."""
    if isinstance(game, TablutGame):
        from engine.tablut_search import tablut_history

        return tablut_history(game.positions)
    return History.of(game)


def searcher(name: str, tt_mb: float) -> Searcher:
    """A search for the game ``name`` (keep it: it holds the transposition table)."""
    if name == TABLUT:
        from engine.tablut_search import TablutSearcher

        return TablutSearcher(tt_mb=tt_mb)
    return Searcher(variant(name), tt_mb=tt_mb)


def fallback_move(position: AnyPosition, rng: random.Random) -> AnyMove:
    """A move from a shallow search in this process, for when the search processes fail."""
    if isinstance(position, TablutPosition):
        from engine.tablut_baseline import minimax_move as tablut_minimax

        return tablut_minimax(position, FALLBACK_DEPTH, rng)
    return minimax_move(position, FALLBACK_DEPTH, rng)


def score_text(name: str, winner: Color | None) -> str:
    """The result as a record writes it ('1-0', '0-2', '1/2-1/2', ...)."""
    if name == TABLUT:
        return "1/2-1/2" if winner is None else ("1-0" if winner == Color.WHITE else "0-1")
    return draughts_score(variant(name), winner)


def record(game: AnyGame, tags: dict[str, str]) -> str:
    """The game with its tags, to save: PDN for draughts, the same layout for Tablut (its start as a position
    string in a ``Position`` tag when it is not the usual one)."""
    if isinstance(game, Game):
        return game_to_pdn(game, tags)
    all_tags = {"Game": "Tablut (Ashton rules)", **tags}
    if game.start != tablut.start_position():
        all_tags["Position"] = tablut.to_string(game.start)
    result = game.result()
    all_tags.setdefault("Result", "*" if result is None else score_text(TABLUT, result.winner))
    return tagged(all_tags, movetext(game, lambda ply: str(game.moves[ply])))


def warm_up() -> None:
    """Load the compiled code a front end's process calls (Tablut's moves and keys; draughts' moves and notation),
    so the first game of each does not pay for it (about 0.2 s, measured)."""
    for name in NAMES:
        game = new_game(name)
        legal_texts(game.position)
        history(game)
