"""What the search needs of a game: how its positions enter the compiled search, and how moves come back out.

A game's ``GameType.search_hooks`` returns one of these; ``Searcher`` keeps it
and never asks which game it plays. The compiled search chooses the game's
kernels by ``game`` (numba compiles each game's branch; it cannot call through
an object).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Generic, TypeVar

import numpy as np

from engine.game import History
from engine.search import kernel as sk

P = TypeVar("P")
M = TypeVar("M")


class SearchHooks(ABC, Generic[P, M]):
    """One game, as the compiled search sees it."""

    game: int
    """The game's number in the compiled search (``engine.search.kernel.GAME_*``)."""
    state_cols: int
    """Columns of a position's row in the compiled search."""
    squares: int
    """Square numbers a move's from and to take in the compiled search (the history table's size)."""
    futility: int
    """The search's default futility margin for this game (hundredths of a man a ply; 0: off)."""

    @abstractmethod
    def check(self, position: P) -> None:
        """Raise ValueError if ``position`` is not one this search plays."""

    @abstractmethod
    def load(self, position: P, row: np.ndarray, ctl: np.ndarray) -> int:
        """Write ``position`` into the compiled search's root ``row`` and its draw rules into the controls
        ``ctl``; return its Zobrist key."""

    @abstractmethod
    def tables(self) -> tuple:
        """The rules, Zobrist table and evaluation data, as the compiled search takes them:
        (rules, zobrist, weights, geometry, cones, coords, patterns)."""

    def endgames(self) -> tuple:
        """The endgame databases as the compiled search takes them: (layout, offsets, binom, wdl, dist);
        none unless the game has them."""
        return sk.NO_ENDGAMES

    def held(self, position: P, history: History) -> bool:
        """Whether the endgame databases last given by ``endgames`` hold ``position`` itself, and no counting
        rule can draw its value first (then its moves' values are exact at once)."""
        return False

    def verdict(self, position: P, history: History) -> str | None:
        """The endgame databases' value of ``position`` for the side to move ('win', 'draw', 'loss'), where
        they hold it and no counting rule can change it; None elsewhere (and for games without databases)."""
        return None

    @abstractmethod
    def is_row(self, move: M, frm: int, to: int, captured: int) -> bool:
        """Whether a move row of the compiled search (from, to, captured, as the game's kernel writes them) is
        ``move``."""
