"""Static evaluation of draughts positions, in hundredths of a man, learned from games.

The score is a sum of weighted features, each weight in two phases (opening
and endgame) blended by the material on the board:

- patterns: the board is covered by overlapping 4x4 regions (16 on 10x10, 9
  on 8x8, two rows and two columns apart); each region's 8 dark squares are
  each empty, a white man or a black man, and every one of those 3^8 = 6561
  configurations has a weight of its own for that region;
- large patterns, where the weights file has them (Scan 3's kind): regions of
  4 columns by 6 rows, 12 dark squares and 3^12 = 531,441 configurations
  each, at the top and the bottom of the board (the columns as the small
  regions'; 8 on 10x10, 6 on 8x8), added to the small ones: the small regions
  generalise from fewer games, the large ones see whole formations;
- counts, White's minus Black's: men, kings, tempo (rows its men have
  advanced), the left/right balance of its men, kings in the centre and on the
  long diagonal, free steps of kings, runaway men 1 to 4 rows from crowning
  with no enemy piece in front of them while the enemy has no king; and a
  bonus for the side to move.

A pattern is seen from both sides: White's region table looks at the board,
Black's at the board turned half round with the colours swapped, through the
same table. So the evaluation is exactly the same for either colour, and
``Evaluator`` folds both looks into each region's table, one lookup each.

The weights are fitted to game results by ``python -m engine train``
(``engine/training/``) and shipped as ``weights/<variant>.npz``, read and
written by ``engine.draughts.weight_files`` (``load_evaluator`` gives a variant's
shipped ``Evaluator``); ``features``
gives the training the very numbers ``evaluate`` adds up. The hand-set
``weights/<variant>.json`` holds what is not learned: the nominal man and king
values (for the material-only yardstick, kings-only endings and, with ``START``, the training's
starting point), and the knowledge of kings-only endings (closing in on a lone king, its
English double corner, and the endings that are known draws with flying
kings: a lone king against two kings, or three when it holds the long
diagonal). In International (``draw_with_men``) those draws count men as
pieces too: its 16- and 5-move rules end such an ending in a draw before
men could crown and catch the king, so a lone king against three pieces (a
king among them) on the long diagonal, or against two anywhere, scores its learned score divided
like a drawn kings-only ending's, and the strong side keeps a fourth piece.
With ``drawish`` (Scan 3's drawish material; off unless a variant's file turns it on) other positions
with men are divided too: against a king, the side ahead with three pieces or fewer scores an eighth,
and with as many kings as the other side and men one apart at most, half. It leaves alone the
kings-only endings (scored by hand) and the draws against a lone king (divided already).

The features' and the weights' places in the arrays (``W_*``, ``G_*``, the pattern table's ``layout``) and the
tables built for a variant are ``engine.draughts.evaluation_tables``'s; this module keeps the ``Evaluator`` and
the compiled sums.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from numba import njit

from engine.compiled import hot
from engine.draughts import network
from engine.draughts.evaluation_tables import (BIG_PATTERNS, BIG_SQUARES, COUNTS, FINE, G_BIG_PAIR, G_BIG_REGIONS,
                                               G_BOARD, G_CENTRE, G_DOUBLE_CORNER, G_HALF, G_LANES, G_LEFT,
                                               G_LONG_DIAGONAL, G_PAIR_MASK, G_PAIR_STRIDE, G_PIECES, G_ROW, G_ROWS,
                                               G_SMALL_ROWS, G_TEMPO, G_WINDOWS, LANE, LANES, PAIR_PATTERNS, PATTERNS,
                                               PHASE_ONE, PHASES, REGION_SQUARES, W_DOUBLE_CORNER, W_DRAW_ANY_KINGS,
                                               W_DRAW_DIAGONAL_KINGS, W_DRAW_DIVISOR, W_DRAW_WITH_MEN, W_DRAWISH,
                                               W_KING, W_KING_PROXIMITY, W_LEARNED, cone_table, coord_table,
                                               geometry_table, layout, layout_of, regions, turned_patterns)
from engine.draughts.kernel import bit_index, lsb, popcount, step
from engine.draughts.position import Position
from engine.draughts.variants import Variant

U = np.uint64
U0 = np.uint64(0)
U1 = np.uint64(1)


@dataclass(frozen=True)
class Evaluator:
    """A variant's evaluation data: weights and the masks the features use."""

    variant: Variant
    weights: np.ndarray
    """int64[WEIGHTS_LEN]: the hand-set weights, then the learned counts' weights."""
    geometry: np.ndarray
    """uint64[2, GEO_LEN]: masks per side (see ``G_*``)."""
    cones: np.ndarray
    """uint64[2, 64]: per side and bit, the widened cone in front of a man."""
    coords: np.ndarray
    """int64[2, 64]: row and column of each bit (for distances)."""
    patterns: np.ndarray
    """int16[rows, PHASES]: each region's weights with Black's look folded in, in FINE units, flat as ``layout``
    lays them out (the large regions' only if the learned weights have them)."""
    net: np.ndarray = field(default_factory=lambda: network.NO_NETWORK[0])
    """int16[network.N_BIAS + 1, hidden]: the network's first layer, if the weights file has a network (then it
    scores what the counts and patterns would: ``engine.draughts.network``)."""
    net_out: np.ndarray = field(default_factory=lambda: network.NO_NETWORK[1])
    """float32[network.SECOND + 2, hidden or more]: the network's other layers."""

    @classmethod
    def of(cls, variant: Variant, weights: np.ndarray, counts: np.ndarray, tables: np.ndarray) -> Evaluator:
        """An evaluator from hand-set ``weights`` and learned weights in hundredths of a man: ``counts``
        [COUNTS, PHASES] and the regions' tables ``tables`` [rows, PHASES] laid out as ``layout`` lays them out
        (or [regions, PATTERNS, PHASES] for the small regions alone), seen from White."""
        flat = np.asarray(tables, dtype=np.float64).reshape(-1, PHASES)
        lay = layout_of(variant, len(flat))
        small_rows = lay.offsets[lay.small] if len(lay.turned) > lay.small else len(flat)
        big = None
        if len(flat) > small_rows:
            rows = np.flatnonzero(flat[small_rows:].any(axis=1))
            big = (rows, flat[small_rows + rows])
        return cls.build(variant, weights, counts, flat[:small_rows], big)

    @classmethod
    def build(cls, variant: Variant, weights: np.ndarray, counts: np.ndarray, small: np.ndarray,
               big: tuple[np.ndarray, np.ndarray] | None) -> Evaluator:
        """From the small regions' tables [rows, PHASES] and the large regions' seen rows (row numbers from the
        first large region's, and their weights), in hundredths of a man."""
        w = weights.copy()
        w[W_LEARNED:] = np.rint(np.asarray(counts) * FINE).astype(np.int64).ravel()
        lay = layout(variant, big is not None)
        fine = np.rint(small * FINE).astype(np.int32)
        folded = np.zeros((lay.rows, PHASES), dtype=np.int16)  # untouched pages of a large table cost nothing
        for k, t in enumerate(lay.turned[:lay.small]):
            theirs = fine[lay.offsets[t]:lay.offsets[t] + PATTERNS][turned_patterns(REGION_SQUARES)]
            both = fine[lay.offsets[k]:lay.offsets[k] + PATTERNS] - theirs
            if np.abs(both).max(initial=0) >= 2 ** 15:
                raise ValueError("a learned pattern weight is beyond the table's range")
            folded[lay.offsets[k]:lay.offsets[k] + PATTERNS] = both
        if big is not None:  # each seen pattern counts in two rows: its own (White's look) and Black's look at it
            rows, values = big
            region, look = rows // BIG_PATTERNS, rows % BIG_PATTERNS
            mirror = (lay.turned[lay.small + region] - lay.small) * BIG_PATTERNS + turned_patterns(BIG_SQUARES)[look]
            values = np.rint(values * FINE).astype(np.int32)
            targets, inverse = np.unique(np.concatenate([rows, mirror]), return_inverse=True)
            sums = np.zeros((len(targets), PHASES), dtype=np.int32)
            np.add.at(sums, inverse, np.concatenate([values, -values]))
            if np.abs(sums).max(initial=0) >= 2 ** 15:
                raise ValueError("a learned pattern weight is beyond the table's range")
            folded[lay.offsets[lay.small] + targets] = sums
        geometry = geometry_table(variant)
        geometry[:, G_BIG_REGIONS] = len(lay.turned) - lay.small
        return cls(variant, w, geometry, cone_table(variant), coord_table(variant), folded)

    def score(self, position: Position) -> int:
        """``evaluate`` of a position, for its side to move (the network's accumulator made from scratch)."""
        hidden = self.net.shape[1]
        acc = np.zeros(2 * hidden, dtype=np.int16)
        white, black, kings = U(position.white), U(position.black), U(position.kings)
        if hidden:
            network.refresh(acc, white, black, kings, self.net)
        side = int(position.turn)
        return int(evaluate(white, black, kings, side, self.weights, self.geometry, self.cones, self.coords,
                            self.patterns, self.net_out, acc[side * hidden:(side + 1) * hidden]))


@njit(cache=True, inline="always")
def _counts(me, opp, kings, side, geo, cones):
    """One side's counts, in ``FEATURES`` order without the side to move (``me`` belongs to ``side``)."""
    half = geo[side, G_HALF]
    half1 = half + U1
    rows = np.int64(geo[side, G_ROWS])
    empty = geo[side, G_BOARD] & ~(me | opp)
    men = me & ~kings
    mykings = me & kings
    tempo = (popcount(men & geo[side, G_TEMPO]) + 2 * popcount(men & geo[side, G_TEMPO + 1])
             + 4 * popcount(men & geo[side, G_TEMPO + 2]) + 8 * popcount(men & geo[side, G_TEMPO + 3]))
    men_count = popcount(men)
    left = popcount(men & geo[side, G_LEFT])
    mobility = np.int64(0)
    if mykings:
        for d in range(4):
            mobility += popcount(step(mykings, d, half, half1) & empty)
    run1 = run2 = run3 = run4 = np.int64(0)
    if not (opp & kings):
        for togo in range(1, 5):
            cand = men & geo[side, G_ROW + rows - 1 - togo]
            while cand:
                b = lsb(cand)
                cand ^= b
                if not (cones[side, bit_index(b)] & opp):
                    if togo == 1:
                        run1 += 1
                    elif togo == 2:
                        run2 += 1
                    elif togo == 3:
                        run3 += 1
                    else:
                        run4 += 1
    return (men_count, popcount(mykings), tempo, abs(2 * left - men_count),
            popcount(mykings & geo[side, G_CENTRE]), popcount(mykings & geo[side, G_LONG_DIAGONAL]), mobility,
            run1, run2, run3, run4)


@njit(cache=True, inline="always")
def _pair_parts(wm, bm, geo, r):
    """Row pair ``r``'s parts of the pattern numbers of every window, packed as ``LANES`` packs them."""
    shift = geo[0, G_PAIR_STRIDE] * np.uint64(r)
    mask = geo[0, G_PAIR_MASK]
    t = np.int64(geo[0, G_LANES])
    return LANES[t, np.int64((wm >> shift) & mask)] + 2 * LANES[t, np.int64((bm >> shift) & mask)]


@njit(cache=True, inline="always")
def _pattern(both, c):
    """Window ``c``'s pattern number from two row pairs' packed parts (the upper's plus 81 times the lower's)."""
    return (both >> (LANE * c)) & 0xFFFF


@njit(cache=True, inline="always")
def _big_parts(wm, bm, geo, half):
    """The packed parts of the three row pairs of the upper (``half`` 0) or lower (1) large regions."""
    first = np.int64(geo[0, G_BIG_PAIR]) if half else np.int64(0)
    return (_pair_parts(wm, bm, geo, first), _pair_parts(wm, bm, geo, first + 1),
            _pair_parts(wm, bm, geo, first + 2))


@njit(cache=True, inline="always")
def _big_pattern(top, middle, bottom, c):
    """Window ``c``'s large pattern number from three row pairs' packed parts."""
    return _pattern(top, c) + PAIR_PATTERNS * _pattern(middle, c) + PAIR_PATTERNS * PAIR_PATTERNS * _pattern(bottom, c)


@njit(cache=True, inline="always")
def _phase(white, black, geo):
    start = np.int64(geo[0, G_PIECES])
    return min(popcount(white | black), start) * PHASE_ONE // start


@hot()
def evaluate(white, black, kings, side, w, geo, cones, coords, pat, net_out, acc):
    """Score of the position for ``side`` (0 White, 1 Black), in hundredths of a man. With a network (``net_out``
    not empty: ``engine.draughts.network``), ``acc`` is the side to move's accumulator, and the network scores
    what the patterns would."""
    if net_out.shape[0] == 0:
        return _by_patterns(white, black, kings, side, w, geo, cones, coords, pat)
    if (white | black) & ~kings:
        score = network.score(acc, net_out)
        if side == 1:
            score = -score
        if w[W_DRAW_WITH_MEN] and _drawn_by_lone_king(white, black, kings, w, geo):
            score = _toward_draw(score, w)
        elif w[W_DRAWISH]:
            score = _drawish(score, white, black, kings)
    else:  # kings only: scored by hand, as the training leaves these endings out
        kw = popcount(white)
        kb = popcount(black)
        score = np.int64(0)
        if kw != kb:
            score = (kw - kb) * w[W_KING]
            bonus = _kings_ending(white, black, kw > kb, w, geo, coords)
            score += bonus if kw > kb else -bonus
        if _drawn_by_lone_king(white, black, kings, w, geo):
            score = _toward_draw(score, w)
    return score if side == 0 else -score


@njit(cache=True, inline="always")
def _by_patterns(white, black, kings, side, w, geo, cones, coords, pat):
    """``evaluate`` by the counts and the patterns."""
    cw = _counts(white, black, kings, 0, geo, cones)
    cb = _counts(black, white, kings, 1, geo, cones)
    opening = np.int64(0)
    endgame = np.int64(0)
    for f in range(COUNTS - 1):
        d = cw[f] - cb[f]
        opening += d * w[W_LEARNED + 2 * f]
        endgame += d * w[W_LEARNED + 2 * f + 1]
    to_move = np.int64(1) if side == 0 else np.int64(-1)
    opening += to_move * w[W_LEARNED + 2 * (COUNTS - 1)]
    endgame += to_move * w[W_LEARNED + 2 * (COUNTS - 1) + 1]
    wm = white & ~kings
    bm = black & ~kings
    windows = np.int64(geo[0, G_WINDOWS])
    pairs = np.int64(geo[0, G_ROWS]) // 2
    upper = _pair_parts(wm, bm, geo, 0)
    for r in range(1, pairs):
        lower = _pair_parts(wm, bm, geo, r)
        both = upper + PAIR_PATTERNS * lower
        for c in range(windows):
            row = ((r - 1) * windows + c) * PATTERNS + _pattern(both, c)
            opening += pat[row, 0]
            endgame += pat[row, 1]
        upper = lower
    if geo[0, G_BIG_REGIONS]:
        row0 = np.int64(geo[0, G_SMALL_ROWS])
        for half in range(2):
            top, middle, bottom = _big_parts(wm, bm, geo, half)
            for c in range(windows):
                row = row0 + (half * windows + c) * BIG_PATTERNS + _big_pattern(top, middle, bottom, c)
                opening += pat[row, 0]
                endgame += pat[row, 1]
    ph = _phase(white, black, geo)
    fine = opening * ph + endgame * (PHASE_ONE - ph)
    score = fine // (PHASE_ONE * FINE) if fine >= 0 else -((-fine) // (PHASE_ONE * FINE))
    by_hand = cw[0] + cb[0] == 0 and cw[1] != cb[1]
    if by_hand:
        # kings only: scored by hand, as the training leaves these endings out
        score = (cw[1] - cb[1]) * w[W_KING]
        white_strong = cw[1] > cb[1]
        bonus = _kings_ending(white, black, white_strong, w, geo, coords)
        score += bonus if white_strong else -bonus
    if (by_hand or w[W_DRAW_WITH_MEN]) and _drawn_by_lone_king(white, black, kings, w, geo):
        score = _toward_draw(score, w)  # with men, the training leaves these out too (``learned_positions``)
    elif w[W_DRAWISH] and not by_hand:
        score = _drawish(score, white, black, kings)
    return score if side == 0 else -score


@njit(cache=True, inline="always")
def _drawish_divisor(ahead, behind, kings):
    """What the drawish rule divides the score of the side owning ``ahead`` by, were it ahead: 8, 2 or 1."""
    if not (behind & kings):
        return np.int64(1)
    if popcount(ahead) <= 3:
        return np.int64(8)
    if popcount(ahead & kings) == popcount(behind & kings) and abs(popcount(ahead & ~kings)
                                                                  - popcount(behind & ~kings)) <= 1:
        return np.int64(2)
    return np.int64(1)


@njit(cache=True, inline="always")
def _drawish(score, white, black, kings):
    """``score`` (White's) divided where the side ahead's material is drawish against the other's king."""
    d = _drawish_divisor(white, black, kings) if score > 0 else _drawish_divisor(black, white, kings)
    return _divided(score, d)


@njit(cache=True, inline="always")
def _maybe_drawish(white, black, kings):
    """Whether ``_drawish`` may divide the position's score, whichever side is ahead."""
    return _drawish_divisor(white, black, kings) > 1 or _drawish_divisor(black, white, kings) > 1


@njit(cache=True, inline="always")
def _drawn_by_lone_king(white, black, kings, w, geo):
    """One side is a lone king and the other's pieces only draw against it: at most ``draw_any_kings`` of them,
    or ``draw_diagonal_kings`` while the lone king holds the long diagonal (all kings, or with ``draw_with_men``
    any pieces with a king among them, as International's rules count the moves only then)."""
    for lone, other in ((white, black), (black, white)):
        if popcount(lone) == 1 and (lone & kings) and (other & kings) and (
                w[W_DRAW_WITH_MEN] or not (other & ~kings)):
            n = popcount(other)
            if n <= w[W_DRAW_ANY_KINGS] or (n <= w[W_DRAW_DIAGONAL_KINGS] and (lone & geo[0, G_LONG_DIAGONAL])):
                return True
    return False


@njit(cache=True, inline="always")
def _toward_draw(score, w):
    """A drawn ending's score: divided by ``draw_divisor``."""
    return _divided(score, w[W_DRAW_DIVISOR])


@njit(cache=True, inline="always")
def _divided(score, d):
    """``score`` divided by ``d``, rounded toward zero."""
    return score // d if score >= 0 else -((-score) // d)


@njit(cache=True)
def learned_positions(white, black, kings, w, geo):
    """Which of the positions (given as arrays) ``evaluate`` scores by its learned weights alone: those with
    men on the board, except the draws against a lone king that ``draw_with_men`` knows and, with ``drawish``,
    those whose score it may divide."""
    out = np.zeros(white.shape[0], dtype=np.bool_)
    for n in range(white.shape[0]):
        out[n] = ((white[n] | black[n]) & ~kings[n]) != U0 and not _drawn_by_lone_king(
            white[n], black[n], kings[n], w, geo) and not (
            w[W_DRAWISH] and _maybe_drawish(white[n], black[n], kings[n]))
    return out


@hot()
def _kings_ending(white, black, white_strong, w, geo, coords):
    """Bonus for the side with more kings in a kings-only ending: close in, keep the weak out of the double corner."""
    strong, weak = (white, black) if white_strong else (black, white)
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


@njit(cache=True)
def features(white, black, kings, turn, geo, cones, counts, looks, phase):
    """The learned evaluation's inputs for positions given as arrays (the training's view of ``evaluate``).

    For position ``n``: ``counts[n]`` the COUNTS counts (White's minus Black's, and +1 or -1 for the side to
    move), ``looks[n, k, 0]`` region ``k``'s pattern number as White sees it (``black_looks`` adds Black's look;
    the large regions follow the small ones if ``geo`` has them),
    and ``phase[n]`` from 0 to PHASE_ONE. The score of a position that ``learned_positions`` keeps is then,
    for either phase's weights, the counts times their weights plus each region's weight of White's look minus
    that of Black's, blended by the phase.
    """
    for n in range(white.shape[0]):
        cw = _counts(white[n], black[n], kings[n], 0, geo, cones)
        cb = _counts(black[n], white[n], kings[n], 1, geo, cones)
        for f in range(COUNTS - 1):
            counts[n, f] = cw[f] - cb[f]
        counts[n, COUNTS - 1] = 1 if turn[n] == 0 else -1
        wm = white[n] & ~kings[n]
        bm = black[n] & ~kings[n]
        windows = np.int64(geo[0, G_WINDOWS])
        pairs = np.int64(geo[0, G_ROWS]) // 2
        for r in range(1, pairs):
            both = _pair_parts(wm, bm, geo, r - 1) + PAIR_PATTERNS * _pair_parts(wm, bm, geo, r)
            for c in range(windows):
                looks[n, (r - 1) * windows + c, 0] = _pattern(both, c)
        if geo[0, G_BIG_REGIONS]:
            small = (pairs - 1) * windows
            for half in range(2):
                top, middle, bottom = _big_parts(wm, bm, geo, half)
                for c in range(windows):
                    looks[n, small + half * windows + c, 0] = _big_pattern(top, middle, bottom, c)
        phase[n] = _phase(white[n], black[n], geo)


def black_looks(v: Variant, looks: np.ndarray) -> None:
    """Fill ``looks[:, :, 1]`` (Black's look at each region) from White's looks in ``looks[:, :, 0]`` (the large
    regions' too if ``looks`` has them)."""
    looks[:, :, 1] = layout(v, looks.shape[1] > len(regions(v))).turned_looks(looks[:, :, 0])
