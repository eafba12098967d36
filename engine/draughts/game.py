"""Draughts as a game: ``Draughts``, the rules of one variant behind the game interface, and ``Game``, a record.

Positions are values (copy-make); what the draw rules need from the history
(repetitions, move counters) lives in the record, one entry per position, so
a takeback is a pop.
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Any

from engine.draughts.baseline import minimax_move
from engine.draughts.endgames import Endgames
from engine.draughts.evaluation import Evaluator
from engine.draughts import fen, notation, rules
from engine.draughts.fen import parse_fen, to_fen
from engine.draughts.hooks import DraughtsHooks
from engine.draughts.notation import legal_move_texts
from engine.draughts.pdn import game_to_pdn, score_text
from engine.draughts.position import Move, Position
from engine.draughts.rules import key, make, start_position
from engine.draughts.variants import VARIANTS, Variant
from engine.errors import IllegalMoveError, counted, phrase
from engine.game import LABELS, Cell, Color, GameRecord, GameType, Grid, History, Result, Termination

# International's endgame rules (FMJD 6.4 and 6.5), in plies: each player moves this often.
ENDGAME_16_PLIES = 2 * 16  # three pieces with a king (3K, 2K+1M, 1K+2M) against a lone king
ENDGAME_5_PLIES = 2 * 5  # at most two pieces with a king (2K, 1K+1M, 1K) against a lone king
REPETITIONS = 3  # the same position with the same side to move, for the third time
FALLBACK_DEPTH = 2  # plies of the search that runs without the search processes


class Draughts(GameType[Position, Move]):
    """One draughts variant behind the game interface (``engine.game.GameType``)."""

    def __init__(self, variant: Variant, title: str, aliases: tuple[str, ...] = ()):
        self.variant = variant
        self.name = variant.name
        self.title = title
        self.aliases = aliases
        self.first = variant.first

    def __repr__(self) -> str:
        return f"Draughts({self.name!r})"

    # In the interface's order; what needs no variant is a free function of ``rules``, ``notation`` or ``fen``.

    def start(self) -> Position:
        return start_position(self.variant)

    def new_game(self, start: str | None = None) -> Game:
        return Game(self.variant, start)

    legal_moves = staticmethod(rules.legal_moves)
    make = staticmethod(rules.make)
    parse_move = staticmethod(notation.parse_move)

    def write_move(self, position: Position, move: Move, full: bool = False) -> str:
        return notation.format_move(position, move, full=full)

    legal_texts = staticmethod(notation.legal_move_texts)
    is_move_text = staticmethod(notation.is_move_text)
    write_position = staticmethod(fen.to_fen)

    def read_position(self, text: str) -> Position:
        return parse_fen(self.variant, text)

    def score_text(self, winner: Color | None) -> str:
        return score_text(self.variant, winner)

    def record_text(self, game: GameRecord[Position, Move], tags: dict[str, str]) -> str:
        return game_to_pdn(game, tags)

    def grid(self, labels: str | None = None) -> Grid:
        if labels is not None and labels not in LABELS:
            raise ValueError(f"unknown labels {labels!r}; choose one of {', '.join(LABELS)}")
        return _grid(self.variant, labels or ("coordinates" if self.variant.coordinates else "numbers"))

    def cell(self, square: int) -> Cell:
        return self.variant.row_col(square)

    def pieces(self, position: Position) -> tuple[tuple[Cell, str], ...]:
        v = self.variant
        return tuple((v.row_col(sq), p) for sq in range(1, v.squares + 1) if (p := position.piece_at(sq)))

    def path(self, move: Move) -> tuple[Cell, ...]:
        return tuple(self.cell(sq) for sq in move.path or (move.start, move.end))

    def search_hooks(self, weights: object = None) -> DraughtsHooks:
        if weights is not None and not isinstance(weights, Evaluator):
            raise TypeError("a draughts search takes an Evaluator as its weights")
        return DraughtsHooks(self.variant, weights)

    def fallback_move(self, position: Position, rng: random.Random) -> Move:
        return minimax_move(position, FALLBACK_DEPTH, rng)

    def endgames_missing(self, pieces: int) -> bool:
        held = Endgames.open(self.variant, pieces)
        return held is None or held.pieces < pieces


@lru_cache(maxsize=16)
def _grid(v: Variant, labels: str) -> Grid:
    dark = frozenset(v.row_col(sq) for sq in range(1, v.squares + 1))
    if labels == "numbers":
        return Grid(v.size, dark, tuple((v.row_col(sq), str(sq)) for sq in range(1, v.squares + 1)))
    if labels == "coordinates":
        return Grid(v.size, dark, (), "abcdefghij"[: v.size], tuple(str(v.size - r) for r in range(v.size)))
    return Grid(v.size, dark)


DRAUGHTS: dict[str, Draughts] = {d.name: d for d in (
    Draughts(VARIANTS["english"], "English draughts / checkers (8x8)", ("checkers",)),
    Draughts(VARIANTS["international"], "International (10x10)", ("10x10", "intl")),
    Draughts(VARIANTS["brazilian"], "Brazilian (8x8)"),
    Draughts(VARIANTS["russian"], "Russian (8x8)"))}
"""The four variants' game types, by name."""


class Game(GameRecord[Position, Move]):
    """A game in progress or finished, from any start position."""

    def __init__(self, variant: Variant, fen: str | None = None):
        self.variant = variant
        self.type = DRAUGHTS[variant.name]
        self.start = parse_fen(variant, fen) if fen else start_position(variant)
        self.moves: list[Move] = []
        self.positions: list[Position] = [self.start]
        self._keys: list[int] = [key(self.start)]
        self._king_plies: list[int] = [0]  # plies of king moves without a capture, up to each position
        self._endgame: list[tuple[int, int]] = [(_endgame_limit(self.start), 0)]  # (limit, plies in that ending)
        self._legal: list[Move] | None = None
        self._legal_before: list[list[Move] | None] = []

    def play(self, move: Move) -> Position:
        """Play a legal move; raises IllegalMoveError (changing nothing) otherwise."""
        self._refuse_if_over("")
        legal = self.legal_moves()
        # the generated move itself (with its path): most callers pass one of the list, so look for it first
        found = next((m for m in legal if m is move), None) or next((m for m in legal if m == move), None)
        if found is None:
            name = self.variant.square_name
            text = f"{name(move.start)}-{name(move.end)}"
            raise IllegalMoveError(phrase("{move} is not a legal move here", move=text), text, to_fen(self.position),
                                   legal_move_texts(self.position))
        move = found
        before = self.position
        after = make(before, move)
        man_moved = not (self.variant.bit(move.start) & before.kings)
        king_plies = 0 if (move.is_capture or man_moved) else self._king_plies[-1] + 1
        limit = _endgame_limit(after)
        prev_limit, prev_plies = self._endgame[-1]
        endgame = (limit, prev_plies + 1 if (limit == prev_limit and not move.is_capture) else 0)
        self.moves.append(move)
        self.positions.append(after)
        self._keys.append(key(after))
        self._king_plies.append(king_plies)
        self._endgame.append(endgame)
        self._moved()
        return after

    def _per_position(self) -> tuple[list[Any], ...]:
        return (self.positions, self._keys, self._king_plies, self._endgame)

    @property
    def reversible_plies(self) -> int:
        """Plies of king moves taking nothing that led to the current position."""
        return self._king_plies[-1]

    @property
    def ending_plies(self) -> int:
        """Plies played in the current lone-king ending (International's 16- and 5-move rules)."""
        return self._endgame[-1][1]

    def history(self) -> History:
        return History(self.earlier_keys(), self.reversible_plies, self.ending_plies)

    def earlier_keys(self) -> tuple[int, ...]:
        """Zobrist keys of the positions since the last capture or man move, before the current one."""
        back = self._king_plies[-1]
        return tuple(self._keys[-1 - back:-1]) if back else ()

    def repetitions(self) -> int:
        """How many times the current position has stood on the board with the same side to move."""
        # Captures and man moves are irreversible: nothing before them can come back.
        back = self._king_plies[-1]
        current = self._keys[-1]
        return sum(1 for i in range(0, back + 1, 2) if self._keys[-1 - i] == current)

    def result(self) -> Result | None:
        """The result if the game is over, else None."""
        if not self.legal_moves():
            side = self.turn
            return Result(side.opponent, Termination.NO_MOVES, phrase("{colour} has no legal move", colour=side))
        if self.repetitions() >= REPETITIONS:
            return Result(None, Termination.REPETITION, phrase("the same position came up three times"))
        limit = self.variant.king_move_limit
        if self._king_plies[-1] >= limit:
            return Result(None, Termination.QUIET_MOVES,
                          counted("{count} move each with only kings moving and nothing taken",
                                  "{count} moves each with only kings moving and nothing taken", limit // 2))
        ending, plies = self._endgame[-1]
        if ending and plies >= ending:
            return Result(None, Termination.LONE_KING,
                          counted("{count} move each in this ending against a lone king",
                                  "{count} moves each in this ending against a lone king", ending // 2))
        return None


def _endgame_limit(position: Position) -> int:
    """Plies allowed in the position's ending under International's 16- and 5-move rules; 0 if none apply."""
    if not position.variant.endgame_limits or (position.white | position.black).bit_count() > 4:
        return 0  # (a lone king against at most three pieces)
    for lone, other in ((Color.WHITE, Color.BLACK), (Color.BLACK, Color.WHITE)):
        if position.count(lone) != (0, 1):
            continue
        men, kings = position.count(other)
        if kings >= 1 and men + kings == 3:
            return ENDGAME_16_PLIES
        if kings >= 1 and men + kings <= 2:
            return ENDGAME_5_PLIES
    return 0
