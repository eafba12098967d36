"""The analysis of a played game: the field's winning-chances formula and thresholds, known blunders judged as
blunders with the better move found, the same analysis however it is cut into jobs, and the annotated PDN."""

from __future__ import annotations

import math
import re

import pytest

from engine import Color, game_type, variant
from engine.analysis import (NAGS, Analysis, analyse, annotated, judge, look_segment, judged, move_accuracy, plies,
                             segments, winning_chances)
from engine.draughts.endgame_build import build
from engine.record_reader import RecordError, read_games
from engine.search import WIN, Searcher
from engine.tools.cli import main as cli


def english(moves: str, fen: str | None = None):
    record = game_type("english").new_game(fen)
    for text in moves.split():
        record.play_text(text)
    return record


# --- the formula and the thresholds (lidraughts' Advice) -----------------------------------------

def test_winning_chances_follow_the_logistic_formula_and_are_clamped():
    assert winning_chances(0) == 0
    assert winning_chances(100) == pytest.approx(2 / (1 + math.exp(-0.4)) - 1)  # 0.197
    assert winning_chances(-100) == pytest.approx(-winning_chances(100))
    assert winning_chances(5000) == winning_chances(1000) == pytest.approx(0.964, abs=1e-3)
    assert winning_chances(100, scale=0.002) < winning_chances(100)


@pytest.mark.parametrize("before, after, expected", [
    (0, -37, None),  # loses 0.074 of winning chances: below 0.075
    (0, -40, "inaccuracy"),  # 0.080
    (0, -76, "mistake"),  # 0.152
    (0, -155, "blunder"),  # 0.300
    (300, 290, None),
    (1500, 1100, None),  # both clamped to 1000: nothing lost
])
def test_a_move_is_judged_by_the_winning_chances_it_loses(before, after, expected):
    loss, judgement = judge(before, after)
    assert judgement == expected
    assert loss == pytest.approx(max(0.0, winning_chances(before) - winning_chances(after)))


@pytest.mark.parametrize("after, expected", [(1200, "inaccuracy"), (700, "mistake"), (0, "blunder")])
def test_a_forced_win_thrown_away_is_judged_by_what_remains(after, expected):
    assert judge(WIN - 9, after)[1] == expected


@pytest.mark.parametrize("before, expected", [(-1200, "inaccuracy"), (-700, "mistake"), (0, "blunder")])
def test_walking_into_a_forced_loss_is_judged_by_what_there_was(before, expected):
    assert judge(before, -(WIN - 5))[1] == expected


def test_a_win_kept_or_a_loss_already_there_is_not_judged():
    assert judge(WIN - 5, WIN - 9)[1] is None
    assert judge(-(WIN - 9), -(WIN - 3))[1] is None


def test_move_accuracy_follows_lichess_curve():
    assert move_accuracy(60, 70) == 100
    assert move_accuracy(60, 40) == pytest.approx(103.1668 * math.exp(-0.04354 * 20) - 3.1669)
    assert move_accuracy(100, 0) == 0


# --- known blunders ----------------------------------------------------------------------------------

def test_a_missed_shot_is_a_blunder_and_the_shot_is_the_better_move():
    # White to play has the shot 24-19 (Black must take, and White takes back more); 24-20 lets it go
    record = english("24-20", "W:W17,21,23,24,25,26,27,28,29,30,31:B1,2,4,5,6,8,9,10,14,15,16")
    move = analyse(record).moves[0]
    assert move.judgement == "blunder"
    assert move.best == "24-19" and move.line[0] == "24-19" and len(move.line) > 2
    assert move.before - move.after >= 150


def test_a_man_given_away_is_judged_and_a_better_move_named():
    record = english("9-14 23-18 14x23 26x19 11-16 30-26")  # 30-26 lets Black take a man for nothing
    analysis = analyse(record)
    given = analysis.moves[5]
    assert given.mover == Color.WHITE and given.judgement in ("mistake", "blunder")
    assert given.best != "30-26"
    assert analysis.players[Color.WHITE].blunders + analysis.players[Color.WHITE].mistakes >= 1
    assert analysis.players[Color.WHITE].accuracy < analysis.players[Color.BLACK].accuracy
    assert analysis.costliest(1) == [given]


def test_a_won_database_ending_thrown_into_a_draw_is_a_blunder(tmp_path, monkeypatch):
    for pieces in (2, 3):
        build(variant("english"), pieces, tmp_path)
    monkeypatch.setenv("ENGINE_EGTB_DIR", str(tmp_path))
    record = english("2-7", "W:WK1,K2:BK10")  # two kings beat one, but 2-7 lets the lone king take one
    analysis = analyse(record, nodes=20_000)
    move = analysis.moves[0]
    assert move.database == "win"
    assert move.judgement == "blunder"
    assert move.after == 0 and move.best != "2-7"
    assert "2-7?? {Blunder (+0.00). Better" in annotated(record, analysis, {}) and "databases: a win" in \
        annotated(record, analysis, {})


# --- the same analysis, however the work is cut ------------------------------------------------------

def test_segments_searched_apart_and_in_any_order_give_the_same_analysis():
    record = game_type("english").new_game()
    while len(record.moves) < 20:
        record.play(record.legal_moves()[len(record.moves) % len(record.legal_moves())])
    whole = analyse(record, nodes=5_000)
    game = plies(record)
    spans = segments(len(game))
    assert sorted(p for span in spans for p in span) == list(range(len(game)))
    looks = {}
    for span in reversed(spans):  # earliest first, each on a searcher of its own
        looks.update(zip(span, look_segment(Searcher(record.type, tt_mb=16), game, span, 5_000)))
    assert judged(record, [looks[p] for p in range(len(game))], 5_000) == whole
    span = spans[0]  # a segment cut short, then taken up again where it stopped, gives the same looks
    for asked, kept in (([False] * 4 + [True], 2), ([False] * 3 + [True], 1)):  # before or after a position
        stops = iter(asked)
        cut = look_segment(Searcher(record.type, tt_mb=16), game, span, 5_000, stop=lambda: next(stops, False))
        rest = look_segment(Searcher(record.type, tt_mb=16), game, span, 5_000, known=len(cut))
        assert len(cut) == kept and cut + rest == [looks[p] for p in span]
    assert Analysis.from_json(whole.to_json()) == whole


def test_the_final_position_of_a_won_game_is_scored_as_the_rules_end_it():
    game = game_type("english").new_game("B:W27:B23")  # Black takes White's last man
    game.play_text("23x32")
    analysis = analyse(game, nodes=2_000)
    assert game.result().winner == Color.BLACK
    assert analysis.scores[-1] == -WIN  # from White's side: lost
    assert analysis.moves[0].after == WIN and analysis.moves[0].judgement is None


# --- the record --------------------------------------------------------------------------------------

TWO_GAMES = """[GameType "21"]
[White "ana"]
[Black "ben"]
[Result "*"]

1. 9-14 23-18 2. 14x23 26x19 3. 11-16 30-26 *

[Game "Tablut (Ashton rules)"]
[Result "*"]

1. e3-f3 d1-d2 *
"""


def test_the_command_line_writes_an_annotated_pdn_that_reads_back(tmp_path, capsys):
    source = tmp_path / "games.pdn"
    source.write_text(TWO_GAMES)
    out = tmp_path / "out.pdn"
    assert cli(["analyse", str(source), "--nodes", "20000", "--quiet", "--out", str(out)]) == 0
    text = out.read_text()
    assert re.search(r"11-16\s+30-26\?+ \{\w+ \([-+.\d]+\)\. Better \d", text)  # a symbol, the better line
    back = read_games(text)
    assert [g.record.type.name for g in back] == ["english", "tablut"]
    assert [len(g.record.moves) for g in back] == [6, 2]
    assert back[0].tags["White"] == "ana"
    err = capsys.readouterr().err
    assert "game 1: White" in err and "accuracy" in err


def test_a_file_that_cannot_be_read_is_refused_with_the_reason(tmp_path, capsys):
    source = tmp_path / "bad.pdn"
    source.write_text('[GameType "21"]\n\n1. 9-14 9-14 *\n')
    assert cli(["analyse", str(source)]) == 2
    assert "game 1" in capsys.readouterr().err
    with pytest.raises(RecordError, match="GameType 99"):
        read_games('[GameType "99"]\n\n1. 9-14 *\n')


def test_tablut_is_analysed_on_its_own_scale():
    record = game_type("tablut").new_game()
    for text in ("e3-f3", "d1-d2", "f3-f2"):
        record.play_text(text)
    analysis = analyse(record, nodes=5_000)
    assert analysis.game == "tablut" and len(analysis.moves) == 3
    assert game_type("tablut").chances_scale != game_type("english").chances_scale
    assert all(m.judgement in (None, *NAGS) for m in analysis.moves)


def test_a_forced_move_is_looked_at_as_deeply_as_any_other():
    """A position with one legal move (a capture the mover must make) gets the full effort, not the quick look
    the search gives a forced move in play: its score is the played move's score before it."""
    from engine.analysis import Ply, look

    record = english("24-19", "W:W17,21,23,24,25,26,27,28,29,30,31:B1,2,4,5,6,8,9,10,14,15,16")
    forced = plies(record)[1]
    assert len(game_type("english").legal_moves(forced.position)) == 1
    seen = look(Searcher(record.type, tt_mb=16), forced, 50_000)
    assert seen.nodes > 25_000
    assert isinstance(forced, Ply)


def test_tablut_moves_are_judged_on_tablut_scale():
    record = game_type("tablut").new_game()
    for text in ("e3-f3", "d1-d2", "f3-f2", "a4-b4"):
        record.play_text(text)
    scale = game_type("tablut").chances_scale
    for move in analyse(record, nodes=5_000).moves:
        expected = max(0.0, winning_chances(move.before, scale) - winning_chances(move.after, scale))
        assert move.loss == pytest.approx(expected)
