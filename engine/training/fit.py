"""Fitting the evaluation's weights to games: logistic regression, as Texel tuning does.

Each position's evaluation ``z`` (hundredths of a man, for White) is read as
a probability of winning, ``sigmoid(z / scale)``, and the weights are moved
to predict a target: the game's result, blended with the search's score
read the same way (``result_share`` of the result). The loss is the cross
entropy, plus an L2 penalty that keeps rarely seen patterns near zero.
Minibatch Adam in numpy; the features come from
``engine.draughts.evaluation.features``, the very numbers the engine adds up.

Material (``FIXED``) is not fitted: a man stays worth 100, the unit of the
search's margins and of the evaluation the bot shows in men.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from engine.draughts.evaluation import (COUNTS, FEATURES, PATTERNS, PHASE_ONE, PHASES, Evaluator, black_looks,
                                        features, regions, start_learned)
from engine.draughts.variants import Variant
from engine.training.selfplay import Samples

# Material stays at the hand-set values of the starting point. Fitted from a few rounds of self-play it came out
# too low for kings in the endgame (English: a king worth 1.1 men), and the search then missed breakthroughs to
# a king and forced wins that the tests check.
FIXED = (FEATURES.index("men"), FEATURES.index("kings"))


@dataclass(frozen=True)
class Design:
    """The training's view of positions: counts, each region's two looks as table rows, and phases."""

    counts: np.ndarray  # float32 [n, COUNTS]
    rows: np.ndarray  # int32 [n, regions, 2]: row of the flat table (region * PATTERNS + pattern), White's, Black's
    phase: np.ndarray  # float32 [n]: 1 with every piece on the board, 0 with none


def design(v: Variant, samples: Samples) -> Design:
    ev = Evaluator.start(v)  # its masks: the features do not depend on the weights
    n, k = len(samples), len(regions(v))
    counts = np.zeros((n, COUNTS), dtype=np.int64)
    looks = np.zeros((n, k, 2), dtype=np.int64)
    phase = np.zeros(n, dtype=np.int64)
    features(samples.white, samples.black, samples.kings, samples.turn, ev.geometry, ev.cones, counts, looks, phase)
    black_looks(v, looks)
    rows = (looks + (np.arange(k) * PATTERNS)[None, :, None]).astype(np.int32)
    return Design(counts.astype(np.float32), rows, (phase / PHASE_ONE).astype(np.float32))


@dataclass
class Model:
    """Weights in hundredths of a man: ``counts`` [COUNTS, PHASES], ``tables`` [regions, PATTERNS, PHASES]."""

    counts: np.ndarray
    tables: np.ndarray

    def evaluate(self, d: Design, index: np.ndarray | slice = slice(None)) -> np.ndarray:
        """White's score of the positions ``index`` of ``d``, before rounding."""
        c, rows, ph = d.counts[index], d.rows[index], d.phase[index]
        flat = self.tables.reshape(-1, PHASES)
        phase_sums = []
        for p in range(PHASES):
            looks = flat[rows[:, :, 0], p].sum(axis=1) - flat[rows[:, :, 1], p].sum(axis=1)
            phase_sums.append(c @ self.counts[:, p] + looks)
        return ph * phase_sums[0] + (1 - ph) * phase_sums[1]


def sigmoid(x: np.ndarray) -> np.ndarray:
    return 1 / (1 + np.exp(-np.clip(x, -60, 60)))


def targets(samples: Samples, scale: float, result_share: float) -> np.ndarray:
    return (result_share * samples.result + (1 - result_share) * sigmoid(samples.score / scale)).astype(np.float32)


def cross_entropy(p: np.ndarray, t: np.ndarray) -> np.ndarray:
    """Each position's loss: predicted ``p`` against target ``t``."""
    return -(t * np.log(p + 1e-7) + (1 - t) * np.log(1 - p + 1e-7))


def loss(model: Model, d: Design, y: np.ndarray, scale: float, index: np.ndarray | slice = slice(None)) -> float:
    return float(cross_entropy(sigmoid(model.evaluate(d, index) / scale), y[index]).mean())


def fit(model: Model, d: Design, y: np.ndarray, scale: float, epochs: int, seed: int, l2: float = 1e-3,
        prior: tuple[np.ndarray, float] | None = None, batch: int = 8192, rates: tuple[float, float] = (0.5, 0.2),
        on_epoch: Callable[[int, float], None] | None = None) -> Model:
    """Adam over minibatches from ``model``; ``on_epoch(epoch, training loss)`` after each pass.

    ``l2`` weighs the penalty on the pattern weights against the summed loss of the positions: a pattern seen
    a few hundred times keeps most of what its games say, one seen a few times stays near zero.

    ``rates`` are Adam's step sizes (hundredths of a man) for the counts' and the patterns' weights. Adam moves
    every weight by about its rate at each step, and a position adds up 32 pattern weights on 10x10: larger
    steps than these make the whole evaluation swing from batch to batch, and the patterns learn nothing.

    ``prior`` = (counts, weight) pulls the counts' weights toward ``counts`` (the hand-set ones) with an L2
    penalty of that weight, in the same summed form."""
    rng = np.random.default_rng(seed)
    n = len(y)
    params = [model.counts, model.tables.reshape(-1, PHASES)]
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    b1, b2, step = 0.9, 0.999, 0
    for epoch in range(epochs):
        decay = 0.5 * (1 + np.cos(np.pi * epoch / epochs)) * 0.9 + 0.1
        order = rng.permutation(n)
        total = 0.0
        for start in range(0, n, batch):
            idx = order[start:start + batch]
            z = model.evaluate(d, idx)
            p = sigmoid(z / scale)
            t = y[idx]
            total += float(cross_entropy(p, t).sum())
            g = (p - t) / (scale * len(idx))  # d loss / d z
            ph = d.phase[idx]
            shares = (ph, 1 - ph)
            grad_counts = np.stack([d.counts[idx].T @ (g * s) for s in shares], axis=1)
            if prior is not None:
                grad_counts += 2 * prior[1] * (params[0] - prior[0]) / n
            grad_counts[list(FIXED)] = 0
            rows = d.rows[idx]
            k = rows.shape[1]
            flat_rows = np.concatenate([rows[:, :, 0].ravel(), rows[:, :, 1].ravel()])
            grad_tables = np.zeros_like(params[1])
            for q, s in enumerate(shares):
                gs = np.repeat(g * s, k)
                grad_tables[:, q] = np.bincount(flat_rows, weights=np.concatenate([gs, -gs]),
                                                minlength=params[1].shape[0])
            grad_tables += 2 * l2 * params[1] / n
            step += 1
            for i, grad in enumerate((grad_counts, grad_tables)):
                m[i] = b1 * m[i] + (1 - b1) * grad
                v[i] = b2 * v[i] + (1 - b2) * grad * grad
                mhat = m[i] / (1 - b1 ** step)
                vhat = v[i] / (1 - b2 ** step)
                params[i] -= rates[i] * decay * mhat / (np.sqrt(vhat) + 1e-8)
        if on_epoch:
            on_epoch(epoch + 1, total / n)
    return model


def best_scale(model: Model, d: Design, samples: Samples) -> float:
    """The scale at which ``model``'s scores best predict the games' results (Texel's K)."""
    z = model.evaluate(d)
    best, best_loss = 100.0, float("inf")
    for scale in np.geomspace(40, 1000, 40):
        value = float(cross_entropy(sigmoid(z / scale), samples.result).mean())
        if value < best_loss:
            best, best_loss = float(scale), value
    return best


def start_model(v: Variant) -> Model:
    """The evaluation the training starts from, in hundredths of a man."""
    return Model(*start_learned(v))
