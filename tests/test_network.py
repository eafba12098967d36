"""The network pilot's fit: the side to move's view, and a fit that learns what decides planted results."""

from __future__ import annotations

import numpy as np
from helpers import random_positions
from test_evaluation import mirror

from engine import variant
from engine.game import Color
from engine.training.network import (Network, Quantised, active_inputs, cross_entropy_mean, fit_network,
                                     inputs_count)
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


def test_the_integer_network_scores_as_the_fitted_one():
    """The weights in integers (as a search would add them up) give nearly the fitted network's logits."""
    v = variant("english")
    positions = random_positions(["english"], 1500, 12, (0, 60))
    s = as_samples(positions)
    active = active_inputs(v, s)
    net = Network.random(inputs_count(v), 64, seed=4)
    y = np.array([0.8 if (p.white.bit_count() > p.black.bit_count()) == (p.turn == Color.WHITE) else 0.2
                  for p in positions], dtype=np.float32)
    fit_network(net, active, y, epochs=3, seed=2, batch=64, rate=3e-3)
    exact, integer = net.logits(active), Quantised.of(net).logits(active)
    assert np.abs(exact).max() > 0.5, "the fit moved the logits"
    assert np.abs(exact - integer).max() < 0.05, np.abs(exact - integer).max()
