"""A small network evaluation, fitted to the same games as the pattern weights; the search runs it (its first layer
in integers: ``engine.draughts.network``) when a weights file holds one (``write_network``).

The network sees a position from the side to move: one input for each piece on each square (own man, own king,
the other's man, the other's king; the board turned half round when Black is to move, so one network serves both
sides), a first layer of ``hidden`` units clipped to [0, 1], a second of ``SECOND`` units clipped the same way, and
one output, the position's score as a logit (times the fit's scale: hundredths of a man). The first layer is a
sum of the columns of the pieces on the board, which the search keeps up to date as moves are made, as the
English engines with such networks do.

The fit is plain minibatch Adam on the cross-entropy against the same targets as the pattern fit
(``engine.training.fit.targets``), compiled with numba, one core.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numba import njit

from engine.draughts.kernel import bit_index, lsb
from engine.draughts.network import KINDS, SECOND, layer_shapes, layers, square_table
from engine.draughts.variants import Variant
from engine.training.fit import cross_entropy, sigmoid
from engine.training.selfplay import Samples


def inputs_count(v: Variant) -> int:
    return KINDS * v.squares


@njit(cache=True)
def _active(white, black, kings, turn, squares, table, out):
    n_sq = np.int64(squares)
    for i in range(white.shape[0]):
        k = 0
        own, other = (white[i], black[i]) if turn[i] == 0 else (black[i], white[i])
        for which in range(2):
            bb = own if which == 0 else other
            while bb:
                low = lsb(bb)
                sq = table[bit_index(low)]
                if turn[i] == 1:
                    sq = n_sq - 1 - sq
                kind = 2 * which + (1 if (kings[i] & low) else 0)
                out[i, k] = kind * n_sq + sq
                k += 1
                bb ^= low


def active_inputs(v: Variant, samples: Samples) -> np.ndarray:
    """[positions, most pieces] the inputs that are on, from the side to move's view; -1 pads."""
    occupied = (samples.white | samples.black).astype(np.uint64)
    most = max(int(np.unpackbits(occupied.view(np.uint8)).reshape(-1, 64).sum(axis=1).max()), 1)
    out = np.full((len(samples), most), -1, dtype=np.int64)
    _active(samples.white, samples.black, samples.kings, samples.turn.astype(np.int64), v.squares, square_table(v),
            out)
    return out


def mover_targets(samples: Samples, y_white: np.ndarray) -> np.ndarray:
    """White's targets turned into the side to move's."""
    return np.where(samples.turn == 0, y_white, 1 - y_white).astype(np.float32)


@dataclass
class Network:
    """The weights, in one flat array (``theta``) that the named layers are views of."""

    theta: np.ndarray
    inputs: int
    hidden: int

    @classmethod
    def random(cls, inputs: int, hidden: int, seed: int) -> Network:
        net = cls(np.zeros(_size(inputs, hidden), np.float32), inputs, hidden)
        rng = np.random.default_rng(seed)
        w1, b1, w2, b2, w3, b3 = net.params()
        w1[:] = rng.normal(0, 0.1, w1.shape)
        b1[:] = 0.1
        w2[:] = rng.normal(0, 1 / np.sqrt(hidden), w2.shape)
        w3[:] = rng.normal(0, 1 / np.sqrt(SECOND), w3.shape)
        return net

    def params(self, flat: np.ndarray | None = None) -> tuple[np.ndarray, ...]:
        """(w1 [inputs, hidden], b1, w2 [hidden, SECOND], b2, w3 [SECOND], b3 [1]) as views of ``flat`` (the
        weights, or a gradient laid out as they are)."""
        return layers(self.theta if flat is None else flat, layer_shapes(self.inputs, self.hidden))

    def logits(self, active: np.ndarray) -> np.ndarray:
        return _logits(active, *self.params())


def _size(inputs: int, hidden: int) -> int:
    return sum(int(np.prod(shape)) for shape in layer_shapes(inputs, hidden))


@njit(cache=True)
def _forward(i, active, w1, b1, w2, b2, w3, b3, a1, h1, a2, h2):
    hidden = b1.shape[0]
    for j in range(hidden):
        a1[j] = b1[j]
    for k in range(active.shape[1]):
        f = active[i, k]
        if f < 0:
            break
        for j in range(hidden):
            a1[j] += w1[f, j]
    for j in range(hidden):
        h1[j] = min(max(a1[j], 0.0), 1.0)
    z = b3[0]
    for m in range(w2.shape[1]):
        s = b2[m]
        for j in range(hidden):
            s += h1[j] * w2[j, m]
        a2[m] = s
        h2[m] = min(max(s, 0.0), 1.0)
        z += h2[m] * w3[m]
    return z


@njit(cache=True)
def _logits(active, w1, b1, w2, b2, w3, b3):
    hidden = b1.shape[0]
    a1 = np.empty(hidden, np.float32)
    h1 = np.empty(hidden, np.float32)
    a2 = np.empty(w2.shape[1], np.float32)
    h2 = np.empty(w2.shape[1], np.float32)
    out = np.empty(active.shape[0], np.float32)
    for i in range(active.shape[0]):
        out[i] = _forward(i, active, w1, b1, w2, b2, w3, b3, a1, h1, a2, h2)
    return out


@njit(cache=True)
def _epoch(order, batch, active, y, w1, b1, w2, b2, w3, b3, g1, gb1, g2, gb2, g3, gb3, theta, grad, m1, m2, rate,
           step):
    hidden = b1.shape[0]
    second = w2.shape[1]
    a1 = np.empty(hidden, np.float32)
    h1 = np.empty(hidden, np.float32)
    a2 = np.empty(second, np.float32)
    h2 = np.empty(second, np.float32)
    d1 = np.empty(hidden, np.float32)
    d2 = np.empty(second, np.float32)
    total = 0.0
    beta1, beta2, eps = 0.9, 0.999, 1e-8
    for start in range(0, order.shape[0], batch):
        grad[:] = 0.0
        end = min(start + batch, order.shape[0])
        for n in range(start, end):
            i = order[n]
            z = _forward(i, active, w1, b1, w2, b2, w3, b3, a1, h1, a2, h2)
            p = 1.0 / (1.0 + np.exp(-z))
            t = y[i]
            total += -(t * np.log(p + 1e-7) + (1 - t) * np.log(1 - p + 1e-7))
            dz = np.float32(p - t)
            gb3[0] += dz
            for m in range(second):
                g3[m] += dz * h2[m]
                d2[m] = dz * w3[m] if 0.0 < a2[m] < 1.0 else 0.0
                gb2[m] += d2[m]
            for j in range(hidden):
                s = np.float32(0.0)
                for m in range(second):
                    g2[j, m] += h1[j] * d2[m]
                    s += w2[j, m] * d2[m]
                d1[j] = s if 0.0 < a1[j] < 1.0 else 0.0
                gb1[j] += d1[j]
            for k in range(active.shape[1]):
                f = active[i, k]
                if f < 0:
                    break
                for j in range(hidden):
                    g1[f, j] += d1[j]
        step += 1
        scale = np.float32(1.0 / (end - start))
        c1 = 1.0 - beta1 ** step
        c2 = 1.0 - beta2 ** step
        for e in range(theta.shape[0]):
            ge = grad[e] * scale
            m1[e] = beta1 * m1[e] + (1 - beta1) * ge
            m2[e] = beta2 * m2[e] + (1 - beta2) * ge * ge
            theta[e] -= rate * (m1[e] / c1) / (np.sqrt(m2[e] / c2) + eps)
    return total / order.shape[0], step


def cross_entropy_mean(net: Network, active: np.ndarray, y: np.ndarray) -> float:
    return float(cross_entropy(sigmoid(net.logits(active).astype(np.float64)), y).mean())


def fit_network(net: Network, active: np.ndarray, y: np.ndarray, epochs: int, seed: int, batch: int = 256,
                rate: float = 1e-3, on_epoch=None) -> Network:
    """Adam over shuffled minibatches; ``on_epoch(epoch, training loss)`` after each pass. The rate falls by
    half over the last third of the passes."""
    rng = np.random.default_rng(seed)
    grad = np.zeros_like(net.theta)
    m1, m2 = np.zeros_like(net.theta), np.zeros_like(net.theta)
    w1, b1, w2, b2, w3, b3 = net.params()
    g1, gb1, g2, gb2, g3, gb3 = net.params(grad)
    step = 0
    for epoch in range(epochs):
        order = rng.permutation(len(y))
        r = rate if epoch < 2 * epochs // 3 else rate / 2
        value, step = _epoch(order, batch, active, y, w1, b1, w2, b2, w3, b3, g1, gb1, g2, gb2, g3, gb3, net.theta,
                             grad, m1, m2, np.float32(r), step)
        if on_epoch:
            on_epoch(epoch, value)
    return net


def write_network(path: Path, weights: Path, net: Network, scale: float, made_by: str) -> None:
    """A weights file: the learned weights in ``weights`` with the network added (then the search uses the
    network: ``engine.draughts.network``), written aside and moved into place."""
    with np.load(weights) as f:
        arrays = {name: f[name] for name in f.files if not name.startswith("net_")}
    arrays.update(net_theta=net.theta.astype(np.float32), net_hidden=np.array(net.hidden),
                  net_scale=np.array(float(scale)), net_made_by=np.array(made_by))
    part = path.with_name(path.stem + ".part.npz")
    np.savez_compressed(part, **arrays)
    part.replace(path)
