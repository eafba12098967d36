"""What the search needs of a game: how its positions enter the compiled search, the compiled operations the
search calls, and how moves come back out.

A game's ``GameType.search_hooks`` returns a ``SearchHooks``; ``Searcher`` keeps it and never asks which game it
plays. The compiled search (``engine.search.kernel``) sees a game as one value, the one ``SearchHooks.compiled``
gives: a named tuple of the game's own class holding its tables (rules, Zobrist keys, evaluation, endgame
databases). It calls the operations below on that value, and the game gives each operation its body for its own
class with numba's ``overload`` (see ``engine.draughts.hooks`` and ``engine.tablut.search``). So numba compiles
one search per game, with that game's operations inlined, and caches it; the search imports no game.

The operations on positions work on the search's arrays: ``st`` holds one position a row (the game's own
columns, the side to move's view as the game likes it), ply ``p``'s in ``st[p]``; ``out`` holds moves, a row
each, in ``MOVE_COLS`` uint64 columns: from, to, what it captures and whether it crowns, in the game's own
encoding (the search compares and hashes them, and asks the game for anything else).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, Generic, TypeVar

import numpy as np

P = TypeVar("P")
M = TypeVar("M")

MOVE_COLS = 4  # a move row: from, to, captured, crowns

# What ``probe`` tells of a position: a value for the side to move, or that the databases do not hold it.
PROBE_NONE = -1
PROBE_DRAW = 0
PROBE_WIN = 1
PROBE_LOSS = 2


class SearchHooks(ABC, Generic[P, M]):
    """One game, as the search sees it from Python."""

    state_cols: int
    """Columns of a position's row in the compiled search."""
    squares: int
    """Square numbers a move's from and to take in the compiled search (the history table's size)."""
    futility: int
    """The search's default futility margin for this game (hundredths of a man a ply; 0: off)."""
    work_shape: tuple[int, int] = (1, 1)
    """The uint64 scratch array ``generate`` may use, per searching thread."""

    @abstractmethod
    def check(self, position: P) -> None:
        """Raise ValueError if ``position`` is not one this search plays."""

    @abstractmethod
    def load(self, position: P, row: np.ndarray, ctl: np.ndarray) -> int:
        """Write ``position`` into the compiled search's root ``row`` and its draw rules into the controls
        ``ctl``; return its Zobrist key."""

    @abstractmethod
    def compiled(self, endgames: bool) -> Any:
        """The game as the compiled search takes it: a named tuple of the game's own class, with its endgame
        databases if ``endgames`` and it has them."""

    def held(self, position: P, reversible: int) -> bool:
        """Whether the endgame databases last given by ``compiled`` hold ``position`` itself (``reversible`` plies
        of reversible moves before it), and no counting rule can draw its value first (then its moves' values are
        exact at once)."""
        return False

    def verdict(self, position: P, reversible: int) -> str | None:
        """The endgame databases' value of ``position`` for the side to move ('win', 'draw', 'loss'), where
        they hold it and no counting rule can change it; None elsewhere (and for games without databases)."""
        return None

    @abstractmethod
    def is_row(self, move: M, frm: int, to: int, captured: int) -> bool:
        """Whether a move row of the compiled search (from, to, captured, as the game's kernel writes them) is
        ``move``."""


# --- the compiled operations: each game gives them bodies for its own value with ``numba.extending.overload`` ---

def generate(game, st, p, side, captures_only, out, start, work):
    """Write the legal moves of ``side`` (0 or 1) in ``st[p]`` into ``out`` from row ``start``, only captures if
    ``captures_only`` (none when no capture is compulsory: the quiescence search's moves); the row after the
    last. ``work`` is the scratch array of ``SearchHooks.work_shape``."""
    raise NotImplementedError


def make(game, st, p, side, out, i):
    """Write the position after ``side``'s move ``i`` into ``st[p + 1]``."""
    raise NotImplementedError


def key_after(game, key, st, p, side, out, i):
    """The Zobrist key after ``side`` plays move ``i`` from ``st[p]``, whose key is ``key``."""
    raise NotImplementedError


def reversible(game, st, p, out, i):
    """Whether move ``i`` from ``st[p]`` counts toward the draw by reversible moves."""
    raise NotImplementedError


def evaluate(game, st, p, side):
    """The static score of ``st[p]`` for ``side``, to move, in hundredths of a man."""
    raise NotImplementedError


def ending_limit(game, st, p):
    """Plies a counting rule allows in the ending ``st[p]`` is in (International's lone-king rules); 0 if none."""
    raise NotImplementedError


def probe(game, st, p, side):
    """(value, plies) of ``st[p]`` with ``side`` to move from the endgame databases: ``PROBE_WIN``,
    ``PROBE_DRAW`` or ``PROBE_LOSS`` and the plies to the end, or ``PROBE_NONE`` where they do not hold it."""
    raise NotImplementedError


def square(game, v):
    """A move row's from or to as a square number below ``SearchHooks.squares``."""
    raise NotImplementedError


def threatened(game, st, p, side):
    """Whether, in ``st[p]`` with ``side`` to move, the other side could capture were it its turn (a quiet
    position under threat, which the quiescence search looks at one ply deeper)."""
    raise NotImplementedError


def capture_order(game, st, p, out, i):
    """How early to try capture ``i`` among the captures (0 to 999,999; more first)."""
    raise NotImplementedError
