"""The evaluation: symmetric, the same numbers for the training as for the search, and aware of drawn endings."""

from __future__ import annotations

import json

import numpy as np
import pytest
from helpers import random_positions

from engine import Color, parse_fen, variant
from engine.draughts.evaluation import Evaluator, black_looks, features, learned_positions
from engine.draughts.evaluation_tables import (COUNTS, FEATURES, FINE, G_BIG_REGIONS, PHASES, PHASE_ONE, big_regions,
                                               layout, region_squares, regions, weights_vector)
from engine.draughts.weight_files import (WEIGHTS_DIR, hand_weights, load_evaluator, read_learned, starting_evaluator,
                                     write_learned)
from engine.draughts.position import Position
from engine.draughts.variants import Variant

U = np.uint64
NAMES = ["english", "international", "russian", "brazilian"]


def score(pos: Position, ev: Evaluator | None = None) -> int:
    return (ev or load_evaluator(pos.variant)).score(pos)


def random_weights(v: Variant, seed: int, big: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Counts' and pattern weights, the tables flat as ``layout`` lays them out (the large regions' too if
    ``big``)."""
    rng = np.random.default_rng(seed)
    return rng.normal(0, 40, (COUNTS, PHASES)), rng.normal(0, 30, (layout(v, big).rows, PHASES))


def mirror(pos: Position) -> Position:
    """The board turned half round with the colours swapped: the same position for the other side."""
    v = pos.variant

    def flip(bb: int) -> int:
        return v.mask(v.squares + 1 - sq for sq in v.squares_of(bb))

    return Position(v, flip(pos.black), flip(pos.white), flip(pos.kings), pos.turn.opponent)


def boards(positions: list[Position]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    return tuple(np.array([getattr(p, f) for p in positions], dtype=U) for f in ("white", "black", "kings"))


def inputs(positions: list[Position], ev: Evaluator):
    n, k = len(positions), len(regions(ev.variant)) + int(ev.geometry[0, G_BIG_REGIONS])
    counts = np.zeros((n, COUNTS), dtype=np.int64)
    looks = np.zeros((n, k, 2), dtype=np.int64)
    phase = np.zeros(n, dtype=np.int64)
    features(np.array([p.white for p in positions], dtype=U), np.array([p.black for p in positions], dtype=U),
             np.array([p.kings for p in positions], dtype=U), np.array([int(p.turn) for p in positions]),
             ev.geometry, ev.cones, counts, looks, phase)
    black_looks(ev.variant, looks)
    return counts, looks, phase


@pytest.mark.parametrize("name", NAMES)
def test_evaluation_is_the_same_for_either_colour(name):
    v = variant(name)
    shipped = load_evaluator(v)
    learned = Evaluator.of(v, hand_weights(v), *random_weights(v, 1))  # any weights at all, not just the shipped
    large = Evaluator.of(v, hand_weights(v), *random_weights(v, 1, big=True))
    for pos in random_positions([name], 60, 3, (0, 80)):
        for ev in (shipped, learned, large):
            assert score(pos, ev) == score(mirror(pos), ev)


@pytest.mark.parametrize("big", [False, True], ids=["small", "large"])
@pytest.mark.parametrize("name", NAMES)
def test_the_training_sees_the_numbers_the_search_adds_up(name, big):
    training_sees_the_search_numbers(variant(name), big, {})


def training_sees_the_search_numbers(v: Variant, big: bool, overrides: dict) -> None:
    counts_w, tables_w = random_weights(v, 2, big)
    ev = Evaluator.of(v, hand_weights(v, overrides), counts_w, tables_w)
    counts_w, tables_w = np.rint(counts_w * FINE) / FINE, np.rint(tables_w * FINE) / FINE  # as the engine stores them
    positions = random_positions([v.name], 150, 4, (0, 90))
    keep = learned_positions(*boards(positions), ev.weights, ev.geometry)
    assert keep.sum() > 100, "most positions are scored by the learned weights"
    positions = [p for p, k in zip(positions, keep) if k]
    counts, looks, phase = inputs(positions, ev)
    offsets = layout(v, big).offsets
    assert len(offsets) == looks.shape[1]
    for n, pos in enumerate(positions):
        ph = phase[n] / PHASE_ONE
        by_phase = [counts[n] @ counts_w[:, p] + (tables_w[offsets + looks[n, :, 0], p]
                                                  - tables_w[offsets + looks[n, :, 1], p]).sum()
                    for p in range(PHASES)]
        expected = ph * by_phase[0] + (1 - ph) * by_phase[1]
        white_score = score(pos, ev) * (1 if pos.turn == Color.WHITE else -1)
        assert abs(white_score - expected) <= 1, (pos, white_score, expected)


@pytest.mark.parametrize("name", ["english", "international"])
def test_a_region_reads_its_squares_in_order(name):
    v = variant(name)
    ev = Evaluator.of(v, hand_weights(v), *random_weights(v, 4, big=True))
    shapes = [(corner, 4) for corner in regions(v)] + [(corner, 6) for corner in big_regions(v)]
    for k, (corner, height) in enumerate(shapes):
        assert len(region_squares(v, corner, height)) == 2 * height
        for q, sq in enumerate(region_squares(v, corner, height)):
            white_man = Position(v, v.bit(sq), 0, 0, Color.WHITE)
            black_man = Position(v, 0, v.bit(sq), 0, Color.WHITE)
            _, looks, _ = inputs([white_man, black_man], ev)
            assert looks[0, k, 0] == 3 ** q and looks[1, k, 0] == 2 * 3 ** q


@pytest.mark.parametrize("big", [False, True], ids=["small", "large"])
def test_learned_weights_are_read_back_as_written(tmp_path, big):
    v = variant("russian")
    counts, tables = random_weights(v, 3, big)
    if big:  # the training leaves most large patterns unseen, at zero; only the others are stored
        tables[layout(v, False).rows:][np.random.default_rng(5).random(tables.shape[0] - layout(v, False).rows) < 0.9] = 0
    path = tmp_path / "russian.npz"
    write_learned(path, counts, tables, "python -m engine train --variant russian")
    direct = Evaluator.of(v, hand_weights(v), counts, tables)
    loaded = load_evaluator(v, path)
    assert np.array_equal(direct.patterns, loaded.patterns) and np.array_equal(direct.weights, loaded.weights)
    assert np.array_equal(direct.geometry, loaded.geometry)
    with pytest.raises(ValueError, match="does not hold international weights"):
        read_learned(path, variant("international"))


def test_every_variant_has_a_weight_file_with_only_known_weights():
    for name in NAMES:
        data = json.loads((WEIGHTS_DIR / f"{name}.json").read_text())
        weights_vector(data)  # raises on an unknown key
        assert data["man"] == 100, "scores are in hundredths of a man"


def test_shipped_weights_value_material_as_a_player_would():
    for name in NAMES:
        v = variant(name)
        ev = load_evaluator(v)
        learned = ev.weights[-COUNTS * PHASES:].reshape(COUNTS, PHASES) / FINE
        men, kings = learned[FEATURES.index("men")], learned[FEATURES.index("kings")]
        assert 90 <= men.mean() <= 110, "a man is worth about 100 in the middle of the game"
        for phase in (0.75, 0.5, 0.25):  # from the full board to a few pieces left
            man, king = (phase * w[0] + (1 - phase) * w[1] for w in (men, kings))
            assert 0 < man < king, f"{name}: a king is worth more than a man, and a man something"


def test_unknown_weights_are_refused():
    with pytest.raises(ValueError, match="unknown weight 'mann'"):
        weights_vector({"mann": 100})


def test_a_lone_king_on_the_long_diagonal_draws_against_three_kings():
    v = variant("international")
    on_diagonal = parse_fen(v, "W:WK1,K2,K3:BK28")  # 28 is on the long diagonal 46-5
    off_diagonal = parse_fen(v, "W:WK1,K2,K3:BK29")
    assert abs(score(on_diagonal)) < 150
    assert score(off_diagonal) > 400


def test_international_men_count_among_the_pieces_that_only_draw_against_a_lone_king():
    """The 16- and 5-move rules draw three pieces against a lone king on the long diagonal, or two anywhere, even
    with men among them: the engine keeps a fourth piece rather than trade into such an ending."""
    v = variant("international")
    ev = load_evaluator(v)
    three = parse_fen(v, "W:WK1,40,45:BK28")  # a king and two men; 28 is on the long diagonal 46-5
    four = parse_fen(v, "W:WK1,39,40,45:BK28")
    two = parse_fen(v, "W:WK1,45:BK29")
    assert abs(score(three)) < 150 and abs(score(two)) < 150
    assert score(four) > 250, "a fourth piece still wins"
    kept = learned_positions(*boards([three, four, two]), ev.weights, ev.geometry)
    assert kept.tolist() == [False, True, False], "the training fits only what the learned weights score"
    assert score(mirror(three)) == score(three), "the same for Black"
    english = parse_fen(variant("english"), "W:WK1,24:BK28")  # English kings do not fly: a king and a man win
    assert score(english) > 150


def test_drawish_material_divides_the_side_aheads_score_and_the_training_leaves_it_out():
    """Scan 3's drawish material: against a king, three pieces or fewer score an eighth, and as many kings with
    the men one apart at most score half; with a second king more, or no king against, the score stands."""
    v = variant("international")
    plain = load_evaluator(v)
    ev = Evaluator.of(v, hand_weights(v, {"drawish": 1}), *read_learned(WEIGHTS_DIR / "international.npz", v))
    few = parse_fen(v, "W:WK10,K12,45:BK5,6")  # three pieces against a king and a man
    even_kings = parse_fen(v, "W:WK10,38,39,40,45:BK5,6,7,8")  # a king each, four men against three
    two_kings = parse_fen(v, "W:WK10,K12,39,40,45:BK5,6,7,8")
    no_king = parse_fen(v, "W:WK10,38,39,40,45:B5,6,7,8,9")
    for pos, divisor in ((few, 8), (even_kings, 2), (two_kings, 1), (no_king, 1)):
        before, after = score(pos, plain), score(pos, ev)
        assert before > 0 and after == before // divisor, (pos, before, after)
        assert score(mirror(pos), ev) == after, "the same for Black"
    kept = learned_positions(*boards([few, even_kings, two_kings, no_king]), ev.weights, ev.geometry)
    assert kept.tolist() == [False, False, True, True], "the training fits only what the learned weights score"
    training_sees_the_search_numbers(v, True, {"drawish": 1})


def test_a_lone_king_against_men_alone_is_not_a_draw_by_the_rules():
    """The 16- and 5-move rules count only once the side against the lone king has a king of its own."""
    v = variant("international")
    king_against_man = parse_fen(v, "W:WK28:B20")
    assert score(king_against_man) > 100, "the king catches the man"


def test_runaway_men_are_counted_only_when_nothing_stops_them():
    v = variant("english")
    ev = load_evaluator(v)
    free = parse_fen(v, "W:W10,30:B4,26")  # nothing can stop White's man on 10 from crowning
    guarded = parse_fen(v, "W:W10,30:B2,26")  # Black's man on 2 stands in its way
    counts, _, _ = inputs([free, guarded], ev)
    runaway = FEATURES.index("runaway_2")  # 10 is two rows from crowning
    assert counts[0, runaway] == 1 and counts[1, runaway] == 0


def test_english_kings_endings_drive_the_lone_king_out_of_the_double_corner():
    v = variant("english")
    in_corner = parse_fen(v, "W:WK18,K19:BK1")  # 1 and 5 form a double corner
    in_open = parse_fen(v, "W:WK18,K19:BK10")
    assert score(in_corner) < score(in_open)
    assert score(in_corner) > 100, "two kings against one still win"
    assert Color.WHITE == in_corner.turn


def test_a_kings_value_set_by_hand_is_felt_with_men_on_the_board():
    """``level:6,king=400`` in a match changes how the search weighs kings in the middle game, not only in
    kings-only endings."""
    pos = parse_fen(variant("international"), "W:WK10,22,23:B5,6,7")
    plain, dear = load_evaluator(pos.variant), load_evaluator(pos.variant, overrides={"king": 400})
    assert score(pos, dear) - score(pos, plain) >= 50, "White's king counts for more"
    cheap_men = load_evaluator(pos.variant, overrides={"man": 50})
    assert score(pos, cheap_men) != score(pos, plain)


def test_the_training_starts_from_the_hand_set_evaluation_not_the_shipped_one():
    for name in NAMES:
        v = variant(name)
        start, shipped = starting_evaluator(v), load_evaluator(v)
        assert not start.patterns.any() and shipped.patterns.any()
        learned = start.weights[-COUNTS * PHASES:].reshape(COUNTS, PHASES) / FINE
        assert learned[FEATURES.index("kings")].tolist() == [hand_weights(v)[1]] * PHASES
