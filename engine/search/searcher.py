"""Search: the best move of a position within limits of time, depth or nodes.

One entry point::

    searcher = Searcher(game_type("english"), tt_mb=32)
    result = searcher.search(position, Limits(time=0.5))
    result.move, result.score, result.depth, result.pv

``Searcher`` owns the transposition table, the move-ordering tables and the
game's search hooks (its compiled rules and evaluation): make one per worker
process and reuse it. There is no module-level mutable state.

Iterative deepening runs ``kernel.search_iteration`` at depth 1, 2, ...
with an aspiration window around the last score. The clock is polled inside
the compiled search, so a search stops within about a millisecond of its
deadline even in the middle of an iteration; then the deepest completed
iteration's move is played, or a better root move found by the unfinished one.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Generic, TypeVar

import numpy as np

from engine.game import History
from engine.search import kernel as sk

if TYPE_CHECKING:
    from engine.game import GameType, MoveLike, PositionLike

P = TypeVar("P", bound="PositionLike")
M = TypeVar("M", bound="MoveLike")

WIN = sk.WIN
WIN_BOUND = sk.WIN_BOUND
ENDING_BOUND = sk.ENDING_BOUND
DRAW = sk.DRAW
MAX_DEPTH = sk.MAX_PLY // 2

# Time kept back from a budget for returning the move (Python work after the deadline).
SAFETY = 0.004
ASPIRATION = 30  # half-width of the first aspiration window, hundredths of a man


@dataclass(frozen=True)
class Limits:
    """When to stop searching; the first limit reached ends the search."""

    time: float | None = None
    """Seconds for this move (the hard budget); None for no time limit."""
    depth: int | None = None
    """Deepest iteration (plies); None for no depth limit."""
    nodes: int | None = None
    """Stop after about this many nodes."""


@dataclass(frozen=True)
class SearchResult(Generic[M]):
    """What a search found."""

    move: M
    """The move to play."""
    score: int
    """Score for the side to move, in hundredths of a man; beyond ``WIN_BOUND`` a forced win (``WIN - plies``),
    beyond ``ENDING_BOUND`` an ending the databases hold as won."""
    depth: int
    """Deepest completed iteration (0 when the move was forced)."""
    pv: tuple[M, ...]
    """Principal variation, starting with ``move``."""
    nodes: int
    """Positions searched."""
    time: float
    """Seconds spent."""
    seldepth: int = 0
    """Deepest ply reached, extensions and captures included."""

    @property
    def nps(self) -> int:
        """Nodes per second."""
        return int(self.nodes / self.time) if self.time > 0 else 0

    @property
    def mate_in(self) -> int | None:
        """Plies to a forced win (positive) or loss (negative), if the score says so."""
        if self.score > WIN_BOUND:
            return WIN - self.score
        if self.score < -WIN_BOUND:
            return -(WIN + self.score)
        return None


FRESH_TT_MB = 2  # table size for fresh searches (the shallow levels)


def _cache_aligned(shape: tuple[int, int]) -> np.ndarray:
    """Zeroed uint64 rows starting on a 64-byte boundary, so that a table bucket (two rows) is one cache line."""
    n = shape[0] * shape[1]
    raw = np.zeros(n + 8, dtype=np.uint64)
    skip = (-raw.ctypes.data % 64) // 8
    return raw[skip:skip + n].reshape(shape)


@dataclass(frozen=True)
class _Tables:
    """What a search learns and reuses: the transposition table and the move-ordering tables."""

    tt: np.ndarray  # rows (key ^ data, data); see engine.search.kernel
    history: np.ndarray
    killers: np.ndarray

    @classmethod
    def of_size(cls, tt_mb: float, squares: int) -> _Tables:
        entries = max(2, 1 << int(np.log2(max(2, tt_mb * 2**20 / 16))))
        return cls(_cache_aligned((entries, 2)), np.zeros((2, squares, squares), dtype=np.int64), np.zeros((sk.MAX_PLY + 2, 2, 3), dtype=np.uint64))

    def clear(self) -> None:
        for table in (self.tt, self.history, self.killers):
            table[:] = 0


@dataclass(frozen=True)
class _Iteration:
    score: int
    depth: int
    pv: np.ndarray  # kernel move rows (from, to, captured, crown)


class Searcher(Generic[P, M]):
    """A reusable search for one game: transposition table, ordering tables, and the game's search hooks.

    ``tt_mb`` sizes the transposition table; ``weights`` is the game's own
    evaluation (a draughts ``Evaluator``, Tablut's weight vector; None: the
    shipped one). The other settings exist to be compared by matches
    (``python -m engine match``); the defaults are the measured best: ``lmr``
    divides the late-move reduction log(depth) * log(moves searched) (0 turns
    reductions off), ``futility`` is the margin per ply for pruning quiet nodes
    near the leaves whose static score is far above beta (0: off; None: the
    game's own), ``extend`` spends no depth on a node with a single legal move,
    ``endgames`` reads the game's endgame databases where they are built
    (``python -m engine egtb build``).
    """

    def __init__(self, game: GameType[P, M], tt_mb: float = 16, weights: object = None, lmr: float = 1.2,
                 futility: int | None = None, extend: bool = False, endgames: bool = True):
        self.game = game
        self.hooks = game.search_hooks(weights)
        self.lmr = lmr
        self.futility = self.hooks.futility if futility is None else futility
        self.extend = extend
        self.endgames = endgames
        self._lmr_table = sk.reduction_table(lmr) if lmr else np.zeros((64, 64), dtype=np.int64)
        self._main = _Tables.of_size(tt_mb, self.hooks.squares)
        self._scratch: _Tables | None = None  # for fresh searches, made when first needed
        self._generation = 0
        n = sk.MAX_PLY + 2
        self._st = np.zeros((n, self.hooks.state_cols), dtype=np.uint64)
        self._out = np.zeros((sk.MOVES_CAPACITY, sk.MOVE_COLS), dtype=np.uint64)
        self._order = np.zeros(sk.MOVES_CAPACITY, dtype=np.int64)
        self._work = np.zeros((sk.MAX_PATH, sk.WORK_COLS), dtype=np.uint64)
        self._frames = np.zeros((n, sk.FRAME_COLS), dtype=np.int64)
        self._rev = np.zeros((n, 3), dtype=np.int64)
        self._pv = np.zeros((n, n, sk.MOVE_COLS), dtype=np.uint64)
        self._pvlen = np.zeros(n, dtype=np.int64)
        self._ctl = np.zeros(sk.CTL_LEN, dtype=np.int64)
        self._clock = np.zeros(1, dtype=np.float64)

    @property
    def tt_entries(self) -> int:
        return int(self._main.tt.shape[0])

    def clear(self) -> None:
        """Forget everything learnt (a new game)."""
        self._main.clear()

    def warm_up(self) -> None:
        """Load the compiled code and the clock poll now, so that the first real move pays nothing."""
        self.search(self.game.start(), Limits(nodes=5000, depth=6))
        self.clear()

    def stop(self) -> None:
        """Ask a running search (in another thread) to return now."""
        self._ctl[sk.C_STOP] = 1

    def search(self, position: P, limits: Limits, history: History = History(),
               on_iteration: Callable[[SearchResult[M]], None] | None = None, noise: int = 0,
               seed: int = 0, fresh: bool = False) -> SearchResult[M]:
        """Search ``position`` and return the best move found within ``limits``.

        Raises ValueError if the side to move has no legal move (the game is over).
        ``on_iteration`` is called with the result of each completed depth.
        ``noise`` adds a pseudo-random amount up to that many hundredths of a man
        to every evaluation, the same for a position throughout one ``seed``:
        the misjudgements of a weaker player.
        ``fresh`` searches with empty tables of its own, kept apart from the
        main ones: the result then depends only on the position and the
        settings (reproducible), and what the main tables learnt is kept.
        """
        t0 = time.perf_counter()
        self.hooks.check(position)
        if limits.time is not None and limits.time <= 0:
            raise ValueError("the time for a move must be more than 0 seconds")
        moves = self.game.legal_moves(position)
        if not moves:
            raise ValueError("the side to move has no legal move: the game is over")
        tables = self._main
        if fresh:
            if self._scratch is None:
                self._scratch = _Tables.of_size(FRESH_TT_MB, self.hooks.squares)
            tables = self._scratch
            tables.clear()
        if len(moves) == 1 and (limits.time is not None or limits.depth is None):
            # forced: play it at once, with a quick look for the score
            quick = self._run(position, Limits(depth=4, nodes=2000, time=0.01), history, t0, None, moves,
                              tables, noise, seed)
            return SearchResult(moves[0], quick.score, 0, (moves[0],) + quick.pv[1:], quick.nodes,
                                time.perf_counter() - t0, quick.seldepth)
        return self._run(position, limits, history, t0, on_iteration, moves, tables, noise, seed)

    def _run(self, position: P, limits: Limits, history: History, t0: float,
             on_iteration: Callable[[SearchResult[M]], None] | None, moves: list[M], tables: _Tables,
             noise: int, seed: int) -> SearchResult[M]:
        ctl = self._ctl
        ctl[:] = 0  # the stop flag too: a stop asked before this search began is for an earlier one
        if tables is self._main:
            self._generation = (self._generation + 1) % 64  # entries of earlier searches age
        np.right_shift(tables.history, 1, out=tables.history)  # older history counts for less
        keys_hist = history.keys[-min(len(history.keys), history.reversible):] if history.reversible else ()
        h0 = len(keys_hist)
        keys = np.zeros(h0 + sk.MAX_PLY + 2, dtype=np.uint64)
        keys[:h0] = keys_hist
        keys[h0] = self.hooks.load(position, self._st[0], ctl)
        self._rev[0, sk.R_REVERSIBLE] = history.reversible
        self._rev[0, sk.R_ENDING] = history.ending
        ctl[sk.C_HIST_LEN] = h0
        ctl[sk.C_NOISE] = noise
        ctl[sk.C_NOISE_SEED] = seed & 0x7FFFFFFFFFFFFFFF
        ctl[sk.C_LMR] = 1 if self.lmr else 0
        ctl[sk.C_FUTILITY] = self.futility
        ctl[sk.C_EXTEND] = 1 if self.extend else 0
        ctl[sk.C_GEN] = self._generation
        ctl[sk.C_NODE_LIMIT] = limits.nodes or 0
        deadline = t0 + limits.time - SAFETY if limits.time is not None else float("inf")
        self._clock[0] = deadline
        max_depth = min(limits.depth or MAX_DEPTH, MAX_DEPTH)
        rules, zobrist, weights, geometry, cones, coords, patterns = self.hooks.tables()
        endgames = self.hooks.endgames() if self.endgames else sk.NO_ENDGAMES
        held = self.endgames and self.hooks.held(position, history)
        best: _Iteration | None = None
        score = 0
        for depth in range(1, max_depth + 1):
            if time.perf_counter() >= deadline:
                break
            window = ASPIRATION
            alpha, beta = (score - window, score + window) if depth >= 4 and abs(score) < WIN_BOUND else (-sk.INF, sk.INF)
            while True:
                value = sk.search_iteration(
                    self.hooks.game, self._st, int(position.turn), depth, alpha, beta, rules,
                    self._out, self._order, self._work, self._frames, keys, self._rev, self._pv, self._pvlen,
                    tables.killers, tables.history, tables.tt, zobrist, weights, geometry,
                    cones, coords, patterns, self._lmr_table, ctl, self._clock, *endgames)
                if ctl[sk.C_ABORTED]:
                    break
                if value <= alpha and alpha > -sk.INF:
                    window *= 4
                    alpha = max(-sk.INF, value - window)
                elif value >= beta and beta < sk.INF:
                    window *= 4
                    beta = min(sk.INF, value + window)
                else:
                    break
            if ctl[sk.C_ABORTED]:
                if best is not None and ctl[sk.C_ROOT_UPDATED] and self._pvlen[0] > 0:
                    # the unfinished iteration found a better root move than the last one: play it
                    raw = self._pv[0, : self._pvlen[0]].copy()
                    if tuple(raw[0]) != tuple(best.pv[0]):
                        best = _Iteration(int(self._frames[0, sk.F_BEST]), best.depth, raw)
                break
            score = int(value)
            best = _Iteration(score, depth, self._pv[0, : self._pvlen[0]].copy())
            if on_iteration is not None:
                on_iteration(self._result(position, best, moves, t0))
            if abs(score) > WIN_BOUND and WIN - abs(score) <= depth:
                break  # a forced result seen to its end
            if held and depth >= 2:
                break  # the databases valued every move at the root: deeper is no wiser
        if best is None:
            # not even depth 1 finished (a tiny budget): the first legal move
            return SearchResult(moves[0], 0, 0, (moves[0],), int(ctl[sk.C_NODES]), time.perf_counter() - t0)
        return self._result(position, best, moves, t0)

    def _result(self, position: P, it: _Iteration, moves: list[M], t0: float) -> SearchResult[M]:
        pv = self._pv_moves(position, it.pv, moves) or [moves[0]]
        return SearchResult(pv[0], it.score, it.depth, tuple(pv), int(self._ctl[sk.C_NODES]),
                            time.perf_counter() - t0, int(self._ctl[sk.C_SELDEPTH]))

    def _pv_moves(self, position: P, raw: np.ndarray, moves: list[M]) -> list[M]:
        """The compiled search's principal variation (rows of from, to, captured, crown) as moves, each checked
        against the legal moves where it is played (``moves`` at the root); it stops at the first that is not."""
        out: list[M] = []
        pos = position
        for k, (frm, to, captured, _) in enumerate(raw):
            legal = moves if k == 0 else self.game.legal_moves(pos)
            move = next((m for m in legal if self.hooks.is_row(m, frm, to, captured)), None)
            if move is None:
                break
            out.append(move)
            pos = self.game.make(pos, move)
        return out


def allocate(time_left: float, moves_left: int | None = None, increment: float = 0.0) -> float:
    """Seconds for the next move from a game clock: an equal share of the time left over the
    moves to go (30 when unknown), plus the increment, never more than half the time left
    nor less than 10 ms."""
    share = time_left / max(1, moves_left or 30) + increment
    return max(0.01, min(share, time_left / 2 + increment))
