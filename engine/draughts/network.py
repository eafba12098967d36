"""A small network as the search runs it, its first layer in integers and kept up to date as moves are made.

The network (fitted by ``engine.training.network``) sees a position from the side to move: an input for each piece
on each square (own man, own king, the other's man, the other's king; the board turned half round when Black is
to move), a first layer of ``hidden`` units clipped to [0, 1], a second of ``SECOND`` units clipped the same way,
and one output, the side to move's score.

The first layer is in integers (a hidden unit's 1.0 is ``QA``), the rest in float32. The first layer's sums (the
accumulators) do not depend on the move order, so the search keeps two of them a ply, one for each side's view,
in the position's own row of its ``st`` array (after draughts' three bitboards, as int16): a move changes a few
inputs, and the accumulators of the next ply are the last ones with those few rows added or taken away. The first layer is stored by bit
rather than square, once for each view, so neither the update nor the refresh turns squares round:
row ``(view * KINDS + kind) * 64 + bit``, then the biases.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from numba import njit

from engine.compiled import hot
from engine.draughts.kernel import bit_index, lsb
from engine.draughts.variants import Variant

SECOND = 32
"""Units of the second layer."""
KINDS = 4
"""Inputs per square: own man, own king, the other's man, the other's king."""
QA = 255
"""A hidden unit's 1.0 in the accumulators."""
BITS = 64
N_BIAS = 2 * KINDS * BITS
"""The first layer's row of biases (after the rows of the pieces)."""
O_BIAS = SECOND
"""``out``'s row of the second layer's biases (after a row of weights a unit)."""
O_LAST = SECOND + 1
"""``out``'s row of the output's weights, then its bias."""
ACC = 3 * 4
"""Where the accumulators start in a position's row viewed as int16 (after the three bitboards)."""

NO_NETWORK = (np.zeros((0, 0), dtype=np.int16), np.zeros((0, 0), dtype=np.float32))
"""The arrays of a variant that has no network: the same types as a network's (writeable, as numba tells a
read-only array's type apart), so one compiled search serves both."""


def state_cols(net: np.ndarray) -> int:
    """Columns (uint64) of a position's row in the search: the bitboards, then the two accumulators if any."""
    return 3 + (2 * net.shape[1] * 2 + 7) // 8


def square_table(v: Variant) -> np.ndarray:
    """Bit number -> 0-based square from White's side (-1 for the bits that are no square)."""
    table = np.full(BITS, -1, dtype=np.int64)
    for sq in range(1, v.squares + 1):
        table[v.bit(sq).bit_length() - 1] = sq - 1
    return table


def tables(v: Variant, layers: tuple[np.ndarray, ...], scale: float) -> tuple[np.ndarray, np.ndarray]:
    """The search's arrays from the fitted layers (w1 [inputs, hidden], b1, w2 [hidden, SECOND], b2, w3 [SECOND],
    b3), whose output is a logit ``scale`` hundredths of a man a unit: the first layer in int16 (a row a piece on
    a bit and a view, then the biases), and the rest in float32 (a row a second-layer unit, acting on the
    accumulators' QA units; the biases; the output's weights and its bias, in hundredths of a man)."""
    w1, b1, w2, b2, w3, b3 = (np.asarray(x, dtype=np.float64) for x in layers)
    hidden = len(b1)
    if w1.shape != (KINDS * v.squares, hidden) or w2.shape != (hidden, SECOND):
        raise ValueError(f"not a {v.name} network of this evaluation's shape")
    net = np.zeros((N_BIAS + 1, hidden), dtype=np.int64)
    table = square_table(v)
    for view in range(2):
        for kind in range(KINDS):
            for bit in np.flatnonzero(table >= 0):
                sq = table[bit] if view == 0 else v.squares - 1 - table[bit]
                net[(view * KINDS + kind) * BITS + bit] = np.rint(w1[kind * v.squares + sq] * QA)
    net[N_BIAS] = np.rint(b1 * QA)
    # the accumulator holds the biases and a row per piece: int16 must hold any board's sum
    most = np.abs(net[N_BIAS]) + np.sort(np.abs(net[:N_BIAS]), axis=0)[-2 * v.men_per_side:].sum(axis=0)
    if most.max() >= 2 ** 15:
        raise ValueError("a network weight is beyond the int16 range")
    out = np.zeros((SECOND + 2, max(hidden, SECOND + 1)), dtype=np.float64)
    out[:SECOND, :hidden] = w2.T / QA
    out[O_BIAS, :SECOND] = b2
    out[O_LAST, :SECOND] = w3 * scale
    out[O_LAST, SECOND] = b3[0] * scale
    return net.astype(np.int16), out.astype(np.float32)


def read_network(path: Path, v: Variant) -> tuple[np.ndarray, np.ndarray] | None:
    """The search's arrays from a weights file's network (``engine.training.network.write_network``), or None if
    the file has none."""
    with np.load(path) as f:
        if "net_theta" not in f:
            return None
        theta, hidden, scale = f["net_theta"].astype(np.float64), int(f["net_hidden"]), float(f["net_scale"])
    shapes = layer_shapes(KINDS * v.squares, hidden)
    if len(theta) != sum(int(np.prod(s)) for s in shapes):
        raise ValueError(f"{path} does not hold a {v.name} network of this evaluation's shape")
    return tables(v, layers(theta, shapes), scale)


def layer_shapes(inputs: int, hidden: int) -> tuple[tuple[int, ...], ...]:
    """The shapes of the layers in their flat order: w1, b1, w2, b2, w3, b3."""
    return (inputs, hidden), (hidden,), (hidden, SECOND), (SECOND,), (SECOND,), (1,)


def layers(flat: np.ndarray, shapes: tuple[tuple[int, ...], ...]) -> tuple[np.ndarray, ...]:
    """The layers as views of ``flat``, one after the other."""
    out, at = [], 0
    for shape in shapes:
        n = int(np.prod(shape))
        out.append(flat[at:at + n].reshape(shape))
        at += n
    return tuple(out)


@njit(cache=True, inline="always")
def _row(view, colour, king, bit):
    """The first layer's row of a piece of ``colour`` (0 White) on ``bit`` seen by ``view``'s side."""
    kind = (0 if colour == view else 2) + (1 if king else 0)
    return (view * KINDS + kind) * BITS + bit_index(bit)


@njit(cache=True)
def refresh(acc, white, black, kings, net):
    """Fill ``acc`` (int16, the two views' accumulators one after the other) from the pieces."""
    hidden = net.shape[1]
    for view in range(2):
        at = view * hidden
        for j in range(hidden):
            acc[at + j] = net[N_BIAS, j]
        for colour in range(2):
            bb = white if colour == 0 else black
            while bb:
                low = lsb(bb)
                bb ^= low
                r = _row(view, colour, kings & low, low)
                for j in range(hidden):
                    acc[at + j] += net[r, j]


@njit(cache=True, inline="always")
def update(before, after, colour, kings, frm, to, captured, crown, net):
    """``after``'s accumulators (int16) from ``before``'s, ``colour`` having played the move (``kings`` before
    it)."""
    hidden = net.shape[1]
    was_king = (kings & frm) != 0
    for view in range(2):
        at = view * hidden
        gone = _row(view, colour, was_king, frm)
        come = _row(view, colour, was_king or crown != 0, to)
        for j in range(hidden):
            after[at + j] = before[at + j] - net[gone, j] + net[come, j]
        taken = captured
        while taken:
            low = lsb(taken)
            taken ^= low
            r = _row(view, 1 - colour, kings & low, low)
            for j in range(hidden):
                after[at + j] -= net[r, j]


@hot(fastmath=True)  # the sums in any order: vectorised
def score(acc, out):
    """The side to move's score in hundredths of a man from its accumulator (``hidden`` int16)."""
    hidden = acc.shape[0]
    z = out[O_LAST, SECOND]
    for m in range(SECOND):
        s = out[O_BIAS, m]
        w = out[m]
        for j in range(hidden):
            s += np.float32(min(max(acc[j], 0), QA)) * w[j]
        z += min(max(s, np.float32(0.0)), np.float32(1.0)) * out[O_LAST, m]
    return np.int64(np.floor(z + np.float32(0.5)))
