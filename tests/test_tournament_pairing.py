"""Pairings and scores of the bot's tournaments, checked against the rules as written (FIDE's Swiss rules, the
Berger tables, lidraughts' arena scoring), not against the code's own sums."""

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.tournament import arena, round_robin, swiss


def play_swiss(players, rounds, seed, draw_share=0.2):
    """A Swiss event played out with random results: its games."""
    rnd = random.Random(seed)
    games = []
    for number in range(1, rounds + 1):
        for white, black in swiss.pair(players, swiss.pasts(players, games)):
            result = None if black is None else rnd.choice([1.0, 0.0] * 4 + [0.5] * round(8 * draw_share))
            games.append(swiss.Game(number, white, black, result))
    return games


def check_swiss(players, games):
    """The Swiss rules, counted again from the games alone."""
    met, colours, byes = set(), {p: "" for p in players}, {p: 0 for p in players}
    for number in sorted({g.round for g in games}):
        seated = [p for g in games if g.round == number for p in (g.white, g.black) if p is not None]
        assert sorted(seated) == sorted(players), f"round {number}: everyone plays once"
        round_byes = [g.white for g in games if g.round == number and g.black is None]
        assert len(round_byes) == len(players) % 2, f"round {number}: a bye only for an odd count"
        for g in games:
            if g.round != number:
                continue
            if g.black is None:
                byes[g.white] += 1
                continue
            pair = frozenset((g.white, g.black))
            assert pair not in met, f"round {number}: {sorted(pair)} meet twice"
            met.add(pair)
            colours[g.white] += "W"
            colours[g.black] += "B"
    for player, played in colours.items():
        assert "WWW" not in played and "BBB" not in played, (player, played)
        for k in range(1, len(played) + 1):  # at no point two more games with one colour than the other
            assert abs(played[:k].count("W") - played[:k].count("B")) <= 2, (player, played)
    assert max(byes.values()) <= 1, byes
    return colours


@settings(max_examples=60, deadline=None)
@given(n=st.integers(2, 24), seed=st.integers(0, 10 ** 6))
def test_swiss_pairings_never_repeat_keep_colours_balanced_and_give_each_bye_once(n, seed):
    players = [f"p{i}" for i in range(n)]
    rounds = max(1, min(n // 2, 5))  # (more rounds than half the players can corner any round-by-round pairing)
    check_swiss(players, play_swiss(players, rounds, seed))


def test_sixteen_players_five_rounds_each_round_pairs_equal_scores_where_it_can():
    players = [f"p{i}" for i in range(16)]
    games = play_swiss(players, 5, seed=7, draw_share=0)
    check_swiss(players, games)
    for number in range(1, 6):
        before = swiss.pasts(players, [g for g in games if g.round < number])
        gaps = [abs(before[g.white].score - before[g.black].score) for g in games if g.round == number]
        groups = {}
        for p in players:
            groups[before[p].score] = groups.get(before[p].score, 0) + 1
        floaters = sum(count % 2 for count in groups.values())  # an odd group must send one player down
        assert sum(1 for gap in gaps if gap) <= max(floaters, 1) + 2, (number, gaps)


def test_round_one_is_top_half_against_bottom_half_with_colours_alternating_by_board():
    players = [f"p{i}" for i in range(8)]
    pairs = swiss.pair(players, swiss.pasts(players, []))
    assert [frozenset(p) for p in pairs] == [frozenset(("p0", "p4")), frozenset(("p1", "p5")),
                                             frozenset(("p2", "p6")), frozenset(("p3", "p7"))]
    assert [p[0] for p in pairs] == ["p0", "p5", "p2", "p7"]


def test_the_bye_goes_to_the_lowest_score_who_has_not_had_one():
    players = ["a", "b", "c"]
    games = [swiss.Game(1, "a", "b", 1.0), swiss.Game(1, "c", None)]
    assert ("b", None) in swiss.pair(players, swiss.pasts(players, games))


def test_buchholz_and_sonneborn_berger_order_players_on_equal_scores():
    # a beat c, drew b; b beat d, drew a; c beat d; d lost both: a and b both have 1.5
    games = [swiss.Game(1, "a", "c", 1.0), swiss.Game(1, "b", "d", 1.0),
             swiss.Game(2, "a", "b", 0.5), swiss.Game(2, "c", "d", 1.0)]
    table = dict(swiss.standings(["a", "b", "c", "d"], games))
    assert table["a"] == (1.5, 1.0 + 1.5, 1.0 + 0.75)  # opponents c (1) and b (1.5); beat c, drew b
    assert table["b"] == (1.5, 0.0 + 1.5, 0.0 + 0.75)
    assert [p for p, _ in swiss.standings(["a", "b", "c", "d"], games)] == ["a", "b", "c", "d"]


@pytest.mark.parametrize("n", range(2, 15))
def test_round_robin_everyone_meets_everyone_once_with_colours_within_one(n):
    players = [f"p{i}" for i in range(n)]
    rounds = round_robin.schedule(players)
    assert len(rounds) == (n - 1 if n % 2 == 0 else n)
    met = [frozenset(p) for r in rounds for p in r if p[1] is not None]
    assert sorted(map(sorted, met)) == sorted(map(sorted, map(frozenset, itertools.combinations(players, 2))))
    colours = {p: "" for p in players}
    for r in rounds:
        assert sorted(x for p in r for x in p if x is not None) == sorted(players)
        for white, black in r:
            if black is not None:
                colours[white] += "W"
                colours[black] += "B"
    assert all(abs(c.count("W") - c.count("B")) <= 1 for c in colours.values()), colours


def result(points, plies=40, berserk=False):
    return arena.Result(points, plies, berserk)


def test_arena_two_wins_in_a_row_set_a_player_on_fire_until_a_game_is_not_won():
    s = arena.sheet([result(1), result(1), result(1), result(0.5), result(1), result(0)])
    assert s.scores == (2, 2, 4, 2, 2, 0) and s.total == 12 and not s.on_fire
    assert arena.sheet([result(1), result(1)]).on_fire


def test_arena_berserk_adds_a_point_to_a_win_of_fourteen_plies_or_more():
    assert arena.sheet([result(1, 14, berserk=True)]).scores == (3,)
    assert arena.sheet([result(1, 13, berserk=True)]).scores == (2,)
    assert arena.sheet([result(0, 40, berserk=True), result(0.5, 40, berserk=True)]).scores == (0, 1)
    assert arena.sheet([result(1), result(1), result(1, 30, berserk=True)]).scores == (2, 2, 5)


def test_arena_a_draw_before_the_twentieth_ply_counts_nothing_and_ends_a_streak():
    s = arena.sheet([result(1), result(1), result(0.5, 19), result(1)])
    assert s.scores == (2, 2, 0, 2)


@pytest.mark.parametrize("n", [2, 3, 10, 101, 150])
def test_arena_pairs_neighbours_avoiding_the_last_opponent(n):
    free = [f"p{i}" for i in range(n)]
    last = {f"p{i}": f"p{i + 1}" for i in range(0, n - 1, 2)} | {f"p{i + 1}": f"p{i}" for i in range(0, n - 1, 2)}
    pairs = arena.pair(free, last, {})
    seated = [p for pair in pairs for p in pair]
    assert len(pairs) == n // 2 and len(set(seated)) == len(seated)
    if n > 2:
        assert all(last.get(a) != b for a, b in pairs), pairs
    place = {p: i for i, p in enumerate(free)}
    assert max(abs(place[a] - place[b]) for a, b in pairs) <= 3  # neighbours, give or take a swap


def test_arena_gives_white_to_the_player_who_had_it_less():
    assert arena.pair(["a", "b"], {}, {"a": 1, "b": -1}) == [("b", "a")]
    assert arena.pair(["a", "b"], {}, {"a": -1, "b": 0}) == [("a", "b")]
