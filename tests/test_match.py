"""Matches: balanced openings, colours swapped, the score and Elo, PDN out; external Hub engines too."""

from __future__ import annotations

import re
import subprocess
import sys

import numpy as np
import pytest

from engine import legal_moves, make, start_position, variant
from engine.tools.match import Summary, openings, run_match, summarize


def test_elo_of_known_scores():
    assert Summary(5, 0, 5).elo()[0] == pytest.approx(0)
    elo, low, high = Summary(30, 0, 10).elo()
    assert elo == pytest.approx(190.85, abs=0.1)  # 75%
    assert low < elo < high
    sweep, low, high = Summary(40, 0, 0).elo()
    assert 300 < low < sweep < 1000, "a clean sweep has a finite estimate and a real interval"
    assert "+3 =2 -1" in str(Summary(3, 2, 1))
    assert "Elo +0 (95% +0 to +0)" in str(Summary(0, 1, 0)), "an even score is +0, not -0"


def test_openings_are_legal_distinct_and_level():
    v = variant("english")
    lines = openings(v, 10)
    assert len(set(lines)) == 10
    for line in lines:
        pos = start_position(v)
        for m in line:
            assert m in legal_moves(pos)
            pos = make(pos, m)
        assert len(line) == 3


def test_each_opening_is_played_with_both_colours():
    records = run_match("level:2", "level:1", variant("english"), 2, 0.05, jobs=1)
    assert len(records) == 2
    tags = [dict(line[1:-1].split(" ", 1) for line in r.pdn.splitlines() if line.startswith("[")) for r in records]
    assert tags[0]["Opening"] == tags[1]["Opening"]
    assert (tags[0]["White"], tags[0]["Black"]) == (tags[1]["Black"], tags[1]["White"])
    for r, t in zip(records, tags):
        result = t["Result"].strip('"')
        a_is_white = t["White"] == '"level:2"'
        expected = {"1-0": 1.0 if a_is_white else 0.0, "0-1": 0.0 if a_is_white else 1.0, "1/2-1/2": 0.5}[result]
        assert r.score_a == expected
    assert summarize(records).games == 2


def test_match_command_against_an_external_hub_engine(tmp_path):
    pdn = tmp_path / "games.pdn"
    hub = f"hub:{sys.executable} -m engine hub"
    r = subprocess.run([sys.executable, "-m", "engine", "match", "--variant", "brazilian", "level:3", hub,
                        "--games", "2", "--time", "0.02", "--pdn", str(pdn)],
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    assert "Elo" in r.stdout and "score" in r.stdout
    text = pdn.read_text()
    assert text.count('[GameType "26"]') == 2


def test_unknown_player_is_a_clear_error():
    r = subprocess.run([sys.executable, "-m", "engine", "match", "--variant", "english", "level:6", "robot:1",
                        "--games", "2"], capture_output=True, text=True, timeout=300)
    assert r.returncode == 2
    assert "unknown player 'robot:1'" in r.stderr


def test_player_specs_carry_search_settings_and_weights(tmp_path):
    from engine.draughts.evaluation_tables import W_KING
    from engine.draughts.weight_files import WEIGHTS_DIR
    from engine.tools.players import Player, parse_player

    spec = parse_player("level:6,lmr=1.6,extend=1,king=130")
    assert spec.search == {"lmr": 1.6, "extend": True} and spec.weights == {"king": 130}
    player = Player("level:6,king=130,tt=1", variant("english"), 1)
    assert player.searcher is not None and player.searcher.hooks.evaluator.weights[W_KING] == 130
    shipped = WEIGHTS_DIR / "english.npz"  # a good file: read as the path "english.npz,tt=1" when options follow it
    bad = tmp_path / "bad.npz"
    bad.write_text('{"kingg": 1}')
    array = tmp_path / "array.npy"
    np.save(array, np.zeros(3))
    for text, message in (("level:6,kingg=3", "unknown weight 'kingg'"), ("level:6,lmr=x", "lmr takes a number"),
                          (f"level:6,weights={bad}", "cannot read"), ("level:6,weights=/no/such.npz", "cannot read"),
                          (f"level:6,weights={array}", "not a learned weights file"),
                          (f"level:6,weights={shipped},tt=1", "weights=FILE comes last"),
                          ("level:6,weights=", "cannot read")):
        with pytest.raises(ValueError, match=message):
            parse_player(text)


def test_hub_players_take_a_fixed_depth():
    from engine.tools.players import parse_player

    spec = parse_player("hub1,depth=4:/opt/scan/scan hub")
    assert (spec.kind, spec.arg, spec.search) == ("hub1", "/opt/scan/scan hub", {"depth": 4})
    assert parse_player("hub:./scan hub").search == {}
    for text in ("hub1,depth=x:./scan hub", "hub,nodes=4:./scan hub", "hub1:"):
        with pytest.raises(ValueError):
            parse_player(text)


def test_a_player_can_use_learned_weights_from_a_file(tmp_path):
    from engine.draughts.evaluation_tables import COUNTS, PATTERNS, PHASES, regions
    from engine.draughts.weight_files import load_evaluator, write_learned
    from engine.tools.players import Player

    v = variant("english")
    rng = np.random.default_rng(5)
    path = tmp_path / "runs,2026" / "mine.npz"  # a comma in the path, as in a training run's data folder
    path.parent.mkdir()
    write_learned(path, rng.normal(100, 10, (COUNTS, PHASES)), rng.normal(0, 10, (len(regions(v)), PATTERNS, PHASES)),
                  "a test")
    player = Player(f"level:6,tt=1,weights={path}", v, 1)
    assert player.searcher is not None
    assert np.array_equal(player.searcher.hooks.evaluator.patterns, load_evaluator(v, path).patterns)
    assert not np.array_equal(player.searcher.hooks.evaluator.patterns, load_evaluator(v).patterns)


def test_an_interrupted_match_resumes_from_its_file(tmp_path):
    pdn = tmp_path / "games.pdn"

    def match(*extra):
        return subprocess.run([sys.executable, "-m", "engine", "match", "--variant", "english", "level:2", "level:1",
                               "--time", "0.02", "--pdn", str(pdn), *extra], capture_output=True, text=True, timeout=600)

    first = match("--games", "2")
    assert first.returncode == 0, first.stderr
    kept = pdn.read_text()
    assert kept.count("[Round ") == 2
    more = match("--games", "4", "--resume")
    assert more.returncode == 0, more.stderr
    assert "resuming: 2 games" in more.stdout
    text = pdn.read_text()
    assert text.startswith(kept)  # the games played before are kept as they were
    assert sorted(int(r) for r in re.findall(r'\[Round "(\d+)"\]', text)) == [1, 2, 3, 4]
    wins, draws, losses = re.search(r"level:2 vs level:1: \+(\d+) =(\d+) -(\d+)", more.stdout).groups()
    assert int(wins) + int(draws) + int(losses) == 4  # the summary counts the old games and the new
    other = match("--games", "4", "--resume", "--time", "0.03")
    assert other.returncode == 2 and "another match" in other.stderr
    assert pdn.read_text() == text  # refused without a change


@pytest.mark.parametrize("name", ["international", "english"])
def test_a_resumed_match_reads_every_result_back_as_played(tmp_path, name):
    """International writes 2-0 and 1-1, English 1-0 and 1/2-1/2: a resume must count each game as it ended,
    also when a player meets itself (the colours then come from the round)."""
    from engine.tools.match import kept_games, match_to_file

    for a, b in (("level:2", "level:1"), ("level:1", "level:1")):
        pdn = tmp_path / f"{a}-{b}.pdn"
        played = match_to_file(a, b, variant(name), 4, 0.01, pdn, [])
        text = pdn.read_text()
        pdn.write_text(text + text[: len(text) // 3])  # an interruption in the middle of writing a fifth game
        kept = kept_games(pdn, a, b, variant(name), 4, 0.01)
        assert [(g.round_no, g.score_a) for g in kept] == [(g.round_no, g.score_a) for g in played]
        assert summarize(kept) == summarize(played)


def test_a_resume_refuses_a_file_it_cannot_continue(tmp_path):
    from engine.tools.match import kept_games, match_to_file

    v = variant("english")
    pdn = tmp_path / "games.pdn"
    match_to_file("level:2", "level:1", v, 4, 0.01, pdn, [])
    text = pdn.read_text()
    with pytest.raises(ValueError, match="ask for at least 4"):
        kept_games(pdn, "level:2", "level:1", v, 2, 0.01)  # fewer games than the file holds
    older = tmp_path / "older.pdn"  # written before matches recorded their time a move
    older.write_text(re.sub(r'\[Budget "[^"]*"\]\n', "", text))
    with pytest.raises(ValueError, match="another match"):
        kept_games(older, "level:2", "level:1", v, 4, 0.01)
    broken = tmp_path / "broken.pdn"  # a game cut short in the middle of the file, not at its end
    first_end = text.index("\n\n[GameType") + 2
    broken.write_text(text[: first_end - 30] + "\n" + text[first_end:])
    with pytest.raises(ValueError, match="not whole"):
        kept_games(broken, "level:2", "level:1", v, 4, 0.01)
    assert pdn.read_text() == text
