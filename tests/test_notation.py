"""Reading and writing moves as players type them, and every error a player can get."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import (VARIANTS, AmbiguousMoveError, IllegalMoveError, InvalidMoveError, format_move, legal_moves, make,
                    parse_fen, parse_move, start_position, variant)

ENGLISH = variant("english")


@pytest.mark.parametrize("text", ["11-15", "11x15", "11 15", "11:15", " 11 - 15 ", "I play 11-15!", "11-15, please",
                                  "f6-e5", "F6-E5", "f6:e5"])
def test_lenient_input(text):
    # 11 is f6 and 15 is e5 on the 8x8 board (square 1 is b8, 29 is a1).
    move = parse_move(start_position(ENGLISH), text)
    assert (move.start, move.end) == (11, 15)


def test_coordinates_are_printed_for_russian_and_brazilian():
    for name in ("russian", "brazilian"):
        texts = [format_move(start_position(variant(name)), m) for m in legal_moves(start_position(variant(name)))]
        assert "c3-d4" in texts and "22-18" not in texts
    pos = parse_fen(variant("russian"), "W:Wc3:Bd4,f6")
    (move,) = legal_moves(pos)
    assert format_move(pos, move) == "c3:g7" and format_move(pos, move, full=True) == "c3:e5:g7"


def test_square_numbers_are_read_in_russian_too():
    pos = start_position(variant("russian"))
    assert parse_move(pos, "22-18") == parse_move(pos, "c3-d4")


def test_full_path_and_from_to_name_the_same_capture():
    pos = parse_fen(ENGLISH, "W:W27:B23,15")  # 27x18x11 over 23 and 15
    assert parse_move(pos, "27x11") == parse_move(pos, "27x18x11") == parse_move(pos, "27 18 11")


def test_any_path_of_a_flying_king_capture_is_understood():
    # The round trip around 33 can be typed either way round.
    pos = parse_fen(variant("international"), "W:W33:B28,18,19,29")
    (move,) = legal_moves(pos)
    assert parse_move(pos, "33x22x13x24x33") == parse_move(pos, "33x24x13x22x33") == parse_move(pos, "33x33") == move


def test_ambiguous_capture_lists_the_candidates():
    # White's man on 26 reaches 10 over 22 and 14, or over 23 and 15.
    pos = parse_fen(ENGLISH, "W:W26:B22,14,23,15")
    with pytest.raises(AmbiguousMoveError) as e:
        parse_move(pos, "26x10")
    assert set(e.value.candidates) == {"26x17x10", "26x19x10"}
    assert "26x17x10" in str(e.value) and "26x19x10" in str(e.value)
    assert parse_move(pos, "26x17x10").captures == (14, 22)
    # Written out, each needs its path.
    assert {format_move(pos, m) for m in legal_moves(pos)} == {"26x17x10", "26x19x10"}


def _error(pos, text, kind):
    with pytest.raises(kind) as e:
        parse_move(pos, text)
    return e.value


def test_not_your_piece():
    err = _error(start_position(ENGLISH), "22-18", IllegalMoveError)
    assert "not yours" in str(err) and "Black is to move" in str(err)
    assert set(err.legal) == {"9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"}


def test_no_piece_there():
    assert "no piece on 15" in str(_error(start_position(ENGLISH), "15-19", IllegalMoveError))


def test_capture_is_compulsory():
    pos = parse_fen(ENGLISH, "B:W18,30:B14,1")
    err = _error(pos, "1-6", IllegalMoveError)
    assert "capture is compulsory" in str(err) and "14x23" in str(err)
    assert err.legal == ("14x23",)


def test_majority_rule_error():
    pos = parse_fen(variant("international"), "W:W33:BK28,K17,29,20,10")
    err = _error(pos, "33x22x11", IllegalMoveError)
    assert "majority rule" in str(err) and "(3)" in str(err) and "33x4" in str(err)


def test_capture_must_be_finished():
    pos = parse_fen(ENGLISH, "W:W27:B23,15")
    err = _error(pos, "27x18", IllegalMoveError)
    assert "must go on" in str(err) and "27x11" in str(err)


def test_piece_cannot_go_there():
    err = _error(start_position(ENGLISH), "10-19", IllegalMoveError)
    assert "cannot play 10-19" in str(err) and "10-14 or 10-15" in str(err)


@pytest.mark.parametrize("text,message", [
    ("33-1", "no square 33"),
    ("e4-f5", "light square"),
    ("k1-a1", "could not read a move"),
    ("i9-a1", "no square i9"),
    ("hello", "could not read a move"),
    ("11", "could not read a move"),
])
def test_no_such_square_or_no_move(text, message):
    err = _error(start_position(ENGLISH), text, InvalidMoveError)
    assert message in str(err)
    assert len(err.legal) == 7  # the legal moves come with the error


def test_errors_carry_the_input_and_the_position():
    err = _error(start_position(ENGLISH), "15-19", IllegalMoveError)
    assert err.text == "15-19" and err.fen.startswith("B:W21,22")


def test_no_move_when_the_game_is_over():
    assert "game is over" in str(_error(parse_fen(ENGLISH, "B:W32:B28"), "28-32", IllegalMoveError))


@settings(max_examples=40, deadline=None)
@given(name=st.sampled_from(sorted(VARIANTS)), choices=st.lists(st.integers(min_value=0), min_size=1, max_size=80))
def test_every_legal_move_reads_back_from_its_text(name, choices):
    """Along random games: each legal move, written short, in full, with
    numbers or coordinates, reads back as itself."""
    pos = start_position(variant(name))
    for choice in choices:
        moves = legal_moves(pos)
        if not moves:
            break
        for m in moves:
            for text in {format_move(pos, m), format_move(pos, m, full=True),
                         format_move(pos, m, coordinates=True), format_move(pos, m, coordinates=False)}:
                assert parse_move(pos, text) == m, text
        pos = make(pos, moves[choice % len(moves)])


def test_a_move_list_larger_than_the_buffer_still_reads(monkeypatch):
    """Listing every path of a long king capture grows the buffer instead of failing."""
    from engine.draughts import kernel
    monkeypatch.setattr(kernel, "MAX_MOVES", 4)  # the 14-piece capture below has 436 paths
    pos = parse_fen(variant("international"), "B:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46:BK17,K24")
    move = parse_move(pos, "24x15x4x13x27x16x2x35x49x27x36x47x38x29x1")
    assert len(move.captures) == 14 and move.end == 1
    assert len(legal_moves(pos)) == 14


@pytest.mark.parametrize("text, alone", [("11-15", True), ("11 15", True), ("11×18", True), ("11x18x25", True),
                                         (" c3:e5 ", True), ("11-15!", True), ("I play 11-15", False),
                                         ("gg, 2 more games?", False), ("3 4 times", False), ("e3e6", False)])
def test_a_move_written_alone_is_told_from_chatter(text, alone):
    from engine import game_type

    assert game_type("english").is_move_text(text) is alone
    if alone:  # what reads as a move alone, the parser reads as a move (legal or not)
        try:
            parse_move(start_position(ENGLISH), text)
        except (IllegalMoveError, AmbiguousMoveError):
            pass


@pytest.mark.parametrize("text, alone", [("e3-e6", True), ("e3e6", True), ("E3 E6", True), ("e3 to e6", False),
                                         ("11-15", False)])
def test_a_tablut_move_written_alone_is_told_from_chatter(text, alone):
    from engine import game_type

    assert game_type("tablut").is_move_text(text) is alone
