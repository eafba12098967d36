"""A DXP engine for the client's tests: it listens on a free port (printed on its first line), accepts games and
plays the first legal move in square order. Its first argument makes it misbehave: ``refuse`` (will not play that
colour), ``illegal`` (sends a move that is not legal), ``hang`` (never moves), ``close`` (hangs up when it should
move). Each message it hears is printed, so a test can check what the client sent."""

import asyncio
import sys

from engine import Board, Color
from engine.outside.dxp import decode_move, encode_move

mode = sys.argv[1]


async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    board, mine = None, None

    def send(text: str) -> None:
        writer.write(text.encode("latin-1") + b"\0")

    async def move() -> None:
        if mode == "hang":
            return
        if mode == "close":
            writer.close()
            return
        if mode == "illegal":
            send("M0001464100")  # 46-41: 41 is taken
        else:
            chosen = min(board.legal_moves, key=lambda m: (m.start, m.end))
            board.push(chosen)
            send(encode_move(chosen, 1))
        await writer.drain()

    while True:
        try:
            raw = await reader.readuntil(b"\0")
        except asyncio.IncompleteReadError:
            return
        message = raw[:-1].decode("latin-1")
        print(message, flush=True)
        if message.startswith("R"):
            if mode == "refuse":
                send(f"A{'Stand-in':<32}2")
                await writer.drain()
                continue
            mine = Color.WHITE if message[35] == "W" else Color.BLACK
            setup = message[42:]
            board = Board("international")
            if setup.startswith("B"):
                letters = {"w": "w", "z": "b", "W": "W", "Z": "B"}
                squares = {n + 1: letters[c] for n, c in enumerate(setup[2:]) if c != "e"}
                white = ",".join(("K" if p == "W" else "") + str(sq) for sq, p in squares.items() if p in "wW")
                black = ",".join(("K" if p == "B" else "") + str(sq) for sq, p in squares.items() if p in "bB")
                board = Board("international", f"{'W' if setup[1] == 'W' else 'B'}:W{white}:B{black}")
            send(f"A{'Stand-in':<32}0")
            await writer.drain()
            if board.turn == mine:
                await move()
        elif message.startswith("M"):
            board.push(decode_move(board.position, message))
            if not board.is_game_over():
                await move()
        elif message.startswith("E"):
            send("E21")
            await writer.drain()


async def main() -> None:
    server = await asyncio.start_server(serve, "127.0.0.1", 0)
    print(server.sockets[0].getsockname()[1], flush=True)
    async with server:
        await server.serve_forever()


asyncio.run(main())
