"""The evaluation: symmetric, driven by its weight files, and aware of drawn endings."""

from __future__ import annotations

import json

import numpy as np
import pytest
from helpers import random_positions

from engine import Color, parse_fen, variant
from engine.draughts.evaluation import WEIGHTS_DIR, Evaluator, evaluate, weights_vector
from engine.draughts.position import Position

U = np.uint64


def score(pos: Position, ev: Evaluator | None = None) -> int:
    ev = ev or Evaluator.load(pos.variant)
    return int(evaluate(U(pos.white), U(pos.black), U(pos.kings), int(pos.turn), ev.weights, ev.geometry,
                        ev.cones, ev.coords))


def mirror(pos: Position) -> Position:
    """The board turned half round with the colours swapped: the same position for the other side."""
    v = pos.variant

    def flip(bb: int) -> int:
        return v.mask(v.squares + 1 - sq for sq in v.squares_of(bb))

    return Position(v, flip(pos.black), flip(pos.white), flip(pos.kings), pos.turn.opponent)


@pytest.mark.parametrize("name", ["english", "international", "russian", "brazilian"])
def test_evaluation_is_the_same_for_either_colour(name):
    v = variant(name)
    ev = Evaluator.load(v)
    for pos in random_positions([name], 60, 3, (0, 80)):
        assert score(pos, ev) == score(mirror(pos), ev)


def test_every_variant_has_a_weight_file_with_only_known_weights():
    for name in ("english", "international", "russian", "brazilian"):
        data = json.loads((WEIGHTS_DIR / f"{name}.json").read_text())
        weights_vector(data)  # raises on an unknown key
        assert data["man"] == 100, "scores are in hundredths of a man"


def test_unknown_weights_are_refused():
    with pytest.raises(ValueError, match="unknown weight 'mann'"):
        weights_vector({"mann": 100})
    with pytest.raises(ValueError, match="at most"):
        weights_vector({"runaway": [1, 2, 3, 4, 5]})


def test_weights_come_from_the_file_not_the_code():
    v = variant("english")
    pos = parse_fen(v, "W:WK10,22,23:B5,6,7")
    default = score(pos)
    richer = score(pos, Evaluator.load(v, overrides={"king": 400}))
    assert richer - default == 400 - 150


def test_a_lone_king_on_the_long_diagonal_draws_against_three_kings():
    v = variant("international")
    on_diagonal = parse_fen(v, "W:WK1,K2,K3:BK28")  # 28 is on the long diagonal 46-5
    off_diagonal = parse_fen(v, "W:WK1,K2,K3:BK29")
    assert abs(score(on_diagonal)) < 150
    assert score(off_diagonal) > 500


def test_advanced_runaway_man_is_worth_more():
    v = variant("english")
    free = parse_fen(v, "W:W10,30:B4,26")  # nothing can stop White's man on 10 from crowning
    guarded = parse_fen(v, "W:W10,30:B2,26")  # Black's man on 2 stands in its way
    assert score(free) > score(guarded) + 30


def test_english_kings_endings_drive_the_lone_king_out_of_the_double_corner():
    v = variant("english")
    in_corner = parse_fen(v, "W:WK18,K19:BK1")  # 1 and 5 form a double corner
    in_open = parse_fen(v, "W:WK18,K19:BK10")
    assert score(in_corner) < score(in_open)
    assert score(in_corner) > 100, "two kings against one still win"
    assert Color.WHITE == in_corner.turn
