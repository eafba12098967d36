"""Draughts as the compiled search sees it: three bitboards a position (the mover's, the other's, the kings),
the variant's rules vector and the evaluation's weights and tables."""

from __future__ import annotations

import time

import numpy as np

from engine.draughts.endgames import DRAW, LOSS, WIN, Endgames, largest
from engine.draughts.evaluation import Evaluator
from engine.draughts.position import Move, Position
from engine.draughts.rules import ZOBRIST, key
from engine.draughts.variants import Variant
from engine.game import Color, History
from engine.search import kernel as sk
from engine.search.kernel import RULES_CANNOT_DRAW
from engine.search.hooks import SearchHooks

LOOK_AGAIN = 30.0  # seconds between looks for a larger endgame database
FUTILITY = 60  # the measured best futility margin for draughts (hundredths of a man a ply)


class DraughtsHooks(SearchHooks[Position, Move]):
    """One variant, with an evaluation (its shipped weights unless given)."""

    game = sk.GAME_DRAUGHTS
    state_cols = 3
    squares = 64  # bit indexes on draughts boards
    futility = FUTILITY

    def __init__(self, variant: Variant, evaluator: Evaluator | None = None):
        self.variant = variant
        self.evaluator = evaluator or Evaluator.load(variant)
        self._endgames: Endgames | None = None
        self._next_look = 0.0

    def check(self, position: Position) -> None:
        if not isinstance(position, Position):
            raise ValueError(f"this searcher plays {self.variant.name} positions")
        if position.variant != self.variant:
            raise ValueError(f"this searcher plays {self.variant.name}, not {position.variant.name}")

    def load(self, position: Position, row: np.ndarray, ctl: np.ndarray) -> int:
        me, opp = ((position.white, position.black) if position.turn == Color.WHITE
                   else (position.black, position.white))
        row[:] = (me, opp, position.kings)
        ctl[sk.C_REV_LIMIT] = self.variant.king_move_limit
        ctl[sk.C_ENDINGS] = 1 if self.variant.endgame_limits else 0
        return key(position)

    def tables(self) -> tuple:
        ev = self.evaluator
        return self.variant.rules, ZOBRIST, ev.weights, ev.geometry, ev.cones, ev.coords, ev.patterns

    def endgames(self) -> tuple:
        """The variant's largest endgame database in ``endgames.default_directory()``. Looked for again every
        ``LOOK_AGAIN`` seconds while a larger one may come (a build may finish while the bot runs); opening maps
        the files, so it costs no wait."""
        now = time.monotonic()
        if (self._endgames is None or self._endgames.pieces < largest(self.variant)) and now >= self._next_look:
            self._next_look = now + LOOK_AGAIN
            self._endgames = Endgames.open(self.variant) or self._endgames
        return self._endgames.arrays() if self._endgames is not None else sk.NO_ENDGAMES

    def held(self, position: Position, history: History) -> bool:
        if self.variant.endgame_limits or self._endgames is None:
            return False  # the databases' long wins are not trusted under the lone-king rules: search on
        value, plies = self._endgames.value(position)
        return value == DRAW or (value in (WIN, LOSS) and plies <= self.variant.king_move_limit - history.reversible)

    def verdict(self, position: Position, history: History) -> str | None:
        self.endgames()  # opens the databases if they are there
        if self._endgames is None or (position.white | position.black).bit_count() > self._endgames.pieces:
            return None
        value, plies = self._endgames.value(position)
        if value == DRAW:
            return "draw"  # the counting rules only add draws
        if value not in (WIN, LOSS) or plies > self.variant.king_move_limit - history.reversible:
            return None
        if self.variant.endgame_limits and plies > RULES_CANNOT_DRAW:
            return None  # International's lone-king rules may draw it first
        return "win" if value == WIN else "loss"

    def is_row(self, move: Move, frm: int, to: int, captured: int) -> bool:
        v = self.variant
        return (v.bit(move.start), v.bit(move.end), v.mask(move.captures)) == (frm, to, captured)
