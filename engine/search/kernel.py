"""The compiled alpha-beta search: one iteration of iterative deepening.

``search_iteration`` runs a negamax principal-variation search with a
transposition table, killer and history move ordering, late-move reductions,
a one-reply extension and a quiescence search over captures, to one depth and
inside one aspiration window. Python (``engine.search``) drives the
iterations, the windows and the clock; see that module for the public API.

Why one long module: numba caches a compiled function together with the
functions it calls only when they live in one module it can see whole; split
across modules the search lost its cache hits and recompiled at every start.
So the search's helpers stay here, beside ``search_iteration``.

The search is an explicit stack, not recursion: numba cannot load recursive
functions back from its cache reliably (see ``engine.draughts.kernel``), and one flat
loop keeps array arguments out of a hot call chain. Each ply has a frame row
(``F_*`` columns); calling a child means filling the next frame and jumping
to ``ENTER``; returning means popping to the parent and resuming at the step
its ``F_STATE`` names.

Game interface. The search sees a game only through the compiled
operations of ``engine.search.hooks`` (generate moves, make one, the key
after it, whether it is reversible, evaluate, the endgame databases' probe,
the lone-king rules' limit, a move's squares and a capture's order), called
on the one value the game hands in (``SearchHooks.compiled``). Each game
gives those operations their bodies for its own value's class, so numba
compiles and caches one search per game, the game's code inlined, and this
module imports no game.

Scores are in hundredths of a man from the side to move: a win in ``n``
plies scores ``WIN - n``, a loss ``-(WIN - n)``, so the fastest win and the
slowest loss are preferred; draws score ``DRAW``.
"""

import time
import warnings

import numpy as np
from llvmlite import ir
from numba import njit, objmode, types
from numba.core import cgutils
from numba.core.errors import NumbaWarning
from numba.extending import intrinsic

from engine.compiled import hot
from engine.search import hooks
from engine.search.hooks import MOVE_COLS, PROBE_DRAW, PROBE_NONE, PROBE_WIN

# The clock poll holds the GIL for a moment; the rest of the search runs without it.
warnings.filterwarnings("ignore", message="Code running in object mode won't allow parallel", category=NumbaWarning)

U0 = np.uint64(0)
U1 = np.uint64(1)

# --- scores -----------------------------------------------------------------
MAX_PLY = 128
INF = 32000  # beyond any score
WIN = 31000  # a win at the root; a win in n plies is WIN - n
WIN_BOUND = WIN - MAX_PLY  # |score| above this is a forced win or loss
# An ending the databases hold as won: ENDING_WIN less the plies to it and the plies the database gives to the end
# (so the search converts by the shortest way); lost endings score the opposite.
ENDING_WIN = 29000
ENDING_BOUND = ENDING_WIN - 1000  # |score| above this is a won or lost ending, or a forced result
DRAW = 0

# --- transposition table: rows (key ^ data, data), two rows a bucket, a bucket in one cache line ---
BOUND_UPPER = 1
BOUND_LOWER = 2
BOUND_EXACT = 3
# data bits: score+32768 (16) | depth (8) | bound (2) | generation (6) | from (7) | to (7) | captured hash (14) | has move (1)
_SCORE_OFF = 32768

# --- control vector (int64), shared with Python -------------------------------
C_NODES = 0  # nodes searched (in and out)
C_STOP = 1  # set to 1 from outside to stop the search
C_NODE_LIMIT = 2  # stop after this many nodes (0: no limit)
C_ABORTED = 3  # out: the iteration was cut short
C_ROOT_UPDATED = 4  # out: a root move raised alpha in this iteration
C_HIST_LEN = 5  # number of history keys stored before the root in ``keys``
C_REV_LIMIT = 6  # a ply counter of reversible moves reaching this is a draw
C_NOISE = 7  # amplitude of evaluation noise (0: none)
C_NOISE_SEED = 8
C_LMR = 9  # 1: late-move reductions on
C_GEN = 11  # transposition table generation (0-63)
C_SELDEPTH = 12  # out: deepest ply reached
C_FUTILITY = 15  # margin per ply of static-eval pruning near the leaves (0: off)
C_EXTEND = 16  # 1: a node with one legal move costs no depth
C_ENDINGS = 17  # 1: International's 16- and 5-move rules against a lone king apply
C_PROBCUT = 18  # margin per ply of the shallow probe that cuts a node expected far above beta (0: off)
C_THREATS = 19  # 1: a quiet position under threat where the quiescence search begins is searched one ply deeper
CTL_LEN = 20

# Columns of ``rev``: the draw counters along the line searched.
R_REVERSIBLE = 0  # plies of reversible moves leading here
R_ENDING = 1  # plies played in the current lone-king ending
R_ENDING_LIMIT = 2  # plies that ending allows (0: not such an ending)

# --- frame columns (int64), one frame per ply ---------------------------------
F_DEPTH = 0
F_ALPHA = 1
F_BETA = 2
F_PV = 3  # 1 in a principal-variation node
F_START = 4  # first row of this node's moves in ``out``
F_END = 5
F_NEXT = 6  # next row to pick
F_CUR = 7  # row of the move being searched
F_BEST = 8
F_BEST_ROW = 9
F_ALPHA0 = 10  # alpha on entry, for the bound stored in the table
F_COUNT = 11  # moves searched so far
F_RED = 12  # reduction applied to the current child
F_STATE = 13  # where to resume after the child returns
F_CHILD_DEPTH = 14
F_PROBCUT = 15  # 1 while the node's moves are searched shallow against a raised beta (ProbCut), before the real search
FRAME_COLS = 16

S_NULL = 1  # child searched with a null window (maybe reduced)
S_FULL = 2  # child searched with the full window

_ENTER = 0
_NEXT = 1
_RETURN = 2

# move ordering bands
_O_TT = np.int64(1) << 40
_O_CAPTURE = np.int64(1) << 30
_O_CROWN = np.int64(1) << 29
_O_KILLER = np.int64(1) << 28
_HISTORY_MAX = np.int64(1) << 26

# The move rows the search's caller allocates (``MOVE_COLS`` columns each).
MOVES_CAPACITY = MAX_PLY * 256


def reduction_table(divisor: float) -> np.ndarray:
    """Late-move reductions by (depth, moves already searched): log(depth) * log(count) / divisor."""
    t = np.zeros((64, 64), dtype=np.int64)
    for d in range(1, 64):
        for c in range(1, 64):
            t[d, c] = int(np.log(d) * np.log(c + 1) / divisor) if c >= 2 else 0
    return t  # rows of ``out``; one ply rarely has more than 100 moves


@njit(cache=True, inline="always")
def _evaluate(game, st, p, side, key, ctl):
    score = hooks.evaluate(game, st, p, side)
    noise = ctl[C_NOISE]
    if noise > 0:
        h = (key ^ np.uint64(ctl[C_NOISE_SEED])) * np.uint64(0x9E3779B97F4A7C15)
        score += np.int64((h >> np.uint64(33)) % np.uint64(2 * noise + 1)) - noise
    return score


RULES_CANNOT_DRAW = 10  # plies: a game over within the 5-move rule's count cannot be drawn by a counting rule
ENDING_HINT = 400  # a database win or loss a counting rule may still draw, at a leaf: worth this, less its plies


@njit(cache=True, inline="always")
def _ending_score(game, st, p, side, rev, rev_limit, endings):
    """The databases' score of the position at ply ``p`` for the side to move, or 1 (an odd score no ending
    has) when they do not hold it or cannot be trusted. The databases know no move counters, so a win or loss
    counts only where no counting rule can draw it first: within the plies the king-move rule has left, and
    where International's lone-king rules apply (``endings``), within the plies the current lone-king ending
    has left, or outside such an ending within the 5-move rule's plies (the way may lead into an ending the
    rules draw). Otherwise the search goes on, counting, and its leaves score the databases' word
    (``_leaf``). Draws are always draws: the rules only add draws."""
    v, plies = hooks.probe(game, st, p, side)
    if v == PROBE_NONE:
        return np.int64(1)
    if v == PROBE_DRAW:
        return np.int64(DRAW)
    if plies > rev_limit - rev[p, R_REVERSIBLE]:
        return np.int64(1)  # the king-move rule may draw it first: search on, counting
    if endings:
        limit = rev[p, R_ENDING_LIMIT]
        if limit > 0:
            if plies > limit - rev[p, R_ENDING]:
                return np.int64(1)  # the ending's count may draw it first (or a sacrifice restart it): search on
        elif plies > RULES_CANNOT_DRAW:
            return np.int64(1)  # the way to the end may pass through a lone-king ending that the rules draw first
    if v == PROBE_WIN:
        return ENDING_WIN - p - plies
    return -(ENDING_WIN - p - plies)


@njit(cache=True, inline="always")
def _leaf(game, st, p, side, key, ctl):
    """A leaf's score: a win or loss the databases hold but a count may still draw (``_ending_score`` left it to
    the search) scores ``ENDING_HINT`` less its plies for the winner, the opposite for the loser: short of a
    win, but above a draw, so that the defender keeps to the databases' draws and otherwise goes the longest
    way, and the winner the shortest (a man move or a capture on the way restarts the counts). Any other
    position scores the evaluation."""
    v, plies = hooks.probe(game, st, p, side)
    if v == PROBE_WIN:
        return np.int64(ENDING_HINT - plies)
    if v != PROBE_NONE and v != PROBE_DRAW:
        return np.int64(plies - ENDING_HINT)
    return _evaluate(game, st, p, side, key, ctl)


@njit(cache=True, inline="always")
def _child(frames, p, alpha, beta, pv, depth, start):
    """Fill the frame of ply ``p + 1`` to search the move in hand with this window and depth."""
    frames[p + 1, F_ALPHA] = alpha
    frames[p + 1, F_BETA] = beta
    frames[p + 1, F_PV] = pv
    frames[p + 1, F_DEPTH] = depth
    frames[p + 1, F_START] = start


@njit(cache=True, inline="always")
def _move_hash(out, i):
    return ((out[i, 2] * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(50)) & np.uint64(0x3FFF)


@njit(cache=True, inline="always")
def _tt_find(tt, key):
    """(slot, data) of the entry for ``key``, or (-1, 0) (no entry's data is 0: its score field never is). A slot
    is (key ^ data, data); each slot's data is read once and checked against its key word, so a slot that two
    searches wrote at once, or that another thread rewrites meanwhile, is a miss, never another position's data."""
    e = np.int64(key & np.uint64(tt.shape[0] - 2))
    data = tt[e, 1]
    if tt[e, 0] ^ data == key:
        return e, data
    data = tt[e + 1, 1]
    if tt[e + 1, 0] ^ data == key:
        return e + 1, data
    return np.int64(-1), U0


@intrinsic
def _prefetch(typingctx, tt, e):
    """Ask the CPU to fetch row ``e`` of the table into the cache, without waiting for it."""
    sig = types.void(tt, e)

    def codegen(context, builder, signature, args):
        ary = context.make_array(signature.args[0])(context, builder, args[0])
        ptr = cgutils.get_item_pointer(context, builder, signature.args[0], ary, [args[1], context.get_constant(types.intp, 0)])
        i8p = ir.IntType(8).as_pointer()
        i32 = ir.IntType(32)
        fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(ir.VoidType(), [i8p, i32, i32, i32]),
                                            "llvm.prefetch.p0i8")
        builder.call(fn, [builder.bitcast(ptr, i8p), i32(0), i32(3), i32(1)])  # read, keep in all levels, data
        return context.get_dummy_value()
    return sig, codegen


@njit(cache=True, inline="always")
def _tt_store(tt, key, score, depth, bound, gen, has_move, frm, to, chash):
    e, old = _tt_find(tt, key)
    if e < 0:
        # replace the shallower entry of the bucket, or one from an older search
        e = np.int64(key & np.uint64(tt.shape[0] - 2))
        d0 = np.int64((tt[e, 1] >> np.uint64(16)) & np.uint64(0xFF))
        d1 = np.int64((tt[e + 1, 1] >> np.uint64(16)) & np.uint64(0xFF))
        g0 = np.int64((tt[e, 1] >> np.uint64(26)) & np.uint64(0x3F))
        g1 = np.int64((tt[e + 1, 1] >> np.uint64(26)) & np.uint64(0x3F))
        v0 = d0 + (64 if g0 == gen else 0)
        v1 = d1 + (64 if g1 == gen else 0)
        if v1 < v0:
            e += 1
    elif not has_move and e == np.int64(key & np.uint64(tt.shape[0] - 2)):
        # keep the move of an earlier search of this position (in the bucket's first slot only: keeping it in
        # the second too cost International three plies in 1 s from the start, measured)
        if (old >> np.uint64(60)) & U1:
            has_move = True
            frm = np.int64((old >> np.uint64(32)) & np.uint64(0x7F))
            to = np.int64((old >> np.uint64(39)) & np.uint64(0x7F))
            chash = (old >> np.uint64(46)) & np.uint64(0x3FFF)
    data = np.uint64(score + _SCORE_OFF) & np.uint64(0xFFFF)
    data |= np.uint64(depth & 0xFF) << np.uint64(16)
    data |= np.uint64(bound) << np.uint64(24)
    data |= np.uint64(gen & 0x3F) << np.uint64(26)
    if has_move:
        data |= np.uint64(frm) << np.uint64(32)
        data |= np.uint64(to) << np.uint64(39)
        data |= chash << np.uint64(46)
        data |= U1 << np.uint64(60)
    tt[e, 0] = key ^ data
    tt[e, 1] = data


@hot(nogil=True)
def search_iteration(game, st, root_side, depth, alpha, beta, out, order, work, frames, keys, rev, pv, pvlen,
                     killers, history, tt, lmr_table, ctl, clock):
    """Search the position in ``st[0]`` (key in ``keys[ctl[C_HIST_LEN]]``) of ``game`` (the value its
    ``SearchHooks.compiled`` gives) to ``depth``.

    Returns the score of the root for the side to move, within (alpha, beta)
    or a bound outside it. The principal variation is left in ``pv[0, :pvlen[0]]``.
    If the clock, the node limit or the stop flag ends the search early,
    ``ctl[C_ABORTED]`` is set and the score is meaningless; the root's best
    move so far is in ``pv[0, 0]`` if ``ctl[C_ROOT_UPDATED]`` is set.
    """
    h0 = ctl[C_HIST_LEN]
    rev_limit = ctl[C_REV_LIMIT]
    lmr = ctl[C_LMR] != 0
    gen = ctl[C_GEN]
    ext_limit = 2 * depth + 4 if ctl[C_EXTEND] != 0 else 0
    endings = ctl[C_ENDINGS] != 0
    probcut = ctl[C_PROBCUT]
    threat_limit = 2 * depth + 4 if ctl[C_THREATS] != 0 else 0
    rev[0, R_ENDING_LIMIT] = hooks.ending_limit(game, st, 0) if endings else 0
    deadline = clock[0]
    nodes = ctl[C_NODES]
    node_limit = ctl[C_NODE_LIMIT]
    ctl[C_ABORTED] = 0
    ctl[C_ROOT_UPDATED] = 0

    p = 0
    frames[0, F_DEPTH] = depth
    frames[0, F_ALPHA] = alpha
    frames[0, F_BETA] = beta
    frames[0, F_PV] = 1
    frames[0, F_START] = 0
    action = _ENTER
    ret = np.int64(0)
    while True:
        if action == _ENTER:
            nodes += 1
            if (nodes & 1023) == 0:
                with objmode(now="float64"):
                    now = time.perf_counter()
                if now >= deadline or ctl[C_STOP] != 0 or (node_limit > 0 and nodes >= node_limit):
                    ctl[C_NODES] = nodes
                    ctl[C_ABORTED] = 1
                    return np.int64(0)
            if p > ctl[C_SELDEPTH]:
                ctl[C_SELDEPTH] = p
            pvlen[p] = 0
            side = root_side ^ (p & 1)
            d = frames[p, F_DEPTH]
            a = frames[p, F_ALPHA]
            b = frames[p, F_BETA]
            key = keys[h0 + p]
            if p > 0:
                r = rev[p, R_REVERSIBLE]
                if r >= rev_limit or (rev[p, R_ENDING_LIMIT] > 0 and rev[p, R_ENDING] >= rev[p, R_ENDING_LIMIT]):
                    ret = DRAW
                    action = _RETURN
                    continue
                j = h0 + p - 4  # a repeat needs at least four plies
                repeated = False
                while j >= 0 and j >= h0 + p - r:
                    if keys[j] == key:
                        repeated = True
                        break
                    j -= 2
                if repeated:
                    ret = DRAW
                    action = _RETURN
                    continue
                # mate distance pruning
                if a < -WIN + p:
                    a = -WIN + p
                if b > WIN - p - 1:
                    b = WIN - p - 1
                if a >= b:
                    ret = a
                    action = _RETURN
                    continue
                known = _ending_score(game, st, p, side, rev, rev_limit, endings)
                if known != 1:
                    ret = known
                    action = _RETURN
                    continue
            start = frames[p, F_START]
            if p >= MAX_PLY - 2:
                ret = _leaf(game, st, p, side, key, ctl)
                action = _RETURN
                continue
            tt_from = np.int64(-1)
            tt_to = np.int64(-1)
            tt_hash = U0
            if d <= 0:
                # quiescence: captures are compulsory, so a side with a capture must play one
                end = hooks.generate(game, st, p, side, True, out, start, work)
                if end == start:
                    if not (d == 0 and p < threat_limit and hooks.threatened(game, st, p, side)):
                        ret = _leaf(game, st, p, side, key, ctl)
                        action = _RETURN
                        continue
                    # quiet, but the other side threatens to capture: every move, one ply deep
                    end = hooks.generate(game, st, p, side, False, out, start, work)
                    if end == start:
                        ret = -(WIN - p)
                        action = _RETURN
                        continue
                    d = np.int64(1)
                    frames[p, F_DEPTH] = d
            else:
                e, data = _tt_find(tt, key)
                if e >= 0:
                    t_score = np.int64(data & np.uint64(0xFFFF)) - _SCORE_OFF
                    t_depth = np.int64((data >> np.uint64(16)) & np.uint64(0xFF))
                    t_bound = np.int64((data >> np.uint64(24)) & np.uint64(0x3))
                    if t_score > ENDING_BOUND:
                        t_score -= p
                    elif t_score < -ENDING_BOUND:
                        t_score += p
                    if (data >> np.uint64(60)) & U1:
                        tt_from = np.int64((data >> np.uint64(32)) & np.uint64(0x7F))
                        tt_to = np.int64((data >> np.uint64(39)) & np.uint64(0x7F))
                        tt_hash = (data >> np.uint64(46)) & np.uint64(0x3FFF)
                    if p > 0 and frames[p, F_PV] == 0 and t_depth >= d:
                        if (t_bound == BOUND_EXACT or (t_bound == BOUND_LOWER and t_score >= b)
                                or (t_bound == BOUND_UPPER and t_score <= a)):
                            ret = t_score
                            action = _RETURN
                            continue
                end = hooks.generate(game, st, p, side, False, out, start, work)
                if end == start:
                    ret = -(WIN - p)  # no legal move: lost
                    action = _RETURN
                    continue
                margin = ctl[C_FUTILITY]
                if (margin > 0 and d <= 2 and frames[p, F_PV] == 0 and out[start, 2] == U0
                        and abs(b) < ENDING_BOUND):
                    # a quiet position far above beta near the leaves: assume it holds
                    static = _leaf(game, st, p, side, key, ctl)
                    if static - margin * d >= b:
                        ret = static - margin * d
                        action = _RETURN
                        continue
            # order the moves
            k0 = killers[p, 0, 0]
            k0t = killers[p, 0, 1]
            k1 = killers[p, 1, 0]
            k1t = killers[p, 1, 1]
            for i in range(start, end if end - start > 1 else start):  # one move needs no order
                frm = out[i, 0]
                to = out[i, 1]
                cap = out[i, 2]
                if (tt_from >= 0 and hooks.square(game, frm) == tt_from and hooks.square(game, to) == tt_to
                        and _move_hash(out, i) == tt_hash):
                    order[i] = _O_TT
                elif cap != U0:
                    order[i] = _O_CAPTURE + hooks.capture_order(game, st, p, out, i)
                elif out[i, 3] != U0:
                    order[i] = _O_CROWN
                elif frm == k0 and to == k0t:
                    order[i] = _O_KILLER + 1
                elif frm == k1 and to == k1t:
                    order[i] = _O_KILLER
                else:
                    order[i] = history[side, hooks.square(game, frm), hooks.square(game, to)]
            frames[p, F_ALPHA] = a
            frames[p, F_BETA] = b
            frames[p, F_END] = end
            frames[p, F_NEXT] = start
            frames[p, F_BEST] = -INF
            frames[p, F_BEST_ROW] = -1
            frames[p, F_ALPHA0] = a
            frames[p, F_COUNT] = 0
            # ProbCut: a quiet enough node deep enough first searches its moves at 0.4 of the depth against beta
            # raised by ``probcut`` a ply; a move reaching that is taken to hold beta at full depth too
            frames[p, F_PROBCUT] = 1 if (probcut > 0 and d >= 3 and frames[p, F_PV] == 0 and end - start > 1
                                         and abs(b) + probcut * d < ENDING_BOUND) else 0
            action = _NEXT
            continue

        if action == _NEXT:
            i = frames[p, F_NEXT]
            end = frames[p, F_END]
            d = frames[p, F_DEPTH]
            side = root_side ^ (p & 1)
            if i >= end and frames[p, F_PROBCUT] != 0:
                # no move reached the raised beta: search the node for real
                frames[p, F_PROBCUT] = 0
                frames[p, F_NEXT] = frames[p, F_START]
                continue
            if i >= end:
                best = frames[p, F_BEST]
                br = frames[p, F_BEST_ROW]
                if d > 0:
                    bound = BOUND_EXACT
                    if best <= frames[p, F_ALPHA0]:
                        bound = BOUND_UPPER
                    elif best >= frames[p, F_BETA]:
                        bound = BOUND_LOWER
                    s = best
                    if s > ENDING_BOUND:
                        s += p
                    elif s < -ENDING_BOUND:
                        s -= p
                    has = br >= 0 and bound != BOUND_UPPER
                    fi = np.int64(0)
                    ti = np.int64(0)
                    mh = U0
                    if has:
                        fi = hooks.square(game, out[br, 0])
                        ti = hooks.square(game, out[br, 1])
                        mh = _move_hash(out, br)
                    _tt_store(tt, keys[h0 + p], s, d, bound, gen, has, fi, ti, mh)
                ret = best
                action = _RETURN
                continue
            # pick the best-ordered remaining move
            bi = i
            bo = order[i]
            for j in range(i + 1, end):
                if order[j] > bo:
                    bo = order[j]
                    bi = j
            if bi != i:
                for c in range(MOVE_COLS):
                    tmp = out[i, c]
                    out[i, c] = out[bi, c]
                    out[bi, c] = tmp
                order[bi] = order[i]
                order[i] = bo
            frames[p, F_NEXT] = i + 1
            frames[p, F_CUR] = i
            hooks.make(game, st, p, side, out, i)
            child_key = hooks.key_after(game, keys[h0 + p], st, p, side, out, i)
            keys[h0 + p + 1] = child_key
            rev[p + 1, R_REVERSIBLE] = rev[p, R_REVERSIBLE] + 1 if hooks.reversible(game, st, p, out, i) else 0
            if endings:
                limit = hooks.ending_limit(game, st, p + 1)
                same = limit == rev[p, R_ENDING_LIMIT] and out[i, 2] == U0
                rev[p + 1, R_ENDING] = rev[p, R_ENDING] + 1 if same else 0
                rev[p + 1, R_ENDING_LIMIT] = limit
            count = frames[p, F_COUNT]
            a = frames[p, F_ALPHA]
            b = frames[p, F_BETA]
            if d <= 0:
                cd = d - 1  # the quiescence search's first ply is depth 0, its later ones below
            elif end - frames[p, F_START] == 1 and p < ext_limit:
                cd = d  # one legal reply: no ply is spent on it
            else:
                cd = d - 1
            frames[p, F_CHILD_DEPTH] = cd
            if cd > 0:
                _prefetch(tt, np.int64(child_key & np.uint64(tt.shape[0] - 2)))  # the child looks there first
            red = np.int64(0)
            if frames[p, F_PROBCUT] != 0:
                raised = b + probcut * d
                _child(frames, p, -raised, -raised + 1, 0, d * 4 // 10 - 1, end)
                frames[p, F_STATE] = S_FULL
            elif count == 0 or d <= 0:
                _child(frames, p, -b, -a, frames[p, F_PV], cd, end)
                frames[p, F_STATE] = S_FULL
            else:
                if lmr and d >= 3 and order[i] < _O_KILLER:
                    red = lmr_table[min(d, 63), min(count, 63)]
                    if frames[p, F_PV] != 0 and red > 0:
                        red -= 1
                    if red >= cd:
                        red = cd - 1
                _child(frames, p, -a - 1, -a, 0, cd - red, end)
                frames[p, F_STATE] = S_NULL
            frames[p, F_RED] = red
            p += 1
            action = _ENTER
            continue

        # _RETURN: hand ``ret`` to the parent
        if p == 0:
            ctl[C_NODES] = nodes
            return ret
        p -= 1
        score = -ret
        i = frames[p, F_CUR]
        a = frames[p, F_ALPHA]
        b = frames[p, F_BETA]
        end = frames[p, F_END]
        if frames[p, F_PROBCUT] != 0:
            margin = probcut * frames[p, F_DEPTH]
            if score >= b + margin:
                ret = score - margin  # the shallow search cleared the raised beta: the node is taken to hold beta
                action = _RETURN
            else:
                action = _NEXT
            continue
        if frames[p, F_STATE] == S_NULL and score > a:
            if frames[p, F_RED] > 0:
                # a reduced move beat alpha: search it again at full depth
                frames[p, F_RED] = 0
                _child(frames, p, -a - 1, -a, 0, frames[p, F_CHILD_DEPTH], end)
                p += 1
                action = _ENTER
                continue
            if score < b and frames[p, F_PV] != 0:
                frames[p, F_STATE] = S_FULL
                _child(frames, p, -b, -a, 1, frames[p, F_CHILD_DEPTH], end)
                p += 1
                action = _ENTER
                continue
        frames[p, F_COUNT] += 1
        if score > frames[p, F_BEST]:
            frames[p, F_BEST] = score
            frames[p, F_BEST_ROW] = i
            if score > a:
                frames[p, F_ALPHA] = score
                # the principal variation: this move, then the child's
                for c in range(MOVE_COLS):
                    pv[p, 0, c] = out[i, c]
                n = pvlen[p + 1]
                for k in range(n):
                    for c in range(MOVE_COLS):
                        pv[p, k + 1, c] = pv[p + 1, k, c]
                pvlen[p] = n + 1
                if p == 0:
                    ctl[C_ROOT_UPDATED] = 1
                if score >= b:
                    d = frames[p, F_DEPTH]
                    if out[i, 2] == U0 and d > 0:
                        side = root_side ^ (p & 1)
                        if not (killers[p, 0, 0] == out[i, 0] and killers[p, 0, 1] == out[i, 1]):
                            killers[p, 1, 0] = killers[p, 0, 0]
                            killers[p, 1, 1] = killers[p, 0, 1]
                            killers[p, 0, 0] = out[i, 0]
                            killers[p, 0, 1] = out[i, 1]
                        fi = hooks.square(game, out[i, 0])
                        ti = hooks.square(game, out[i, 1])
                        hv = history[side, fi, ti] + d * d
                        if hv > _HISTORY_MAX:
                            hv = _HISTORY_MAX
                        history[side, fi, ti] = hv
                    frames[p, F_NEXT] = end
        action = _NEXT
