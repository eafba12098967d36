"""The Ashton Tablut competition client against a small fake server that referees with our rules."""

import random
import socket
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from engine import Color
from engine.tablut.client import ProtocolError, position_of, receive, run, send
from engine.tablut.game import TablutGame
from engine.tablut.rules import THRONE

ROOT = Path(__file__).resolve().parent.parent


def state_of(game: TablutGame, turn: str | None = None) -> dict:
    p = game.position
    cells = {"W": "WHITE", "B": "BLACK", "K": "KING"}
    board = [[cells.get(p.piece_at(r * 9 + c) or "", "THRONE" if r * 9 + c == THRONE else "EMPTY")
              for c in range(9)] for r in range(9)]
    return {"board": board, "turn": turn or ("WHITE" if p.turn == Color.WHITE else "BLACK")}


class FakeServer:
    """Referees one game: the client plays one colour, the server random moves for the other."""

    def __init__(self, client_colour: Color, max_plies: int = 120):
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.client_colour = client_colour
        self.max_plies = max_plies
        self.name = None
        self.client_moves: list[str] = []
        self.errors: list[str] = []
        self.final = ""
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        conn, _ = self.listener.accept()
        rng = random.Random(5)
        with conn, conn.makefile("rwb") as stream:
            self.name = receive(stream)
            game = TablutGame()
            send(stream, state_of(game))
            while game.result() is None and len(game.moves) < self.max_plies:
                if game.turn == self.client_colour:
                    answer = receive(stream)
                    word = "WHITE" if self.client_colour == Color.WHITE else "BLACK"
                    if set(answer) != {"from", "to", "turn"} or answer["turn"] != word:
                        self.errors.append(f"bad answer {answer}")
                        break
                    try:
                        game.play_text(f"{answer['from']}-{answer['to']}")
                    except ValueError as error:
                        self.errors.append(str(error))
                        break
                    self.client_moves.append(f"{answer['from']}-{answer['to']}")
                else:
                    game.play(rng.choice(game.legal_moves()))
                if game.result() is None:
                    send(stream, state_of(game))
            result = game.result()
            self.final = "DRAW" if result is None or result.winner is None else (
                "WHITEWIN" if result.winner == Color.WHITE else "BLACKWIN")
            send(stream, state_of(game, self.final))


@pytest.mark.parametrize("colour", [Color.WHITE, Color.BLACK])
def test_the_client_plays_a_whole_game_on_the_competition_protocol(colour):
    server = FakeServer(colour)
    outcome = run(colour, "127.0.0.1", server.port, "our-bot", 100, timeout=30)
    server.thread.join(10)
    assert server.errors == [] and server.name == "our-bot"
    assert server.client_moves and outcome == server.final
    assert outcome == ("WHITEWIN" if colour == Color.WHITE else "BLACKWIN")  # the search beats random moves


def test_the_command_line_client_connects_and_prints_the_result():
    server = FakeServer(Color.BLACK, max_plies=20)
    run_ = subprocess.run([sys.executable, "-m", "engine", "tablut-client", "--color", "black", "--host", "127.0.0.1",
                           "--port", str(server.port), "--name", "cli", "--ms", "500"],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert run_.returncode == 0, run_.stderr
    assert run_.stdout.strip() == server.final and server.errors == [] and server.name == "cli"


def test_a_state_outside_the_protocol_is_refused():
    game = TablutGame()
    assert position_of(state_of(game))[0] == game.position
    bad = state_of(game)
    bad["board"][0][0] = "QUEEN"
    with pytest.raises(ProtocolError, match="unknown cell"):
        position_of(bad)
    with pytest.raises(ProtocolError, match="unknown turn"):
        position_of(state_of(game, "LATER"))


def test_no_server_is_a_clear_error():
    with socket.create_server(("127.0.0.1", 0)) as s:
        port = s.getsockname()[1]
    r = subprocess.run([sys.executable, "-m", "engine", "tablut-client", "--color", "white", "--port", str(port),
                        "--host", "127.0.0.1"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert r.returncode == 1 and r.stderr.startswith("error:")
