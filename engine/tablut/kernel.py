"""Tablut (Ashton rules) compiled with numba: the move generator, captures, make, Zobrist keys, evaluation.

This is the one implementation of Tablut's rules: ``engine.tablut.rules`` asks it
for the legal moves, and the search plugs it in (through Tablut's operations in
``engine.tablut.search``). The rules themselves are described in ``engine.tablut.rules``.

State: one row of ``STATE_COLS`` unsigned integers per ply: cells 0-80
(``EMPTY``, ``WHITE``, ``BLACK``, ``KING``; square = (row - 1) * 9 + column),
then the king's square (``NO_KING`` once captured) and the soldier counts.

A move is a row of 4: from, to, the captured squares packed a byte each
(square + 1; at most three, one per side of the arrival square), and 1 for a
king move. A position where the king is captured or has escaped has no legal
moves, so the side to move there has lost, as the search reads it.
"""

import numpy as np
from numba import njit

from engine.compiled import hot

SIZE = 9
CELLS = 81
THRONE = 40
EMPTY, WHITE, BLACK, KING = 0, 1, 2, 3
KING_SQ = 81  # state column: the king's square
WHITE_COUNT = 82
BLACK_COUNT = 83
STATE_COLS = 84
NO_KING = 81
SIDE_WHITE = 0  # the search's sides (engine.game.Color)
SIDE_BLACK = 1
DECISIVE = 15000  # an evaluation of a won position (below the search's mate scores)

_CAMP_SQUARES = (("a4", "a5", "a6", "b5"), ("i4", "i5", "i6", "h5"), ("d1", "e1", "f1", "e2"), ("d9", "e9", "f9", "e8"))
_CAMP_CENTRES = ("a5", "i5", "e1", "e9")


def _sq(name: str) -> int:
    return (int(name[1]) - 1) * SIZE + "abcdefghi".index(name[0])


def _tables() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    camp = np.full(CELLS, -1, dtype=np.int64)
    for i, names in enumerate(_CAMP_SQUARES):
        for name in names:
            camp[_sq(name)] = i
    anvil = (camp >= 0).astype(np.int64)
    for name in _CAMP_CENTRES:
        anvil[_sq(name)] = 0
    escape = np.zeros(CELLS, dtype=np.int64)
    nb = np.full((CELLS, 4), -1, dtype=np.int64)
    for sq in range(CELLS):
        r, c = divmod(sq, SIZE)
        if (r in (0, 8) or c in (0, 8)) and camp[sq] < 0:
            escape[sq] = 1
        for d, (dr, dc) in enumerate(((0, 1), (0, -1), (1, 0), (-1, 0))):  # as engine.tablut.rules.DIRECTIONS
            if 0 <= r + dr < SIZE and 0 <= c + dc < SIZE:
                nb[sq, d] = (r + dr) * SIZE + c + dc
    return camp, anvil, escape, nb


CAMP, WHITE_ANVIL, ESCAPE, NEIGHBOUR = _tables()
"""The camp (0-3) of each square or -1; 1 on the camp squares White captures against (all but the four
centres: the referee's ``checkCaptureWhite``); 1 on escape squares; the square one step in each of 4
directions or -1."""
GUARDS = np.array([_sq(n) for n in ("b3", "c2", "g2", "h3", "b7", "c8", "g8", "h7")], dtype=np.int64)
"""The squares from which Black's soldiers shut the corners off from the king."""
ZOBRIST = np.random.default_rng(0x7AB1_07).integers(0, 2**64, size=(5, CELLS), dtype=np.uint64, endpoint=False)
ZOBRIST.flags.writeable = False

# Evaluation weights (hundredths of a white soldier), by index.
W_WHITE, W_BLACK, W_ROUTE, W_FREE, W_NEAR_THRONE, W_ON_THRONE, W_AWAY, W_GUARD, W_KING_MOBILITY, W_TEMPO = range(10)
WEIGHTS = np.array([100, 55, 180, 35, 30, 20, 50, 25, 4, 10], dtype=np.int64)


@njit(cache=True, inline="always")
def _after(st, p, x, frm, to, piece):
    """The cell ``x`` once ``piece`` has moved from ``frm`` to ``to`` (before captures)."""
    if x == to:
        return piece
    if x == frm:
        return np.uint64(EMPTY)
    return st[p, x]


@hot()
def captures(st, p, frm, to):
    """The captures of the move from ``frm`` to ``to``, packed a byte each (square + 1)."""
    piece = st[p, frm]
    packed = np.uint64(0)
    shift = np.uint64(0)
    for d in range(4):
        near = NEIGHBOUR[to, d]
        if near < 0:
            continue
        far = NEIGHBOUR[near, d]
        c = _after(st, p, near, frm, to, piece)
        taken = False
        if piece != BLACK:
            if c == BLACK and far >= 0:
                f = _after(st, p, far, frm, to, piece)
                taken = f == WHITE or f == KING or far == THRONE or WHITE_ANVIL[far] == 1
        elif c == WHITE:
            if far >= 0:
                f = _after(st, p, far, frm, to, piece)
                taken = f == BLACK or far == THRONE or CAMP[far] >= 0
        elif c == KING:
            if near == THRONE or NEIGHBOUR[THRONE, 0] == near or NEIGHBOUR[THRONE, 1] == near \
                    or NEIGHBOUR[THRONE, 2] == near or NEIGHBOUR[THRONE, 3] == near:
                taken = True
                for e in range(4):
                    s = NEIGHBOUR[near, e]
                    if s != THRONE and _after(st, p, s, frm, to, piece) != BLACK:
                        taken = False
            elif far >= 0:
                taken = _after(st, p, far, frm, to, piece) == BLACK or CAMP[far] >= 0
        if taken:
            packed |= np.uint64(near + 1) << shift
            shift += np.uint64(8)
    return packed


@hot()
def over(st, p):
    """The king is captured or has escaped: no one moves any more."""
    king = np.int64(st[p, KING_SQ])
    return king == NO_KING or ESCAPE[king] == 1


@hot()
def generate(st, p, side, out, start):
    """Write the legal moves of ``side`` into ``out`` from row ``start``; the row after the last."""
    if over(st, p):
        return start
    n = start
    for sq in range(CELLS):
        c = st[p, sq]
        if side == SIDE_WHITE:
            if c != WHITE and c != KING:
                continue
        elif c != BLACK:
            continue
        camp = CAMP[sq]
        for d in range(4):
            t = NEIGHBOUR[sq, d]
            while t >= 0 and st[p, t] == EMPTY and t != THRONE and (CAMP[t] < 0 or CAMP[t] == camp):
                out[n, 0] = sq
                out[n, 1] = t
                out[n, 2] = captures(st, p, sq, t)
                out[n, 3] = 1 if c == KING else 0
                n += 1
                t = NEIGHBOUR[t, d]
    return n


@hot()
def make(st, p, out, i):
    """Write the position after move ``i`` into ``st[p + 1]``."""
    for c in range(STATE_COLS):
        st[p + 1, c] = st[p, c]
    frm = np.int64(out[i, 0])
    to = np.int64(out[i, 1])
    piece = st[p, frm]
    st[p + 1, frm] = EMPTY
    st[p + 1, to] = piece
    if piece == KING:
        st[p + 1, KING_SQ] = to
    packed = out[i, 2]
    while packed:
        sq = np.int64(packed & np.uint64(0xFF)) - 1
        packed >>= np.uint64(8)
        taken = st[p + 1, sq]
        if taken == KING:
            st[p + 1, KING_SQ] = NO_KING
        elif taken == WHITE:
            st[p + 1, WHITE_COUNT] -= 1
        else:
            st[p + 1, BLACK_COUNT] -= 1
        st[p + 1, sq] = EMPTY


@hot()
def key_after(key, st, p, out, i, zob):
    """The Zobrist key after move ``i`` from ``st[p]`` (kinds: 0 white soldier, 1 black, 2 king)."""
    key ^= zob[4, 0]
    frm = np.int64(out[i, 0])
    to = np.int64(out[i, 1])
    kind = np.int64(st[p, frm]) - 1
    key ^= zob[kind, frm] ^ zob[kind, to]
    packed = out[i, 2]
    while packed:
        sq = np.int64(packed & np.uint64(0xFF)) - 1
        packed >>= np.uint64(8)
        key ^= zob[np.int64(st[p, sq]) - 1, sq]
    return key


@hot()
def zobrist(st, p, side, zob):
    key = np.uint64(0)
    for sq in range(CELLS):
        c = st[p, sq]
        if c != EMPTY:
            key ^= zob[np.int64(c) - 1, sq]
    if side == SIDE_BLACK:
        key ^= zob[4, 0]
    return key


@hot()
def open_lines(st, p, sq):
    """Straight lines from ``sq`` over empty squares to an escape square."""
    n = 0
    for d in range(4):
        t = NEIGHBOUR[sq, d]
        while t >= 0 and st[p, t] == EMPTY and CAMP[t] < 0 and t != THRONE:
            if ESCAPE[t] == 1 and NEIGHBOUR[t, d] < 0:
                n += 1
                break
            t = NEIGHBOUR[t, d]
    return n


@hot()
def evaluate(st, p, side, w):
    """The position for ``side`` (to move), in hundredths of a white soldier."""
    king = np.int64(st[p, KING_SQ])
    if king == NO_KING:
        score = -DECISIVE
    elif ESCAPE[king] == 1:
        score = DECISIVE
    else:
        score = w[W_WHITE] * np.int64(st[p, WHITE_COUNT]) - w[W_BLACK] * np.int64(st[p, BLACK_COUNT])
        routes = open_lines(st, p, king)
        if routes > 0 and side == SIDE_WHITE:
            score = DECISIVE - 100  # the king walks out now
        elif routes > 1:
            score += DECISIVE // 2  # Black can close one line, not two
        else:
            score += w[W_ROUTE] * routes
            # squares one king move away with a line to an escape, and the king's mobility
            free = 0
            mobility = 0
            for d in range(4):
                t = NEIGHBOUR[king, d]
                while t >= 0 and st[p, t] == EMPTY and CAMP[t] < 0 and t != THRONE:
                    mobility += 1
                    free += open_lines(st, p, t)
                    t = NEIGHBOUR[t, d]
            score += w[W_FREE] * free + w[W_KING_MOBILITY] * mobility
        # the king hemmed in: Black soldiers (and camps) next to it
        near_throne = king == THRONE
        for d in range(4):
            if NEIGHBOUR[THRONE, d] == king:
                near_throne = True
        per = w[W_ON_THRONE] if king == THRONE else (w[W_NEAR_THRONE] if near_throne else w[W_AWAY])
        for d in range(4):
            s = NEIGHBOUR[king, d]
            if s >= 0 and (st[p, s] == BLACK or (CAMP[s] >= 0 and king != THRONE)):
                score -= per
        for g in GUARDS:
            if st[p, g] == BLACK:
                score -= w[W_GUARD]
        score += w[W_TEMPO] if side == SIDE_WHITE else -w[W_TEMPO]
    return score if side == SIDE_WHITE else -score
