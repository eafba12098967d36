"""Outside engines driven from Python (``engine.outside``), as python-chess drives UCI engines: our own
``python -m engine hub`` from asyncio and without it, Scan 2.0's older dialect, a DXP engine over TCP, and engines
that hang, crash or answer nonsense, each met with an error that says so and nothing left running."""

from __future__ import annotations

import asyncio
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine import Board, Color
from engine.outside import (EngineError, EngineTerminatedError, EngineTimeoutError, IllegalEngineMoveError, Limit,
                            SimpleDxpEngine, SimpleEngine, connect_dxp, popen_hub)
from engine.outside import hub as outside_hub

HERE = Path(__file__).parent
OURS = f"{sys.executable} -m engine hub"


def misbehaving(mode: str) -> str:
    return f"{sys.executable} {HERE / 'misbehaving_hub_engine.py'} {mode}"


def test_our_engine_plays_and_analyses_through_the_simple_client():
    board = Board("russian")
    heard = []
    with SimpleEngine.popen_hub(OURS, "russian", options={"level": "6", "tt-size": "16"}) as engine:
        assert engine.id["name"] == "Dambot" and {"level", "threads", "variant"} <= set(engine.options)
        assert engine.options["level"].max == "6"
        engine.new_game()
        for _ in range(4):
            result = engine.play(board, Limit(time=0.1), info=heard.append)
            assert board.is_legal(result.move)
            board.push(result.move)
        analysis = engine.analyse(board, Limit(depth=5))
    assert heard and all(info.depth is not None and info.pv for info in heard)  # the PV read as moves
    assert analysis.depth == 5 and analysis.score is not None and board.is_legal(analysis.pv[0])
    assert engine.engine.process.returncode == 0  # it was asked to end, and did


async def test_the_asyncio_client_plays_a_game_to_its_end_with_a_clock():
    engine = await popen_hub(OURS, "english", options={"level": "2"})
    board = Board("english", "W:WK14,K22:B9")  # two kings against a man: a short game
    try:
        while not board.is_game_over():
            result = await engine.play(board, Limit(remaining=2.0, increment=0.1))
            board.push(result.move)
    finally:
        await engine.quit()
    outcome = board.outcome()
    assert outcome is not None and outcome.winner is not None


def test_a_bad_option_or_variant_is_refused_before_anything_runs():
    with pytest.raises(ValueError, match="has no option hash.*it has: level"):
        SimpleEngine.popen_hub(OURS, "english", options={"hash": "64"})
    with pytest.raises(ValueError, match="does not play russian"):
        SimpleEngine.popen_hub(misbehaving("hang"), "russian")
    with pytest.raises(EngineError, match="cannot start it"):
        SimpleEngine.popen_hub("/no/such/engine hub", "international")


@pytest.mark.parametrize("mode, error, words", [
    ("crash", EngineTerminatedError, "ended \\(exit code 3\\)"),
    ("illegal", IllegalEngineMoveError, "'46-41', which is not a legal move"),
    ("garbage", IllegalEngineMoveError, "'hello'"),
    ("error", EngineError, "out of memory"),
])
def test_an_engine_that_answers_nonsense_or_ends_is_met_with_an_error_that_says_so(mode, error, words):
    with SimpleEngine.popen_hub(misbehaving(mode), "international") as engine:
        with pytest.raises(error, match=words):
            engine.play(Board("international"), Limit(time=0.1))


def test_an_engine_past_its_time_is_stopped_and_one_that_hangs_is_ended(monkeypatch):
    monkeypatch.setattr(outside_hub, "GRACE", 0.5)
    with SimpleEngine.popen_hub(misbehaving("slow"), "international") as slow:
        assert Board("international").move_text(slow.play(Board("international"), Limit(time=0.1)).move) == "32-28"
    hung = SimpleEngine.popen_hub(misbehaving("hang"), "international")
    started = time.monotonic()
    with pytest.raises(EngineTimeoutError, match="did not answer within 0.6 s, nor after stop; it was ended"):
        hung.play(Board("international"), Limit(time=0.1))
    assert time.monotonic() - started < 5 and hung.engine.process.returncode is not None
    hung.quit()


def test_scan_2s_dialect(tmp_path):
    log = tmp_path / "heard.txt"
    board = Board("international")
    with SimpleEngine.popen_hub(f"{sys.executable} {HERE / 'hub1_engine.py'} {log}", "international",
                                version=1) as scan:
        assert scan.id == {"name": "Stand-in"}
        scan.new_game()
        for _ in range(2):
            result = scan.play(board, Limit(time=0.25))
            assert result.move == min(board.legal_moves, key=lambda m: (m.start, m.end))
            assert result.info.depth == 1 and result.info.score == 0 and result.info.pv == (result.move,)
            board.push(result.move)
        scan.play(board, Limit(depth=6))
    heard = log.read_text().splitlines()
    assert heard[:4] == ["hub", "set book false", "init", "new"] and heard[5:7] == ["time 250", "go"]
    assert heard[7].startswith("pos b") and heard[-3:] == ["depth 6", "go", "quit"]
    with pytest.raises(ValueError, match="International draughts only"):
        SimpleEngine.popen_hub(f"{sys.executable} {HERE / 'hub1_engine.py'} {log}", "english", version=1)


def test_the_readme_s_match_script_plays_two_engines_against_each_other(tmp_path):
    readme = (HERE.parent / "README.md").read_text()
    [script] = re.findall(r"```python\n(# A match between two Hub engines.*?)```", readme, re.S)
    script = script.replace('GAMES = 10', 'GAMES = 2').replace("Limit(time=0.2)", "Limit(time=0.05)")
    ran = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert ran.returncode == 0, ran.stderr
    assert re.search(r"after 2 games: .* \d+(\.5)?-\d+(\.5)?", ran.stdout), ran.stdout


# --- DXP ----------------------------------------------------------------------------------------------------------

@pytest.fixture
def dxp_engine(request):
    """A DXP stand-in listening on a free port, in the mode the test's parameter names: (port, the process)."""
    process = subprocess.Popen([sys.executable, str(HERE / "dxp_engine.py"), getattr(request, "param", "good")],
                               stdout=subprocess.PIPE, text=True)
    port = int(process.stdout.readline())
    yield port, process
    process.kill()
    process.wait()


def test_a_dxp_game_is_asked_for_played_move_by_move_and_ended(dxp_engine):
    port, process = dxp_engine
    board = Board("international")
    with SimpleDxpEngine.connect("127.0.0.1", port, name="Tester") as engine:
        engine.new_game(board, Color.BLACK, minutes=5, moves=50)
        assert engine.engine.engine_name == "Stand-in"
        for _ in range(3):
            board.push_text(board.move_text(board.legal_moves[-1]))  # our move as White
            reply = engine.play(board, timeout=5)
            assert reply == min(board.legal_moves, key=lambda m: (m.start, m.end))
            board.push(reply)
        ended = engine.end_game("draw", another=False)
    assert ended.result == "draw" and ended.another is False
    heard = [process.stdout.readline().strip() for _ in range(5)]
    assert heard[0] == f"R01{'Tester':<32}Z005050A"  # the engine plays Black, 5 minutes for 50 moves, the start
    assert all(line.startswith("M") for line in heard[1:4]) and heard[4] == "E21"


def test_a_dxp_game_from_a_position_the_engine_moves_first(dxp_engine):
    port, process = dxp_engine
    board = Board("international", "W:W31,32,K46:B5,19")
    with SimpleDxpEngine.connect("127.0.0.1", port) as engine:
        engine.new_game(board, Color.WHITE)
        move = engine.play(board, timeout=5)
    assert board.is_legal(move)
    assert process.stdout.readline().strip().endswith("BW" + "".join(
        {5: "z", 19: "z", 31: "w", 32: "w", 46: "W"}.get(sq, "e") for sq in range(1, 51)))


@pytest.mark.parametrize("dxp_engine, error, words", [
    ("refuse", EngineError, "refused the game: it will not play that colour"),
    ("illegal", IllegalEngineMoveError, "46-41 taking nothing, which is not a legal move"),
    ("hang", EngineTimeoutError, "sent nothing within 1 s"),
    ("close", EngineTerminatedError, "closed the connection"),
], indirect=["dxp_engine"])
def test_a_dxp_engine_that_refuses_cheats_hangs_or_hangs_up_is_met_with_an_error(dxp_engine, error, words):
    port, _ = dxp_engine
    board = Board("international")
    with SimpleDxpEngine.connect("127.0.0.1", port) as engine:
        with pytest.raises(error, match=words):
            engine.new_game(board, Color.WHITE)
            engine.play(board, timeout=1)


async def test_dxp_from_asyncio_and_nobody_listening(dxp_engine):
    port, _ = dxp_engine
    engine = await connect_dxp("127.0.0.1", port)
    board = Board("international")
    await engine.new_game(board, Color.WHITE)
    assert board.is_legal(await engine.play(board, timeout=5))
    await engine.close()
    with pytest.raises(EngineError, match="cannot reach a DXP engine at 127.0.0.1:1"):
        await connect_dxp("127.0.0.1", 1, timeout=2)
