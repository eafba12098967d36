"""A draughts board as python-chess's users know one: moves pushed and popped, the outcome with its termination,
FEN and PDN in and out, perft, and the position as numpy arrays for machine learning::

    from engine import Board, Limits, Searcher
    board = Board("international")
    board.push_text("32-28")
    print(len(board.legal_moves), board.turn, board.fen())
    board.pop()
    print(board.outcome())                 # None: the game goes on
    result = Searcher(board.game_type).search(board.position, Limits(time=0.5), board.history(),
                                              on_iteration=print)  # each finished depth, as it comes

A ``Board`` is one game of one of the four draughts variants from its start (the variant's, or a FEN). It is the
library's face over the record the bot keeps (``engine.draughts.game.Game``, reachable as ``record``); Tablut has
its own game type (``engine.game_type("tablut")``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

import numpy as np

from engine.draughts.fen import to_fen
from engine.draughts.game import Game
from engine.draughts.notation import format_move
from engine.draughts.pdn import game_to_pdn, score_text
from engine.draughts.position import Move, Position
from engine.draughts.rules import perft
from engine.draughts.variants import Variant, variant
from engine.game import Color, GameType, History, Termination
from engine.record_reader import read_games

CHANNELS = 4
"""Planes of ``Board.to_tensor``: own men, own kings, the other side's men, its kings."""


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended (python-chess's ``Outcome``)."""

    winner: Color | None
    """The side that won, or None for a draw."""
    termination: Termination
    """Why, as data."""
    result: str
    """The score as PDN writes it: '2-0', '0-2', '1-1' on 10x10 and the flying-king boards, '1-0', '0-1',
    '1/2-1/2' in English."""
    reason: str
    """Why, in English words."""


class Board:
    """One draughts game being played: its position, the moves that led there, and what the rules say of it."""

    def __init__(self, variant_name: str | Variant = "english", fen: str | None = None) -> None:
        """A game of ``variant_name`` from its start, or from ``fen`` (``W:W31,32:B1,K5``; FenError if unreadable)."""
        v = variant_name if isinstance(variant_name, Variant) else variant(variant_name)
        self.record = Game(v, fen)
        self.tags: dict[str, str] = {}
        """PDN tags (Event, White, Black, ...) written by ``pdn`` and read by ``from_pdn``."""

    @classmethod
    def _of(cls, record: Game, tags: dict[str, str]) -> Board:
        """A board over a record already made."""
        board = cls.__new__(cls)
        board.record, board.tags = record, tags
        return board

    @classmethod
    def from_pdn(cls, text: str) -> Board:
        """The first game of PDN ``text`` (its ``GameType`` and ``FEN`` tags, its moves), with its tags; a
        ``RecordError`` (a ValueError) names the move that cannot be read."""
        first = read_games(text, default="international")[0]
        if not isinstance(first.record, Game):
            raise ValueError("the PDN game is not a draughts game")
        return cls._of(first.record, {k: v for k, v in first.tags.items() if k not in ("GameType", "FEN")})

    # --- what is on the board

    @property
    def variant(self) -> Variant:
        return self.record.variant

    @property
    def game_type(self) -> GameType[Position, Move]:
        """The variant's rules as the search and the images take them (``Searcher(board.game_type)``)."""
        return self.record.type

    @property
    def position(self) -> Position:
        return self.record.position

    @property
    def turn(self) -> Color:
        return self.record.position.turn

    @property
    def legal_moves(self) -> list[Move]:
        """The moves the side to move may play (captures only, when one is due); empty when the game is over."""
        return [] if self.record.result() is not None else list(self.record.legal_moves())

    @property
    def move_stack(self) -> list[Move]:
        """The moves played from the start, oldest first."""
        return list(self.record.moves)

    def is_legal(self, move: Move) -> bool:
        return move in self.legal_moves

    def history(self) -> History:
        """What the search needs of the moves before the position (repetitions, the draw counters)."""
        return self.record.history()

    # --- moves in and out

    def push(self, move: Move) -> None:
        """Play a legal move; an ``IllegalMoveError`` (changing nothing) otherwise, or when the game is over."""
        self.record.play(move)

    def push_text(self, text: str) -> Move:
        """Play a move written as a player writes it (``11-15``, ``11x18x25``, ``c3-d4``; python-chess's
        ``push_san``); a ``MoveError`` (changing nothing) says what is wrong with it."""
        return self.record.play_text(text)

    def pop(self) -> Move:
        """Take back the last move and return it (IndexError when none was played)."""
        if not self.record.moves:
            raise IndexError("no move to take back")
        return self.record.undo()

    def peek(self) -> Move:
        """The last move played (IndexError when none was)."""
        return self.record.moves[-1]

    def move_text(self, move: Move) -> str:
        """A legal move as PDN writes it here: the shortest text that names it (python-chess's ``san``)."""
        return format_move(self.position, move)

    # --- the end

    def outcome(self) -> Outcome | None:
        """How the game ended, or None while it goes on."""
        ended = self.record.result()
        if ended is None:
            return None
        return Outcome(ended.winner, ended.termination, score_text(self.variant, ended.winner), ended.reason)

    def is_game_over(self) -> bool:
        return self.record.result() is not None

    # --- text in and out

    def fen(self) -> str:
        """The position as FEN (``W:W31,32:B1,K5``)."""
        return to_fen(self.position)

    def pdn(self, tags: dict[str, str] | None = None) -> str:
        """The game as PDN: its tags (these over the board's own), its moves and its result."""
        return game_to_pdn(self.record, {**self.tags, **(tags or {})})

    def perft(self, depth: int) -> int:
        """The number of move sequences of ``depth`` plies from the position (captures counted by their
        routes, as the published tables do)."""
        return perft(self.position, depth)

    def copy(self) -> Board:
        """A board of its own, with the same moves played: later moves on either leave the other as it is."""
        return Board._of(cast(Game, self.record.copy()), dict(self.tags))

    # --- numpy, for machine learning

    def to_tensor(self, perspective: Color | None = None, grid: bool = False) -> np.ndarray:
        """The pieces as float32 planes (``CHANNELS``: own men, own kings, the other side's men, its kings; 1.0 where
        one stands), "own" being ``perspective``'s (default: the side to move). One value a playable square in PDN
        order, shape (4, 50) on 10x10 and (4, 32) on 8x8; with ``grid``, the whole board, (4, 10, 10) or (4, 8, 8),
        light squares 0, rows from square 1's side."""
        v, pos = self.variant, self.position
        me = perspective if perspective is not None else pos.turn
        own, other = pos.pieces(me), pos.pieces(me.opponent)
        planes = (own & ~pos.kings, own & pos.kings, other & ~pos.kings, other & pos.kings)
        out = np.zeros((CHANNELS, v.squares), dtype=np.float32)
        for square in range(1, v.squares + 1):
            bit = v.bit(square)
            for channel, pieces in enumerate(planes):
                if pieces & bit:
                    out[channel, square - 1] = 1.0
        if not grid:
            return out
        board = np.zeros((CHANNELS, v.size, v.size), dtype=np.float32)
        for square in range(1, v.squares + 1):
            row, col = v.row_col(square)
            board[:, row, col] = out[:, square - 1]
        return board

    def move_to_index(self, move: Move) -> int:
        """The move as one number, for a policy network's output: ``(start - 1) * squares + (end - 1)``, below
        squares squared (2500 on 10x10, 1024 on 8x8)."""
        n = self.variant.squares
        return (move.start - 1) * n + (move.end - 1)

    def index_to_move(self, index: int) -> Move:
        """The legal move with that start and end (ValueError if none). Two captures between the same squares
        by different routes share an index, which names the first of them in ``legal_moves``."""
        n = self.variant.squares
        start, end = divmod(int(index), n)
        found = [m for m in self.legal_moves if m.start == start + 1 and m.end == end + 1]
        if not found:
            raise ValueError(f"no legal move has index {index} here")
        return found[0]

    def legal_moves_mask(self) -> np.ndarray:
        """A bool array over every index (``move_to_index``), True where a legal move has it."""
        n = self.variant.squares
        mask = np.zeros(n * n, dtype=bool)
        for move in self.legal_moves:
            mask[self.move_to_index(move)] = True
        return mask

    # --- as Python shows it

    def __str__(self) -> str:
        return str(self.position)

    def __repr__(self) -> str:
        return f"Board({self.variant.name!r}, fen={self.fen()!r})"
