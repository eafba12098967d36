"""Searches in worker processes, so the event loop never waits on one.

Jobs queue per channel and are handed to the processes round-robin over the
channels, so one busy channel cannot starve the others; no more jobs are
given to the executor than it has processes, so its own first-come queue
never fills. Past ``queue_limit`` waiting jobs, ``think`` refuses with
``PoolBusy`` instead of letting replies stall.

Game analyses (``look``) wait in a second lane, below every move: a segment
of an analysis starts only when no move waits, and never takes the last free
process (with two or more), so a move that comes meanwhile starts at once.
When a move must wait all the same (every process busy), the pool sets a
flag the processes share, and a segment under way stops within a few
milliseconds, dropping the position in hand. The rest of the segment waits
its turn again. That lane is
round-robin over its owners (the people who asked), so one person's analysis
cannot hold back another's.

A process that dies (killed, out of memory) breaks a ProcessPoolExecutor
for good: the pool then starts a new executor and runs the lost jobs again,
up to ``RETRIES`` times each. A thread watches the processes, so one that
dies while idle is replaced at once, not when the next move needs it. The
processes end by themselves when the bot's process dies (``worker.start``).

Stopping starts nothing. The processes set Ctrl-C and SIGTERM aside, which
reach every process of a terminal's job or of a systemd service at once: the
bot ends them itself (``close``, with SIGKILL), so none dies of the signal and
is replaced while the bot shuts down. After ``close`` the pool replaces and
runs nothing, whatever its processes do meanwhile.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import signal
import threading
import time
from collections import deque
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field, replace
from multiprocessing.connection import wait
from multiprocessing.process import BaseProcess

from bot import worker
from bot.worker import Answer, Job, Segment
from engine.analysis import Look

log = logging.getLogger(__name__)

RETRIES = 3  # runs of one job that may end in a dead process before it fails
MAX_REMEMBERED = 10_000  # channels whose last turn is remembered, beyond those with jobs waiting
PAUSE = 5.0  # seconds before replacing processes that died while starting, doubled each time in a row ...
MAX_PAUSE = 300.0  # ... up to this: a start that keeps failing is retried slowly, not in a tight loop
JOIN_SECONDS = 10.0  # a managing thread of the search processes is waited for at the end, at most


class PoolBusy(RuntimeError):
    """Too many searches are waiting; try again in a moment."""


class PoolFailed(RuntimeError):
    """A job's worker process died on every try."""


@dataclass
class _Entry:
    job: Job | Segment
    future: asyncio.Future
    tries: int = 0
    queued: float = field(default_factory=time.monotonic)
    loop: asyncio.AbstractEventLoop = field(default_factory=asyncio.get_running_loop)


class SearchPool:
    """A fair queue in front of a pool of search processes."""

    def __init__(self, workers: int, queue_limit: int = 40, tt_mb: int = 64, threads: int = 1):
        self.workers = workers
        self.queue_limit = queue_limit
        self.tt_mb = tt_mb
        self.threads = threads
        """Threads a search may use when it is the only one running or waiting (lazy SMP)."""
        self._executor: ProcessPoolExecutor | None = None
        self._pings: list[Future] = []  # the current processes' first jobs: done once each has warmed up
        self._lock = threading.Lock()  # the executor is replaced from the watching thread or the event loop
        self._closed = False  # set once by close, under the lock: nothing is replaced or run after it
        self._failed_starts = 0  # executors in a row whose processes died before they had warmed up
        self._queues: dict[str, deque[_Entry]] = {}
        self._served: dict[str, int] = {}  # channel -> the turn its last job started in
        self._low: dict[str, deque[_Entry]] = {}  # analysis segments by owner, below every move
        self._low_served: dict[str, int] = {}
        self._low_running = 0
        # 1 while a move waits: analyses stop early. A lock-free shared byte (not an Event: a process killed while
        # waiting on an Event's condition leaves it broken, and the next set() would hang the event loop).
        self._give_way = multiprocessing.get_context("spawn").RawValue("b", 0)
        self._turn = 0
        self._running = 0
        self.restarts = 0
        self._retired: list[threading.Thread] = []  # replaced executors' managing threads, joined by close
        self.waits: deque[float] = deque(maxlen=1000)
        """Seconds the latest jobs waited for a free process."""

    # life cycle

    def start(self) -> None:
        """Start the processes and wait until each has loaded the compiled search (blocking)."""
        with self._lock:
            self._executor = self._new_executor()
        for ping in self._pings:
            ping.result()

    @property
    def ready(self) -> bool:
        """Whether every search process has started and loaded the compiled search."""
        return self._executor is not None and _warmed(self._pings)

    def _new_executor(self) -> ProcessPoolExecutor:
        """An executor with all its processes started (each warms up in its initializer), and a thread that
        watches them (under the lock)."""
        # spawn: a fork of a process running an event loop and threads is not safe
        executor = ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"),
                                       initializer=worker.start, initargs=(self.tt_mb, self._give_way))
        # One job per process at once makes the executor start them all now. They start with Ctrl-C and SIGTERM
        # blocked (a process inherits the blocked signals of the thread that starts it, as the stdlib starts its
        # resource tracker), so none dies of them before its initializer has set them aside.
        blocked = signal.pthread_sigmask(signal.SIG_BLOCK, worker.SET_ASIDE)
        try:
            pings = self._pings = [executor.submit(worker.ping) for _ in range(self.workers)]
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
        processes = list(_processes(executor).values())
        threading.Thread(target=self._watch, args=(executor, processes, pings), name="search process watch",
                         daemon=True).start()
        return executor

    def _watch(self, executor: ProcessPoolExecutor, processes: list[BaseProcess], pings: list[Future]) -> None:
        """Wait for any of ``executor``'s processes to end; if the executor is still the pool's, replace it."""
        if not processes:
            return
        wait([p.sentinel for p in processes])
        if _warmed(pings):
            self._failed_starts = 0
        elif self._executor is executor:  # they died starting
            self._failed_starts += 1
            pause = min(PAUSE * 2 ** (self._failed_starts - 1), MAX_PAUSE)
            log.error("the search processes died while starting (%d times in a row); starting them again in %g s",
                      self._failed_starts, pause)
            time.sleep(pause)
        self._replace(executor)

    def close(self) -> None:
        """Cancel the waiting jobs and end the processes at once; from now on nothing is replaced or started."""
        with self._lock:
            self._closed = True
            executor, self._executor = self._executor, None
        for queues in (self._queues, self._low):
            for queue in queues.values():
                for entry in queue:
                    entry.future.cancel()
            queues.clear()
        if executor:
            # A search under way is not waited for (its answer would go nowhere): the processes are ended, with
            # SIGKILL as they set SIGTERM aside.
            processes, manager = _processes(executor).values(), _manager(executor)
            executor.shutdown(wait=False, cancel_futures=True)
            for process in processes:
                process.kill()
            # Joined here, not by a second shutdown(wait=True): the first one forgets the executor's managing
            # thread. One still running at exit races the interpreter's own wake-up of it (Python 3.11 writes to
            # a pipe that thread may be closing: "OSError: [Errno 9] Bad file descriptor" in threading._shutdown).
            for thread in (manager, *self._retired):
                if thread is not None:
                    thread.join(JOIN_SECONDS)

    def pids(self) -> list[int]:
        """The search processes' ids."""
        return list(_processes(self._executor))

    # jobs

    @property
    def waiting(self) -> int:
        """Jobs queued for a free process."""
        return sum(len(q) for q in self._queues.values())

    @property
    def free_for_moves(self) -> bool:
        """Whether a move submitted now would start at once or after one analysed position at most (a process
        runs no move, and no move waits)."""
        return self._running - self._low_running < self.workers and not self._queues

    def has_room(self) -> bool:
        """Whether a job submitted now would be accepted."""
        return self._running < self.workers or self.waiting < self.queue_limit

    async def think(self, channel: str, job: Job) -> Answer:
        """The answer to ``job``, searched when the channel's turn comes. Raises PoolBusy or PoolFailed."""
        if not self.has_room():
            raise PoolBusy(f"{self.waiting} searches are waiting")
        return await self._queued(self._queues, channel, job)

    async def look(self, owner: str, segment: Segment) -> list[Look]:
        """The looks at an analysis segment's positions, searched when no move waits and the owner's turn comes
        (``owner``: who asked, for fairness between them). Raises PoolFailed."""
        return await self._queued(self._low, owner, segment)

    async def _queued(self, queues: dict[str, deque[_Entry]], key: str, job: Job | Segment):
        if self._executor is None:
            raise RuntimeError("the search pool is closed" if self._closed else "the search pool is not started")
        entry = _Entry(job, asyncio.get_running_loop().create_future())
        queues.setdefault(key, deque()).append(entry)
        self._pump()
        return await entry.future

    def _pump(self) -> None:
        """Hand queued jobs to free processes: moves first, the channel served longest ago first; then analysis
        segments, the owner served longest ago first, leaving one process free for the next move."""
        while self._running < self.workers and self._queues:
            self._start_next(self._queues, self._served, record_wait=True)
        keep_free = 1 if self.workers > 1 else 0
        while self._running < self.workers - keep_free and self._low and not self._queues:
            self._start_next(self._low, self._low_served, record_wait=False)
        self._give_way.value = 1 if self._queues and self._low_running else 0

    def _start_next(self, queues: dict[str, deque[_Entry]], served: dict[str, int], record_wait: bool) -> None:
        key = min(queues, key=lambda c: served.get(c, 0))
        queue = queues[key]
        entry = queue.popleft()
        if not queue:
            del queues[key]
        if entry.future.done():  # cancelled while waiting
            return
        self._turn += 1
        served[key] = self._turn
        if record_wait:
            self.waits.append(time.monotonic() - entry.queued)
        if len(served) > MAX_REMEMBERED:
            for c in [c for c in served if c not in queues]:
                del served[c]
        self._run(key, entry)

    def _run(self, channel: str, entry: _Entry) -> None:
        assert self._executor is not None
        executor = self._executor
        entry.tries += 1
        job = entry.job
        low = isinstance(job, Segment)
        self._running += 1
        self._low_running += low
        done: Future
        try:
            if isinstance(job, Segment):
                done = executor.submit(worker.look, job)
            else:
                if self._running == 1 and not self._queues and self.threads > 1:
                    job = replace(job, threads=self.threads)  # alone: the cores no other search needs help it
                done = executor.submit(worker.think, job)
        except (BrokenProcessPool, RuntimeError) as error:  # RuntimeError: shut down, being replaced just now
            done = Future()
            done.set_exception(BrokenProcessPool(str(error)))
        done.add_done_callback(lambda f: self._report(channel, entry, executor, f))

    def _report(self, channel: str, entry: _Entry, executor: ProcessPoolExecutor, done: Future) -> None:
        """Called in the executor's thread: hand the answer to the event loop that asked."""
        try:
            entry.loop.call_soon_threadsafe(self._finished, channel, entry, executor, done)
        except RuntimeError:  # that loop is closed: no one waits for the answer, but the process is free again
            self._running -= 1
            self._low_running -= isinstance(entry.job, Segment)

    def _finished(self, channel: str, entry: _Entry, executor: ProcessPoolExecutor, done: Future) -> None:
        low = isinstance(entry.job, Segment)
        self._running -= 1
        self._low_running -= low
        error = done.exception() if not done.cancelled() else asyncio.CancelledError()
        if self._closed:  # its process was ended by close: nothing runs again
            if not entry.future.done():
                entry.future.cancel()
            return
        if isinstance(error, BrokenProcessPool):
            self._replace(executor)
            if entry.tries < RETRIES:
                log.warning("a search process died; running the job again (try %d)", entry.tries + 1)
                (self._low if low else self._queues).setdefault(channel, deque()).appendleft(entry)
                (self._low_served if low else self._served)[channel] = 0  # first again
            elif not entry.future.done():
                entry.future.set_exception(PoolFailed(f"the search process died {entry.tries} times"))
        elif not entry.future.done():
            if error is not None:
                entry.future.set_exception(error)
            else:
                entry.future.set_result(done.result())
        self._pump()

    def _replace(self, broken: ProcessPoolExecutor) -> None:
        """Start a new executor in place of a broken one (once, however many of its jobs or its watching thread
        report it; not after ``close``)."""
        with self._lock:
            if self._executor is not broken:
                return
            self.restarts += 1
            log.warning("search processes restarted (%d so far)", self.restarts)
            self._retired = [t for t in (*self._retired, _manager(broken)) if t is not None and t.is_alive()]
            broken.shutdown(wait=False)  # its jobs fail as broken and run again (none is cancelled)
            self._executor = self._new_executor()


def _manager(executor: ProcessPoolExecutor) -> threading.Thread | None:
    """An executor's managing thread (the stdlib has no public way), None before its first job."""
    return getattr(executor, "_executor_manager_thread", None)


def _processes(executor: ProcessPoolExecutor | None) -> dict[int, BaseProcess]:
    """An executor's processes by id (a copy of its own table: the stdlib has no public way)."""
    return dict(getattr(executor, "_processes", None) or {})


def _warmed(pings: list[Future]) -> bool:
    """Whether every process answered its first job (``worker.ping``, after the warm-up in its initializer)."""
    return all(p.done() and not p.cancelled() and p.exception() is None for p in pings)
