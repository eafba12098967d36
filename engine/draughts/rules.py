"""The rules API: a few free functions over immutable positions.

    start_position(variant) -> Position
    legal_moves(position)   -> list[Move]
    make(position, move)    -> Position     (copy-make; the move must be legal)
    perft(position, depth)  -> int
    key(position)           -> int          (Zobrist)

The work is done by ``engine.draughts.kernel``; this module converts between its
bitboards and the value types.
"""

from __future__ import annotations

import threading

import numpy as np

from engine.draughts import kernel, kernel_layout
from engine.draughts.position import Move, Position
from engine.draughts.variants import Variant
from engine.game import Color

_U64 = np.uint64


def start_position(variant: Variant) -> Position:
    """The opening position: Black's men on the first squares, White's on the last."""
    n = variant.men_per_side
    black = variant.mask(range(1, n + 1))
    white = variant.mask(range(variant.squares - n + 1, variant.squares + 1))
    return Position(variant, white, black, 0, variant.first)


def generate(position: Position, mode: int = kernel_layout.MODE_LEGAL) -> list[Move]:
    """Moves of the side to move under a kernel generation mode, each with one path.

    ``MODE_LEGAL`` gives the legal moves; the other modes serve notation, which
    explains why a typed move is illegal.
    """
    # Only listing every path of a long king capture can outgrow the first size.
    for capacity in (kernel_layout.MAX_MOVES, 16 * kernel_layout.MAX_MOVES, 256 * kernel_layout.MAX_MOVES):
        try:
            return _generate(position, mode, capacity)
        except ValueError as e:
            if "overflow" not in str(e):
                raise
    # One path per move still gives every move.
    return _generate(position, mode & ~kernel_layout.MODE_ALL_PATHS, kernel_layout.MAX_MOVES)


_BUFFERS = threading.local()  # the generator's arrays, one set per thread and size, made once


def _buffers(capacity: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    made: dict[int, tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = _BUFFERS.__dict__.setdefault("made", {})
    if capacity not in made:
        made[capacity] = (np.empty((capacity, kernel_layout.MOVE_COLS), dtype=np.uint64),
                          np.empty((kernel_layout.MAX_PATH, kernel.WORK_COLS), dtype=np.uint64),
                          np.empty((capacity, kernel_layout.MAX_PATH), dtype=np.uint64),
                          np.zeros(capacity, dtype=np.int64))
    return made[capacity]


def _generate(position: Position, mode: int, capacity: int) -> list[Move]:
    v = position.variant
    me, opp = (position.white, position.black) if position.turn == Color.WHITE else (position.black, position.white)
    out, work, paths, plen = _buffers(capacity)
    n = kernel.generate(_U64(me), _U64(opp), _U64(position.kings), int(position.turn), v.rules,
                        mode, out, 0, work, paths, plen)
    square = v.square_by_bit
    moves = []
    for (frm, to, cap, crown), length, path in zip(out[:n].tolist(), plen[:n].tolist(), paths[:n].tolist()):
        taken = []
        while cap:
            low = cap & -cap
            taken.append(square[low])
            cap ^= low
        moves.append(Move(square[frm], square[to], tuple(taken), bool(crown),
                          tuple([square[b] for b in path[:length]])))
    return moves


def legal_moves(position: Position) -> list[Move]:
    """The legal moves of the side to move (empty when it has lost), by start, end and captures."""
    return sorted(generate(position), key=lambda m: (m.start, m.end, m.captures))


def make(position: Position, move: Move) -> Position:
    """The position after ``move``, which must be legal in ``position``."""
    v = position.variant
    white, black = position.white, position.black
    me, opp = (white, black) if position.turn == Color.WHITE else (black, white)
    frm, to, cap = v.bit(move.start), v.bit(move.end), v.mask(move.captures)
    # as kernel.make does, on Python's integers (a compiled call would cost more than these few operations)
    me ^= frm ^ to
    opp &= ~cap
    kings = position.kings & ~cap
    if position.kings & frm:
        kings ^= frm ^ to
    elif move.crowns:
        kings |= to
    if position.turn == Color.WHITE:
        white, black = me, opp
    else:
        white, black = opp, me
    return Position(v, white, black, kings, position.turn.opponent)


def perft(position: Position, depth: int) -> int:
    """Leaves of the legal move tree to ``depth`` (1 at depth 0)."""
    leaves, _ = kernel.perft(_U64(position.white), _U64(position.black), _U64(position.kings),
                             int(position.turn), depth, position.variant.rules)
    return int(leaves)


# Fixed seed: keys must be the same in every process (workers, restarts).
ZOBRIST = np.random.default_rng(0x5EED_D4A6).integers(0, 2**64, size=(5, 64), dtype=np.uint64, endpoint=False)
ZOBRIST.flags.writeable = False


def key(position: Position) -> int:
    """Zobrist key of the position (pieces and side to move)."""
    return int(kernel.zobrist(_U64(position.white), _U64(position.black), _U64(position.kings),
                              int(position.turn), ZOBRIST))
