"""Outside engines without asyncio: ``SimpleEngine`` runs an event loop in a thread of its own and waits for each
answer, as python-chess's ``SimpleEngine`` does.

    with SimpleEngine.popen_hub("/path/to/scan hub", "international") as scan:
        result = scan.play(board, Limit(time=0.5), info=print)
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

from engine.board import Board
from engine.draughts.game import Game
from engine.draughts.variants import Variant
from engine.outside.hub import HubProtocol, Info, Limit, Option, PlayResult, popen_hub

T = TypeVar("T")


class SimpleEngine:
    """One outside engine; every method blocks until the engine answers (or fails with an ``EngineError``)."""

    def __init__(self, engine: HubProtocol, loop: asyncio.AbstractEventLoop, thread: threading.Thread) -> None:
        self.engine = engine
        self._loop = loop
        self._thread = thread

    @classmethod
    def popen_hub(cls, command: str, variant: Variant | str, *, version: int = 2,
                  options: dict[str, str] | None = None) -> SimpleEngine:
        """Start a Hub engine as ``engine.outside.popen_hub`` does, and wait until it is ready."""
        loop = asyncio.new_event_loop()
        thread = threading.Thread(target=loop.run_forever, name="outside engine", daemon=True)
        thread.start()
        try:
            engine = asyncio.run_coroutine_threadsafe(popen_hub(command, variant, version=version, options=options),
                                                      loop).result()
        except BaseException:
            _close(loop, thread)
            raise
        return cls(engine, loop, thread)

    def _run(self, work: Coroutine[Any, Any, T]) -> T:
        return asyncio.run_coroutine_threadsafe(work, self._loop).result()

    @property
    def id(self) -> dict[str, str]:
        return self.engine.id

    @property
    def options(self) -> dict[str, Option]:
        return self.engine.options

    def new_game(self) -> None:
        self._run(self.engine.new_game())

    def play(self, board: Board | Game, limit: Limit, *, info: Callable[[Info], None] | None = None) -> PlayResult:
        """The engine's move; ``info`` hears each ``info`` line (in the engine's thread)."""
        return self._run(self.engine.play(board, limit, info=info))

    def analyse(self, board: Board | Game, limit: Limit, *, info: Callable[[Info], None] | None = None) -> Info:
        return self._run(self.engine.analyse(board, limit, info=info))

    def quit(self) -> None:
        """End the engine (asked, then made to) and the thread that drives it."""
        if self._loop.is_closed():
            return
        try:
            self._run(self.engine.quit())
        finally:
            _close(self._loop, self._thread)

    def __enter__(self) -> SimpleEngine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.quit()


def _close(loop: asyncio.AbstractEventLoop, thread: threading.Thread) -> None:
    loop.call_soon_threadsafe(loop.stop)
    thread.join()
    loop.close()
