"""Fitting the evaluation's weights to games: logistic regression, as Texel tuning does.

Each position's evaluation ``z`` (hundredths of a man, for White) is read as
a probability of winning, ``sigmoid(z / scale)``, and the weights are moved
to predict a target: the game's result, blended with the search's score
read the same way (``result_share`` of the result). The loss is the cross
entropy, plus an L2 penalty that keeps rarely seen patterns near zero.
Minibatch Adam, compiled, with sparse updates: a batch moves only the pattern
weights its positions use (millions of large-region weights, a few dozen a
position), so a pass costs the same whatever the number of weights. The
features come from ``engine.draughts.evaluation.features``, the very numbers
the engine adds up.

Material (``FIXED``) is not fitted: a man stays worth 100, the unit of the
search's margins and of the evaluation the bot shows in men.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from numba import njit

from engine.draughts.evaluation import black_looks, features
from engine.draughts.evaluation_tables import COUNTS, FEATURES, G_BIG_REGIONS, PHASES, PHASE_ONE, big_regions, layout
from engine.draughts.weight_files import start_learned, starting_evaluator
from engine.draughts.variants import Variant
from engine.training.selfplay import Samples

LARGE_RATE = 10_000.0  # the large regions' plain step: a pattern in a tenth of the positions, 5% off, moves ~0.2

# Material stays at the hand-set values of the starting point. Fitted from a few rounds of self-play it came out
# too low for kings in the endgame (English: a king worth 1.1 men), and the search then missed breakthroughs to
# a king and forced wins that the tests check.
FIXED = (FEATURES.index("men"), FEATURES.index("kings"))


@dataclass(frozen=True)
class Design:
    """The training's view of positions: counts, each region's two looks as table rows, and phases."""

    counts: np.ndarray  # float32 [n, COUNTS]
    rows: np.ndarray  # int32 [n, regions, 2]: row of the flat table (``layout``'s offset + pattern), White's, Black's
    phase: np.ndarray  # float32 [n]: 1 with every piece on the board, 0 with none


def design(v: Variant, samples: Samples, big: bool = False) -> Design:
    """The positions' inputs, with the large regions' looks too if ``big``."""
    ev = starting_evaluator(v)  # its masks: the features do not depend on the weights
    geometry = ev.geometry.copy()
    geometry[:, G_BIG_REGIONS] = len(big_regions(v)) if big else 0
    lay = layout(v, big)
    n, k = len(samples), len(lay.offsets)
    counts = np.zeros((n, COUNTS), dtype=np.int64)
    looks = np.zeros((n, k, 2), dtype=np.int64)
    phase = np.zeros(n, dtype=np.int64)
    features(samples.white, samples.black, samples.kings, samples.turn, geometry, ev.cones, counts, looks, phase)
    black_looks(v, looks)
    rows = (looks + lay.offsets[None, :, None]).astype(np.int32)
    return Design(counts.astype(np.float32), rows, (phase / PHASE_ONE).astype(np.float32))


@dataclass
class Model:
    """Weights in hundredths of a man: ``counts`` [COUNTS, PHASES], ``tables`` [rows, PHASES] (flat, as
    ``layout`` lays them out)."""

    counts: np.ndarray
    tables: np.ndarray

    def evaluate(self, d: Design, index: np.ndarray | None = None) -> np.ndarray:
        """White's score of the positions ``index`` of ``d`` (all by default), before rounding."""
        index = np.arange(len(d.phase)) if index is None else np.asarray(index)
        return _scores(index, d.counts, d.rows, d.phase, self.counts, self.tables.reshape(-1, PHASES))


@njit(cache=True)
def _score(i, counts, rows, phase, wc, wt):
    sums = np.zeros(PHASES)
    for p in range(PHASES):
        total = 0.0
        for f in range(counts.shape[1]):
            total += counts[i, f] * wc[f, p]
        for k in range(rows.shape[1]):
            total += wt[rows[i, k, 0], p] - wt[rows[i, k, 1], p]
        sums[p] = total
    return phase[i] * sums[0] + (1 - phase[i]) * sums[1]


@njit(cache=True)
def _scores(index, counts, rows, phase, wc, wt):
    out = np.empty(len(index))
    for j in range(len(index)):
        out[j] = _score(index[j], counts, rows, phase, wc, wt)
    return out


def sigmoid(x: np.ndarray) -> np.ndarray:
    return 1 / (1 + np.exp(-np.clip(x, -60, 60)))


def targets(samples: Samples, scale: float, result_share: float) -> np.ndarray:
    return (result_share * samples.result + (1 - result_share) * sigmoid(samples.score / scale)).astype(np.float32)


def cross_entropy(p: np.ndarray, t: np.ndarray) -> np.ndarray:
    """Each position's loss: predicted ``p`` against target ``t``."""
    return -(t * np.log(p + 1e-7) + (1 - t) * np.log(1 - p + 1e-7))


def loss(model: Model, d: Design, y: np.ndarray, scale: float, index: np.ndarray | None = None) -> float:
    z = model.evaluate(d, index)
    return float(cross_entropy(sigmoid(z / scale), y if index is None else y[index]).mean())


def fit(model: Model, d: Design, y: np.ndarray, scale: float, epochs: int, seed: int, l2: float = 1e-3,
        prior: tuple[np.ndarray, float] | None = None, batch: int = 8192, rates: tuple[float, float] = (0.5, 0.2),
        on_epoch: Callable[[int, float], None] | None = None, small_rows: int | None = None,
        large_rate: float = LARGE_RATE) -> Model:
    """Adam over minibatches from ``model``; ``on_epoch(epoch, training loss)`` after each pass.

    ``l2`` weighs the penalty on the pattern weights against the summed loss of the positions: a pattern seen
    a few hundred times keeps most of what its games say, one seen a few times stays near zero. A batch
    penalises the weights it moves, once each.

    ``rates`` are Adam's step sizes (hundredths of a man) for the counts' and the patterns' weights. Adam moves
    every weight by about its rate at each step, and a position adds up 32 pattern weights on 10x10: larger
    steps than these make the whole evaluation swing from batch to batch, and the patterns learn nothing.
    The pattern weights a batch does not use keep their moments as they are (lazy, as sparse Adam does).

    The large regions' weights (the table's rows from ``small_rows`` on, if given) move by plain gradient
    steps of ``large_rate`` instead: Adam moves a weight by about its rate whatever its gradient, so each of
    millions of rarely seen patterns would jump at its first sighting; a plain step moves a pattern in
    proportion to the positions that use it, and those seen a few times stay near zero.

    ``prior`` = (counts, weight) pulls the counts' weights toward ``counts`` (the hand-set ones) with an L2
    penalty of that weight, in the same summed form."""
    rng = np.random.default_rng(seed)
    n = len(y)
    tables = model.tables.reshape(-1, PHASES)
    small_rows = len(tables) if small_rows is None else small_rows
    state = _Adam(model.counts.shape, tables.shape, small_rows)
    prior_counts, prior_weight = (prior[0], prior[1]) if prior is not None else (np.zeros_like(model.counts), 0.0)
    free = np.ones(len(model.counts), dtype=np.bool_)
    free[list(FIXED)] = False
    for epoch in range(epochs):
        decay = 0.5 * (1 + np.cos(np.pi * epoch / epochs)) * 0.9 + 0.1
        order = rng.permutation(n)
        total = _epoch(order, batch, d.counts, d.rows, d.phase, y, scale, model.counts, tables, state.mc, state.vc,
                       state.mt, state.vt, state.steps, state.grad, state.seen, state.touched, l2 / n,
                       prior_counts, prior_weight / n, free, rates[0] * decay, rates[1] * decay,
                       small_rows, large_rate * decay)
        if on_epoch:
            on_epoch(epoch + 1, total / n)
    return model


class _Adam:
    """Adam's moments for the weights it moves (the counts', the small regions'), the steps taken, and the
    scratch a batch's sparse gradient uses."""

    def __init__(self, counts_shape: tuple, tables_shape: tuple, small_rows: int):
        self.mc, self.vc = np.zeros(counts_shape), np.zeros(counts_shape)
        self.mt, self.vt = (np.zeros((small_rows, tables_shape[1]), np.float32) for _ in range(2))
        self.steps = np.zeros(1, dtype=np.int64)
        self.grad = np.zeros(tables_shape)
        self.seen = np.zeros(tables_shape[0], dtype=np.bool_)
        self.touched = np.zeros(tables_shape[0], dtype=np.int64)


B1, B2, EPS = 0.9, 0.999, 1e-8


@njit(cache=True)
def _epoch(order, batch, counts, rows, phase, y, scale, wc, wt, mc, vc, mt, vt, steps, grad, seen, touched, l2,
           prior_counts, prior_weight, free, rate_counts, rate_tables, small_rows, rate_large):
    """One pass over the positions in ``order``, a batch at a time; returns the summed loss."""
    n = len(order)
    total = 0.0
    k = rows.shape[1]
    gc = np.zeros(wc.shape)
    for start in range(0, n, batch):
        end = min(n, start + batch)
        gc[:] = 0.0
        used = 0
        for j in range(start, end):
            i = order[j]
            z = _score(i, counts, rows, phase, wc, wt)
            x = min(60.0, max(-60.0, z / scale))
            pr = 1.0 / (1.0 + np.exp(-x))
            t = y[i]
            total -= t * np.log(pr + 1e-7) + (1 - t) * np.log(1 - pr + 1e-7)
            g = (pr - t) / (scale * batch)  # the nominal size: a short last batch takes no longer steps
            ph = np.float64(phase[i])
            for p in range(PHASES):
                gs = g * ph if p == 0 else g * (1.0 - ph)
                for f in range(counts.shape[1]):
                    gc[f, p] += counts[i, f] * gs
                for q in range(k):
                    for look in range(2):
                        r = rows[i, q, look]
                        if not seen[r]:
                            seen[r] = True
                            touched[used] = r
                            used += 1
                        grad[r, p] += gs if look == 0 else -gs
        steps[0] += 1
        c1 = 1 - B1 ** steps[0]
        c2 = 1 - B2 ** steps[0]
        for f in range(wc.shape[0]):
            for p in range(PHASES):
                if not free[f]:
                    continue
                gf = gc[f, p] + 2 * prior_weight * (wc[f, p] - prior_counts[f, p])
                mc[f, p] = B1 * mc[f, p] + (1 - B1) * gf
                vc[f, p] = B2 * vc[f, p] + (1 - B2) * gf * gf
                wc[f, p] -= rate_counts * (mc[f, p] / c1) / (np.sqrt(vc[f, p] / c2) + EPS)
        for u in range(used):
            r = touched[u]
            seen[r] = False
            for p in range(PHASES):
                gr = grad[r, p] + 2 * l2 * wt[r, p]
                grad[r, p] = 0.0
                if r >= small_rows:
                    wt[r, p] -= rate_large * gr
                    continue
                mt[r, p] = B1 * mt[r, p] + (1 - B1) * gr
                vt[r, p] = B2 * vt[r, p] + (1 - B2) * gr * gr
                wt[r, p] -= rate_tables * (mt[r, p] / c1) / (np.sqrt(vt[r, p] / c2) + EPS)
    return total


def best_scale(model: Model, d: Design, samples: Samples) -> float:
    """The scale at which ``model``'s scores best predict the games' results (Texel's K)."""
    z = model.evaluate(d)
    best, best_loss = 100.0, float("inf")
    for scale in np.geomspace(40, 1000, 40):
        value = float(cross_entropy(sigmoid(z / scale), samples.result).mean())
        if value < best_loss:
            best, best_loss = float(scale), value
    return best


def start_model(v: Variant, big: bool = False) -> Model:
    """The evaluation the training starts from, in hundredths of a man (with the large regions if ``big``)."""
    return Model(*start_learned(v, big))
