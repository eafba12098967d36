"""Outside engines without asyncio: ``SimpleEngine`` (Hub) and ``SimpleDxpEngine`` (DXP) run an event loop in a
thread of their own and wait for each answer, as python-chess's ``SimpleEngine`` does::

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
from engine.draughts.position import Move
from engine.draughts.variants import Variant
from engine.game import Color
from engine.outside.dxp import DxpEngine, GameEnd, connect_dxp
from engine.outside.hub import HubProtocol, Info, Limit, Option, PlayResult, popen_hub

T = TypeVar("T")


class _Loop:
    """An event loop in a thread of its own, that runs coroutines for callers that wait."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="outside engine", daemon=True)
        self.thread.start()

    def run(self, work: Coroutine[Any, Any, T]) -> T:
        return asyncio.run_coroutine_threadsafe(work, self.loop).result()

    def close(self) -> None:
        if not self.loop.is_closed():
            self.loop.call_soon_threadsafe(self.loop.stop)
            self.thread.join()
            self.loop.close()

    def start(self, work: Coroutine[Any, Any, T]) -> T:
        """The first coroutine: the loop is closed again when it fails."""
        try:
            return self.run(work)
        except BaseException:
            self.close()
            raise


class _Blocking:
    """What both blocking clients share: their loop's thread, and ending the connection then the thread, once,
    also from a ``with`` block."""

    def __init__(self, loop: _Loop) -> None:
        self._loop = loop

    def _finish(self, work: Coroutine[Any, Any, None]) -> None:
        if self._loop.loop.is_closed():
            work.close()
            return
        try:
            self._loop.run(work)
        finally:
            self._loop.close()

    def _end(self) -> None:
        raise NotImplementedError

    def __exit__(self, *exc: object) -> None:
        self._end()


class SimpleEngine(_Blocking):
    """One Hub engine; every method blocks until the engine answers (or fails with an ``EngineError``)."""

    def __init__(self, engine: HubProtocol, loop: _Loop) -> None:
        super().__init__(loop)
        self.engine = engine

    @classmethod
    def popen_hub(cls, command: str, variant: Variant | str, *, version: int = 2,
                  options: dict[str, str] | None = None) -> SimpleEngine:
        """Start a Hub engine as ``engine.outside.popen_hub`` does, and wait until it is ready."""
        loop = _Loop()
        return cls(loop.start(popen_hub(command, variant, version=version, options=options)), loop)

    @property
    def id(self) -> dict[str, str]:
        return self.engine.id

    @property
    def options(self) -> dict[str, Option]:
        return self.engine.options

    def new_game(self) -> None:
        self._loop.run(self.engine.new_game())

    def play(self, board: Board | Game, limit: Limit, *, info: Callable[[Info], None] | None = None) -> PlayResult:
        """The engine's move; ``info`` hears each ``info`` line (in the engine's thread)."""
        return self._loop.run(self.engine.play(board, limit, info=info))

    def analyse(self, board: Board | Game, limit: Limit, *, info: Callable[[Info], None] | None = None) -> Info:
        return self._loop.run(self.engine.analyse(board, limit, info=info))

    def quit(self) -> None:
        """End the engine (asked, then made to) and the thread that drives it."""
        self._finish(self.engine.quit())

    _end = quit

    def __enter__(self) -> SimpleEngine:
        return self


class SimpleDxpEngine(_Blocking):
    """One DXP engine; every method blocks as ``DxpEngine``'s coroutine would."""

    def __init__(self, engine: DxpEngine, loop: _Loop) -> None:
        super().__init__(loop)
        self.engine = engine

    @classmethod
    def connect(cls, host: str, port: int, name: str = "Dambot", timeout: float = 10.0) -> SimpleDxpEngine:
        loop = _Loop()
        return cls(loop.start(connect_dxp(host, port, name, timeout)), loop)

    def new_game(self, board: Board, color: Color, minutes: int = 10, moves: int = 75) -> None:
        self._loop.run(self.engine.new_game(board, color, minutes, moves))

    def play(self, board: Board | Game, timeout: float | None = None, seconds: float = 0.0) -> Move:
        return self._loop.run(self.engine.play(board, timeout, seconds))

    def end_game(self, result: str | None = None, another: bool = True) -> GameEnd:
        return self._loop.run(self.engine.end_game(result, another))

    def close(self) -> None:
        """Close the connection and the thread that drives it."""
        self._finish(self.engine.close())

    _end = close

    def __enter__(self) -> SimpleDxpEngine:
        return self
