"""Outside engines driven from Python, as python-chess's ``chess.engine`` drives UCI engines: any engine that speaks
the Hub protocol (version 2: Scan 3, ``python -m engine hub``; version 1: Scan 2.0), from asyncio
(``popen_hub``) or without it (``SimpleEngine``), and engines that play over DXP, the DamExchange Protocol
(``connect_dxp``, ``SimpleDxpEngine``)::

    from engine import Board
    from engine.outside import Limit, SimpleEngine
    board = Board("international")
    with SimpleEngine.popen_hub("python -m engine hub", "international", options={"level": "6"}) as dambot:
        result = dambot.play(board, Limit(time=0.2), info=lambda i: print(i.depth, i.score))
        board.push(result.move)
"""

from engine.outside.hub import (EngineError, EngineTerminatedError, EngineTimeoutError, HubProtocol,
                                IllegalEngineMoveError, Info, Limit, Option, PlayResult, popen_hub)
from engine.outside.dxp import DxpEngine, GameEnd, connect_dxp
from engine.outside.simple import SimpleDxpEngine, SimpleEngine

__all__ = ["DxpEngine", "EngineError", "EngineTerminatedError", "EngineTimeoutError", "GameEnd", "HubProtocol",
           "IllegalEngineMoveError", "Info", "Limit", "Option", "PlayResult", "SimpleDxpEngine", "SimpleEngine",
           "connect_dxp", "popen_hub"]
