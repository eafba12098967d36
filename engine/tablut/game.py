"""Tablut as a game: ``Tablut``, its rules behind the game interface, and ``TablutGame``, a record."""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Any

import numpy as np

from engine.errors import IllegalMoveError, Words, phrase
from engine.game import Cell, Color, GameRecord, GameType, Grid, History, Result, Termination
from engine.records import game_record
from engine.tablut.baseline import minimax_move
from engine.tablut import rules
from engine.tablut.rules import (CAMP, ESCAPES, NO_KING, THRONE, TablutMove, TablutPosition, from_string, legal_moves,
                                 make, square_name, start_position, to_string, why_illegal)
from engine.tablut.search import TablutHooks, tablut_history

PIECES = {"W": "w", "B": "b", "K": "W"}  # Tablut's piece -> a picture's kind (the king: a crowned white piece)
LETTERS = (("w", "W"), ("W", "K"), ("b", "B"))  # a picture's kind -> its letter in a text diagram
FALLBACK_DEPTH = 2  # plies of the search that runs without the search processes


class Tablut(GameType[TablutPosition, TablutMove]):
    """Tablut (Ashton rules) behind the game interface (``engine.game.GameType``)."""

    name = "tablut"
    title = "Tablut (9x9, Ashton rules)"
    first = Color.WHITE
    chances_scale = 0.0065
    """Fitted to the results of 60 games of the engine against itself, 3,308 positions (bench/chances_scale.py):
    a soldier's worth decides a Tablut game more often than a man decides a draughts game."""

    def __repr__(self) -> str:
        return "Tablut()"

    # In the interface's order; the rules and notation are free functions of ``engine.tablut.rules``.
    start = staticmethod(rules.start_position)

    def new_game(self, start: str | None = None) -> TablutGame:
        return TablutGame(start)

    legal_moves = staticmethod(rules.legal_moves)
    make = staticmethod(rules.make)
    parse_move = staticmethod(rules.parse_move)

    def write_move(self, position: TablutPosition, move: TablutMove, full: bool = False) -> str:
        return str(move)

    is_move_text = staticmethod(rules.is_move_text)
    write_position = staticmethod(rules.to_string)
    read_position = staticmethod(rules.from_string)

    def score_text(self, winner: Color | None) -> str:
        return "1/2-1/2" if winner is None else ("1-0" if winner == Color.WHITE else "0-1")

    def record_text(self, game: GameRecord[TablutPosition, TablutMove], tags: dict[str, str]) -> str:
        """PDN's layout, with ``Game`` naming the rules and the start as a position string in a ``Position`` tag
        when it is not the usual one."""
        all_tags = {"Game": "Tablut (Ashton rules)", **tags}
        if game.start != start_position():
            all_tags["Position"] = to_string(game.start)
        return game_record(game, all_tags, lambda ply: str(game.moves[ply]))

    def grid(self, labels: str | None = None) -> Grid:
        return _grid()

    def cell(self, square: int) -> Cell:
        """Row 9 at the top, as White's opponent sits."""
        return 8 - square // 9, square % 9

    def pieces(self, position: TablutPosition) -> tuple[tuple[Cell, str], ...]:
        return tuple((self.cell(sq), PIECES[p]) for sq in range(81) if (p := position.piece_at(sq)))

    def status_words(self, position: TablutPosition) -> Words:
        return phrase("{colour} to move", colour=position.turn) if legal_moves(position) else phrase("game over")

    def search_hooks(self, weights: object = None) -> TablutHooks:
        if weights is not None and not isinstance(weights, np.ndarray):
            raise TypeError("a Tablut search takes a weight vector as its weights")
        return TablutHooks(weights)

    def fallback_move(self, position: TablutPosition, rng: random.Random) -> TablutMove:
        return minimax_move(position, FALLBACK_DEPTH, rng)


@lru_cache(maxsize=1)
def _grid() -> Grid:
    cell = TABLUT.cell
    marks = [(cell(THRONE), "throne")]
    marks += [(cell(sq), "camp") for sq in range(81) if CAMP[sq] >= 0]
    marks += [(cell(sq), "escape") for sq in sorted(ESCAPES)]
    return Grid(9, frozenset(), (), "abcdefghi", tuple(str(9 - r) for r in range(9)), tuple(marks), LETTERS)


TABLUT = Tablut()


class TablutGame(GameRecord[TablutPosition, TablutMove]):
    """A Tablut game record: positions since the start, the moves, and the result."""

    type = TABLUT

    def __init__(self, start: str | None = None):
        self.start = from_string(start) if start else start_position()
        self.positions: list[TablutPosition] = [self.start]
        self.moves: list[TablutMove] = []
        self._since_capture = [0]  # plies since the last capture, up to each position
        self._legal: list[TablutMove] | None = None  # the current position's moves, once generated
        self._legal_before: list[list[TablutMove] | None] = []

    def _moves_here(self) -> list[TablutMove]:
        return super().legal_moves()

    def legal_moves(self) -> list[TablutMove]:
        return [] if self.result() else self._moves_here()

    def play(self, move: TablutMove) -> TablutPosition:
        self._refuse_if_over(str(move))
        legal = self._moves_here()
        if move not in legal:
            raise IllegalMoveError(why_illegal(self.position, move.start, move.end), str(move),
                                   to_string(self.position), tuple(str(m) for m in legal))
        after = make(self.position, move)
        self.positions.append(after)
        self.moves.append(move)
        self._since_capture.append(0 if move.captures else self._since_capture[-1] + 1)
        self._moved()
        return after

    def _per_position(self) -> tuple[list[Any], ...]:
        return (self.positions, self._since_capture)

    def history(self) -> History:
        return tablut_history(self.positions)

    def result(self) -> Result | None:
        p = self.position
        if p.king == NO_KING:
            return Result(Color.BLACK, Termination.KING_CAPTURED, phrase("the king is captured"))
        if p.king in ESCAPES:
            return Result(Color.WHITE, Termination.KING_ESCAPED,
                          phrase("the king escaped to {square}", square=square_name(p.king)))
        back = self._since_capture[-1]
        if any(self.positions[-1 - i] == p for i in range(2, back + 1, 2)):
            return Result(None, Termination.REPETITION, phrase("the same position came up again"))
        if not self._moves_here():
            return Result(p.turn.opponent, Termination.NO_MOVES, phrase("{colour} has no legal move", colour=p.turn))
        return None
