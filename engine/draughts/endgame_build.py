"""Building the endgame databases by retrograde analysis, and checking them.

``build`` solves the tables in an order where every move out of a table leads
to one solved before: fewer pieces first (a capture takes one away), then
fewer men (crowning turns a man into a king). A table and its colour twin
(the signature seen from the other side) are solved together, since their
quiet moves lead into each other.

Solving one pair:
1. Each position's moves are generated once. A move that captures or crowns
   leads to a solved table: its value is read. A quiet move stays in the
   pair: it is only counted.
2. Then pass ``k`` = 0, 1, 2, ... takes every position decided at ``k``
   plies from the end and walks its quiet moves backwards (un-moves) to the
   positions that lead to it: a loss makes each of them a win in ``k + 1``;
   a win takes one from their count of undecided moves, and a position whose
   count reaches zero is lost (in as many plies as its longest defence) or,
   when one of its moves leads to a solved draw, drawn.
3. Whatever is undecided when no pass decides more is a draw.

A side with no legal move loses, as the rules say; the databases know no move
counters (International's 16- and 5-move rules are the search's business).

The compiled parts see the flat arrays of every table: ``val`` (one of the
stored values, or a building state), ``dist`` (plies) and ``cnt`` (quiet moves
still undecided).
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numba import njit

from engine.draughts import kernel
from engine.draughts.endgames import (DRAW, FORMAT, INVALID, L_BITS, L_HALF, L_SIZE, L_SQUARES, LOSS, WIN, Endgames,
                                      Layout, index, paths, probe, rotate)
from engine.draughts.kernel import popcount
from engine.draughts.variants import Variant

U0 = np.uint64(0)
U1 = np.uint64(1)

# Building states beside the stored values.
UNKNOWN = 4
UNKNOWN_DRAWISH = 5  # undecided, and one move already leads to a draw: it cannot be lost
PENDING_WIN = 6  # a capture or crowning wins in ``dist`` plies; a quiet move may win sooner (if ``cnt`` > 0)
_FAR = 1 << 15

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


@njit(cache=True)
def _init_table(t, layout, offsets, binom, rules, val, dist, cnt, out, work):
    """Step 1 for one table (row ``t``: a, b, c, d, base, size); returns how many moves led to unsolved tables."""
    paths = np.empty((0, 0), dtype=np.uint64)
    plen = np.empty(0, dtype=np.int64)
    nbits = layout[L_BITS]
    legal = np.int64(kernel.MODE_LEGAL)
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
        win = _FAR
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
        if win < _FAR:
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


@njit(cache=True)
def _pass(k, group, layout, offsets, binom, rules, val, dist, cnt):
    """Step 2 at ``k`` plies for the tables of ``group``; returns the largest distance now decided or pending."""
    nbits = layout[L_BITS]
    half = np.uint64(layout[L_HALF])
    half1 = half + U1
    board = rules[kernel.R_BOARD]
    flying = rules[kernel.R_FLYING] != U0
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


@njit(cache=True)
def _settle(group, val, dist):
    """Step 3: the undecided positions of ``group`` are draws."""
    for g in range(group.shape[0]):
        base = group[g, _T_BASE]
        for i in range(base, base + group[g, _T_SIZE]):
            if val[i] == UNKNOWN or val[i] == UNKNOWN_DRAWISH:
                val[i] = DRAW
                dist[i] = 0


@njit(cache=True)
def _farthest(group, val, dist):
    far = np.int64(0)
    for g in range(group.shape[0]):
        base = group[g, _T_BASE]
        for i in range(base, base + group[g, _T_SIZE]):
            v = val[i]
            if (v == WIN or v == LOSS or v == PENDING_WIN) and dist[i] > far:
                far = np.int64(dist[i])
    return far


@njit(cache=True)
def _check_table(t, layout, offsets, binom, rules, wdl, dist, out, work):
    """The consistency pass over one table: every stored value and distance must follow from the successors'
    (read back from the stored arrays). Returns (positions wrong, the first one's index or -1)."""
    paths = np.empty((0, 0), dtype=np.uint64)
    plen = np.empty(0, dtype=np.int64)
    nbits = layout[L_BITS]
    legal = np.int64(kernel.MODE_LEGAL)
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
            win = _FAR
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
            if win < _FAR:
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


# --- driving a build -----------------------------------------------------------------

Progress = Callable[[str, int, int], None]  # (what, positions done, positions in all)


@dataclass(frozen=True)
class Built:
    """What a build made."""

    wdl: Path
    dist: Path
    positions: int
    seconds: float
    counts: dict[str, int]  # wins, losses, draws (positions held, unused indexes left out)
    longest: int  # plies of the longest win


def progress_bar(stream=None) -> Progress:
    """A progress line rewritten in place (on standard error by default): bar, percentage, positions, elapsed
    and remaining time."""
    t0 = time.perf_counter()
    stream = stream or sys.stderr

    def show(what: str, done: int, total: int) -> None:
        frac = done / total if total else 1.0
        spent = time.perf_counter() - t0
        eta = f"{spent / frac - spent:4.0f} s left" if 0 < frac < 1 else "         "
        bar = "#" * int(frac * 30)
        stream.write(f"\r{what:<28} [{bar:<30}] {frac:4.0%} {done / 1e6:7.1f}/{total / 1e6:.1f} M  {spent:5.0f} s  {eta}")
        if done >= total:
            stream.write("\n")
        stream.flush()

    return show


def _rows(tables) -> np.ndarray:
    return np.array(tables, dtype=np.int64).reshape(-1, 6)


def _unpack(wdl: np.ndarray, positions: int) -> np.ndarray:
    val = np.empty(wdl.shape[0] * 4, dtype=np.uint8)
    for k in range(4):
        val[k::4] = (wdl >> (2 * k)) & 3
    return val[:positions]


def _pack(val: np.ndarray) -> np.ndarray:
    padded = np.full((val.shape[0] + 3) // 4 * 4, INVALID, dtype=np.uint8)
    padded[: val.shape[0]] = val
    return (padded[0::4] | padded[1::4] << 2 | padded[2::4] << 4 | padded[3::4] << 6).astype(np.uint8)


def build(variant: Variant, pieces: int, directory: Path, progress: Progress | None = None,
          command: str = "") -> Built:
    """Solve every position of ``variant`` with up to ``pieces`` pieces and write the database to ``directory``.

    A database of fewer pieces already there is taken as it is (its tables come first in this one's), so a
    build stopped part way goes on from the last piece count it finished; build 3 before 4 to keep that step.
    """
    t0 = time.perf_counter()
    layout = Layout.of(variant, pieces)
    val = np.full(layout.positions, UNKNOWN, dtype=np.uint8)
    dist = np.zeros(layout.positions, dtype=np.uint16)
    cnt = np.zeros(layout.positions, dtype=np.uint8)
    solved = 0
    prior = Endgames.open(variant, pieces - 1, directory) if pieces > 2 else None
    if prior is not None:
        solved = prior.layout.positions
        val[:solved] = _unpack(np.asarray(prior.wdl), solved)
        dist[:solved] = prior.dist
    out = np.zeros((kernel.MAX_MOVES, kernel.MOVE_COLS), dtype=np.uint64)
    work = np.zeros((kernel.MAX_PATH, kernel.WORK_COLS), dtype=np.uint64)
    rules = variant.rules
    lay = (layout.vector, layout.offsets, layout.binom)
    done = {t[:4] for t in layout.tables if t[4] < solved}
    what = f"{variant.name} {pieces} pieces"
    for t in layout.tables:
        if t[:4] in done:
            continue
        a, b, c, d = t[:4]
        twin = next(u for u in layout.tables if u[:4] == (c, d, a, b))
        group = _rows([t] if twin == t else [t, twin])
        done.update({t[:4], twin[:4]})
        for row in group:
            if _init_table(row, *lay, rules, val, dist, cnt, out, work):
                raise RuntimeError(f"table {tuple(row[:4])} reads an unsolved table: the build order is wrong")
        k, far = 0, _farthest(group, val, dist)
        while k <= far:
            far = max(far, _pass(k, group, *lay, rules, val, dist, cnt))
            k += 1
        _settle(group, val, dist)
        solved += int(group[:, 5].sum())
        if progress:
            progress(what, solved, layout.positions)
    longest = int(dist.max()) if dist.size else 0
    counts = {name: int(np.count_nonzero(val == code)) for name, code in (("wins", WIN), ("losses", LOSS),
                                                                          ("draws", DRAW))}
    directory.mkdir(parents=True, exist_ok=True)
    wdl_path, dist_path, info_path = paths(variant, pieces, directory)
    _save(wdl_path, _pack(val))
    _save(dist_path, np.minimum(dist, 255).astype(np.uint8))
    seconds = time.perf_counter() - t0
    info = {"format": FORMAT, "variant": variant.name, "pieces": pieces, "positions": layout.positions,
            "bytes": wdl_path.stat().st_size + dist_path.stat().st_size, "seconds": round(seconds, 1),
            "longest_win_plies": longest, **counts, "command": command}
    _save_text(info_path, json.dumps(info, indent=1) + "\n")
    return Built(wdl_path, dist_path, layout.positions, seconds, counts, longest)


def _save(path: Path, arr: np.ndarray) -> None:
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "wb") as f:
        np.save(f, arr)
    tmp.replace(path)


def _save_text(path: Path, text: str) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text)
    tmp.replace(path)


def verify(endgames: Endgames, progress: Progress | None = None) -> tuple[int, int, str]:
    """Check every position against its successors' stored values: (positions checked, positions wrong, the
    first wrong one as a FEN-like text or '')."""
    layout = endgames.layout
    out = np.zeros((kernel.MAX_MOVES, kernel.MOVE_COLS), dtype=np.uint64)
    work = np.zeros((kernel.MAX_PATH, kernel.WORK_COLS), dtype=np.uint64)
    wrong = 0
    first = ""
    checked = 0
    for t in layout.tables:
        n, i = _check_table(_rows([t])[0], layout.vector, layout.offsets, layout.binom, layout.variant.rules,
                            endgames.wdl, endgames.dist, out, work)
        if n and not first:
            me, opp, kings, _ = position_at(*t[:4], i - t[4], layout.vector, layout.binom)
            first = f"table {t[:4]} index {i}: mover {int(me):#x}, other {int(opp):#x}, kings {int(kings):#x}"
        wrong += n
        checked += t[5]
        if progress:
            progress(f"check {layout.variant.name} {layout.pieces}", checked, layout.positions)
    return checked, wrong, first
