"""Puzzles: a known shot found and proved, a position with two winning moves rejected, the set files, the miner's
command (resumed where it stopped), and the shipped sets read whole and proved in part."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from engine import game_type
from engine.puzzles.prove import NOT_WON, WIN_BY, Solution, Rejected, check, scored_moves, solve
from engine.puzzles.puzzle import SETS, THEMES, Puzzle, read_set, shipped
from engine.search import Searcher
from engine.tools.cli import main as cli
from engine.tools.puzzles import verify_depth

# Black to move gives a man with 10-15; White must take it (19x10), and 6x15x22x29 takes three: two men up.
SHOT = "B:W18,19,21,24,25,26,27,28,30,31,32:B1,2,3,5,6,7,8,9,10,11,12"
# White crowns with 7-2 or with 7-3, and either wins: not a puzzle, however good the move.
TWO_WINS = "W:W7,K23:B28,K32"
SHIPPED = {"english": 1000, "international": 1000, "russian": 300, "brazilian": 300}


@pytest.fixture(scope="module")
def english():
    return Searcher(game_type("english"), tt_mb=16)


def test_a_known_shot_is_found_with_its_line_and_proved_deeper(english):
    gt = english.game
    found = solve(english, gt.read_position(SHOT), depth=12)
    assert isinstance(found, Solution), found
    here, words = gt.read_position(SHOT), []
    for move in found.moves:
        words.append(gt.write_move(here, move, full=True))
        here = gt.make(here, move)
    assert words[:3] == ["10-15", "19x10", "6x15x22x29"]
    assert len(found.moves[2].captures) == 3 and found.score >= WIN_BY and found.others <= NOT_WON
    puzzle = Puzzle("english", SHOT, tuple(gt.write_move(p, m, full=True) for p, m in _walk(gt, SHOT, found.moves)),
                    "shot", 1, found.score, "test")
    assert check(english, puzzle, depth=14) is None


def test_a_position_with_two_winning_moves_is_no_puzzle(english):
    gt = english.game
    position = gt.read_position(TWO_WINS)
    best, second = scored_moves(english, position, 10)[:2]
    assert {gt.write_move(position, best.move), gt.write_move(position, second.move)} == {"7-2", "7-3"}
    assert best.score >= WIN_BY and second.score >= WIN_BY
    rejected = solve(english, position, depth=10)
    assert isinstance(rejected, Rejected) and rejected.reason.startswith("not unique: 7-")


def test_check_names_a_wrong_first_move(english):
    gt = english.game
    wrong = Puzzle("english", SHOT, ("9-13",), "shot", 1, 200, "test")
    assert "does not win" in check(english, wrong, depth=8)
    twice = Puzzle("english", TWO_WINS, ("7-2",), "ending", 1, 200, "test")
    assert check(english, twice, depth=8).startswith("not unique: 7-3")
    illegal = Puzzle("english", SHOT, ("1-5",), "shot", 1, 200, "test")
    assert "is not legal" in check(english, illegal, depth=8)


def _walk(gt, fen, moves):
    here = gt.read_position(fen)
    for move in moves:
        yield here, move
        here = gt.make(here, move)


def test_a_set_file_keeps_each_puzzle_and_names_a_bad_line(tmp_path):
    puzzle = Puzzle("english", SHOT, ("10-15", "19x10", "6x15x22x29"), "shot", 1, 245, "seed 1 game 0")
    path = tmp_path / "set.txt"
    path.write_text("# a comment\n" + puzzle.line() + "\n")
    assert read_set("english", path) == [puzzle]
    assert puzzle.id == Puzzle("english", SHOT, ("10-15",), "tactic", 3, 1, "x").id  # the position names it
    path.write_text(puzzle.line() + "\n" + puzzle.line().replace("\tshot\t", "\tfork\t") + "\n")
    with pytest.raises(ValueError, match="line 2: unknown theme 'fork'"):
        read_set("english", path)


def test_make_mines_a_set_and_goes_on_where_it_stopped(tmp_path, capsys):
    out = tmp_path / "english.txt"
    assert cli(["puzzles", "make", "--variant", "english", "--count", "2", "--seed", "4", "--out", str(out),
                "--jobs", "1", "--quiet"]) == 0
    first = read_set("english", out)  # every puzzle of the last game mined is kept: perhaps more than asked
    games = (tmp_path / "english.txt.progress").read_text().splitlines()
    assert len(first) >= 2 and games[0] == "seed 4" and len(games) > 1
    assert "--count 2 --seed 4" in out.read_text().splitlines()[1]
    more = len(first) + 1
    assert cli(["puzzles", "make", "--variant", "english", "--count", str(more), "--seed", "4", "--out", str(out),
                "--jobs", "1", "--quiet"]) == 0
    second = read_set("english", out)
    assert second[:len(first)] == first and len(second) >= more and len({p.position for p in second}) == len(second)
    again = (tmp_path / "english.txt.progress").read_text().splitlines()
    assert again[:len(games)] == games and len(set(again[1:])) == len(again) - 1  # no game mined twice
    assert f"--count {more} --seed 4" in out.read_text().splitlines()[1]
    capsys.readouterr()
    assert cli(["puzzles", "make", "--variant", "english", "--count", "4", "--seed", "5", "--out", str(out)]) == 2
    assert "give that --seed" in capsys.readouterr().err
    assert cli(["puzzles", "verify", "--variant", "english", "--file", str(out), "--jobs", "1", "--quiet"]) == 0
    assert f"{len(second)} puzzles" in capsys.readouterr().out


@pytest.mark.parametrize("variant", sorted(SHIPPED))
def test_the_shipped_set_is_whole_and_a_sample_proves_again(variant):
    puzzles = shipped(variant)
    assert len(puzzles) >= SHIPPED[variant]
    assert len({p.id for p in puzzles}) == len(puzzles)
    gt = game_type(variant)
    crowded = []  # puzzles with too many pieces for the endgame databases to matter
    for puzzle in puzzles:
        assert puzzle.theme in THEMES
        here = gt.read_position(puzzle.position)
        if len(gt.pieces(here)) >= 12:
            crowded.append(puzzle)
        for text in puzzle.solution:  # every move legal where it is played
            here = gt.make(here, gt.parse_move(here, text))
    assert "python -m engine puzzles make" in (SETS / f"{variant}.txt").read_text().splitlines()[1]
    searcher = Searcher(gt, tt_mb=16)
    # proved again as `puzzles verify` proves them, but the endgame databases are not built here: a sample of the
    # crowded puzzles (the whole set, with the databases, is verify's: BENCHMARKS.md)
    for puzzle in random.Random(variant).sample(crowded, 3):
        assert check(searcher, puzzle, verify_depth(variant)) is None, puzzle.line()


def test_verify_names_a_puzzle_that_fails_and_drop_takes_it_out(tmp_path, capsys, english):
    gt = english.game
    found = solve(english, gt.read_position(SHOT), depth=12)
    good = Puzzle("english", SHOT, tuple(gt.write_move(p, m, full=True) for p, m in _walk(gt, SHOT, found.moves)),
                  "shot", 1, found.score, "test")
    bad = Puzzle("english", TWO_WINS, ("7-2",), "ending", 1, 30000, "test")
    path = tmp_path / "set.txt"
    path.write_text("# a set\n" + good.line() + "\n" + bad.line() + "\n")
    verify = ["puzzles", "verify", "--variant", "english", "--file", str(path), "--jobs", "1", "--quiet"]
    assert cli(verify) == 1
    out = capsys.readouterr().out
    assert "1 proved, 1 not" in out and f"{bad.id} {TWO_WINS}: not unique: 7-3 wins too" in out
    assert cli([*verify, "--drop"]) == 0
    assert read_set("english", path) == [good] and path.read_text().startswith("# a set\n")
    assert cli(verify) == 0
