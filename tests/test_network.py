"""The network: the fit (the side to move's view, what decides planted results) and the search's integer network
with its first layer kept up to date move by move."""

from __future__ import annotations

import numpy as np
import pytest
from helpers import random_positions
from numba import njit
from test_evaluation import mirror

from engine import game_type, variant
from engine.draughts import network
from engine.draughts.weight_files import WEIGHTS_DIR, load_evaluator
from engine.draughts.hooks import DraughtsHooks
from engine.game import Color
from engine.search import Limits, Searcher, hooks
from engine.search.stack import Stack
from engine.training.network import (Network, active_inputs, cross_entropy_mean, fit_network, inputs_count,
                                     write_network)
from engine.training.selfplay import Samples

U = np.uint64


def as_samples(positions) -> Samples:
    n = len(positions)
    return Samples(np.array([p.white for p in positions], dtype=U), np.array([p.black for p in positions], dtype=U),
                   np.array([p.kings for p in positions], dtype=U),
                   np.array([int(p.turn) for p in positions], dtype=np.int8), np.zeros(n, dtype=np.int16),
                   np.zeros(n, dtype=np.float32))


def test_a_position_and_its_colour_turned_twin_light_the_same_inputs():
    for name in ("english", "international"):
        v = variant(name)
        positions = random_positions([name], 200, 3, (0, 80))
        a = active_inputs(v, as_samples(positions))
        b = active_inputs(v, as_samples([mirror(p) for p in positions]))
        assert np.array_equal(np.sort(a, axis=1), np.sort(b, axis=1))
        pieces = [(p.white | p.black).bit_count() for p in positions]
        assert [(row >= 0).sum() for row in a] == pieces
        assert a.max() < inputs_count(v) and any(p.turn == Color.BLACK for p in positions)


def test_the_fit_learns_what_decides_the_games():
    """Results planted by a rule no material count sees (the mover has a man on its square 18) are learnt."""
    v = variant("english")
    positions = random_positions(["english"], 3000, 11, (4, 30))
    s = as_samples(positions)
    mine = np.array([bool((p.white if p.turn == Color.WHITE else p.black) & ~p.kings
                          & v.bit(18 if p.turn == Color.WHITE else 15)) for p in positions])
    rng = np.random.default_rng(3)
    y = (rng.random(len(positions)) < np.where(mine, 0.85, 0.15)).astype(np.float32)
    active = active_inputs(v, s)
    net = Network.random(inputs_count(v), 32, seed=1)
    before = cross_entropy_mean(net, active, y)
    fit_network(net, active, y, epochs=6, seed=2, batch=64, rate=3e-3)
    after = cross_entropy_mean(net, active, y)
    assert after < before - 0.1 and after < 0.5, (before, after)  # the rule's own entropy is 0.42


def fitted_network(name: str, hidden: int = 48) -> Network:
    """A network fitted a little to planted results (the side with more pieces wins), so that its scores vary."""
    v = variant(name)
    positions = random_positions([name], 800, 12, (0, 60))
    active = active_inputs(v, as_samples(positions))
    y = np.array([0.8 if (p.white.bit_count() > p.black.bit_count()) == (p.turn == Color.WHITE) else 0.2
                  for p in positions], dtype=np.float32)
    return fit_network(Network.random(inputs_count(v), hidden, seed=4), active, y, epochs=3, seed=2, batch=64,
                       rate=3e-3)


@pytest.fixture(scope="module", params=["english", "international"])
def with_network(request, tmp_path_factory):
    """(variant name, the fitted network, an evaluator whose weights file holds it, the scale)."""
    name = request.param
    net = fitted_network(name)
    path = tmp_path_factory.mktemp("net") / f"{name}.npz"
    write_network(path, WEIGHTS_DIR / f"{name}.npz", net, SCALE, "test")
    return name, net, load_evaluator(variant(name), path)


SCALE = 300.0


def test_the_search_scores_a_position_as_the_fitted_network_does(with_network):
    name, net, ev = with_network
    v = variant(name)
    positions = [p for p in random_positions([name], 400, 13, (0, 60)) if (p.white | p.black) & ~p.kings]
    exact = net.logits(active_inputs(v, as_samples(positions))) * SCALE
    integer = np.array([ev.score(p) for p in positions])
    assert np.abs(exact).max() > 100, "the fit moved the scores"
    assert np.abs(exact - integer).max() < 0.04 * SCALE, np.abs(exact - integer).max()  # 0.04 of a logit
    assert [ev.score(mirror(p)) for p in positions] == list(integer), "the same for either colour"
    patterns = load_evaluator(v)
    assert not np.array_equal(integer, [patterns.score(p) for p in positions]), "not the patterns' scores"


@njit(cache=True)
def _walk(game, st, side, choices, out, work):
    """Play ``choices`` (each taken modulo the number of legal moves) from ``st[0]`` as the search makes moves;
    the plies played."""
    for p in range(len(choices)):
        n = hooks.generate(game, st, p, side, False, out, 0, work)
        if n == 0:
            return p
        hooks.make(game, st, p, side, out, choices[p] % n)
        side = 1 - side
    return len(choices)


def test_the_first_layer_kept_up_to_date_move_by_move_is_the_one_made_afresh(with_network):
    """Through captures (majority, flying kings, round trips on 10x10), crowning and kings' moves, the accumulators
    the search updates at each move are those the pieces give."""
    name, _, ev = with_network
    v = variant(name)
    draughts = DraughtsHooks(v, ev)
    game = draughts.compiled(False)
    rng = np.random.default_rng(5)
    stack = Stack(draughts.state_cols, draughts.work_shape)
    checked = 0
    for position in random_positions([name], 30, 14, (0, 40)):
        draughts.load(position, stack.st[0], stack.ctl)
        plies = _walk(game, stack.st, int(position.turn), rng.integers(0, 1000, 60), stack.out, stack.work)
        side = int(position.turn)
        for p in range(plies + 1):
            mover, other, kings = stack.st[p, :3]
            white, black = (mover, other) if side == 0 else (other, mover)
            fresh = np.zeros(2 * ev.net.shape[1], dtype=np.int16)
            network.refresh(fresh, white, black, kings, ev.net)
            assert np.array_equal(stack.st[p].view(np.int16)[network.ACC:network.ACC + len(fresh)], fresh), (p, position)
            side = 1 - side
            checked += 1
    assert checked > 1000


def test_a_search_with_the_network_plays_and_the_levels_load_it(with_network):
    name, _, ev = with_network
    game = game_type(name)
    searcher = Searcher(game, tt_mb=4, weights=ev)
    position = game.new_game().position
    found = searcher.search(position, Limits(depth=6))
    assert found.move in game.legal_moves(position) and found.depth == 6


def test_the_net_command_fits_a_run_and_writes_weights_the_search_uses(tmp_path, capsys):
    from engine.tools.cli import main as cli
    from engine.training.selfplay import play_games

    games = tmp_path / "run" / "english" / "round-0"
    games.mkdir(parents=True)
    for chunk in range(2):  # the second is held out, as the training holds it out
        play_games("english", None, range(4 * chunk, 4 * chunk + 4), 200, 7).save(games / f"games-{chunk:05d}.npz")
    out = tmp_path / "english-net.npz"
    assert cli(["net", "--variant", "english", "--data", str(tmp_path / "run"), "--rounds", "0", "--hidden", "40",
                "--epochs", "2", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "held-out loss" in printed and "in the search's arithmetic" in printed
    ev = load_evaluator(variant("english"), out)
    assert ev.net.shape[1] == 40
    with np.load(out) as f:
        assert "python -m engine net --variant english" in str(f["net_made_by"])
        assert np.array_equal(f["tables"], np.load(WEIGHTS_DIR / "english.npz")["tables"]), "the shipped patterns kept"
    assert cli(["net", "--variant", "english", "--data", str(tmp_path / "none"), "--rounds", "0", "--out",
                str(out)]) == 2
