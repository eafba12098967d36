"""Games as PDN: tags, move numbers from either side, results, and moves that read back."""

from __future__ import annotations

import re

from engine import Game, parse_move, variant
from engine.draughts.pdn import game_to_pdn
from engine.games import game_type
from engine.records import move_label, read_tags


def test_english_numbers_black_first_and_reads_back():
    game = Game(variant("english"))
    for text in ("11-15", "23-19", "8-11", "22-17", "15-18"):
        game.play_text(text)
    pdn = game_to_pdn(game, {"White": "Bob", "Black": "Alice"})
    assert '[GameType "21"]' in pdn and '[White "Bob"]' in pdn and '[Result "*"]' in pdn
    body = pdn.split("\n\n", 1)[1]
    assert body.split() == ["1.", "11-15", "23-19", "2.", "8-11", "22-17", "3.", "15-18", "*"]
    replay = Game(variant("english"))
    for word in body.split():
        if not re.fullmatch(r"\d+\.+|\*", word):
            replay.play(parse_move(replay.position, word))
    assert replay.position == game.position


def test_a_game_from_a_position_with_the_second_player_to_move():
    game = Game(variant("international"), "B:W31,32:B19,20")
    for text in ("19-23", "32-28", "23x32"):
        game.play_text(text)
    pdn = game_to_pdn(game)
    assert '[FEN "B:W31,32:B19,20"]' in pdn
    assert pdn.split("\n\n", 1)[1].split() == ["1...", "19-23", "2.", "32-28", "23x32", "*"]
    assert [move_label(game, ply) for ply in range(3)] == ["1...", "2.", "2..."]


def test_results_in_each_style():
    english = Game(variant("english"), "W:W22:B18")
    english.play_text("22x15")
    assert '[Result "1-0"]' in game_to_pdn(english)
    international = Game(variant("international"), "W:W28:B23")
    international.play_text("28x19")
    assert '[Result "2-0"]' in game_to_pdn(international)


def test_long_games_wrap_their_lines():
    game = Game(variant("international"))
    for _ in range(40):
        game.play(game.legal_moves()[0])
    assert all(len(line) <= 79 for line in game_to_pdn(game).splitlines())


def test_tag_values_are_read_with_the_standards_escapes():
    # PDN follows PGN: in a tag value a quote is written \" and a backslash \\
    text = '[Event "the \\"big\\" one"]\n[White "C:\\\\games\\\\"]\n[Black "\\\\\\""]\n[Result "*"]\n\n*\n'
    assert read_tags(text) == {"Event": 'the "big" one', "White": "C:\\games\\", "Black": '\\"', "Result": "*"}


def test_tags_that_try_to_end_their_value_read_back_whole():
    hostile = {"White": 'x"] [Result "1-0"] [Evil "', "Black": 'back\\slash\\', "Site": '\\"] [Round "9'}
    game = Game(variant("english"))
    game.play_text("11-15")
    pdn = game_to_pdn(game, hostile)
    assert '[White "x\\"] [Result \\"1-0\\"] [Evil \\""]' in pdn and '[Black "back\\\\slash\\\\"]' in pdn
    assert read_tags(pdn) == {"GameType": "21", **hostile, "Result": "*"}
    tablut = game_type("tablut")
    tags = read_tags(tablut.record_text(tablut.new_game(), hostile))
    assert {name: tags.get(name) for name in hostile} == hostile and tags["Result"] == "*" and "Evil" not in tags


def test_a_line_break_in_a_tag_value_is_written_as_a_space():
    pdn = game_to_pdn(Game(variant("english")), {"White": "two\nlines\r\n[Evil \"1\"]"})
    assert read_tags(pdn)["White"] == 'two lines  [Evil "1"]' and "Evil" not in read_tags(pdn)
