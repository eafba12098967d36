"""Outside engines over DXP, the DamExchange Protocol (version 1): the way draughts programs such as Scan and
Kingsrow play each other over TCP, International draughts only.

DXP plays whole games rather than searches: one side asks for a game (``GAMEREQ``: its name, the colour the other
side plays, minutes for the game, moves in it, and the start position), the other accepts (``GAMEACC``), then each
side's moves go across as they are played (``MOVE``: time, from, to, and the squares taken) until one side ends
the game (``GAMEEND``). Every message is one letter, fixed-width fields, and a NUL byte.

``connect_dxp`` joins an engine that listens (``scan dxp`` with ``dxp-server = true``); ``DxpEngine.play`` sends
the moves played on the board since the last call and waits for the engine's reply, as ``HubProtocol.play`` does.
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass

from engine.board import Board
from engine.draughts.game import Game
from engine.draughts.position import Move, Position
from engine.draughts.rules import legal_moves
from engine.game import Color
from engine.outside.hub import EngineError, EngineTerminatedError, EngineTimeoutError, IllegalEngineMoveError

VERSION = 1
NAME_WIDTH = 32
ACCEPTED = "0"
REFUSALS = {"1": "it does not speak this DXP version", "2": "it will not play that colour",
            "3": "it will not play that number of moves or time", "4": "it will not play from that position",
            "5": "it is busy"}
# GAMEEND reasons, as the side that sends it sees the game
ENDS = {"0": None, "1": "loss", "2": "draw", "3": "win"}


@dataclass(frozen=True)
class GameEnd:
    """The engine's word on how a game ended: its ``result`` as the engine sees it ('win', 'loss', 'draw' or None
    when it does not say), and whether it wants another game."""

    result: str | None
    another: bool


def _color(c: Color) -> str:
    return "W" if c == Color.WHITE else "Z"


def dxp_position(position: Position) -> str:
    """The side to move ('W' or 'Z') and one letter a square: w z men, W Z kings, e empty."""
    letters = {"w": "w", "b": "z", "W": "W", "B": "Z", None: "e"}
    return _color(position.turn) + "".join(letters[position.piece_at(sq)] for sq in range(1, 51))


def encode_move(move: Move, seconds: float) -> str:
    taken = "".join(f"{sq:02d}" for sq in move.captures)
    return f"M{min(9999, max(0, round(seconds))):04d}{move.start:02d}{move.end:02d}{len(move.captures):02d}{taken}"


def decode_move(position: Position, text: str) -> Move:
    """The legal move a ``MOVE`` message names (its start, end and the squares taken, in any order)."""
    try:
        start, end, count = int(text[5:7]), int(text[7:9]), int(text[9:11])
        taken = sorted(int(text[11 + 2 * i: 13 + 2 * i]) for i in range(count))
    except ValueError:
        raise IllegalEngineMoveError(f"the engine sent a move that cannot be read: {text!r}") from None
    if len(text) != 11 + 2 * count:
        raise IllegalEngineMoveError(f"the engine sent a move that cannot be read: {text!r}")
    for move in legal_moves(position):
        if move.start == start and move.end == end and sorted(move.captures) == taken:
            return move
    raise IllegalEngineMoveError(f"the engine sent {start}-{end} taking {taken or 'nothing'}, which is not a legal "
                                 "move here")


class DxpEngine:
    """One connection to a DXP engine (made by ``connect_dxp``); every method is a coroutine."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, name: str) -> None:
        self._reader, self._writer = reader, writer
        self.name = name
        """Our name, as the engine is told it."""
        self.engine_name = ""
        """The engine's name, as it gave it when it accepted a game."""
        self.color: Color | None = None
        """The colour the engine plays in the game in hand."""
        self._sent = 0  # moves of the game in hand the engine knows
        self._clock = 0.0  # seconds the engine has for the game in hand

    async def _send(self, message: str) -> None:
        try:
            self._writer.write(message.encode("latin-1") + b"\0")
            await self._writer.drain()
        except (ConnectionError, RuntimeError):
            raise EngineTerminatedError("the DXP engine closed the connection") from None

    async def _receive(self, timeout: float | None) -> str:
        try:
            raw = await asyncio.wait_for(self._reader.readuntil(b"\0"), timeout)
        except asyncio.IncompleteReadError:
            raise EngineTerminatedError("the DXP engine closed the connection") from None
        except asyncio.TimeoutError:
            raise EngineTimeoutError(f"the DXP engine sent nothing within {timeout:g} s") from None
        return raw[:-1].decode("latin-1")

    async def _next(self, timeout: float | None, wanted: str) -> str:
        """The next message of kind ``wanted``; chat is passed over, and a ``GAMEEND`` raises."""
        while True:
            message = await self._receive(timeout)
            if message.startswith(wanted):
                return message
            if message.startswith("E"):
                self.color = None
                end = ENDS.get(message[1:2])
                raise EngineError(f"the DXP engine ended the game ({end or 'without a result'})")
            if not message.startswith("C"):
                raise EngineError(f"the DXP engine sent {message[:1]!r} where a {wanted!r} message was due")

    async def new_game(self, board: Board, color: Color, minutes: int = 10, moves: int = 75,
                       timeout: float = 10.0) -> None:
        """Ask for a game from ``board``'s position (no moves played on it yet), the engine playing ``color``
        with ``minutes`` for ``moves`` moves; an ``EngineError`` says why it refused."""
        game = board.record
        if game.variant.name != "international":
            raise ValueError("DXP plays International draughts only")
        if game.moves:
            raise ValueError("a DXP game starts from a position with no moves played: Board(fen) gives one")
        start = dxp_position(game.position)
        setup = "A" if game.position == Board("international").position else "B" + start
        await self._send(f"R{VERSION:02d}{self.name[:NAME_WIDTH]:<{NAME_WIDTH}}{_color(color)}{minutes:03d}"
                         f"{moves:03d}{setup}")
        answer = await self._next(timeout, "A")
        code = answer[1 + NAME_WIDTH: 2 + NAME_WIDTH]
        if code != ACCEPTED:
            raise EngineError(f"the DXP engine refused the game: {REFUSALS.get(code, f'code {code!r}')}")
        self.engine_name = answer[1: 1 + NAME_WIDTH].strip()
        self.color, self._sent, self._clock = color, 0, minutes * 60.0

    async def play(self, board: Board | Game, timeout: float | None = None, seconds: float = 0.0) -> Move:
        """Send the moves played on the board since the engine last heard, then wait (up to ``timeout`` seconds;
        by default the engine's time for the whole game, and 10 more) for the engine's move, which is checked and
        returned (not pushed)."""
        game = board.record if isinstance(board, Board) else board
        if self.color is None:
            raise ValueError("no game in hand: start one with new_game")
        while self._sent < len(game.moves):
            await self._send(encode_move(game.moves[self._sent], seconds))
            self._sent += 1
        if game.position.turn != self.color:
            raise ValueError("it is not the engine's turn")
        move = decode_move(game.position, await self._next(self._clock + 10.0 if timeout is None else timeout, "M"))
        self._sent += 1
        return move

    async def end_game(self, result: str | None = None, another: bool = True, timeout: float = 10.0) -> GameEnd:
        """End the game in hand (``result`` 'win', 'loss' or 'draw' as we see it, None for unknown); the engine's
        own word on it comes back."""
        code = {None: "0", "loss": "1", "draw": "2", "win": "3"}[result]
        await self._send(f"E{code}{'0' if another else '1'}")
        self.color = None
        while True:
            message = await self._receive(timeout)
            if message.startswith("E"):
                return GameEnd(ENDS.get(message[1:2]), message[2:3] != "1")

    async def chat(self, text: str) -> None:
        await self._send("C" + text)

    async def close(self) -> None:
        self._writer.close()
        with contextlib.suppress(ConnectionError, OSError):
            await self._writer.wait_closed()


async def connect_dxp(host: str, port: int, name: str = "Dambot", timeout: float = 10.0) -> DxpEngine:
    """Connect to a DXP engine listening on ``host``:``port``."""
    try:
        reader, writer = await asyncio.wait_for(asyncio.open_connection(host, port), timeout)
    except (OSError, asyncio.TimeoutError) as error:
        raise EngineError(f"cannot reach a DXP engine at {host}:{port} ({error or 'no answer'})") from None
    return DxpEngine(reader, writer, name)
