"""The command line as scripts use it: python -m engine perft|moves|play|bench (hub and match: their own files)."""

import json
import os
import subprocess
import sys

from perft_data import START


def run(*args, stdin=None, env=None):
    return subprocess.run([sys.executable, "-m", "engine", *args], input=stdin, capture_output=True, text=True,
                          timeout=300, env=env)


def _leaves(stdout):
    """depth -> leaves from perft's table."""
    rows = {}
    for line in stdout.splitlines():
        parts = line.split()
        if len(parts) == 4 and parts[0].isdigit():
            rows[int(parts[0])] = int(parts[1].replace(",", ""))
    return rows


def test_perft_prints_each_depth_with_speed():
    r = run("perft", "--variant", "brazilian", "--depth", "6")
    assert r.returncode == 0, r.stderr
    assert _leaves(r.stdout) == dict(enumerate(START["brazilian"][:6], start=1))
    assert "leaves/s" in r.stdout


def test_perft_divide_sums_to_the_total():
    r = run("perft", "--variant", "international", "--fen",
            "W:W25,27,28,30,32,33,34,35,37,38:B12,13,14,16,18,19,21,23,24,26", "--depth", "4", "--divide")
    assert r.returncode == 0, r.stderr
    divide = r.stdout.split("divide at depth 4:")[1].split()
    counts = dict(zip(divide[::2], (int(n.replace(",", "")) for n in divide[1::2])))
    assert counts.pop("total") == sum(counts.values()) == 73
    assert len(counts) == 6


def test_moves_json():
    r = run("moves", "--variant", "english", "--fen", "W:W27:B23,15", "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout) == [{"move": "27x18x11", "from": 27, "to": 11, "path": [27, 18, 11],
                                     "captures": [23, 15]}]


def test_moves_json_uses_coordinates_for_russian():
    r = run("moves", "--variant", "russian", "--fen", "W:Wc3:Bd4,f6", "--json")
    assert json.loads(r.stdout) == [{"move": "c3:e5:g7", "from": "c3", "to": "g7", "path": ["c3", "e5", "g7"],
                                     "captures": ["d4", "f6"]}]


def test_moves_reads_fens_from_stdin_one_line_each():
    r = run("moves", "--variant", "english", "--json", stdin="B:W21-32:B1-12\nnot a fen\nB:W32:B28\n")
    lines = r.stdout.splitlines()
    assert len(lines) == 3 and r.returncode == 1
    assert len(json.loads(lines[0])) == 7
    assert "cannot read" in json.loads(lines[1])["error"]
    assert json.loads(lines[2]) == []


def test_bad_fen_on_the_command_line():
    r = run("perft", "--variant", "english", "--fen", "W:W33:B1", "--depth", "1")
    assert r.returncode == 2 and "no square 33" in r.stderr


def test_play_referees_a_piped_game():
    r = run("play", "--variant", "english", "--fen", "W:W27:B23,15", stdin="27-24\n27x18\n27x11\n")
    assert "capture is compulsory" in r.stdout
    assert "must go on" in r.stdout
    assert "played 27x11" in r.stdout
    assert "White wins: Black has no legal move" in r.stdout


def test_same_source_runs_without_numba():
    """NUMBA_DISABLE_JIT=1 runs the kernel as plain Python (for debugging and coverage)."""
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    r = run("perft", "--variant", "international", "--depth", "3", env=env)
    assert r.returncode == 0, r.stderr
    assert _leaves(r.stdout) == {1: 9, 2: 81, 3: 658}
    r = run("perft", "--variant", "international", "--fen", "B:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46:BK17,K24",
            "--depth", "2", env=env)
    assert _leaves(r.stdout) == {1: 14, 2: 55}


def test_play_against_the_engine():
    r = run("play", "--variant", "international", "--level", "2", "--time", "0.1", stdin="32-28\n")
    assert r.returncode == 0, r.stderr
    assert "I play Black at level 2" in r.stdout
    replies = [line for line in r.stdout.splitlines() if line.startswith("I play ") and "level" not in line]
    assert len(replies) == 1, "the engine answers the one move typed, then the input ends"


def test_bench_prints_the_node_signature_speed_and_depths():
    r = run("bench", "--repeat", "1", "--seconds", "0.05")
    assert r.returncode == 0, r.stderr
    assert "total nodes" in r.stdout and "nodes/s" in r.stdout
    for name in ("english", "international", "russian", "brazilian"):
        assert any(line.split()[:2] == [name, "depth"] for line in r.stdout.splitlines()), name
