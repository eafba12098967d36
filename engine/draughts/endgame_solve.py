"""The compiled part of building the endgame databases: retrograde analysis over one pair of tables, and the
consistency check. ``engine.draughts.endgame_build`` drives them; its docstring tells the method.

The functions see the flat arrays of every table: ``val`` (one of the stored values, or a building state),
``dist`` (plies) and ``cnt`` (quiet moves still undecided). A table is a row of (a, b, c, d, base, size): its
material signature, where it starts and how many indexes it has. The functions a build calls release the
interpreter while they run (``nogil``): each can take seconds, and the process's other threads (``engine.lifeline``'s
watch) must not wait for them.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from engine.draughts import kernel, kernel_layout
from engine.draughts.endgames import DRAW, INVALID, L_BITS, L_HALF, L_SIZE, L_SQUARES, LOSS, WIN, index, probe, rotate
from engine.draughts.kernel import popcount

U0 = np.uint64(0)
U1 = np.uint64(1)

# Building states beside the stored values.
UNKNOWN = 4
UNKNOWN_DRAWISH = 5  # undecided, and one move already leads to a draw: it cannot be lost
PENDING_WIN = 6  # a capture or crowning wins in ``dist`` plies; a quiet move may win sooner (if ``cnt`` > 0)
FAR = 1 << 15  # farther than any distance

_T_A, _T_B, _T_C, _T_D, _T_BASE, _T_SIZE = range(6)  # columns of a group's table rows


@njit(cache=True)
def _unrank(r, k, lo, n, size, binom):
    """The squares (each plus ``lo``) of colex rank ``r`` among ``k``-sets of ``n``, as a bitboard."""
    g = U0
    for i in range(k, 0, -1):
        s = n - 1
        while binom[s, i] > r:
            s -= 1
        r -= binom[s, i]
        sq = s + lo
        g |= U1 << np.uint64(sq + sq // size)
    return g


@njit(cache=True)
def position_at(a, b, c, d, local, layout, binom):
    """(me, opp, kings, valid) of index ``local`` in table (a, b, c, d); not valid if two pieces share a square."""
    size = layout[L_SIZE]
    half = layout[L_HALF]
    n = layout[L_SQUARES]
    nd = binom[n, d]
    nc = binom[n - half, c]
    nb = binom[n, b]
    r_ok = local % nd
    local //= nd
    r_om = local % nc
    local //= nc
    r_mk = local % nb
    mm = _unrank(local // nb, a, half, n - half, size, binom)
    mk = _unrank(r_mk, b, 0, n, size, binom)
    om = _unrank(r_om, c, 0, n - half, size, binom)
    ok = _unrank(r_ok, d, 0, n, size, binom)
    valid = popcount(mm | mk | om | ok) == a + b + c + d
    return mm | mk, om | ok, mk | ok, valid


@njit(cache=True, nogil=True)
def init_table(t, layout, offsets, binom, rules, val, dist, cnt, out, work):
    """Step 1 for one table (row ``t``: a, b, c, d, base, size); returns how many moves led to unsolved tables."""
    paths = np.empty((0, 0), dtype=np.uint64)
    plen = np.empty(0, dtype=np.int64)
    nbits = layout[L_BITS]
    legal = np.int64(kernel_layout.MODE_LEGAL)
    errors = 0
    base = t[_T_BASE]
    for local in range(t[_T_SIZE]):
        i = base + local
        me, opp, kings, valid = position_at(t[_T_A], t[_T_B], t[_T_C], t[_T_D], local, layout, binom)
        if not valid:
            val[i] = INVALID
            continue
        end = kernel.generate(me, opp, kings, 0, rules, legal, out, 0, work, paths, plen)
        inside = 0
        win = FAR
        longest = 0
        drawish = False
        for m in range(end):
            if out[m, 2] == U0 and out[m, 3] == U0:
                inside += 1
                continue
            m2, o2, k2 = kernel.make(me, opp, kings, out[m, 0], out[m, 1], out[m, 2], out[m, 3])
            if o2 == U0:
                win = 1
                continue
            j = index(rotate(o2, nbits), rotate(m2, nbits), rotate(k2, nbits), layout, offsets, binom)
            v = val[j]
            e = np.int64(dist[j]) + 1
            if v == LOSS:
                win = min(win, e)
            elif v == WIN:
                longest = max(longest, e)
            elif v == DRAW:
                drawish = True
            else:
                errors += 1
        if win < FAR:
            val[i] = PENDING_WIN
            dist[i] = win
            cnt[i] = inside  # 0 when every move captures: then no un-move leads here
        elif inside == 0:
            val[i] = DRAW if drawish else LOSS  # no move at all: lost at once
            dist[i] = 0 if drawish else longest
        else:
            val[i] = UNKNOWN_DRAWISH if drawish else UNKNOWN
            dist[i] = longest
            cnt[i] = inside
    return errors


@njit(cache=True, nogil=True)
def retro_pass(k, group, layout, offsets, binom, rules, val, dist, cnt):
    """Step 2 at ``k`` plies for the tables of ``group``; returns the largest distance now decided or pending."""
    nbits = layout[L_BITS]
    half = np.uint64(layout[L_HALF])
    half1 = half + U1
    board = rules[kernel_layout.R_BOARD]
    flying = rules[kernel_layout.R_FLYING] != U0
    far = np.int64(0)
    for g in range(group.shape[0]):
        base = group[g, _T_BASE]
        for i in range(base, base + group[g, _T_SIZE]):
            if val[i] == PENDING_WIN and dist[i] == k:
                val[i] = WIN
    for g in range(group.shape[0]):
        t = group[g]
        base = t[_T_BASE]
        for i in range(base, base + t[_T_SIZE]):
            v = val[i]
            if (v != WIN and v != LOSS) or dist[i] != k:
                continue
            lost = v == LOSS
            me, opp, kings, _ = position_at(t[_T_A], t[_T_B], t[_T_C], t[_T_D], i - base, layout, binom)
            empty = board & ~(me | opp)
            rest = opp
            while rest:
                sq = rest & ~(rest - U1)
                rest ^= sq
                king = (kings & sq) != U0
                for d in range(4 if king else 2):  # the other side's men move down: they came from above
                    u = kernel.step(sq, d, half, half1) & board
                    while u & empty:
                        q_opp = opp ^ sq ^ u
                        q_kings = kings ^ sq ^ u if king else kings
                        j = index(rotate(q_opp, nbits), rotate(me, nbits), rotate(q_kings, nbits), layout, offsets,
                                  binom)
                        w = val[j]
                        if w == UNKNOWN or w == UNKNOWN_DRAWISH or (w == PENDING_WIN and cnt[j] > 0):
                            if lost:
                                val[j] = WIN
                                dist[j] = k + 1
                            elif w != PENDING_WIN:
                                cnt[j] -= 1
                                if dist[j] < k + 1:
                                    dist[j] = k + 1
                                if cnt[j] == 0:
                                    if w == UNKNOWN_DRAWISH:
                                        val[j] = DRAW
                                        dist[j] = 0
                                    else:
                                        val[j] = LOSS
                            if val[j] != UNKNOWN and val[j] != UNKNOWN_DRAWISH and dist[j] > far:
                                far = np.int64(dist[j])
                        if not (king and flying):
                            break
                        u = kernel.step(u, d, half, half1) & board
    return far


@njit(cache=True, nogil=True)
def settle(group, val, dist):
    """Step 3: the undecided positions of ``group`` are draws."""
    for g in range(group.shape[0]):
        base = group[g, _T_BASE]
        for i in range(base, base + group[g, _T_SIZE]):
            if val[i] == UNKNOWN or val[i] == UNKNOWN_DRAWISH:
                val[i] = DRAW
                dist[i] = 0


@njit(cache=True, nogil=True)
def farthest(group, val, dist):
    far = np.int64(0)
    for g in range(group.shape[0]):
        base = group[g, _T_BASE]
        for i in range(base, base + group[g, _T_SIZE]):
            v = val[i]
            if (v == WIN or v == LOSS or v == PENDING_WIN) and dist[i] > far:
                far = np.int64(dist[i])
    return far


@njit(cache=True, nogil=True)
def check_table(t, layout, offsets, binom, rules, wdl, dist, out, work):
    """The consistency pass over one table: every stored value and distance must follow from the successors'
    (read back from the stored arrays). Returns (positions wrong, the first one's index or -1)."""
    paths = np.empty((0, 0), dtype=np.uint64)
    plen = np.empty(0, dtype=np.int64)
    nbits = layout[L_BITS]
    legal = np.int64(kernel_layout.MODE_LEGAL)
    wrong = 0
    first = np.int64(-1)
    base = t[_T_BASE]
    for local in range(t[_T_SIZE]):
        i = base + local
        stored = np.int64((wdl[i >> 2] >> np.uint8(2 * (i & 3))) & np.uint8(3))
        me, opp, kings, valid = position_at(t[_T_A], t[_T_B], t[_T_C], t[_T_D], local, layout, binom)
        expect = np.int64(INVALID)
        plies = np.int64(0)
        if valid:
            end = kernel.generate(me, opp, kings, 0, rules, legal, out, 0, work, paths, plen)
            win = FAR
            longest = 0
            drawn = False
            for m in range(end):
                m2, o2, k2 = kernel.make(me, opp, kings, out[m, 0], out[m, 1], out[m, 2], out[m, 3])
                if o2 == U0:
                    win = 1
                    continue
                v, e = probe(o2, m2, k2, 1, layout, offsets, binom, wdl, dist)
                if v == LOSS:
                    win = min(win, e + 1)
                elif v == WIN:
                    longest = max(longest, e + 1)
                else:
                    drawn = True
            if win < FAR:
                expect, plies = WIN, win
            elif drawn:
                expect = DRAW
            else:
                expect, plies = LOSS, longest
        if stored != expect or (expect != DRAW and expect != INVALID and min(plies, 255) != dist[i]):
            wrong += 1
            if first < 0:
                first = i
    return wrong, first
