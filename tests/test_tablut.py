"""Tablut (Ashton rules): moves, each capture rule on a position built for it, camps, escape, draws, notation."""

import random

import pytest

from engine import Color, FenError, IllegalMoveError, InvalidMoveError, Termination
from engine.tablut.game import TablutGame
from engine.tablut.rules import (NO_KING, TablutPosition, from_string, legal_moves, make, parse_move, square,
                                 start_position, to_string)


def position(white=(), black=(), king="e5", turn=Color.WHITE) -> TablutPosition:
    mask = lambda names: sum(1 << square(n) for n in names)  # noqa: E731
    return TablutPosition(mask(white), mask(black), square(king) if king else NO_KING, turn)


def play(p: TablutPosition, text: str) -> TablutPosition:
    return make(p, parse_move(p, text))


def pieces(p: TablutPosition) -> dict[str, str]:
    return {f"{'abcdefghi'[sq % 9]}{sq // 9 + 1}": p.piece_at(sq) for sq in range(81) if p.piece_at(sq)}


def test_the_start_position():
    p = start_position()
    assert to_string(p) == "3BBB3/4B4/4W4/B3W3B/BBWWKWWBB/B3W3B/4W4/4B4/3BBB3 W"
    assert bin(p.white).count("1") == 8 and bin(p.black).count("1") == 16 and p.king == square("e5")
    assert from_string(to_string(p)) == p


def test_pieces_move_like_rooks_and_not_through_pieces():
    p = position(white=["c3"], black=["c6"], king="e5")
    targets = {m.end for m in legal_moves(p) if m.start == square("c3")}
    assert targets == {square(s) for s in ("c1", "c2", "c4", "c5", "a3", "b3", "d3", "e3", "f3", "g3", "h3", "i3")}


def test_nothing_stops_on_or_crosses_the_throne_and_the_king_never_returns():
    p = position(white=["e3"], king="c5")
    ends = {m.end for m in legal_moves(p) if m.start == square("e3")}
    assert square("e4") in ends and square("e5") not in ends and square("e6") not in ends
    with pytest.raises(IllegalMoveError, match="throne"):
        parse_move(p, "e3-e7")
    assert all(m.end != square("e5") for m in legal_moves(position(king="e6")))
    assert square("e4") in {m.end for m in legal_moves(position(king="e5"))}  # the king may leave it


def test_camps_may_not_be_entered_or_crossed_from_outside():
    p = position(white=["c4"], black=["c7"], king="g7")
    with pytest.raises(IllegalMoveError, match="a4 is a camp"):
        parse_move(p, "c4-a4")
    black = position(black=["b3"], king="g7", turn=Color.BLACK)
    with pytest.raises(IllegalMoveError, match="b5 is a camp"):
        parse_move(black, "b3-b7")
    assert all(m.end != square("b5") for m in legal_moves(black))


def test_a_black_piece_moves_within_its_camp_and_out_but_never_back():
    p = position(black=["a4", "b5", "e1"], king="g7", turn=Color.BLACK)
    ends = lambda name: {m.end for m in legal_moves(p) if m.start == square(name)}  # noqa: E731
    assert {square("a5"), square("a6"), square("a9"), square("c4")} <= ends("a4")
    assert {square("a5"), square("c5"), square("d5")} <= ends("b5") and square("e5") not in ends("b5")
    assert {square("d1"), square("f1"), square("e2"), square("e4")} <= ends("e1")
    out = play(p, "a4-c4")
    again = TablutPosition(out.white, out.black, out.king, Color.BLACK)
    back = {m.end for m in legal_moves(again) if m.start == square("c4")}
    assert square("b4") in back and square("a4") not in back


def test_a_soldier_is_captured_between_two_enemies():
    p = play(position(white=["c3", "e4"], black=["d4"], king="g7"), "c3-c4")
    assert "d4" not in pieces(p)
    q = play(position(white=["c3"], black=["d4"], king="g7"), "c3-c4")
    assert pieces(q)["d4"] == "B"  # nothing on the far side
    both = play(position(white=["b6", "f6", "d2"], black=["c6", "e6"], king="b8"), "d2-d6")
    assert "c6" not in pieces(both) and "e6" not in pieces(both)  # two at once


def test_the_king_helps_white_capture():
    p = play(position(white=["c2"], black=["c4"], king="c5"), "c2-c3")
    assert "c4" not in pieces(p)


def test_a_piece_moving_between_two_enemies_is_not_captured():
    p = position(white=["c4", "e4"], black=["d2"], king="g7", turn=Color.BLACK)
    after = play(p, "d2-d4")
    assert pieces(after)["d4"] == "B" and pieces(after)["c4"] == "W" and pieces(after)["e4"] == "W"


def test_camps_are_anvils_for_both_sides():
    p = play(position(white=["c2"], black=["b4"], king="g7"), "c2-c4")
    assert "b4" not in pieces(p)  # between c4 and the camp a4
    q = play(position(white=["d2"], black=["g3"], king="g7", turn=Color.BLACK), "g3-d3")
    assert "d2" not in pieces(q)  # between d3 and the camp d1
    r = play(position(white=["d2"], black=["c4"], king="g7"), "d2-d4")
    assert pieces(r)["c4"] == "B"  # b4 beyond is neither a camp nor a piece


def test_the_throne_is_an_anvil_for_black_even_under_the_king():
    q = play(position(white=["e4"], black=["e2"], king="g7", turn=Color.BLACK), "e2-e3")
    assert "e4" not in pieces(q)  # between e3 and the empty throne
    r = play(position(white=["e4"], black=["e2"], king="e5", turn=Color.BLACK), "e2-e3")
    assert "e4" not in pieces(r)  # the referee takes it against the throne with the king on it too
    s = play(position(white=["c3"], black=["d5"], king="g7"), "c3-c5")
    assert "d5" not in pieces(s)  # a Black piece between c5 and the throne


def test_the_referee_takes_a_white_soldier_against_the_occupied_throne():
    # The competition referee's own position: e1-e3 removes e4, next to the king on the throne.
    p = from_string("3BBB3/4B4/1W7/B3W3B/BBWWKWWBB/B3W3B/9/B8/3BBB3 B")
    after = play(p, "e1-e3")
    assert "e4" not in pieces(after) and pieces(after)["e5"] == "K"


@pytest.mark.parametrize("move, spared", [("e3-a3", "a4"), ("c5-c9", "d9"), ("g5-g1", "f1"), ("e7-i7", "i6"),
                                          ("e7-a7", "a6")])
def test_a_camp_centre_is_no_anvil_for_white(move, spared):
    # From the start, each of these moves sandwiches a Black soldier against a camp's centre (a5, e1, e9, i5):
    # the referee takes nothing, so neither do we.
    after = play(start_position(), move)
    assert pieces(after)[spared] == "B" and bin(after.black).count("1") == 16


def test_the_other_camp_squares_are_anvils_for_white():
    after = play(position(white=["c2"], black=["b6"], king="g7"), "c2-c6")
    assert "b6" not in pieces(after)  # between c6 and a6, a camp square that is not a centre


def test_the_king_on_the_throne_needs_four_black_pieces():
    four = play(position(black=["d5", "f5", "e6", "e3"], king="e5", turn=Color.BLACK), "e3-e4")
    assert four.king == NO_KING
    three = play(position(black=["d5", "f5", "e2"], king="e5", turn=Color.BLACK), "e2-e4")
    assert three.king == square("e5")


def test_the_king_next_to_the_throne_needs_three_black_pieces():
    three = play(position(black=["d4", "f3", "e3"], king="e4", turn=Color.BLACK), "f3-f4")
    assert three.king == NO_KING  # d4, f4, e3 and the throne
    two = play(position(black=["d4", "f2"], king="e4", turn=Color.BLACK), "f2-f4")
    assert two.king == square("e4")


def test_the_king_elsewhere_falls_to_two_pieces_or_a_piece_and_a_camp():
    p = play(position(black=["c7", "e8"], king="d7", turn=Color.BLACK), "e8-e7")
    assert p.king == NO_KING  # c7 and e7 on opposite sides
    q = play(position(black=["b7", "d3"], king="c7", turn=Color.BLACK), "d3-d7")
    assert q.king == NO_KING  # b7 and d7
    r = play(position(black=["b7", "c2"], king="c7", turn=Color.BLACK), "c2-c6")
    assert r.king == square("c7")  # c6 and c8 would be needed, or b7 and d7
    camp = play(position(black=["c2"], king="b4", turn=Color.BLACK), "c2-c4")
    assert camp.king == NO_KING  # c4 and the camp a4
    camp2 = play(position(black=["g3"], king="d2", turn=Color.BLACK), "g3-d3")
    assert camp2.king == NO_KING  # d3 and the camp d1


def test_the_king_escapes_on_an_edge_square_that_is_not_a_camp():
    game = TablutGame("9/9/9/9/9/9/2K6/9/9 W")
    game.play_text("c3-c1")
    assert game.result() is not None and game.result().winner == Color.WHITE
    assert game.result().termination is Termination.KING_ESCAPED
    assert game.legal_moves() == []
    with pytest.raises(IllegalMoveError, match="camp"):
        TablutGame("9/9/9/9/9/9/9/3K5/9 W").play_text("d2-d1")


def test_a_repeated_position_is_a_draw():
    game = TablutGame("B8/9/9/9/9/9/9/2K6/9 B")
    for text in ("a9-b9", "c2-c3", "b9-a9"):
        game.play_text(text)
        assert game.result() is None
    game.play_text("c3-c2")
    assert game.result() is not None and game.result().winner is None
    assert game.result().termination is Termination.REPETITION


def test_no_legal_move_loses():
    assert TablutGame("9/9/9/9/4K4/9/9/9/9 W").result() is None
    boxed = TablutGame("9/9/9/4B4/3BKB3/4B4/9/9/9 W").result()
    assert boxed is not None and boxed.winner == Color.BLACK and "no legal move" in boxed.reason
    assert boxed.termination is Termination.NO_MOVES


def test_notation_and_its_errors():
    p = start_position()
    assert parse_move(p, "e3-f3") == parse_move(p, "E3F3") == parse_move(p, "I play e3 f3!")
    with pytest.raises(InvalidMoveError):
        parse_move(p, "hello")
    with pytest.raises(IllegalMoveError, match="no White piece on a1") as error:
        parse_move(p, "a1-a2")
    assert "e3-f3" in error.value.legal
    with pytest.raises(IllegalMoveError, match="straight line"):
        parse_move(p, "e3-f4")
    with pytest.raises(IllegalMoveError, match="in the way"):
        parse_move(p, "e4-e1")


@pytest.mark.parametrize("text", ["", "9/9 W", "3BBB3/4B4/4W4/B3W3B/BBWWKWWBB/B3W3B/4W4/4B4/3BBB3 X",
                                  "3BBB4/4B4/4W4/B3W3B/BBWWKWWBB/B3W3B/4W4/4B4/3BBB3 W",
                                  "9/9/9/9/4W4/9/9/9/9 W", "K8/K8/9/9/9/9/9/9/9 W"])
def test_bad_position_strings_are_refused(text):
    with pytest.raises(FenError):
        from_string(text)


def test_random_games_keep_the_piece_counts_honest():
    rng = random.Random(7)
    for _ in range(30):
        game = TablutGame()
        while game.result() is None and len(game.moves) < 300:
            before = game.position
            move = rng.choice(game.legal_moves())
            after = game.play(move)
            lost = bin(before.white | before.black).count("1") - bin(after.white | after.black).count("1")
            assert lost == len([sq for sq in move.captures if sq != before.king])
            assert from_string(to_string(after)) == after


def test_the_board_image_shows_pieces_king_throne_camps_escapes_and_captures():
    import io

    from PIL import Image

    from engine.tablut.game import TABLUT
    from renders import RenderOptions, render_png
    from renders.drawing import layout
    from renders.themes import theme

    th = theme("wood")
    before = position(white=["c2"], black=["b4"], king="e5")
    move = parse_move(before, "c2-c4")
    after = make(before, move)
    img = Image.open(io.BytesIO(render_png(TABLUT, after, RenderOptions(width=720), last_move=move,
                                           before=before))).convert("RGB")
    lay = layout(TABLUT.grid(), 720, False)

    def at(name, dx=0.5, dy=0.5):
        sq = square(name)
        x, y = lay.origin((8 - sq // 9, sq % 9))
        return img.getpixel((x + int(lay.cell * dx), y + int(lay.cell * dy)))

    close = lambda a, b: sum(abs(x - y) for x, y in zip(a, b)) < 40  # noqa: E731
    assert close(at("c4", 0.5, 0.3), th.white_piece)  # the soldier that moved, on its highlighted square
    assert close(at("e5", 0.5, 0.45), th.white_crown)  # the king's crown
    assert not close(at("b4"), th.light) and not close(at("b4"), th.black_piece)  # a faded ghost of b4
    assert close(at("a4", 0.1, 0.5), tuple((x + y) // 2 for x, y in zip(th.dark, th.light)))  # a camp, tinted
    assert close(at("a9", 0.12, 0.5), th.target)  # an escape square's ring
    assert 700 <= img.size[0] <= 720


def test_the_text_board_shows_pieces_throne_camps_escapes_and_the_last_move():
    from engine.tablut.game import TABLUT
    from renders import text_diagram

    game = TablutGame("9/9/9/9/9/9/2K6/9/9 W")
    move = game.play_text("c3-c4")
    rows = text_diagram(TABLUT, game.position, last_move=move).splitlines()
    assert rows[0] == "9  :  :  :  #  #  #  :  :  :", "escapes and the top camp, empty"
    assert rows[4] == "5  #  #  .  .  +  .  .  #  #", "the empty throne between the side camps"
    assert rows[5].startswith("4  #  . [K]") and rows[6].startswith("3  :  . [.]"), "the king's move, both squares"
    assert rows[-2:] == ["   a  b  c  d  e  f  g  h  i", "Black to move"]
    flipped = text_diagram(TABLUT, game.position, flipped=True).splitlines()
    assert flipped[0].startswith("1 ") and flipped[-2].split() == list("ihgfedcba")


def test_a_captured_king_ends_the_game_for_the_attackers():
    game = TablutGame("9/9/9/9/9/1K7/9/2B6/9 B")  # the king on b4, beside the camp a4
    game.play_text("c2-c4")
    result = game.result()
    assert result is not None and result.winner == Color.BLACK and result.termination is Termination.KING_CAPTURED
