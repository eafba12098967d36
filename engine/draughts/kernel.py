"""The compiled core: move generation, move making, perft and Zobrist keys.

Everything here sees plain uint64 bitboards and small numpy arrays, never Python
objects, so it compiles with numba and runs unchanged as Python when
``NUMBA_DISABLE_JIT=1`` is set.

Board layout (both board sizes): square ``s`` (0-based, PDN order, square 1 at
the top left from White's side) lives at bit ``s + s // size``, leaving one
unused "ghost" bit after every two rows. A diagonal step is then a single shift
by ``half`` or ``half + 1`` (``half`` = squares per row), and a step off the
left or right edge lands on a ghost bit, which the board mask removes.

Directions: 0 up-left and 1 up-right (towards square 1, White's forward), 2
down-left and 3 down-right (Black's forward). The opposite of ``d`` is ``3 - d``.

A generated move is one row of ``out``: from bit, to bit, captured mask, and 1
if a man is crowned by the move. Pieces keep their colour bitboards; ``kings``
marks which of them are kings.

The kernel's compiled code is one module of about 400 lines because numba's
cache keeps a compiled function with the functions it calls from the same
module; the generator's helpers stay beside it. The arrays' layout (the rules
vector's slots, the generation modes, the move list's sizes) is plain constants,
kept in ``engine.draughts.kernel_layout``.

Three numba lessons measured here:
- No recursion in cached functions: a recursive capture search compiled many
  specializations and segfaulted when loaded back from the cache (numba
  0.68). Searches use explicit stacks.
- Pass integers with fixed types (``np.int64(0)``, not a bare literal) at
  call sites between kernels: each literal type compiled another
  specialization, and pinning them cut the cold compile from 14 s to 4 s.
- Hot functions that allocate nothing are compiled with ``_nrt=False`` (``engine.compiled.hot``).
  Otherwise numba counts references to every array argument on entry and
  exit of each call, with atomic (locked) instructions: a quarter of the
  search's time under perf, and 2.1 M against 2.7 M bench nodes/s.
"""

import numpy as np
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

from engine.compiled import hot
from engine.draughts.kernel_layout import (MAX_MOVES, MAX_PATH, MODE_ALL_PATHS, MODE_CAPTURES_ONLY, MODE_LEGAL,
                                           MODE_NO_MAJORITY, MODE_QUIET_ONLY, MOVE_COLS, R_BOARD, R_CROWN_MID,
                                           R_FLYING, R_HALF, R_MAJORITY, R_MEN_BACK, R_PROMO_BLACK, R_PROMO_WHITE)

U0 = np.uint64(0)
U1 = np.uint64(1)

WHITE = 0
BLACK = 1


@njit(cache=True, inline="always")
def step(b, d, half, half1):
    if d == 0:
        return b >> half1
    if d == 1:
        return b >> half
    if d == 2:
        return b << half
    return b << half1


@njit(cache=True, inline="always")
def lsb(x):
    # x & -x without negation, so numpy scalars never overflow (x != 0).
    return x & ~(x - U1)


@intrinsic
def _cttz(typingctx, x):
    """LLVM's count of trailing zeros (one tzcnt or bsf instruction)."""
    sig = types.uint64(types.uint64)

    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], cgutils.true_bit)  # true: x == 0 is never asked
    return sig, codegen


@intrinsic
def _ctpop(typingctx, x):
    """LLVM's population count (one popcnt instruction where the CPU has it)."""
    sig = types.uint64(types.uint64)

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])
    return sig, codegen


@njit(cache=True, inline="always")
def bit_index(b):
    """Index of the lowest set bit of ``b`` (``b`` != 0)."""
    return np.int64(_cttz(np.uint64(b)))


@njit(cache=True, inline="always")
def popcount(x):
    """The number of set bits of a bitboard."""
    return np.int64(_ctpop(np.uint64(x)))


# Columns of the capture search's work stack, one row per capture level.
W_SQ = 0  # square the piece stands on at this level
W_KING = 1  # the piece moves as a king from here
W_CAPTURED = 2  # pieces taken so far
W_DIR = 3  # next direction to try
W_NEXT = 4  # landing squares still to try after the jump in W_DIR (0: find a jump)
W_JUMPED = 5  # the piece jumped in direction W_DIR
W_FOUND = 6  # a continuation was found from this level
WORK_COLS = 7


@njit(cache=True, inline="always")
def _put(out, end, frm, to, captured, crown):
    """Write a move at row ``end`` of the list (the caller has checked there is room); the list's new end."""
    out[end, 0] = frm
    out[end, 1] = to
    out[end, 2] = captured
    out[end, 3] = crown
    return end + 1


@hot()
def _record(frm, to, captured, n, crown, start, end, best, majority, mode, out, work, paths, plen):
    """Add one finished capture to the list; return the new (end, best)."""
    if majority:
        if n < best:
            return end, best
        if n > best:
            end = start
            best = n
    if n >= 2 and not (mode & MODE_ALL_PATHS):
        # Two paths with the same from, to, captured set and crowning are one move.
        for j in range(start, end):
            if out[j, 2] == captured and out[j, 1] == to and out[j, 0] == frm and out[j, 3] == crown:
                return end, best
    if end >= out.shape[0]:
        raise ValueError("move list overflow")
    if plen.shape[0] != 0:
        for j in range(n + 1):
            paths[end, j] = work[j, W_SQ]
        plen[end] = n + 1
    return _put(out, end, frm, to, captured, crown), best


@njit(cache=True, inline="always")
def _can_capture(sq, captured, opp, empty, half, half1, board):
    """A flying king on ``sq`` can jump a piece of ``opp`` not yet ``captured``."""
    for d in range(4):
        t = step(sq, d, half, half1) & board
        while t & empty:
            t = step(t, d, half, half1) & board
        if (t & opp) and not (t & captured) and (step(t, d, half, half1) & board & empty):
            return True
    return False


@njit(cache=True, inline="always")
def _geometry(rules, side):
    """What move generation reads from a variant's rules vector: (half, half + 1, board mask, the side's crowning
    row, flying kings, men capturing backwards)."""
    half = rules[R_HALF]
    promo = rules[R_PROMO_WHITE] if side == WHITE else rules[R_PROMO_BLACK]
    return half, half + U1, rules[R_BOARD], promo, rules[R_FLYING] != U0, rules[R_MEN_BACK] != U0


@hot()
def _captures_from(frm, is_king, opp, empty, side, rules, mode, start, end, best, out, work, paths, plen):
    """Every complete capture of the piece on ``frm``, depth first on an explicit stack.

    Captured pieces stay in ``opp`` until the move ends, so they block, and
    they may not be jumped twice. ``empty`` includes ``frm``. Returns the new
    (end, best), ``best`` being the largest capture count recorded so far.
    """
    half, half1, board, promo, flying, men_back = _geometry(rules, side)
    majority = rules[R_MAJORITY] != U0 and not (mode & MODE_NO_MAJORITY)
    crown_mid = rules[R_CROWN_MID] != U0
    work[0, W_SQ] = frm
    work[0, W_KING] = U1 if is_king else U0
    work[0, W_CAPTURED] = U0
    work[0, W_DIR] = U0
    work[0, W_NEXT] = U0
    work[0, W_FOUND] = U0
    n = np.int64(0)
    while n >= 0:
        king = work[n, W_KING] != U0
        slide = king and flying
        lands = work[n, W_NEXT]
        if lands != U0:
            # Take one pending landing square of the current jump.
            land = lsb(lands)
            lands ^= land
            work[n, W_NEXT] = lands
            if lands == U0:
                work[n, W_DIR] += U1
            work[n, W_FOUND] = U1
            captured = work[n, W_CAPTURED] | work[n, W_JUMPED]
            n += 1
            work[n, W_SQ] = land
            work[n, W_KING] = U1 if (king or (crown_mid and (land & promo) != U0)) else U0
            work[n, W_CAPTURED] = captured
            work[n, W_DIR] = U0
            work[n, W_NEXT] = U0
            work[n, W_FOUND] = U0
            continue
        d = np.int64(work[n, W_DIR])
        if d < 4:
            if not king and not men_back and ((d < 2) != (side == WHITE)):
                work[n, W_DIR] = np.uint64(d + 1)
                continue
            t = step(work[n, W_SQ], d, half, half1) & board
            if slide:
                while t & empty:
                    t = step(t, d, half, half1) & board
            land = step(t, d, half, half1) & board & empty
            if not (t & opp) or (t & work[n, W_CAPTURED]) or land == U0:
                work[n, W_DIR] = np.uint64(d + 1)
                continue
            lands = land
            if slide:
                land = step(land, d, half, half1) & board & empty
                while land:
                    lands |= land
                    land = step(land, d, half, half1) & board & empty
                if lands & (lands - U1):
                    # A king must land where the capture goes on, if it can.
                    captured = work[n, W_CAPTURED] | t
                    goes_on = U0
                    rest = lands
                    while rest:
                        land = lsb(rest)
                        rest ^= land
                        if _can_capture(land, captured, opp, empty, half, half1, board):
                            goes_on |= land
                    if goes_on:
                        lands = goes_on
            work[n, W_NEXT] = lands
            work[n, W_JUMPED] = t
            continue
        # Every direction tried: a level with no continuation ends a capture.
        if work[n, W_FOUND] == U0 and n > 0:
            crown = U0
            if not is_king and (king or (work[n, W_SQ] & promo) != U0):
                crown = U1
            end, best = _record(frm, work[n, W_SQ], work[n, W_CAPTURED], n, crown, start, end, best,
                                majority, mode, out, work, paths, plen)
        n -= 1
    return end, best


@njit(cache=True, inline="always")
def _jumpers(me, opp, kings, side, empty, half, half1, flying, men_back):
    """The pieces of ``me`` with a piece of ``opp`` next to them and a free square beyond, in a direction they
    capture in: men, and kings that do not fly (a flying king's capture may start far away)."""
    men = me & ~kings
    cand = U0
    for d in range(4):
        back = 3 - d
        jumpable = step(step(empty, back, half, half1) & opp, back, half, half1)
        if men_back or ((d < 2) == (side == WHITE)):
            cand |= jumpable & men
        if not flying:
            cand |= jumpable & me & kings
    return cand


@njit(cache=True, inline="always")
def can_capture(me, opp, kings, side, rules):
    """Whether ``side``, owning ``me``, has a capture (whoever is to move)."""
    half, half1, board, promo, flying, men_back = _geometry(rules, side)
    empty = board & ~(me | opp)
    if _jumpers(me, opp, kings, side, empty, half, half1, flying, men_back):
        return True
    ks = me & kings if flying else U0
    while ks:
        k = lsb(ks)
        ks ^= k
        if _can_capture(k, U0, opp, empty | k, half, half1, board):
            return True
    return False


@hot()
def generate(me, opp, kings, side, rules, mode, out, start, work, paths, plen):
    """Write the legal moves of the side to move into ``out[start:]``.

    ``me`` are the pieces of the side to move (``side``), ``opp`` the others.
    Returns the end index. Captures are compulsory (unless ``mode`` asks for
    quiet moves only); ``paths``/``plen`` receive the landing squares of each
    move when ``plen`` is not empty. ``work`` is the capture search's stack
    (``MAX_PATH`` rows of ``WORK_COLS``), allocated once by the caller.
    """
    half, half1, board, promo, flying, men_back = _geometry(rules, side)
    want_path = plen.shape[0] != 0
    empty = board & ~(me | opp)
    men = me & ~kings
    mykings = me & kings
    end = np.int64(start)

    if not (mode & MODE_QUIET_ONLY):
        # Pieces that can start a capture: men by a bulk test per direction,
        # kings one by one (a flying king's capture may start far away).
        cand = _jumpers(me, opp, kings, side, empty, half, half1, flying, men_back)
        if flying:
            cand |= mykings
        best = np.int64(0)
        while cand:
            p = lsb(cand)
            cand ^= p
            end, best = _captures_from(p, (p & kings) != U0, opp, empty | p, side, rules, mode, start, end,
                                       best, out, work, paths, plen)
        if end != start or (mode & MODE_CAPTURES_ONLY):
            return end

    if end + 2 * 64 > out.shape[0]:  # room for every man's two steps
        raise ValueError("move list overflow")
    for d in range(4):
        if (d < 2) != (side == WHITE):
            continue
        back = 3 - d
        tos = step(men, d, half, half1) & empty
        while tos:
            to = lsb(tos)
            tos ^= to
            end = _put(out, end, step(to, back, half, half1), to, U0, U1 if (to & promo) else U0)
    ks = mykings
    while ks:
        k = lsb(ks)
        ks ^= k
        for d in range(4):
            t = step(k, d, half, half1) & empty
            while t:
                if end >= out.shape[0]:
                    raise ValueError("move list overflow")
                end = _put(out, end, k, t, U0, U0)
                if not flying:
                    break
                t = step(t, d, half, half1) & empty
    if want_path:
        # only quiet moves get here: their path is from and to
        for j in range(start, end):
            paths[j, 0] = out[j, 0]
            paths[j, 1] = out[j, 1]
            plen[j] = 2
    return end


@njit(cache=True, inline="always")
def make(me, opp, kings, frm, to, captured, crown):
    """Play a move; returns the new (me, opp, kings) before the side changes."""
    ft = frm ^ to
    me = me ^ ft
    opp = opp & ~captured
    if kings & frm:
        kings = (kings & ~captured) ^ ft
    else:
        kings = kings & ~captured
        if crown:
            kings |= to
    return me, opp, kings


@njit(cache=True)
def perft(white, black, kings, side, depth, rules):
    """Count the leaves of the legal move tree to ``depth``.

    Every leaf position is made (no bulk counting of move lists). The search is
    an explicit stack, not recursion, to keep calls out of the hot loop.
    Returns (leaves, signature); the signature folds every leaf position
    together, which keeps the compiler from skipping the leaf makes.
    """
    if depth <= 0:
        return np.int64(1), U0
    out = np.empty((depth * MAX_MOVES, MOVE_COLS), dtype=np.uint64)
    work = np.empty((MAX_PATH, WORK_COLS), dtype=np.uint64)
    paths = np.empty((0, 0), dtype=np.uint64)
    plen = np.empty(0, dtype=np.int64)
    st_me = np.empty(depth + 1, dtype=np.uint64)
    st_opp = np.empty(depth + 1, dtype=np.uint64)
    st_k = np.empty(depth + 1, dtype=np.uint64)
    idx = np.empty(depth + 1, dtype=np.int64)
    stop = np.empty(depth + 1, dtype=np.int64)
    if side == WHITE:
        st_me[0] = white
        st_opp[0] = black
    else:
        st_me[0] = black
        st_opp[0] = white
    st_k[0] = kings
    idx[0] = 0
    legal = np.int64(MODE_LEGAL)
    stop[0] = generate(st_me[0], st_opp[0], kings, np.int64(side), rules, legal, out, np.int64(0), work, paths, plen)
    leaves = np.int64(0)
    sig = U0
    ply = 0
    s = side
    while True:
        i = idx[ply]
        if i == stop[ply]:
            if ply == 0:
                break
            ply -= 1
            s = 1 - s
            continue
        idx[ply] = i + 1
        nme, nopp, nk = make(st_me[ply], st_opp[ply], st_k[ply], out[i, 0], out[i, 1], out[i, 2], out[i, 3])
        if ply + 1 == depth:
            leaves += 1
            sig ^= nme ^ (nopp << U1) ^ nk
            continue
        ply += 1
        s = 1 - s
        # the side to move changes: the opponent's pieces become "me"
        st_me[ply] = nopp
        st_opp[ply] = nme
        st_k[ply] = nk
        idx[ply] = stop[ply - 1]
        stop[ply] = generate(nopp, nme, nk, s, rules, legal, out, stop[ply - 1], work, paths, plen)
    return leaves, sig


@njit(cache=True)
def zobrist(white, black, kings, side, table):
    """Zobrist key: XOR of ``table[kind, bit]`` for every piece, and
    ``table[4, 0]`` when Black is to move. kind: 0 white man, 1 white king,
    2 black man, 3 black king."""
    key = U0
    for kind in range(4):
        bb = white if kind < 2 else black
        bb = bb & kings if kind % 2 else bb & ~kings
        while bb:
            b = lsb(bb)
            bb ^= b
            key ^= table[kind, bit_index(b)]
    if side == BLACK:
        key ^= table[4, 0]
    return key
