"""PDN FEN in and out, and its errors."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import VARIANTS, Color, FenError, legal_moves, make, parse_fen, start_position, to_fen, variant

INTERNATIONAL = variant("international")


def test_start_positions_written():
    assert to_fen(start_position(variant("english"))) == "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
    assert to_fen(start_position(variant("russian"))).startswith("W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,")


def test_either_colour_first_ranges_kings_and_case():
    a = parse_fen(INTERNATIONAL, "W:W31,32,K33:B1,2,K3")
    assert parse_fen(INTERNATIONAL, "w:b1,2,k3:w31-32,K33.") == a
    assert a.turn == Color.WHITE and a.piece_at(33) == "W" and a.piece_at(3) == "B" and a.piece_at(31) == "w"


def test_coordinates_for_russian_and_brazilian():
    pos = parse_fen(variant("russian"), "W:Wc3,e3,Kg1:Bd4,f6")
    assert to_fen(pos) == "W:WKg1,c3,e3:Bd4,f6"
    assert parse_fen(variant("russian"), to_fen(pos)) == pos
    assert to_fen(pos, coordinates=False) == "W:W22,23,K32:B11,18"


@pytest.mark.parametrize("fen,message", [
    ("W:W31,31:B1", "holds two pieces"),
    ("W:W31:B1:W32", "cannot read"),
    ("W:W31:W32", "listed twice"),
    ("W:W3:B1", "crowning row"),
    ("W:W40:B46", "crowning row"),
    ("W:W51:B1", "no square 51"),
    ("W:W11-31:B1", "at most 20"),
    ("X:W31:B1", "cannot read"),
    ("hello", "cannot read"),
    ("W:Q31:B1", "must start with W or B"),
])
def test_bad_fen_says_why(fen, message):
    with pytest.raises(FenError, match=message):
        parse_fen(INTERNATIONAL, fen)


def test_light_square_coordinate():
    with pytest.raises(FenError, match="light square"):
        parse_fen(variant("russian"), "W:Wd3:Be7")


@settings(max_examples=40, deadline=None)
@given(name=st.sampled_from(sorted(VARIANTS)), choices=st.lists(st.integers(min_value=0), max_size=120))
def test_fen_round_trip_along_random_games(name, choices):
    pos = start_position(variant(name))
    for choice in choices:
        assert parse_fen(pos.variant, to_fen(pos)) == pos
        assert parse_fen(pos.variant, to_fen(pos, coordinates=not pos.variant.coordinates)) == pos
        moves = legal_moves(pos)
        if not moves:
            break
        pos = make(pos, moves[choice % len(moves)])
