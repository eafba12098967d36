"""The game record: wins, every draw rule, takebacks, and refusing bad moves without harm."""

import random

import pytest

from engine import Color, Game, IllegalMoveError, Termination, legal_moves, make, variant


def _king_shuffle(game: Game, plies: int, seed: int = 1) -> None:
    """Play ``plies`` king moves that take nothing, leave the opponent nothing
    to take, and never bring a position back a third time (a small
    backtracking search, using takebacks)."""
    rng = random.Random(seed)

    def search(left: int) -> bool:
        if left == 0:
            return True
        assert game.result() is None, f"ended early after {len(game.moves)} plies: {game.result()}"
        pos = game.position
        options = [m for m in game.legal_moves()
                   if not m.is_capture and pos.kings & pos.variant.bit(m.start)
                   and not any(r.is_capture for r in legal_moves(make(pos, m)))]
        rng.shuffle(options)
        for m in options:
            game.play(m)
            if game.repetitions() < 3 and search(left - 1):
                return True
            game.undo()
        return False

    assert search(plies), "no line of quiet king moves that long in the test position"


def test_win_when_the_side_to_move_is_blocked():
    game = Game(variant("english"), "B:W32:B28")
    result = game.result()
    assert result.winner == Color.WHITE and "no legal move" in result.reason


def test_win_by_taking_the_last_piece():
    game = Game(variant("international"), "W:W33:B28,18,19,29")
    assert game.result() is None
    game.play_text("33x33")
    assert game.result().winner == Color.WHITE and game.result().termination is Termination.NO_MOVES


def test_threefold_repetition():
    game = Game(variant("english"), "W:WK32,21:BK1,12")
    shuffle = ["32-28", "1-5", "28-32", "5-1"]
    for text in shuffle * 2:
        assert game.result() is None
        game.play_text(text)
    assert game.repetitions() == 3
    assert game.result().winner is None and "three times" in game.result().reason
    assert game.result().termination is Termination.REPETITION


@pytest.mark.parametrize("name,fen,limit", [
    ("english", "W:WK29,K30,21:BK1,K2,12", 80),
    ("international", "W:WK46,K47,36:BK4,K5,15", 50),
    ("brazilian", "W:WKc1,Ke1,a3:BKd8,Kf8,h6", 50),
    ("russian", "W:WKc1,Ke1,a3:BKd8,Kf8,h6", 30),
])
def test_king_moves_without_capture_draw(name, fen, limit):
    game = Game(variant(name), fen)
    _king_shuffle(game, limit - 1)
    assert game.result() is None
    _king_shuffle(game, 1)
    result = game.result()
    assert result.winner is None and f"{limit // 2} moves each" in result.reason
    assert result.termination is Termination.QUIET_MOVES


def test_a_man_move_restarts_the_king_move_count():
    game = Game(variant("english"), "W:WK29,K30,21:BK1,K2,12")
    _king_shuffle(game, 40)
    pos = game.position
    man_move = next(m for m in game.legal_moves() if not pos.kings & pos.variant.bit(m.start)
                    and not any(r.is_capture for r in legal_moves(make(pos, m))))
    game.play(man_move)
    _king_shuffle(game, 79)
    assert game.result() is None
    _king_shuffle(game, 1)
    assert "40 moves each" in game.result().reason


@pytest.mark.parametrize("fen,plies", [
    ("W:WK47,K48,K49:BK3", 32),  # three kings against one: 16 moves each
    ("W:WK47,K48,36:BK3", 32),  # two kings and a man
    ("W:WK47,36,26:BK3", 32),  # a king and two men
    ("W:WK47,K48:BK3", 10),  # two kings against one: 5 moves each
    ("W:WK47,36:BK3", 10),  # a king and a man
    ("W:WK47:BK3", 10),  # king against king
])
def test_international_endgame_rules(fen, plies):
    game = Game(variant("international"), fen)
    _king_shuffle(game, plies - 1)
    assert game.result() is None
    _king_shuffle(game, 1)
    assert game.result().winner is None and "against a lone king" in game.result().reason
    assert game.result().termination is Termination.LONE_KING


def test_endgame_rules_are_international_only():
    game = Game(variant("russian"), "W:WKc1,Ke1,Kg1:BKd8")
    _king_shuffle(game, 29)
    assert game.result() is None


def test_illegal_move_changes_nothing():
    game = Game(variant("english"))
    with pytest.raises(IllegalMoveError):
        game.play_text("22-18")  # White's man, Black to move
    assert game.moves == [] and len(game.positions) == 1


def test_no_move_after_the_end():
    game = Game(variant("english"), "B:W32:B28")
    with pytest.raises(IllegalMoveError, match="game is over"):
        game.play_text("28-24")


def test_undo_restores_the_position_and_the_counters():
    game = Game(variant("english"), "W:WK32,21:BK1,12")
    start = game.position
    game.play_text("32-28")
    game.play_text("1-5")
    assert game.undo().start == 1
    assert game.undo().start == 32
    assert game.position == start and game.repetitions() == 1
    with pytest.raises(IllegalMoveError):
        game.undo()
