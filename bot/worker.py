"""What runs inside a search process: one ``Searcher`` per variant, kept for the life of the process.

Jobs and answers are small picklable values: a position as text (FEN, or
Tablut's position string) with the draw history, and the move as its full text.
"""

from __future__ import annotations

import multiprocessing
import os
import random
import signal
import time
from collections import OrderedDict
from collections.abc import Sequence
import threading
from dataclasses import dataclass
from typing import Any

from engine import GameRecord, game_type
from engine.analysis import Look, Ply, look_segment, plies
from engine.games import GAMES
from engine.lifeline import end_with
from engine.search import History, Searcher
from engine.search.levels import choose_move, level

# This process's searchers, by variant name (each process has its own; nothing is shared): for moves, and for
# analyses (their own tables, so that an analysis leaves the moves' tables alone).
_searchers: dict[str, Searcher[Any, Any]] = {}
_analysers: dict[str, Searcher[Any, Any]] = {}
_replayed: OrderedDict[tuple, list[Ply]] = OrderedDict()  # the games last analysed here, replayed
REPLAYED_KEPT = 4
_give_way: Any = None  # the pool's shared byte: 1 while a move waits for a process (analyses then stop early)
ANALYSIS_TT_MB = 16
GIVE_WAY_POLL = 0.005  # seconds between looks at the pool's event while an analysis searches
_tt_mb = 64
SET_ASIDE = {signal.SIGINT, signal.SIGTERM}
"""The signals a search process ignores: sent to every process of the bot at once, they are the bot's to handle."""


@dataclass(frozen=True)
class Job:
    """One move to find."""

    game: str
    """The game's name (``engine.game_type``)."""
    position: str
    """The position to move from, as the game writes it."""
    history: History
    level: int
    budget: float
    """Seconds for the move."""
    seed: int | None = None
    """A seed makes levels 1-5 repeat their choice."""
    threads: int = 1
    """Threads the search may use (the pool gives more to a search running alone)."""
    due: float | None = None
    """When the move must be found at the latest (Unix time; a bot on its clock): a job that waited in the pool's
    queue searches only what is left until then (never less than ``LEAST``)."""


LEAST = 0.02  # seconds a job whose time went waiting still searches


@dataclass(frozen=True)
class Segment:
    """Some positions of a game to analyse (``engine.analysis.segments``): one short job of a game's analysis."""

    game: str
    """The game's name (``engine.game_type``)."""
    start: str
    """The game's start position, as text."""
    moves: tuple[str, ...]
    """Every move of the game, as full paths."""
    plies: tuple[int, ...]
    """The positions to search (0 the start), in the order searched."""
    nodes: int
    known: int = 0
    """Positions at the front of ``plies`` already looked at (by a try that gave way to a move): searched again
    to rebuild the table, not returned."""

    @classmethod
    def of(cls, record: GameRecord[Any, Any], plies: Sequence[int], nodes: int) -> Segment:
        """The positions ``plies`` of a game record, as a job."""
        kind = record.type
        moves = tuple(kind.write_move(p, m, full=True) for p, m in zip(record.positions, record.moves))
        return cls(kind.name, kind.write_position(record.start), moves, tuple(plies), nodes)


@dataclass(frozen=True)
class Answer:
    """The move found, written as its full path, and what the search saw."""

    move: str
    score: int
    depth: int
    nodes: int
    time: float
    pid: int
    threads: int
    """Threads the search used."""


def start(tt_mb: int, give_way: Any = None) -> None:
    """Process initializer: end with the parent, leave Ctrl-C and SIGTERM to it, and compile (or load from numba's
    cache) the search before the first job. ``give_way``: the pool's shared flag that asks analyses to stop early."""
    global _tt_mb, _give_way
    _tt_mb = tt_mb
    _give_way = give_way
    # Ctrl-C in a terminal reaches the whole process group, and systemd stops a service with SIGTERM to all its
    # processes at once: the bot shuts its search processes down itself (with SIGKILL), and a process that died of
    # the signal first would be replaced while it does. (The pool starts this process with both blocked, so none
    # could come before these lines.)
    for number in SET_ASIDE:
        signal.signal(number, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, SET_ASIDE)
    _end_with_parent()
    # Every game's compiled search, each with a small throwaway searcher: the real ones (and their tables) are
    # made for the process's first game of each, not for every process at start.
    for game in GAMES.values():
        Searcher(game, tt_mb=1).warm_up()


def _end_with_parent() -> None:
    """Exit as soon as the bot's process is gone, however it went (a kill -9 included): the pipe the parent
    started this process through reads as closed then (``engine.lifeline``). The search releases the interpreter
    while it runs, so this happens at once, even in the middle of a search."""
    parent = multiprocessing.parent_process()
    if parent is None:  # not started by a bot process (a test calling start() directly)
        return
    end_with(parent.sentinel)


def searcher(name: str) -> Searcher[Any, Any]:
    if name not in _searchers:
        _searchers[name] = Searcher(game_type(name), tt_mb=_tt_mb)
    return _searchers[name]


def think(job: Job) -> Answer:
    """Search the job's position at its level within its budget."""
    game = game_type(job.game)
    position = game.read_position(job.position)
    rng = random.Random(job.seed)
    s = searcher(job.game)
    s.threads = job.threads
    budget = job.budget if job.due is None else max(LEAST, min(job.budget, job.due - time.time()))
    result = choose_move(s, position, level(job.level), budget, job.history, rng)
    return Answer(game.write_move(position, result.move, full=True), result.score, result.depth, result.nodes,
                  result.time, os.getpid(), job.threads)


def look(segment: Segment) -> list[Look]:
    """Search an analysis segment's positions (on this process's analysis searcher, its table cleared first),
    giving way at once when the pool says a move waits: the search in hand is stopped and its look dropped, the
    looks found so far come back, and the pool hands the rest out again later."""
    kind = game_type(segment.game)
    game = _game_plies(segment)
    if segment.game not in _analysers:
        _analysers[segment.game] = Searcher(kind, tt_mb=ANALYSIS_TT_MB)
    searcher = _analysers[segment.game]
    if _give_way is None:
        return look_segment(searcher, game, segment.plies, segment.nodes, segment.known)
    cut, finished = threading.Event(), threading.Event()

    def watch() -> None:
        """Once the pool asks, the segment is cut: the search in hand is stopped (again at every poll, as a search
        that starts clears an earlier stop), and look_segment drops its look and returns. Whether a segment was cut
        is this thread's word, not the pool's flag, which may be lowered again in between."""
        while not finished.wait(GIVE_WAY_POLL):
            if _give_way.value:
                cut.set()
            if cut.is_set():
                searcher.stop()

    watcher = threading.Thread(target=watch, name="analysis gives way", daemon=True)
    watcher.start()
    try:
        return look_segment(searcher, game, segment.plies, segment.nodes, segment.known, cut.is_set)
    finally:
        finished.set()
        watcher.join()


def _game_plies(segment: Segment) -> list[Ply]:
    """The segment's game as the analysis searches it, replayed once for all its segments that come to this
    process (a long game takes a few hundred ms to replay; a move may be waiting meanwhile)."""
    key = (segment.game, segment.start, segment.moves)
    if key in _replayed:
        _replayed.move_to_end(key)
        return _replayed[key]
    record = game_type(segment.game).new_game(segment.start)
    for text in segment.moves:
        record.play_text(text)
    _replayed[key] = found = plies(record)
    while len(_replayed) > REPLAYED_KEPT:
        _replayed.popitem(last=False)
    return found


def ping() -> int:
    """The process id: a trivial job that makes the pool start its processes."""
    return os.getpid()
