"""Rules that perft from the usual positions reaches rarely or never, in positions built for them.

Square numbers: row by row from the top left as White sees the board; on 8x8
square 1 is b8 and 29 is a1, on 10x10 square 1 is b10 and 46 is a1.
"""

import dataclasses

import numpy as np
from helpers import moves, random_positions

from engine import Position, key, legal_moves, make, parse_fen, parse_move, perft, start_position, to_fen, variant
from engine.draughts import kernel
from engine.game import Color


def test_english_crowning_ends_the_move():
    # Black's man on 22 takes 26 and lands on 31, the crowning row. As a king it
    # could go on over 27 to 24, but crowning ends the move.
    assert moves("english", "B:W26,27:B22") == {"22x31"}
    pos = parse_fen(variant("english"), "B:W26,27:B22")
    (move,) = legal_moves(pos)
    assert move.crowns
    assert make(pos, move).piece_at(31) == "B"


def test_international_passing_the_far_row_does_not_crown():
    # White's man on 13 takes 8 landing on 2 (the far row), then must go on
    # backwards over 7 to 11: it ends on 11 as a man.
    pos = parse_fen(variant("international"), "W:W13:B7,8,40")
    (move,) = legal_moves(pos)
    assert move.path == (13, 2, 11) and not move.crowns
    assert make(pos, move).piece_at(11) == "w"


def test_international_ending_on_the_far_row_crowns():
    pos = parse_fen(variant("international"), "W:W13:B8,40")
    (move,) = legal_moves(pos)
    assert move.path == (13, 2) and move.crowns
    assert make(pos, move).piece_at(2) == "W"


def test_russian_man_crowned_mid_capture_goes_on_as_a_king():
    # f6 takes e7 landing on d8: crowned at once, it flies on over c7 and takes b6.
    fen = "W:Wf6:Be7,b6,h2"
    assert moves("russian", fen) == {"f6:d8:a5"}
    pos = parse_fen(variant("russian"), fen)
    (move,) = legal_moves(pos)
    assert move.crowns
    assert make(pos, move).piece_at(variant("russian").parse_square("a5")) == "W"


def test_brazilian_man_reaching_the_far_row_mid_capture_stays_a_man():
    # The same position under International rules on 8x8: the man stops on d8,
    # since as a man it has nothing more to take, and is crowned there.
    assert moves("brazilian", "W:Wf6:Be7,b6,h2") == {"f6:d8"}


def test_men_capture_backwards_except_in_english():
    # White's man on 18 has a Black man behind it on 22, with 25 free.
    assert moves("english", "W:W18:B22,1") == {"18-14", "18-15"}
    assert moves("russian", "W:W18:B22,1") == {"d4:b2"}
    assert moves("brazilian", "W:W18:B22,1") == {"d4:b2"}


def test_english_kings_do_not_fly():
    # A king on 29 (a1) with an open diagonal moves one square; it takes only an adjacent piece.
    assert moves("english", "W:WK29:B1") == {"29-25"}
    assert moves("english", "W:WK29:B18,1") == {"29-25"}
    assert moves("english", "W:WK29:B25,1") == {"29x22"}


def test_flying_king_chooses_any_landing_square():
    # King on 46 (a1) takes 37 and may land on any free square of the long diagonal.
    assert moves("international", "W:WK46:B37") == {f"46x{sq}" for sq in (32, 28, 23, 19, 14, 10, 5)}


def test_flying_king_must_land_where_the_capture_goes_on():
    # From 28 the king can go on over 22; the majority rule leaves only those landings.
    assert moves("international", "W:WK46:B37,22") == {"46x28x17", "46x28x11", "46x28x6"}
    # Russian has no majority rule, but a king must still land where it can take again.
    assert moves("russian", "W:WKa1:Bc3,d6") == {"a1:e5:c7", "a1:e5:b8"}


def test_majority_rule_counts_kings_and_men_alike():
    # White's man on 33 can take two kings (28, 17) or two men (29, 20): both are legal.
    assert moves("international", "W:W33:BK28,K17,29,20") == {"33x22x11", "33x24x15"}
    # A third man behind 20 makes the men's capture the longest: it alone is legal.
    assert moves("international", "W:W33:BK28,K17,29,20,10") == {"33x24x15x4"}


def test_majority_rule_applies_in_brazilian_but_not_russian():
    # White's man on c3 can take b4 (one piece) or d4 then f6 (two pieces).
    fen = "W:Wc3:Bb4,d4,f6"
    assert moves("brazilian", fen) == {"c3:e5:g7"}
    assert moves("russian", fen) == {"c3:a5", "c3:e5:g7"}


def test_round_trip_capture_is_one_move_and_pieces_go_only_at_the_end():
    # A man on 33 takes the four men around it, clockwise or anticlockwise,
    # and lands back on 33: one move, whatever the path.
    pos = parse_fen(variant("international"), "W:W33:B28,18,19,29")
    (move,) = legal_moves(pos)
    assert (move.start, move.end, move.captures) == (33, 33, (18, 19, 28, 29))
    after = make(pos, move)
    assert after.black == 0 and after.piece_at(33) == "w"


def test_a_piece_is_not_jumped_twice():
    # After taking 37 the king could turn back over 37 from any landing square
    # if a piece could be jumped twice; the majority rule would then force that
    # "longer" capture. Only the single captures are legal.
    assert all(len(m.split("x")) == 2 for m in moves("international", "W:WK46:B37"))


def test_no_legal_move_when_blocked():
    assert moves("english", "B:W32:B28") == set()


def test_python_make_agrees_with_the_kernel():
    """Splitting perft into legal_moves + make (the Python layer) gives the kernel's counts."""
    for name, fen in [("international", "B:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46:BK17,K24"),
                      ("russian", "W:Wf6,c1,e1:Be7,b6,h2,d8"), ("english", "B:WK29,K30,21,22:BK1,K2,12,13")]:
        pos = parse_fen(variant(name), fen)
        assert sum(perft(make(pos, m), 2) for m in legal_moves(pos)) == perft(pos, 3)


def test_zobrist_keys_follow_the_position():
    pos = start_position(variant("english"))
    a = b = pos
    for text in ("9-13", "22-18", "10-14"):
        a = make(a, parse_move(a, text))
    for text in ("10-14", "22-18", "9-13"):
        b = make(b, parse_move(b, text))
    assert a == b and key(a) == key(b)  # a transposition
    assert key(a) != key(pos)
    flipped = Position(a.variant, a.white, a.black, a.kings, a.turn.opponent)
    assert key(flipped) != key(a)  # the side to move counts


def test_the_searchs_threat_test_agrees_with_the_move_generator():
    """``can_capture`` (the quiescence search's look at threats) says a side can capture exactly when the move
    generator, given that side the move, lists captures: for both sides of 400 random positions, kings included."""
    checked = threatened = 0
    for pos in random_positions(["english", "international", "russian", "brazilian"], 400, seed=5, plies=(10, 120)):
        for turn in (pos.turn, pos.turn.opponent):
            side = dataclasses.replace(pos, turn=turn)
            me, opp = (side.white, side.black) if turn == Color.WHITE else (side.black, side.white)
            says = kernel.can_capture(np.uint64(me), np.uint64(opp), np.uint64(side.kings), int(turn),
                                      side.variant.rules)
            lists = any(m.is_capture for m in legal_moves(side))
            assert says == lists, to_fen(side)
            checked += 1
            threatened += lists
    assert checked == 800 and 50 < threatened < 750  # both answers were tried many times
