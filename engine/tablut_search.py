"""Tablut through the engine's search: the same iterative deepening, table, ordering, levels and time budget.

``TablutSearcher`` is a ``Searcher`` whose game is Tablut: the compiled search
runs with ``GAME_TABLUT`` and the moves, make, keys and evaluation of
``engine.tablut_kernel``. A repeated position is a draw there as in the game
(the search looks back to the last capture, through ``tablut_history``).

The evaluation (``tablut_kernel.evaluate``, weights ``tablut_kernel.WEIGHTS``)
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

from engine import search_kernel as sk
from engine import tablut_kernel as tk
from engine.evaluation import Evaluator
from engine.search import History, Searcher
from engine.variants import variant
from engine.tablut import NO_KING, TablutMove, TablutPosition, legal_moves, make, start_position, state

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


class TablutSearcher(Searcher):
    """A reusable Tablut search (make one per process and keep it)."""

    GAME = sk.GAME_TABLUT
    STATE_COLS = tk.STATE_COLS
    SQUARES = tk.CELLS

    def __init__(self, tt_mb: float = 16, weights: np.ndarray | None = None, lmr: float = 1.2,
                 futility: int = 0, extend: bool = False):
        self.weights = tk.WEIGHTS if weights is None else weights
        # The compiled search also takes draughts' evaluation arrays: pass ones of the same types, unused.
        english = Evaluator.load(variant("english"))
        self._unused = (english.variant.rules,) + tuple(
            np.zeros_like(a[:1]) for a in (english.geometry, english.cones, english.coords))
        self._setup(tt_mb, lmr, futility, extend)

    def start_position(self) -> TablutPosition:  # type: ignore[override]
        return start_position()

    def legal_moves(self, position: TablutPosition) -> list[TablutMove]:  # type: ignore[override]
        return legal_moves(position)

    def _check(self, position: TablutPosition) -> None:  # type: ignore[override]
        if not isinstance(position, TablutPosition):
            raise ValueError("a Tablut searcher plays Tablut positions")

    def _load(self, position: TablutPosition) -> int:  # type: ignore[override]
        self._st[0] = state(position)[0]
        self._ctl[sk.C_REV_LIMIT] = NO_LIMIT
        self._ctl[sk.C_ENDINGS] = 0
        return key(position)

    def _tables(self) -> tuple:
        rules, geometry, cones, coords = self._unused
        return rules, tk.ZOBRIST, self.weights, geometry, cones, coords

    def _pv_moves(self, position: TablutPosition, raw: np.ndarray, moves: list[TablutMove]) -> list[TablutMove]:  # type: ignore[override]
        out: list[TablutMove] = []
        pos = position
        for k, (frm, to, _, _) in enumerate(raw):
            legal = moves if k == 0 else legal_moves(pos)
            move = next((m for m in legal if (m.start, m.end) == (frm, to)), None)
            if move is None or pos.king == NO_KING:
                break
            out.append(move)
            pos = make(pos, move)
        return out
