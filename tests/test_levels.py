"""Difficulty levels: reproducible with a seed, varied without, and ordered in strength."""

from __future__ import annotations

import random

import pytest
from helpers import random_positions

from engine import Game, start_position, variant
from engine.games import game_type
from engine.search import Limits, Searcher
from engine.search.levels import LEVELS, choose_move, level


@pytest.fixture(scope="module")
def searcher():
    s = Searcher(game_type("international"), tt_mb=8)
    s.warm_up()
    return s


@pytest.mark.parametrize("number", [1, 2, 3, 4, 5, 6])
def test_a_seed_makes_a_level_reproducible(searcher, number):
    for pos in random_positions(["international"], 6, number, (2, 30)):
        first = choose_move(searcher, pos, level(number), 0.05, rng=random.Random(42), reproducible=True)
        searcher.search(pos, Limits(depth=6))  # other work in between changes nothing
        again = choose_move(searcher, pos, level(number), 0.05, rng=random.Random(42), reproducible=True)
        assert (first.move, first.score, first.nodes) == (again.move, again.score, again.nodes)


def test_without_a_seed_games_vary(searcher):
    pos = start_position(variant("international"))
    moves = {choose_move(searcher, pos, level(1), 1.0, rng=random.Random(seed)).move for seed in range(20)}
    assert len(moves) > 3


def test_low_levels_search_shallow_and_level_6_deep(searcher):
    pos = start_position(variant("international"))
    assert choose_move(searcher, pos, level(2), 1.0, rng=random.Random(1)).depth <= 2
    assert choose_move(searcher, pos, level(6), 0.3, rng=random.Random(1)).depth >= 8


def test_unknown_level_is_refused():
    with pytest.raises(ValueError, match="choose 1"):
        level(7)
    assert sorted(LEVELS) == [1, 2, 3, 4, 5, 6]


def test_level_2_beats_random_play():
    """Not absurd: even the novice wins against random moves."""
    v = variant("english")
    s = Searcher(game_type(v.name), tt_mb=4)
    wins = 0
    for seed in range(4):
        rng = random.Random(seed)
        game = Game(v)
        novice = v.first if seed % 2 else v.first.opponent
        while game.result() is None and len(game.moves) < 200:
            lvl = level(2) if game.turn == novice else level(1)
            game.play(choose_move(s, game.position, lvl, 1.0, game.history(), rng).move)
        result = game.result()
        wins += result is not None and result.winner == novice
    assert wins >= 3


def test_shallow_levels_leave_the_full_strength_tables_alone():
    """A worker serving a level-6 game and a level-2 game at once: level 2 neither reads nor wipes level 6's table."""
    v = variant("international")
    pos = start_position(v)
    alone, shared = Searcher(game_type(v.name), tt_mb=8), Searcher(game_type(v.name), tt_mb=8)
    alone.search(pos, Limits(depth=8))
    shared.search(pos, Limits(depth=8))
    choose_move(shared, pos, level(2), 1.0, rng=random.Random(1))
    assert shared.search(pos, Limits(depth=9)).nodes == alone.search(pos, Limits(depth=9)).nodes
