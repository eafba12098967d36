"""The library's board (``engine.Board``), used as a python-chess user would: push and pop, the outcome, FEN and
PDN in and out, perft against the published counts, and the position as arrays for machine learning."""

from __future__ import annotations

import numpy as np
import pytest

from engine import Board, Color, IllegalMoveError, Limits, MoveError, Searcher, Termination
from engine.record_reader import RecordError


def test_moves_are_pushed_popped_and_peeked_and_a_bad_one_changes_nothing():
    board = Board("international")
    start = board.fen()
    move = board.push_text("32-28")
    assert board.turn == Color.BLACK and board.peek() == move and board.move_stack == [move]
    reply = board.legal_moves[0]
    board.push(reply)
    with pytest.raises(MoveError):
        board.push_text("32-28")  # not White's square any more
    with pytest.raises(IllegalMoveError):
        board.push(reply)  # not legal for White
    assert board.move_stack == [move, reply]  # neither changed anything
    assert board.pop() == reply and board.pop() == move and board.fen() == start
    with pytest.raises(IndexError):
        board.pop()


def test_the_outcome_says_who_won_why_and_the_score_as_pdn_writes_it():
    blocked = Board("english", "W:W6:B1,2")  # White's only man cannot move
    assert blocked.legal_moves == [] and blocked.is_game_over()
    outcome = blocked.outcome()
    assert outcome is not None and outcome.winner == Color.BLACK and outcome.termination == Termination.NO_MOVES
    assert outcome.result == "0-1" and outcome.reason == "White has no legal move"
    kings = Board("international", "W:WK50,K45:BK1")  # shuffled back and forth until the position comes back
    for _ in range(2):
        for text in ("50-11", "1-6", "11-50", "6-1"):
            assert kings.outcome() is None
            kings.push_text(text)
    drawn = kings.outcome()
    assert drawn is not None and drawn.winner is None and drawn.result == "1-1"  # International's draw score
    assert drawn.termination in (Termination.REPETITION, Termination.LONE_KING)
    assert kings.legal_moves == [] and Board("international").outcome() is None


def test_fen_and_pdn_go_out_and_come_back_the_same():
    board = Board("brazilian")
    for text in ("c3-d4", "f6-e5", "d4xf6", "g7xe5"):
        board.push_text(text)
    assert Board("brazilian", board.fen()).fen() == board.fen()
    text = board.pdn({"White": "Ana", "Black": "Ben"})
    again = Board.from_pdn(text)
    assert again.variant.name == "brazilian" and again.move_stack == board.move_stack and again.fen() == board.fen()
    assert again.tags["White"] == "Ana" and "Ana" in again.pdn()
    with pytest.raises(RecordError):
        Board.from_pdn('[GameType "20"]\n\n1. 32-28 32-28 *\n')


@pytest.mark.parametrize("name, counts", [
    # Published perft counts from the start (engine's tests/test_perft.py has their sources).
    ("english", (7, 49, 302, 1469)),
    ("international", (9, 81, 658, 4265)),
    ("russian", (7, 49, 302, 1469)),
])
def test_perft_from_the_start_matches_the_published_counts(name, counts):
    board = Board(name)
    assert tuple(board.perft(depth) for depth in range(1, len(counts) + 1)) == counts


def test_a_copy_goes_its_own_way():
    board = Board("english")
    board.push_text("11-15")
    other = board.copy()
    other.push_text("23-19")
    assert len(board.move_stack) == 1 and len(other.move_stack) == 2


def test_the_position_as_planes_for_machine_learning():
    board = Board("international")
    planes = board.to_tensor()
    assert planes.shape == (4, 50) and planes.dtype == np.float32
    assert planes[0].sum() == 20 and planes[2].sum() == 20 and planes[1].sum() == planes[3].sum() == 0
    assert planes[0, 30] == 1.0 and planes[2, 0] == 1.0  # White (to move) owns square 31, Black square 1
    board.push_text("32-28")
    black = board.to_tensor()  # now Black is to move: "own" is Black's
    assert black[0, 0] == 1.0 and black[2, 27] == 1.0
    assert (board.to_tensor(perspective=Color.WHITE)[0] == black[2]).all()
    grid = Board("english", "W:WK29:B1").to_tensor(grid=True)
    assert grid.shape == (4, 8, 8) and grid[1, 7, 0] == 1.0 and grid[2, 0, 1] == 1.0  # a1 and b8
    assert grid.sum() == 2


def test_moves_as_indexes_for_a_policy_network():
    board = Board("international")
    mask = board.legal_moves_mask()
    assert mask.shape == (2500,) and mask.sum() == len(board.legal_moves) == 9
    for move in board.legal_moves:
        index = board.move_to_index(move)
        assert mask[index] and board.index_to_move(index) == move
    with pytest.raises(ValueError):
        board.index_to_move(0)  # 1-1 is no move


def test_the_search_takes_the_board_and_reports_each_depth():
    board = Board("english")
    seen = []
    result = Searcher(board.game_type, tt_mb=4).search(board.position, Limits(depth=5), board.history(),
                                                       on_iteration=seen.append)
    assert [r.depth for r in seen] == [1, 2, 3, 4, 5] and board.is_legal(result.move)
