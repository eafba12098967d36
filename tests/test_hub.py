"""The Hub protocol: our engine driven as a GUI drives Scan (the client side, driving any Hub engine from Python, is
tests/test_outside_engines.py)."""

from __future__ import annotations

import queue
import subprocess
import sys
import threading

import pytest

from engine import Game, legal_moves, parse_fen, start_position, variant
from engine.tools.hub import move_text, parse_hub_move, parse_line, parse_position, hub_position

HUB = f"{sys.executable} -m engine hub"


class Engine:
    """``python -m engine hub`` in a subprocess, read line by line with a timeout."""

    def __init__(self):
        self.proc = subprocess.Popen([sys.executable, "-m", "engine", "hub"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True, bufsize=1)
        self.lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))

    def send(self, *lines):
        for line in lines:
            self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def until(self, command, timeout=60.0):
        seen = []
        while True:
            line = self.lines.get(timeout=timeout)
            seen.append(line)
            if line.split(" ", 1)[0] == command:
                return seen


@pytest.fixture
def engine():
    e = Engine()
    yield e
    e.proc.kill()
    e.proc.wait()


def test_handshake_search_and_ping(engine):
    engine.send("hub")
    lines = engine.until("wait")
    assert lines[0].startswith("id name=")
    assert any(line.startswith("param name=variant") and "international" in line for line in lines)
    engine.send("set-param name=variant value=international", "init")
    engine.until("ready")
    engine.send("ping")
    assert engine.until("pong") == ["pong"]
    pos = start_position(variant("international"))
    engine.send(f"pos pos={hub_position(pos)}", "level move-time=0.3", "go think", "ping")
    lines = engine.until("done")
    assert "pong" in lines, "ping is answered during a search"
    info = [line for line in lines if line.startswith("info")]
    assert info and "depth=" in info[-1] and "pv=" in info[-1]
    done = parse_line(lines[-1])[1]
    assert parse_hub_move(pos, done["move"]) in legal_moves(pos)
    engine.send("quit")
    assert engine.proc.wait(timeout=10) == 0


def test_a_gui_names_international_as_the_protocol_does_and_the_first_search_uses_its_budget(engine):
    engine.send("hub")
    assert "normal" in [line for line in engine.until("wait") if line.startswith("param name=variant")][0]
    engine.send("set-param name=variant value=normal", "init")
    assert not [line for line in engine.until("ready") if line.startswith("error")]
    pos = start_position(variant("international"))
    engine.send(f"pos pos={hub_position(pos)}", "level move-time=0.4", "go think")
    lines = engine.until("done")
    last = parse_line([line for line in lines if line.startswith("info")][-1])[1]
    # warmed at init: the first search after a cold start thinks for its time rather than stopping early
    assert float(last["time"]) >= 0.2 and int(last["depth"]) >= 8
    assert parse_hub_move(pos, parse_line(lines[-1])[1]["move"]) in legal_moves(pos)


def _stop_an_infinite_search(engine):
    """Start an endless search from English's start, stop it, and check that a legal move comes at once."""
    pos = start_position(variant("english"))
    engine.send(f"pos pos={hub_position(pos)}", "level infinite", "go think")
    engine.until("info")
    engine.send("stop")
    done = parse_line(engine.until("done", timeout=5)[-1])[1]
    assert parse_hub_move(pos, done["move"]) in legal_moves(pos)


def test_stop_ends_an_infinite_search_with_a_move(engine):
    engine.send("hub", "set-param name=variant value=english", "init")
    engine.until("ready")
    _stop_an_infinite_search(engine)


def test_a_gui_may_ask_for_two_search_threads_and_stop_them(engine):
    engine.send("hub")
    assert any(line.startswith("param name=threads") for line in engine.until("wait"))
    engine.send("set-param name=variant value=english", "set-param name=threads value=0", "init")
    assert "threads takes 1 to" in engine.until("error")[-1]
    engine.send("set-param name=threads value=2", "init")
    engine.until("ready")
    _stop_an_infinite_search(engine)


def test_moves_after_the_position_are_played_and_depth_limits(engine):
    engine.send("hub", "set-param name=variant value=english", "init")
    engine.until("ready")
    game = Game(variant("english"))
    for text in ("11-15", "23-19"):
        game.play_text(text)
    engine.send(f"pos pos={hub_position(game.start)} moves=\"11-15 23-19\"", "level depth=5", "go think")
    lines = engine.until("done")
    assert "depth=5" in [line for line in lines if line.startswith("info")][-1]
    move = parse_hub_move(game.position, parse_line(lines[-1])[1]["move"])
    assert move in legal_moves(game.position)


def test_bad_input_gets_an_error_line_and_the_engine_goes_on(engine):
    engine.send("go think")
    assert "no position" in engine.until("error")[-1]
    engine.send("set-param name=variant value=checkers")
    assert "unknown variant 'checkers'" in engine.until("error")[-1]
    engine.send("hub", "set-param name=variant value=english", "init")
    engine.until("ready")
    engine.send("pos pos=Wxyz")
    assert engine.until("error")[-1].startswith("error message=")
    engine.send("pos pos=" + hub_position(start_position(variant("english"))) + " moves=\"1-2\"")
    assert "not a legal move" in engine.until("error")[-1]
    engine.send("ping")
    engine.until("pong")


def test_a_gui_that_skips_init_still_gets_a_move(engine):
    pos = start_position(variant("international"))  # the protocol's default variant
    engine.send(f"pos pos={hub_position(pos)}", "level depth=3", "go think")
    done = parse_line(engine.until("done")[-1])[1]
    assert parse_hub_move(pos, done["move"]) in legal_moves(pos)


def test_position_strings_round_trip():
    for name in ("english", "international", "russian", "brazilian"):
        v = variant(name)
        pos = start_position(v)
        text = hub_position(pos)
        assert len(text) == v.squares + 1
        assert parse_position(v, text) == pos
    v = variant("english")
    pos = parse_fen(v, "B:WK3,22,23:B8,K30")
    assert hub_position(pos) == "B" + "".join(
        {3: "W", 22: "w", 23: "w", 8: "b", 30: "B"}.get(sq, "e") for sq in range(1, 33))
    # English: Black's men on 1-12 and Black to move first
    assert hub_position(start_position(v)) == "B" + "b" * 12 + "e" * 8 + "w" * 12


def test_capture_strings_name_the_captured_squares_in_any_order():
    v = variant("international")
    pos = parse_fen(v, "W:W32:B27,17,8")  # 32x3: a man takes three
    (capture,) = legal_moves(pos)
    assert move_text(capture) == "32x3x8x17x27"
    assert parse_hub_move(pos, "32x3x27x8x17") == capture
    assert parse_line('pos pos=W moves="32-28 17-22" flag') == ("pos", {"pos": "W", "moves": "32-28 17-22",
                                                                       "flag": ""})
