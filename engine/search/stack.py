"""What one searching thread works in: the compiled search's stacks and controls, and the iteration loop.

``Searcher`` keeps one ``Stack`` for its own search and one more for each
helper thread (lazy SMP: helpers search the same root and share only the
transposition table). The arrays are allocated once and reused.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from engine.search import kernel as sk

ASPIRATION = 30  # half-width of the first aspiration window, hundredths of a man


@dataclass(frozen=True)
class Tables:
    """What a search learns and reuses: the transposition table and the move-ordering tables."""

    tt: np.ndarray  # rows (key ^ data, data); see engine.search.kernel
    history: np.ndarray
    killers: np.ndarray

    @classmethod
    def of_size(cls, tt_mb: float, squares: int) -> Tables:
        entries = max(2, 1 << int(np.log2(max(2, tt_mb * 2**20 / 16))))
        return cls(_cache_aligned((entries, 2)), *cls._ordering(squares))

    def sharing_tt(self, squares: int) -> Tables:
        """Tables of another thread: this transposition table, move-ordering tables of its own."""
        return Tables(self.tt, *self._ordering(squares))

    @staticmethod
    def _ordering(squares: int) -> tuple[np.ndarray, np.ndarray]:
        return np.zeros((2, squares, squares), dtype=np.int64), np.zeros((sk.MAX_PLY + 2, 2, 3), dtype=np.uint64)

    def clear(self) -> None:
        for table in (self.tt, self.history, self.killers):
            table[:] = 0


def _cache_aligned(shape: tuple[int, int]) -> np.ndarray:
    """Zeroed uint64 rows starting on a 64-byte boundary, so that a table bucket (two rows) is one cache line."""
    n = shape[0] * shape[1]
    raw = np.zeros(n + 8, dtype=np.uint64)
    skip = (-raw.ctypes.data % 64) // 8
    return raw[skip:skip + n].reshape(shape)


@dataclass(frozen=True)
class Fixed:
    """The compiled search's arguments that stay the same through one search (every thread's)."""

    game: Any  # the game as the compiled search takes it (``SearchHooks.compiled``)
    root_side: int
    lmr_table: np.ndarray
    clock: np.ndarray  # [deadline], perf_counter seconds


class Stack:
    """One thread's arrays for the compiled search."""

    def __init__(self, state_cols: int, work_shape: tuple[int, int]):
        n = sk.MAX_PLY + 2
        self.st = np.zeros((n, state_cols), dtype=np.uint64)
        self.out = np.zeros((sk.MOVES_CAPACITY, sk.MOVE_COLS), dtype=np.uint64)
        self.order = np.zeros(sk.MOVES_CAPACITY, dtype=np.int64)
        self.work = np.zeros(work_shape, dtype=np.uint64)
        self.frames = np.zeros((n, sk.FRAME_COLS), dtype=np.int64)
        self.rev = np.zeros((n, 3), dtype=np.int64)
        self.pv = np.zeros((n, n, sk.MOVE_COLS), dtype=np.uint64)
        self.pvlen = np.zeros(n, dtype=np.int64)
        self.ctl = np.zeros(sk.CTL_LEN, dtype=np.int64)
        self.keys = np.zeros(0, dtype=np.uint64)  # the game's keys before the root, then the line searched

    def copy_root(self, other: Stack) -> None:
        """Start where ``other`` starts: the same root, history and settings, a count of nodes of its own."""
        self.st[0] = other.st[0]
        self.rev[0] = other.rev[0]
        self.keys = other.keys.copy()
        self.ctl[:] = other.ctl
        self.ctl[sk.C_NODES] = 0
        self.ctl[sk.C_SELDEPTH] = 0

    @property
    def aborted(self) -> bool:
        return bool(self.ctl[sk.C_ABORTED])

    def iterate(self, depth: int, score: int, tables: Tables, fixed: Fixed) -> int:
        """Search the root to ``depth`` in an aspiration window around ``score`` (the last iteration's), widened
        until the value falls inside it. The value is meaningless if the search was cut short (``aborted``)."""
        window = ASPIRATION
        alpha, beta = (score - window, score + window) if depth >= 4 and abs(score) < sk.WIN_BOUND else (-sk.INF, sk.INF)
        while True:
            value = sk.search_iteration(
                fixed.game, self.st, fixed.root_side, depth, alpha, beta, self.out, self.order, self.work,
                self.frames, self.keys, self.rev, self.pv, self.pvlen, tables.killers, tables.history, tables.tt,
                fixed.lmr_table, self.ctl, fixed.clock)
            if self.aborted:
                return 0
            if value <= alpha and alpha > -sk.INF:
                window *= 4
                alpha = max(-sk.INF, value - window)
            elif value >= beta and beta < sk.INF:
                window *= 4
                beta = min(sk.INF, value + window)
            else:
                return int(value)

    def help(self, first: int, last: int, tables: Tables, fixed: Fixed) -> None:
        """A helper's search (lazy SMP): iterate from depth ``first`` to ``last`` until stopped, for what it
        leaves in the shared transposition table; its own results are not used."""
        score = 0
        for depth in range(first, last + 1):
            score = self.iterate(depth, score, tables, fixed)
            if self.aborted:
                return
