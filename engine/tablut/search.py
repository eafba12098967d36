"""Tablut through the engine's search: the same iterative deepening, table, ordering, levels and time budget.

``TablutHooks`` are Tablut's search hooks: the compiled search takes a
``Tables`` value (Zobrist keys and evaluation weights), and its operations
get their Tablut bodies here, from the moves, make, keys and evaluation of
``engine.tablut.kernel`` (Tablut has no quiescence moves, as its captures
are not compulsory, and no endgame databases). A repeated position is a draw there as in the game
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
from typing import NamedTuple

import numpy as np
from numba import types
from numba.extending import overload

from engine.game import History
from engine.search import hooks
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


class Tables(NamedTuple):
    """Tablut as the compiled search takes it (its ``game``)."""

    zobrist: np.ndarray
    weights: np.ndarray


class TablutHooks(SearchHooks[TablutPosition, TablutMove]):
    """Tablut for the compiled search, with an evaluation's weights (the shipped ``kernel.WEIGHTS`` unless given)."""

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

    def compiled(self, endgames: bool) -> Tables:
        return Tables(tk.ZOBRIST, self.weights)

    def is_row(self, move: TablutMove, frm: int, to: int, captured: int) -> bool:
        return (move.start, move.end) == (frm, to)  # a row's captures are packed squares; from and to decide


# --- the search's operations for Tablut (``engine.search.hooks``): ``st[p]`` is the kernel's row of cells ---

def _tablut(game) -> bool:
    return isinstance(game, types.BaseNamedTuple) and getattr(game, "instance_class", None) is Tables


@overload(hooks.generate)
def _generate(game, st, p, side, captures_only, out, start, work):
    if _tablut(game):  # no capture is compulsory: no quiescence moves
        return lambda game, st, p, side, captures_only, out, start, work: (
            start if captures_only else tk.generate(st, p, side, out, start))


@overload(hooks.make)
def _make(game, st, p, side, out, i):
    if _tablut(game):
        return lambda game, st, p, side, out, i: tk.make(st, p, out, i)


@overload(hooks.key_after)
def _key_after(game, key, st, p, side, out, i):
    if _tablut(game):
        return lambda game, key, st, p, side, out, i: tk.key_after(key, st, p, out, i, game.zobrist)


@overload(hooks.reversible)
def _reversible(game, st, p, out, i):
    if _tablut(game):  # any move that takes nothing
        return lambda game, st, p, out, i: out[i, 2] == np.uint64(0)


@overload(hooks.evaluate)
def _evaluate(game, st, p, side):
    if _tablut(game):
        return lambda game, st, p, side: tk.evaluate(st, p, side, game.weights)


@overload(hooks.ending_limit)
def _ending_limit(game, st, p):
    if _tablut(game):
        return lambda game, st, p: np.int64(0)


@overload(hooks.probe)
def _probe(game, st, p, side):
    if _tablut(game):
        return lambda game, st, p, side: (np.int64(hooks.PROBE_NONE), np.int64(0))


@overload(hooks.square)
def _square(game, v):
    if _tablut(game):  # a move row's from and to are cell numbers
        return lambda game, v: np.int64(v)


@overload(hooks.threatened)
def _threatened(game, st, p, side):
    if _tablut(game):  # no capture is compulsory: the quiescence search has nothing to look at
        return lambda game, st, p, side: False


@overload(hooks.capture_order)
def _capture_order(game, st, p, out, i):
    if _tablut(game):  # more captured pieces first (packed a byte each)
        return lambda game, st, p, out, i: (1 + np.int64(out[i, 2] > np.uint64(0xFF))
                                            + np.int64(out[i, 2] > np.uint64(0xFFFF))) * 1000
