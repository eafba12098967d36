"""The search, shared by every game: iterative deepening over a compiled alpha-beta, and the difficulty levels.

    searcher = Searcher(game_type("english"), tt_mb=32)
    result = searcher.search(position, Limits(time=0.5), history)

``searcher`` holds the ``Searcher`` and its input and output values, ``kernel``
the compiled search, ``levels`` how levels 1-6 play. A game plugs in through
its ``GameType.search_hooks`` (``engine.game``).
"""

from engine.game import History
from engine.search.searcher import DRAW, ENDING_BOUND, MAX_DEPTH, WIN, WIN_BOUND, Limits, Searcher, SearchResult, allocate, spare_threads

__all__ = ["DRAW", "ENDING_BOUND", "History", "Limits", "MAX_DEPTH", "SearchResult", "Searcher", "WIN", "WIN_BOUND", "allocate", "spare_threads"]
