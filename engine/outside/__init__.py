"""Outside engines driven from Python, as python-chess's ``chess.engine`` drives UCI engines: any engine that speaks
the Hub protocol (version 2: Scan 3, ``python -m engine hub``; version 1: Scan 2.0), from asyncio
(``popen_hub``) or without it (``SimpleEngine``).

    from engine import Board
    from engine.outside import Limit, SimpleEngine
    board = Board("international")
    with SimpleEngine.popen_hub("python -m engine hub", "international", options={"level": "6"}) as dambot:
        result = dambot.play(board, Limit(time=0.2), info=lambda i: print(i.depth, i.score))
        board.push(result.move)
"""

from engine.outside.hub import (EngineError, EngineTerminatedError, EngineTimeoutError, HubProtocol,
                                IllegalEngineMoveError, Info, Limit, Option, PlayResult, popen_hub)
from engine.outside.simple import SimpleEngine

__all__ = ["EngineError", "EngineTerminatedError", "EngineTimeoutError", "HubProtocol", "IllegalEngineMoveError",
           "Info", "Limit", "Option", "PlayResult", "SimpleEngine", "popen_hub"]
