"""Draughts as the compiled search sees it: three bitboards a position (the mover's, the other's, the kings),
and one ``Tables`` value with the variant's rules vector, the Zobrist keys, the evaluation's weights and tables
and the endgame databases; the search's operations (``engine.search.hooks``) get their draughts bodies here."""

from __future__ import annotations

import time
from typing import NamedTuple

import numpy as np
from numba import njit, types
from numba.extending import overload

from engine.draughts import endgames as eg
from engine.draughts import kernel, kernel_layout, network
from engine.draughts.endgames import DRAW, LOSS, WIN, Endgames, MAX_PIECES, larger_built
from engine.draughts.evaluation import Evaluator, evaluate
from engine.draughts.weight_files import load_evaluator
from engine.draughts.kernel import bit_index, popcount
from engine.draughts.position import Move, Position
from engine.draughts.rules import ZOBRIST, key
from engine.draughts.variants import Variant
from engine.game import Color
from engine.search import hooks
from engine.search import kernel as sk
from engine.search.kernel import RULES_CANNOT_DRAW
from engine.search.hooks import SearchHooks

LOOK_AGAIN = 30.0  # seconds between looks for a larger endgame database
FUTILITY = 60  # the measured best futility margin for draughts (hundredths of a man a ply)


class Tables(NamedTuple):
    """A variant as the compiled search takes it (its ``game``)."""

    rules: np.ndarray
    zobrist: np.ndarray
    weights: np.ndarray
    geometry: np.ndarray
    cones: np.ndarray
    coords: np.ndarray
    patterns: np.ndarray
    tb_layout: np.ndarray  # the endgame databases' arrays (``Endgames.arrays``), or ``NO_ENDGAMES``
    tb_offsets: np.ndarray
    tb_binom: np.ndarray
    tb_wdl: np.ndarray
    tb_dist: np.ndarray
    net: np.ndarray  # the network's layers (``network.NO_NETWORK`` if none)
    net_out: np.ndarray
    lengths: np.ndarray  # int64 scratch of no length: the move generator's capture-path lengths, which the search
    # does not ask for


# The endgame databases' arrays when there are none: (layout, offsets, binom, wdl, dist), holding no pieces,
# read-only as mapped database files are (the same types, so one compiled search).
NO_ENDGAMES = (np.zeros(eg.LAYOUT_LEN, dtype=np.int64), np.full(1, -1, dtype=np.int64), np.zeros((1, 1), dtype=np.int64),
               np.zeros(1, dtype=np.uint8), np.zeros(1, dtype=np.uint8))
for _arr in NO_ENDGAMES:
    _arr.flags.writeable = False
_NO_LENGTHS = np.zeros(0, dtype=np.int64)
assert hooks.MOVE_COLS == kernel_layout.MOVE_COLS
assert (hooks.PROBE_DRAW, hooks.PROBE_WIN, hooks.PROBE_LOSS) == (eg.DRAW, eg.WIN, eg.LOSS)


class DraughtsHooks(SearchHooks[Position, Move]):
    """One variant, with an evaluation (its shipped weights unless given)."""

    squares = 64  # bit indexes on draughts boards
    futility = FUTILITY
    work_shape = (kernel_layout.MAX_PATH, kernel.WORK_COLS)

    def __init__(self, variant: Variant, evaluator: Evaluator | None = None):
        self.variant = variant
        self.evaluator = evaluator or load_evaluator(variant)
        self.state_cols = network.state_cols(self.evaluator.net)
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
        row[:3] = (me, opp, position.kings)
        if self.evaluator.net.shape[0]:
            network.refresh(row.view(np.int16)[network.ACC:], np.uint64(position.white), np.uint64(position.black),
                            np.uint64(position.kings), self.evaluator.net)
        ctl[sk.C_REV_LIMIT] = self.variant.king_move_limit
        ctl[sk.C_ENDINGS] = 1 if self.variant.endgame_limits else 0
        return key(position)

    def compiled(self, endgames: bool) -> Tables:
        ev = self.evaluator
        layout, offsets, binom, wdl, dist = self.endgames() if endgames else NO_ENDGAMES
        return Tables(self.variant.rules, ZOBRIST, ev.weights, ev.geometry, ev.cones, ev.coords, ev.patterns,
                      layout, offsets, binom, wdl, dist, ev.net, ev.net_out, _NO_LENGTHS)

    def endgames(self) -> tuple:
        """The variant's largest endgame database in ``endgames.default_directory()``. Looked for again every
        ``LOOK_AGAIN`` seconds while a larger one may come (a build may finish while the bot runs); opening maps
        the files, so it costs no wait."""
        now = time.monotonic()
        held = self._endgames.pieces if self._endgames is not None else 1
        if held < MAX_PIECES and now >= self._next_look:
            self._next_look = now + LOOK_AGAIN
            if larger_built(self.variant, held):  # (a look for a file, not an opening of the ones held again)
                self._endgames = Endgames.open(self.variant) or self._endgames
        return self._endgames.arrays() if self._endgames is not None else NO_ENDGAMES

    def held(self, position: Position, reversible: int) -> bool:
        if self.variant.endgame_limits or self._endgames is None:
            return False  # the databases' long wins are not trusted under the lone-king rules: search on
        value, plies = self._endgames.value(position)
        return value == DRAW or (value in (WIN, LOSS) and plies <= self.variant.king_move_limit - reversible)

    def verdict(self, position: Position, reversible: int) -> str | None:
        self.endgames()  # opens the databases if they are there
        if self._endgames is None or (position.white | position.black).bit_count() > self._endgames.pieces:
            return None
        value, plies = self._endgames.value(position)
        if value == DRAW:
            return "draw"  # the counting rules only add draws
        if value not in (WIN, LOSS) or plies > self.variant.king_move_limit - reversible:
            return None
        if self.variant.endgame_limits and plies > RULES_CANNOT_DRAW:
            return None  # International's lone-king rules may draw it first
        return "win" if value == WIN else "loss"

    def is_row(self, move: Move, frm: int, to: int, captured: int) -> bool:
        v = self.variant
        return (v.bit(move.start), v.bit(move.end), v.mask(move.captures)) == (frm, to, captured)


# --- the search's operations for draughts (``engine.search.hooks``): ``st[p]`` is (mover's, other's, kings) ---

def _draughts(game) -> bool:
    return isinstance(game, types.BaseNamedTuple) and getattr(game, "instance_class", None) is Tables


@overload(hooks.generate)
def _generate(game, st, p, side, captures_only, out, start, work):
    if _draughts(game):
        def impl(game, st, p, side, captures_only, out, start, work):
            mode = kernel_layout.MODE_CAPTURES_ONLY if captures_only else kernel_layout.MODE_LEGAL
            return kernel.generate(st[p, 0], st[p, 1], st[p, 2], side, game.rules, mode, out, start, work,
                                   work[:0], game.lengths)  # no capture paths wanted (a view: nothing allocated)
        return impl


@overload(hooks.make)
def _make(game, st, p, side, out, i):
    if _draughts(game):
        def impl(game, st, p, side, out, i):
            me, opp, kings = kernel.make(st[p, 0], st[p, 1], st[p, 2], out[i, 0], out[i, 1], out[i, 2], out[i, 3])
            st[p + 1, 0] = opp
            st[p + 1, 1] = me
            st[p + 1, 2] = kings
            if game.net.shape[0]:
                network.update(st[p].view(np.int16)[network.ACC:], st[p + 1].view(np.int16)[network.ACC:], side,
                               st[p, 2], out[i, 0], out[i, 1], out[i, 2], out[i, 3], game.net)
        return impl


@njit(cache=True, inline="always")
def _key_after_move(key, st, p, side, out, i, zob):
    """Zobrist key after move ``i`` of ``side`` from ``st[p]`` (the kernel's ``zobrist`` layout)."""
    key ^= zob[4, 0]
    frm = out[i, 0]
    to = out[i, 1]
    kings = st[p, 2]
    man = 0 if side == 0 else 2
    was_king = (kings & frm) != np.uint64(0)
    key ^= zob[man + (1 if was_king else 0), bit_index(frm)]
    key ^= zob[man + (1 if (was_king or out[i, 3] != np.uint64(0)) else 0), bit_index(to)]
    cap = out[i, 2]
    other = 2 - man
    while cap:
        c = cap & ~(cap - np.uint64(1))
        cap ^= c
        key ^= zob[other + (1 if (kings & c) else 0), bit_index(c)]
    return key


@overload(hooks.key_after)
def _key_after(game, key, st, p, side, out, i):
    if _draughts(game):
        return lambda game, key, st, p, side, out, i: _key_after_move(key, st, p, side, out, i, game.zobrist)


@overload(hooks.reversible)
def _reversible(game, st, p, out, i):
    if _draughts(game):  # a king's move that takes nothing
        return lambda game, st, p, out, i: out[i, 2] == np.uint64(0) and (st[p, 2] & out[i, 0]) != np.uint64(0)


@overload(hooks.evaluate)
def _evaluate(game, st, p, side):
    if _draughts(game):
        def impl(game, st, p, side):
            white, black = (st[p, 0], st[p, 1]) if side == 0 else (st[p, 1], st[p, 0])
            hidden = game.net.shape[1]
            acc = st[p].view(np.int16)[network.ACC + side * hidden:network.ACC + (side + 1) * hidden]
            return evaluate(white, black, st[p, 2], side, game.weights, game.geometry, game.cones, game.coords,
                            game.patterns, game.net_out, acc)
        return impl


@njit(cache=True, inline="always")
def _lone_king_limit(st, p):
    """Plies allowed in the position's ending by the 16-move (three pieces with a king) and 5-move (at most two
    with a king) rules against a lone king; 0 when they do not apply."""
    kings = st[p, 2]
    for side in range(2):
        lone = st[p, side]
        other = st[p, 1 - side]
        if popcount(lone) == 1 and (lone & kings) and (other & kings):
            n = popcount(other)
            if n == 3:
                return np.int64(32)
            if n <= 2:
                return np.int64(10)
    return np.int64(0)


@overload(hooks.ending_limit)
def _ending_limit(game, st, p):
    if _draughts(game):
        return lambda game, st, p: _lone_king_limit(st, p)


@overload(hooks.probe)
def _probe(game, st, p, side):
    if _draughts(game):
        def impl(game, st, p, side):
            if popcount(st[p, 0] | st[p, 1]) > game.tb_layout[eg.L_PIECES]:
                return hooks.PROBE_NONE, np.int64(0)
            v, plies = eg.probe(st[p, 0], st[p, 1], st[p, 2], side, game.tb_layout, game.tb_offsets, game.tb_binom,
                                game.tb_wdl, game.tb_dist)
            if v < 0 or v == eg.INVALID:
                return hooks.PROBE_NONE, np.int64(0)
            return np.int64(v), np.int64(plies)
        return impl


@overload(hooks.square)
def _square(game, v):
    if _draughts(game):  # a move row's from and to are one-bit masks
        return lambda game, v: bit_index(v)


@overload(hooks.threatened)
def _threatened(game, st, p, side):
    if _draughts(game):
        return lambda game, st, p, side: kernel.can_capture(st[p, 1], st[p, 0], st[p, 2], 1 - side, game.rules)


@overload(hooks.capture_order)
def _capture_order(game, st, p, out, i):
    if _draughts(game):  # more pieces (and kings) first, then a capture that crowns
        return lambda game, st, p, out, i: (popcount(out[i, 2]) * 1000 + popcount(out[i, 2] & st[p, 2]) * 100
                                            + np.int64(out[i, 3]) * 10)
