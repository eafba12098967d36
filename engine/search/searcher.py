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

import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Generic, TypeVar

import numpy as np

from engine.game import History
from engine.search import kernel as sk
from engine.search.stack import Fixed, Stack, Tables

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
    game's own), ``extend`` spends no depth on a node with a single legal move, ``probcut`` is the margin per ply
    by which a shallow search (0.4 of the depth) must clear beta to cut a node before its real search (0: off),
    ``threats`` searches one ply deeper where the quiescence search begins in a quiet position whose side to
    move is threatened with a capture,
    ``endgames`` reads the game's endgame databases where they are built
    (``python -m engine egtb build``). ``threads`` above 1 adds helper
    threads to searches limited by time or not at all (lazy SMP: they search the same
    position and share the transposition table, so the main search finds more
    of its tree already searched); the result is then not reproducible. It
    may be changed between searches.
    """

    def __init__(self, game: GameType[P, M], tt_mb: float = 16, weights: object = None, lmr: float = 1.2,
                 futility: int | None = None, extend: bool = False, probcut: int = 0, threats: bool = False,
                 endgames: bool = True, threads: int = 1):
        self.game = game
        self.hooks = game.search_hooks(weights)
        self.lmr = lmr
        self.futility = self.hooks.futility if futility is None else futility
        self.extend = extend
        self.probcut = probcut
        self.threats = threats
        self.endgames = endgames
        self._lmr_table = sk.reduction_table(lmr) if lmr else np.zeros((64, 64), dtype=np.int64)
        self._main = Tables.of_size(tt_mb, self.hooks.squares)
        self._scratch: Tables | None = None  # for fresh searches, made when first needed
        self._generation = 0
        self._clock = np.zeros(1, dtype=np.float64)
        self._stack = Stack(self.hooks.state_cols, self.hooks.work_shape)
        self._helpers: list[tuple[Stack, Tables]] = []  # made when first needed, kept
        self.threads = threads

    @property
    def threads(self) -> int:
        """Threads a search limited by time or not at all uses (the main one and its helpers)."""
        return self._threads

    @threads.setter
    def threads(self, threads: int) -> None:
        if threads < 1:
            raise ValueError("a search needs at least one thread")
        self._threads = threads

    @property
    def tt_entries(self) -> int:
        return int(self._main.tt.shape[0])

    def clear(self) -> None:
        """Forget everything learnt (a new game): after it, the same searches give the same results."""
        self._generation = 0
        self._main.clear()
        for _, tables in self._helpers:
            tables.clear()

    def warm_up(self) -> None:
        """Load the compiled code and the clock poll now, so that the first real move pays nothing."""
        self.search(self.game.start(), Limits(nodes=5000, depth=6))
        self.clear()

    def stop(self) -> None:
        """Ask a running search (in another thread) to return now."""
        self._stack.ctl[sk.C_STOP] = 1

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
                self._scratch = Tables.of_size(FRESH_TT_MB, self.hooks.squares)
            tables = self._scratch
            tables.clear()
        if len(moves) == 1 and (limits.time is not None or limits.depth is None):
            # forced: play it at once, with a quick look for the score (cut by time only when the search was: a
            # search bound by nodes alone gives the same score and count however busy the machine is)
            quick = self._run(position, Limits(depth=4, nodes=2000, time=0.01 if limits.time is not None else None),
                              history, t0, None, moves, tables, noise, seed)
            return SearchResult(moves[0], quick.score, 0, (moves[0],) + quick.pv[1:], quick.nodes,
                                time.perf_counter() - t0, quick.seldepth)
        return self._run(position, limits, history, t0, on_iteration, moves, tables, noise, seed)

    def _run(self, position: P, limits: Limits, history: History, t0: float,
             on_iteration: Callable[[SearchResult[M]], None] | None, moves: list[M], tables: Tables,
             noise: int, seed: int) -> SearchResult[M]:
        stack = self._stack
        ctl = stack.ctl
        ctl[:] = 0  # the stop flag too: a stop asked before this search began is for an earlier one
        for helper, _ in self._helpers:
            helper.ctl[sk.C_NODES] = 0
        if tables is self._main:
            self._generation = (self._generation + 1) % 64  # entries of earlier searches age
        np.right_shift(tables.history, 1, out=tables.history)  # older history counts for less
        keys_hist = history.keys[-min(len(history.keys), history.reversible):] if history.reversible else ()
        h0 = len(keys_hist)
        stack.keys = np.zeros(h0 + sk.MAX_PLY + 2, dtype=np.uint64)
        stack.keys[:h0] = keys_hist
        stack.keys[h0] = self.hooks.load(position, stack.st[0], ctl)
        stack.rev[0, sk.R_REVERSIBLE] = history.reversible
        stack.rev[0, sk.R_ENDING] = history.ending
        ctl[sk.C_HIST_LEN] = h0
        ctl[sk.C_NOISE] = noise
        ctl[sk.C_NOISE_SEED] = seed & 0x7FFFFFFFFFFFFFFF
        ctl[sk.C_LMR] = 1 if self.lmr else 0
        ctl[sk.C_FUTILITY] = self.futility
        ctl[sk.C_EXTEND] = 1 if self.extend else 0
        ctl[sk.C_PROBCUT] = self.probcut
        ctl[sk.C_THREATS] = 1 if self.threats else 0
        ctl[sk.C_GEN] = self._generation
        ctl[sk.C_NODE_LIMIT] = limits.nodes or 0
        deadline = t0 + limits.time - SAFETY if limits.time is not None else float("inf")
        self._clock[0] = deadline
        max_depth = min(limits.depth or MAX_DEPTH, MAX_DEPTH)
        fixed = Fixed(self.hooks.compiled(self.endgames), int(position.turn), self._lmr_table, self._clock)
        held = self.endgames and self.hooks.held(position, history.reversible)
        # helpers make a search's result depend on timing: not where depth or nodes alone limit it
        helping = (tables is self._main and not held and limits.nodes is None
                   and (limits.time is not None or limits.depth is None))
        threads: list[threading.Thread] = []
        best: _Iteration | None = None
        score = 0
        try:
            if helping:
                self._start_helpers(fixed, max_depth, threads)
            for depth in range(1, max_depth + 1):
                if time.perf_counter() >= deadline:
                    break
                value = stack.iterate(depth, score, tables, fixed)
                if stack.aborted:
                    if best is not None and ctl[sk.C_ROOT_UPDATED] and stack.pvlen[0] > 0:
                        # the unfinished iteration found a better root move than the last one: play it
                        raw = stack.pv[0, : stack.pvlen[0]].copy()
                        if tuple(raw[0]) != tuple(best.pv[0]):
                            best = _Iteration(int(stack.frames[0, sk.F_BEST]), best.depth, raw)
                    break
                score = value
                best = _Iteration(score, depth, stack.pv[0, : stack.pvlen[0]].copy())
                if on_iteration is not None:
                    on_iteration(self._result(position, best, moves, t0))
                if abs(score) > WIN_BOUND and WIN - abs(score) <= depth:
                    break  # a forced result seen to its end
                if held and depth >= 2:
                    break  # the databases valued every move at the root: deeper is no wiser
        finally:
            self._stop_helpers(threads)
        if best is None:
            # not even depth 1 finished (a tiny budget): the first legal move
            return SearchResult(moves[0], 0, 0, (moves[0],), self._nodes(), time.perf_counter() - t0)
        return self._result(position, best, moves, t0)

    def _start_helpers(self, fixed: Fixed, max_depth: int, threads: list[threading.Thread]) -> None:
        """Start the helper threads on the main stack's root, each added to ``threads`` as it starts (so that
        those started are stopped even if a later one fails to start); every other one a ply ahead, so that the
        helpers do not all search what the main search is about to."""
        while len(self._helpers) < self.threads - 1:
            self._helpers.append((Stack(self.hooks.state_cols, self.hooks.work_shape),
                                  self._main.sharing_tt(self.hooks.squares)))
        for k, (stack, tables) in enumerate(self._helpers[:self.threads - 1]):
            stack.copy_root(self._stack)
            np.right_shift(tables.history, 1, out=tables.history)
            thread = threading.Thread(target=stack.help, args=(1 + (k + 1) % 2, max_depth, tables, fixed), daemon=True)
            thread.start()
            threads.append(thread)

    def _stop_helpers(self, threads: list[threading.Thread]) -> None:
        for stack, _ in self._helpers[:len(threads)]:
            stack.ctl[sk.C_STOP] = 1
        for thread in threads:
            thread.join()

    def _nodes(self) -> int:
        """Nodes of the last search, its helpers' included."""
        return int(self._stack.ctl[sk.C_NODES]) + sum(int(stack.ctl[sk.C_NODES]) for stack, _ in self._helpers)

    def _result(self, position: P, it: _Iteration, moves: list[M], t0: float) -> SearchResult[M]:
        pv = self._pv_moves(position, it.pv, moves) or [moves[0]]
        return SearchResult(pv[0], it.score, it.depth, tuple(pv), self._nodes(), time.perf_counter() - t0,
                            int(self._stack.ctl[sk.C_SELDEPTH]))

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


def spare_threads() -> int:
    """Threads for a search that has the machine to itself: two where there are two cores or more, else one.
    Two against one at 0.1 s a move: English +40 Elo, International +14 (200 games each), Russian +85, Brazilian
    +28 (100 games each; BENCHMARKS.md)."""
    return min(2, os.cpu_count() or 1)


def allocate(time_left: float, moves_left: int | None = None, increment: float = 0.0) -> float:
    """Seconds for the next move from a game clock: an equal share of the time left over the
    moves to go (30 when unknown), plus the increment, never more than half the time left
    nor less than 10 ms."""
    share = time_left / max(1, moves_left or 30) + increment
    return max(0.01, min(share, time_left / 2 + increment))
