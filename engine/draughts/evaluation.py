"""Static evaluation of draughts positions, in hundredths of a man.

The weights of every feature live in one JSON file per variant
(``engine/draughts/weights/<variant>.json``), so they can be tuned without touching
code. ``Evaluator`` loads them with the board masks the features need;
``evaluate`` (compiled) scores a position for the side to move.

Features, each computed for both sides and subtracted:

- material: men and kings;
- advancement: a value per row a man has gone forward (the tempo of the
  middlegame), and ``tempo_endgame`` per row, growing as pieces come off;
- back rank: men still guarding the crowning row of the other side;
- centre and edge: men on the central squares, men on the side edges, kings
  on the long diagonal (flying kings) or in the centre;
- mobility: free forward steps of men and free steps of kings;
- structure (seed 000's compactness): men covered from behind on both sides,
  and a malus per empty square touching one's own pieces;
- runaway men: a man a few rows from crowning with no enemy piece in the
  widened cone in front of it, while the enemy has no king;
- endgame knowledge: trading down when ahead; in kings-only endings the
  stronger side's kings closing in and the weaker king's double-corner
  refuge (English); endings that are known draws with flying kings (a lone
  king against two kings, or three when the lone king holds the long
  diagonal) are scored close to zero.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numba import njit

from engine.draughts.kernel import bit_index, lsb, step
from engine.draughts.variants import Variant

U0 = np.uint64(0)
U1 = np.uint64(1)

# --- weight vector layout (int64); the JSON keys are the lower-case names -----
W_MAN = 0
W_KING = 1
W_BACK_RANK = 2
W_CENTRE = 3
W_EDGE = 4
W_KING_CENTRE = 5
W_KING_DIAGONAL = 6
W_MOBILITY = 7
W_SUPPORTED = 8
W_LOOSE = 9
W_TEMPO_ENDGAME = 10
W_TRADE_DOWN = 11
W_KING_PROXIMITY = 12
W_DOUBLE_CORNER = 13
W_DRAW_ANY_KINGS = 14  # strong side's kings (no men) that only draw against a lone king
W_DRAW_DIAGONAL_KINGS = 15  # ... that only draw when the lone king holds the long diagonal
W_DRAW_DIVISOR = 16  # a drawn ending's score is divided by this
W_ADVANCE = 17  # 10 entries: value of a man on row r counted from its own back row
W_RUNAWAY = 27  # 4 entries: bonus for a runaway man 1, 2, 3 or 4 rows from crowning
WEIGHTS_LEN = 31

_SCALARS = {
    "man": W_MAN, "king": W_KING, "back_rank": W_BACK_RANK, "centre": W_CENTRE, "edge": W_EDGE,
    "king_centre": W_KING_CENTRE, "king_diagonal": W_KING_DIAGONAL, "mobility": W_MOBILITY,
    "supported": W_SUPPORTED, "loose": W_LOOSE, "tempo_endgame": W_TEMPO_ENDGAME,
    "trade_down": W_TRADE_DOWN, "king_proximity": W_KING_PROXIMITY, "double_corner": W_DOUBLE_CORNER,
    "draw_any_kings": W_DRAW_ANY_KINGS, "draw_diagonal_kings": W_DRAW_DIAGONAL_KINGS,
    "draw_divisor": W_DRAW_DIVISOR,
}
_LISTS = {"advancement": (W_ADVANCE, 10), "runaway": (W_RUNAWAY, 4)}

# --- geometry table layout (uint64, one row per side) -------------------------
G_ROW = 0  # 10 rows: bits of row r counted from this side's back rank
G_CENTRE = 10
G_EDGE = 11
G_LONG_DIAGONAL = 12
G_DOUBLE_CORNER = 13  # the two squares of each double corner
G_NO_STEP = 14  # 4 entries: squares with no neighbour in direction d
G_BOARD = 18
G_HALF = 19
G_ROWS = 20  # board size
GEO_LEN = 21

WEIGHTS_DIR = Path(__file__).with_name("weights")


@dataclass(frozen=True)
class Evaluator:
    """A variant's evaluation data: weights and the masks the features use."""

    variant: Variant
    weights: np.ndarray
    """int64[WEIGHTS_LEN], from the variant's JSON file."""
    geometry: np.ndarray
    """uint64[2, GEO_LEN]: masks per side (see ``G_*``)."""
    cones: np.ndarray
    """uint64[2, 64]: per side and bit, the widened cone in front of a man."""
    coords: np.ndarray
    """int64[2, 64]: row and column of each bit (for distances)."""

    @classmethod
    def load(cls, variant: Variant, weights_file: Path | None = None, overrides: dict | None = None) -> Evaluator:
        data = json.loads((weights_file or WEIGHTS_DIR / f"{variant.name}.json").read_text())
        data.update(overrides or {})
        return cls(variant, weights_vector(data), _geometry(variant), _cones(variant), _coords(variant))


def weights_vector(data: dict) -> np.ndarray:
    """The weight vector from a dict of named weights; keys starting with '_' are comments."""
    w = np.zeros(WEIGHTS_LEN, dtype=np.int64)
    for name, value in data.items():
        if name.startswith("_"):
            continue
        if name in _SCALARS:
            w[_SCALARS[name]] = int(value)
        elif name in _LISTS:
            start, size = _LISTS[name]
            if len(value) > size:
                raise ValueError(f"weight {name!r} takes at most {size} values")
            w[start:start + len(value)] = [int(x) for x in value]
        else:
            raise ValueError(f"unknown weight {name!r}")
    if w[W_DRAW_DIVISOR] < 1:
        w[W_DRAW_DIVISOR] = 1
    return w


def _geometry(v: Variant) -> np.ndarray:
    g = np.zeros((2, GEO_LEN), dtype=np.uint64)
    n = v.size
    squares = range(1, v.squares + 1)
    rc = {s: v.row_col(s) for s in squares}
    centre = v.mask(s for s in squares if 2 <= rc[s][1] <= n - 3 and n // 2 - 1 <= rc[s][0] <= n // 2)
    edge = v.mask(s for s in squares if rc[s][1] in (0, n - 1))
    diagonal = v.mask(s for s in squares if rc[s][0] + rc[s][1] == n - 1)
    corners = v.mask(s for s in squares if (rc[s][0], rc[s][1]) in ((0, n - 1), (1, n - 2), (n - 1, 0), (n - 2, 1)))
    deltas = ((-1, -1), (-1, 1), (1, -1), (1, 1))  # kernel directions 0-3 in (row, column)
    for side in (0, 1):
        for r in range(n):
            g[side, G_ROW + r] = v.row_mask(n - 1 - r if side == 0 else r)
        g[side, G_CENTRE] = centre
        g[side, G_EDGE] = edge
        g[side, G_LONG_DIAGONAL] = diagonal
        g[side, G_DOUBLE_CORNER] = corners
        for d, (dr, dc) in enumerate(deltas):
            g[side, G_NO_STEP + d] = v.mask(s for s in squares if v.square_at(rc[s][0] + dr, rc[s][1] + dc) is None)
        g[side, G_BOARD] = v.board_mask
        g[side, G_HALF] = v.half
        g[side, G_ROWS] = n
    return g


def _cones(v: Variant) -> np.ndarray:
    """Squares in front of a man that an enemy piece must reach in time to stop it."""
    cones = np.zeros((2, 64), dtype=np.uint64)
    for s in range(1, v.squares + 1):
        row, col = v.row_col(s)
        bit = v.bit(s).bit_length() - 1
        for side, ahead in ((0, range(row - 1, -1, -1)), (1, range(row + 1, v.size))):
            mask = 0
            for r in ahead:
                dist = abs(r - row)
                for c in range(col - dist - 1, col + dist + 2):
                    sq = v.square_at(r, c)
                    if sq is not None:
                        mask |= v.bit(sq)
            cones[side, bit] = mask
    return cones


def _coords(v: Variant) -> np.ndarray:
    coords = np.zeros((2, 64), dtype=np.int64)
    for s in range(1, v.squares + 1):
        bit = v.bit(s).bit_length() - 1
        coords[0, bit], coords[1, bit] = v.row_col(s)
    return coords


@njit(cache=True, inline="always")
def popcount(x):
    x = x - ((x >> U1) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return np.int64((x * np.uint64(0x0101010101010101)) >> np.uint64(56))


@njit(cache=True)
def _side_terms(me, opp, kings, side, w, geo, cones, men_gone_scale):
    """Positional terms for one side (``me`` belongs to ``side``), without material."""
    half = geo[side, G_HALF]
    half1 = half + U1
    board = geo[side, G_BOARD]
    rows = np.int64(geo[side, G_ROWS])
    empty = board & ~(me | opp)
    men = me & ~kings
    mykings = me & kings
    fwd0 = 0 if side == 0 else 2
    back0 = 2 - fwd0
    score = np.int64(0)
    tempo = np.int64(0)
    for r in range(1, rows):
        c = popcount(men & geo[side, G_ROW + r])
        score += c * w[W_ADVANCE + r]
        tempo += c * r
    score += tempo * w[W_TEMPO_ENDGAME] * men_gone_scale // 64
    if opp & ~kings:
        score += popcount(men & geo[side, G_ROW]) * w[W_BACK_RANK]
    score += popcount(men & geo[side, G_CENTRE]) * w[W_CENTRE]
    score += popcount(men & geo[side, G_EDGE]) * w[W_EDGE]
    score += popcount(mykings & geo[side, G_CENTRE]) * w[W_KING_CENTRE]
    score += popcount(mykings & geo[side, G_LONG_DIAGONAL]) * w[W_KING_DIAGONAL]
    # mobility: free single steps
    mob = popcount(step(men, fwd0, half, half1) & empty) + popcount(step(men, fwd0 + 1, half, half1) & empty)
    near = U0
    for d in range(4):
        near |= step(me, d, half, half1) & board
        if mykings:
            mob += popcount(step(mykings, d, half, half1) & empty)
    score += mob * w[W_MOBILITY]
    score += popcount(near & empty) * w[W_LOOSE]
    # men covered from behind on both sides (or backed by the board's edge)
    cover_a = (men & step(me, 3 - back0, half, half1)) | (men & geo[side, G_NO_STEP + back0])
    cover_b = (men & step(me, 2 - back0, half, half1)) | (men & geo[side, G_NO_STEP + back0 + 1])
    score += popcount(cover_a & cover_b) * w[W_SUPPORTED]
    # runaway men, while the enemy has no king to catch them
    if not (opp & kings):
        for togo in range(1, 5):
            cand = men & geo[side, G_ROW + rows - 1 - togo]
            while cand:
                b = lsb(cand)
                cand ^= b
                if not (cones[side, bit_index(b)] & opp):
                    score += w[W_RUNAWAY + togo - 1]
    return score


@njit(cache=True)
def evaluate(white, black, kings, side, w, geo, cones, coords):
    """Score of the position for ``side`` (0 White, 1 Black), in hundredths of a man."""
    wm = popcount(white & ~kings)
    wk = popcount(white & kings)
    bm = popcount(black & ~kings)
    bk = popcount(black & kings)
    mat_w = wm * w[W_MAN] + wk * w[W_KING]
    mat_b = bm * w[W_MAN] + bk * w[W_KING]
    total = wm + wk + bm + bk
    start_total = 2 * np.int64(geo[0, G_HALF]) * (np.int64(geo[0, G_ROWS]) // 2 - 1)
    gone = start_total - total
    scale = gone * 64 // start_total
    score = mat_w - mat_b
    score += _side_terms(white, black, kings, 0, w, geo, cones, scale)
    score -= _side_terms(black, white, kings, 1, w, geo, cones, scale)
    if mat_w != mat_b:
        ahead = np.int64(1) if mat_w > mat_b else np.int64(-1)
        score += ahead * gone * w[W_TRADE_DOWN]
        if wm + bm == 0:
            score += ahead * _kings_ending(white, black, kings, mat_w > mat_b, w, geo, coords)
            strong_k = wk if mat_w > mat_b else bk
            weak = black if mat_w > mat_b else white
            if popcount(weak) == 1 and (strong_k <= w[W_DRAW_ANY_KINGS] or (
                    strong_k <= w[W_DRAW_DIAGONAL_KINGS] and (weak & geo[0, G_LONG_DIAGONAL]))):
                score //= w[W_DRAW_DIVISOR]
    return score if side == 0 else -score


@njit(cache=True)
def _kings_ending(white, black, kings, white_strong, w, geo, coords):
    """Bonus for the stronger side in a kings-only ending: close in, keep the weak out of the double corner."""
    strong = white if white_strong else black
    weak = black if white_strong else white
    bonus = np.int64(0)
    if weak & geo[0, G_DOUBLE_CORNER]:
        bonus -= w[W_DOUBLE_CORNER]
    closest = np.int64(99)
    s = strong
    while s:
        a = lsb(s)
        s ^= a
        ia = bit_index(a)
        t = weak
        while t:
            b = lsb(t)
            t ^= b
            ib = bit_index(b)
            dist = max(abs(coords[0, ia] - coords[0, ib]), abs(coords[1, ia] - coords[1, ib]))
            closest = min(closest, dist)
    if closest < 99:
        bonus += (np.int64(geo[0, G_ROWS]) - closest) * w[W_KING_PROXIMITY]
    return bonus
