"""Tablut through the engine's search: the same iterative deepening, table, ordering, levels and time budget.

``TablutHooks`` are Tablut's search hooks: the compiled search runs with
``GAME_TABLUT`` and the moves, make, keys and evaluation of
``engine.tablut.kernel``. A repeated position is a draw there as in the game
(the search looks back to the last capture, through ``tablut_history``).

The evaluation (``kernel.evaluate``, weights ``kernel.WEIGHTS``)
scores, for White: soldiers on each side; the king's open lines to an escape
square (one is a threat Black must answer, two cannot both be closed, and
with White to move one is a win); squares one king move away that have such
a line, and the king's mobility; Black soldiers (and camps) next to the king,
counted as the seed counts them (on the throne, next to it, elsewhere); Black
soldiers on the eight squares that shut the corners off; and the move.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from engine.game import History
from engine.search import kernel as sk
from engine.search.hooks import SearchHooks
from engine.tablut import kernel as tk
from engine.tablut.rules import NO_KING, TablutMove, TablutPosition, state

NO_LIMIT = 1 << 40  # Tablut has no move-count draw, only repetition


def key(position: TablutPosition) -> int:
    """The Zobrist key of a position (pieces and side to move)."""
    return int(tk.zobrist(state(position), 0, int(position.turn), tk.ZOBRIST))


def tablut_history(positions: Sequence[TablutPosition]) -> History:
    """What the search needs to see repetitions in a game (its positions so far, the one to search last): the
    keys since the last capture (found by the piece count, which only a capture changes)."""
    pieces = _pieces(positions[-1])
    since: list[TablutPosition] = []
    for before in reversed(positions[:-1]):
        if _pieces(before) != pieces:
            break
        since.append(before)
    return History(tuple(key(p) for p in reversed(since)), len(since))


def _pieces(position: TablutPosition) -> int:
    return position.white.bit_count() + position.black.bit_count() + (position.king != NO_KING)


class TablutHooks(SearchHooks[TablutPosition, TablutMove]):
    """Tablut for the compiled search, with an evaluation's weights (the shipped ``kernel.WEIGHTS`` unless given)."""

    game = sk.GAME_TABLUT
    state_cols = tk.STATE_COLS
    squares = tk.CELLS
    futility = 0

    def __init__(self, weights: np.ndarray | None = None):
        self.weights = tk.WEIGHTS if weights is None else weights

    def check(self, position: TablutPosition) -> None:
        if not isinstance(position, TablutPosition):
            raise ValueError("a Tablut searcher plays Tablut positions")

    def load(self, position: TablutPosition, row: np.ndarray, ctl: np.ndarray) -> int:
        row[:] = state(position)[0]
        ctl[sk.C_REV_LIMIT] = NO_LIMIT
        ctl[sk.C_ENDINGS] = 0
        return key(position)

    def tables(self) -> tuple:
        rules, geometry, cones, coords, patterns = sk.NO_DRAUGHTS
        return rules, tk.ZOBRIST, self.weights, geometry, cones, coords, patterns

    def is_row(self, move: TablutMove, frm: int, to: int, captured: int) -> bool:
        return (move.start, move.end) == (frm, to)  # a row's captures are packed squares; from and to decide
