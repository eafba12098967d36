"""A player for the Ashton Tablut competition server (AGalassi/TablutCompetition).

The protocol: TCP, White on port 5800 and Black on 5801 by default. Every
message is a 4-byte big-endian length, then that many bytes of UTF-8 JSON.
The player first sends its name as a JSON string. The server then sends the
state after every move, ``{"board": [[...9...] x 9], "turn": ...}``; board
row 0 is row 1 of the board, column 0 is column a, cells are "EMPTY",
"WHITE", "BLACK", "KING" or "THRONE" (the empty throne); the turn is "WHITE",
"BLACK", "WHITEWIN", "BLACKWIN" or "DRAW". On its turn the player answers
``{"from": "e3", "to": "f3", "turn": "WHITE"}``.

The player chooses moves with a ``Chooser``: by default the engine's search at
level 6 (``search_chooser``), which sees repetitions through the positions the
server has sent since the last capture; ``random_chooser`` is level 1.
"""

from __future__ import annotations

import json
import random
import socket
import struct
from collections.abc import Callable
from typing import Protocol

from engine.game import Color
from engine.tablut.rules import THRONE, TablutMove, TablutPosition, legal_moves, square_name

PORTS = {Color.WHITE: 5800, Color.BLACK: 5801}
ENDINGS = ("WHITEWIN", "BLACKWIN", "DRAW")
MAX_MESSAGE = 1 << 20  # a state is about 1 KB; anything far larger is not this protocol

Chooser = Callable[[TablutPosition, float, tuple[TablutPosition, ...]], TablutMove]
"""(position, seconds, the game's earlier positions as received) -> the move."""


class Stream(Protocol):
    """A byte stream both ways (a socket's ``makefile("rwb")``)."""

    def read(self, size: int, /) -> bytes: ...

    def write(self, data: bytes, /) -> int: ...

    def flush(self) -> None: ...


class ProtocolError(RuntimeError):
    """The server sent something this protocol does not allow; the message says what."""


def send(stream: Stream, value: object) -> None:
    data = json.dumps(value).encode("utf-8")
    stream.write(struct.pack(">I", len(data)) + data)
    stream.flush()


def receive(stream: Stream) -> object:
    """One message; EOFError when the server has closed the connection."""
    head = stream.read(4)
    if len(head) < 4:
        raise EOFError("the server closed the connection")
    (size,) = struct.unpack(">I", head)
    if size > MAX_MESSAGE:
        raise ProtocolError(f"a message of {size} bytes is too long for a game state")
    data = stream.read(size)
    if len(data) < size:
        raise EOFError("the server closed the connection in the middle of a message")
    return json.loads(data.decode("utf-8"))


def position_of(state: object) -> tuple[TablutPosition, str]:
    """The position a server state describes, and its turn word."""
    if not isinstance(state, dict) or "board" not in state or "turn" not in state:
        raise ProtocolError(f"expected a state with 'board' and 'turn', got {str(state)[:80]!r}")
    board, turn = state["board"], str(state["turn"]).upper()
    if len(board) != 9 or any(len(row) != 9 for row in board):
        raise ProtocolError("the board is not 9x9")
    white = black = 0
    king = -1
    for row in range(9):
        for col in range(9):
            cell, sq = str(board[row][col]).upper(), row * 9 + col
            if cell == "WHITE":
                white |= 1 << sq
            elif cell == "BLACK":
                black |= 1 << sq
            elif cell == "KING":
                king = sq
            elif cell not in ("EMPTY", "THRONE") or (cell == "THRONE" and sq != THRONE):
                raise ProtocolError(f"unknown cell {cell!r} at {square_name(sq)}")
    if turn not in ("WHITE", "BLACK") + ENDINGS:
        raise ProtocolError(f"unknown turn {turn!r}")
    return TablutPosition(white, black, king, Color.BLACK if turn == "BLACK" else Color.WHITE), turn


def random_chooser(seed: int | None = None) -> Chooser:
    """Level 1: a random legal move."""
    rng = random.Random(seed)
    return lambda position, seconds, earlier: rng.choice(legal_moves(position))


def search_chooser(level_number: int = 6, tt_mb: int = 64) -> Chooser:
    """The engine's search at a level (6: full strength), within the seconds it is given."""
    from engine.search import Searcher
    from engine.search.levels import choose_move, level
    from engine.tablut.game import TABLUT
    from engine.tablut.search import tablut_history

    searcher = Searcher(TABLUT, tt_mb=tt_mb)
    searcher.warm_up()

    def choose(position: TablutPosition, seconds: float, earlier: tuple[TablutPosition, ...]) -> TablutMove:
        history = tablut_history(earlier + (position,))
        return choose_move(searcher, position, level(level_number), seconds, history).move

    return choose


def play(stream: Stream, colour: Color, name: str, seconds: float, choose: Chooser) -> str:
    """Play one game over an open connection; the final turn word (WHITEWIN, BLACKWIN or DRAW)."""
    send(stream, name)
    word = "WHITE" if colour == Color.WHITE else "BLACK"
    seen: list[TablutPosition] = []
    while True:
        position, turn = position_of(receive(stream))
        if turn in ENDINGS:
            return turn
        earlier = tuple(seen)
        seen.append(position)
        if turn != word or not legal_moves(position):
            continue  # the other side's turn, or a finished game whose result comes next
        move = choose(position, seconds, earlier)
        send(stream, {"from": square_name(move.start), "to": square_name(move.end), "turn": word})


def run(colour: Color, host: str, port: int | None, name: str, ms: int, choose: Chooser | None = None,
        timeout: float = 600.0) -> str:
    """Connect to the server and play a game (``ms``: milliseconds per move, a margin kept for the network)."""
    with socket.create_connection((host, port or PORTS[colour]), timeout=timeout) as sock:
        with sock.makefile("rwb") as stream:
            seconds = max(0.05, ms / 1000 * 0.8)
            return play(stream, colour, name, seconds, choose or search_chooser())
