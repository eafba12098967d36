"""Where the draughts evaluation keeps its numbers, and the tables built for a variant.

The learned features and the weight vector's slots (``W_*``), the geometry table's rows (``G_*``), the pattern
regions and the flat pattern table's layout (``layout``), and a variant's geometry masks, men's cones and squares'
coordinates. Plain Python and numpy; ``engine.draughts.evaluation`` says what the features mean, and its compiled
sums read these tables. numba takes the constants here (and ``LANES``) into that compiled code as they are, so
``engine.compiled_cache`` counts this file among the kernels' sources.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from engine.draughts.variants import Variant

# --- learned features (counts, White's minus Black's; the last is +1 with White to move, -1 with Black) ------------
FEATURES = ("men", "kings", "tempo", "balance", "king_centre", "king_diagonal", "king_mobility",
            "runaway_1", "runaway_2", "runaway_3", "runaway_4", "to_move")
COUNTS = len(FEATURES)
PHASES = 2  # opening, endgame
REGION_SQUARES = 8
PATTERNS = 3 ** REGION_SQUARES  # configurations of one region
BIG_SQUARES = 12
BIG_PATTERNS = 3 ** BIG_SQUARES  # configurations of one large region
FINE = 8  # learned weights are stored in eighths of a hundredth of a man
PHASE_ONE = 256  # the phase runs from 0 (no pieces left) to this (every piece still on the board)

# --- the weight vector (int64): hand-set weights from the JSON file, then the learned counts' weights ------------
W_MAN = 0  # nominal values, in hundredths of a man
W_KING = 1
W_KING_PROXIMITY = 2
W_DOUBLE_CORNER = 3
W_DRAW_ANY_KINGS = 4  # strong side's kings (no men) that only draw against a lone king
W_DRAW_DIAGONAL_KINGS = 5  # ... that only draw when the lone king holds the long diagonal
W_DRAW_DIVISOR = 6  # a drawn ending's score is divided by this
W_DRAW_WITH_MEN = 7  # 1: those draws against a lone king count the strong side's men too (International's 16-
# and 5-move rules draw them whatever the pieces are): the learned score is divided as a kings-only one is
W_DRAWISH = 8  # 1: Scan 3's drawish material: the side ahead, against a king, has its score divided by 8 with three
# pieces or fewer, and by 2 when both have as many kings and their men differ by one at most
W_LEARNED = 9  # COUNTS x PHASES learned weights, in FINE units: feature f's phase p at W_LEARNED + 2 f + p
WEIGHTS_LEN = W_LEARNED + COUNTS * PHASES

HAND = {
    "man": W_MAN, "king": W_KING, "king_proximity": W_KING_PROXIMITY, "double_corner": W_DOUBLE_CORNER,
    "draw_any_kings": W_DRAW_ANY_KINGS, "draw_diagonal_kings": W_DRAW_DIAGONAL_KINGS,
    "draw_divisor": W_DRAW_DIVISOR, "draw_with_men": W_DRAW_WITH_MEN, "drawish": W_DRAWISH,
}

# --- geometry table layout (uint64, one row per side) -------------------------
G_ROW = 0  # 10 rows: bits of row r counted from this side's back rank
G_CENTRE = 10
G_LONG_DIAGONAL = 11
G_DOUBLE_CORNER = 12  # the two squares of each double corner
G_LEFT = 13  # the left half of the board (columns a-d or a-e)
G_BOARD = 14
G_HALF = 15
G_ROWS = 16  # board size
G_PIECES = 17  # pieces at the start
G_TEMPO = 18  # 4 masks: the rows whose distance from this side's back rank has bit b set (tempo by 4 popcounts)
G_WINDOWS = 22  # number of column windows of the regions (their left columns two apart)
G_PAIR_STRIDE = 23  # bits from one row pair (rows 2p and 2p + 1) to the next
G_PAIR_MASK = 24  # a row pair's bits, brought down to bit 0
G_LANES = 25  # which of ``LANES``' tables the board uses
G_BIG_REGIONS = 26  # large regions in the pattern table (0: none)
G_BIG_PAIR = 27  # the first row pair of the lower large regions (the upper ones start at row pair 0)
G_SMALL_ROWS = 28  # rows of the small regions' tables: where the large regions' start in the flat table
GEO_LEN = 29

# Where the training starts, besides the hand-set man and king: rough guesses, in hundredths of a man.
START = {"tempo": 1, "balance": -2, "king_diagonal": 10, "runaway_1": 80, "runaway_2": 50, "runaway_3": 30,
         "runaway_4": 15}

# A region is two row pairs of one column window, four squares each: its pattern number is the upper pair's part
# plus 81 times the lower pair's, a pair's part having a digit (0 empty, 1 White, 2 Black) for each of its
# squares, the upper row's left and right, then the lower row's. A row pair's squares are consecutive bits (the
# upper row's, then the lower row's), and window c holds squares c and c + 1 of each row.
PAIR_PATTERNS = 81
LANE = 16  # bits of one window's part in a row pair's packed parts


def _lane_table(half: int) -> np.ndarray:
    """A row pair's bits -> every window's part of its pattern number were its set bits White's men, window c's
    in bits 16c to 16c + 15 (Black's men's parts are twice these; parts, and 81 times them, never reach 2^16)."""
    bits = np.arange(1 << 10, dtype=np.int64)
    table = np.zeros_like(bits)
    for c in range(half - 1):
        part = sum(3 ** q * (bits >> j & 1) for q, j in enumerate((c, c + 1, half + c, half + c + 1)))
        table += part << LANE * c
    return table


LANES = np.stack([_lane_table(4), _lane_table(5)])  # 8x8, 10x10


def regions(v: Variant) -> list[tuple[int, int]]:
    """The small pattern regions' top-left corners (row, column), rows and columns two apart, covering the board,
    in rows of regions from the top."""
    corners = range(0, v.size - 3, 2)
    return [(r, c) for r in corners for c in corners]


def big_regions(v: Variant) -> list[tuple[int, int]]:
    """The large regions' top-left corners: the top six rows' regions, then the bottom six's, in the small ones'
    columns."""
    return [(r, c) for r in (0, v.size - 6) for c in range(0, v.size - 3, 2)]


def region_squares(v: Variant, corner: tuple[int, int], height: int = 4) -> list[int]:
    """A region's squares (8, or 12 for a large one of ``height`` 6) in pattern-digit order: row by row from the
    top, left before right."""
    r0, c0 = corner
    return [sq for r in range(r0, r0 + height) for c in range(c0, c0 + 4) if (sq := v.square_at(r, c)) is not None]


@dataclass(frozen=True)
class Layout:
    """Where each region's weights lie in the flat pattern table: the small regions' tables, then (``big``) the
    large ones'; a region's look (its pattern number) picks the row ``offsets[k] + look``."""

    offsets: np.ndarray  # int64 [regions]
    turned: np.ndarray  # int64 [regions]: the region each one becomes when the board turns half round
    rows: int  # rows of the flat table
    small: int  # the small regions (the first ones)

    def turned_looks(self, looks: np.ndarray) -> np.ndarray:
        """Each region's look as the other side sees it (the turned region's look, turned), from White's looks
        [n, regions]."""
        out = np.empty_like(looks)
        for k, t in enumerate(self.turned):
            out[:, k] = turned_patterns(BIG_SQUARES if k >= self.small else REGION_SQUARES)[looks[:, t]]
        return out


@functools.cache
def layout(v: Variant, big: bool) -> Layout:
    """Where the weights of ``v``'s regions lie in the flat pattern table, with the large regions (``big``) or
    without."""
    small = regions(v)
    large = big_regions(v) if big else []
    turned = [small.index((v.size - 4 - r, v.size - 4 - c)) for r, c in small]
    turned += [len(small) + large.index((v.size - 6 - r, v.size - 4 - c)) for r, c in large]
    sizes = [PATTERNS] * len(small) + [BIG_PATTERNS] * len(large)
    offsets = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64)
    return Layout(offsets, np.array(turned, dtype=np.int64), int(sum(sizes)), len(small))


@functools.cache
def turned_patterns(squares: int) -> np.ndarray:
    """Pattern number -> the same squares seen by the other side: digit order reversed, 1 and 2 swapped (a row
    pair's four digits at a time: the pairs' order reversed, each pair's part turned)."""
    if squares == 4:
        digits = np.arange(PAIR_PATTERNS)[:, None] // 3 ** np.arange(4) % 3
        return (np.where(digits == 0, 0, 3 - digits)[:, ::-1] * 3 ** np.arange(4)).sum(axis=1).astype(np.int64)
    pair = turned_patterns(4)
    numbers = np.arange(3 ** squares, dtype=np.int64)
    out = np.zeros_like(numbers)
    pairs = squares // 4
    for q in range(pairs):
        out += pair[numbers // PAIR_PATTERNS ** q % PAIR_PATTERNS] * PAIR_PATTERNS ** (pairs - 1 - q)
    return out


def layout_of(v: Variant, rows: int) -> Layout:
    """The layout of ``v``'s flat pattern table of ``rows`` rows (with the large regions or without)."""
    for big in (False, True):
        if layout(v, big).rows == rows:
            return layout(v, big)
    raise ValueError(f"pattern tables of {rows} rows are not {v.name}'s")


def weights_vector(data: dict) -> np.ndarray:
    """The hand-set part of the weight vector from a dict of named weights; keys starting with '_' are comments."""
    w = np.zeros(WEIGHTS_LEN, dtype=np.int64)
    for name, value in data.items():
        if name.startswith("_"):
            continue
        if name not in HAND:
            raise ValueError(f"unknown weight {name!r}")
        w[HAND[name]] = int(value)
    w[W_DRAW_DIVISOR] = max(w[W_DRAW_DIVISOR], 1)
    return w


def geometry_table(v: Variant) -> np.ndarray:
    """The masks and numbers the evaluation reads for ``v``, one row per side (see ``G_*``)."""
    g = np.zeros((2, GEO_LEN), dtype=np.uint64)
    n = v.size
    squares = range(1, v.squares + 1)
    rc = {s: v.row_col(s) for s in squares}
    centre = v.mask(s for s in squares if 2 <= rc[s][1] <= n - 3 and n // 2 - 1 <= rc[s][0] <= n // 2)
    diagonal = v.mask(s for s in squares if rc[s][0] + rc[s][1] == n - 1)
    corners = v.mask(s for s in squares if (rc[s][0], rc[s][1]) in ((0, n - 1), (1, n - 2), (n - 1, 0), (n - 2, 1)))
    left = v.mask(s for s in squares if rc[s][1] < n // 2)
    windows = range(0, n - 3, 2)
    stride = v.bit(v.half * 2 + 1).bit_length() - 1
    for r0 in range(0, n, 2):  # the layout the lane tables read: window c's squares at c, c + 1, half + c, ...
        for c0 in windows:
            cells = [v.bit(sq).bit_length() - 1 - stride * (r0 // 2) for sq in region_squares(v, (r0, c0))[:4]]
            assert cells == [c0 // 2, c0 // 2 + 1, v.half + c0 // 2, v.half + c0 // 2 + 1]
    for side in (0, 1):
        for r in range(n):
            g[side, G_ROW + r] = v.row_mask(n - 1 - r if side == 0 else r)
        g[side, G_CENTRE] = centre
        g[side, G_LONG_DIAGONAL] = diagonal
        g[side, G_DOUBLE_CORNER] = corners
        g[side, G_LEFT] = left
        g[side, G_BOARD] = v.board_mask
        g[side, G_HALF] = v.half
        g[side, G_ROWS] = n
        g[side, G_PIECES] = 2 * v.men_per_side
        for b in range(4):
            g[side, G_TEMPO + b] = v.mask(s for s in squares if (n - 1 - rc[s][0] if side == 0 else rc[s][0]) >> b & 1)
        g[side, G_WINDOWS] = len(windows)
        g[side, G_PAIR_STRIDE] = stride
        g[side, G_PAIR_MASK] = (1 << 2 * v.half) - 1
        g[side, G_LANES] = 0 if n == 8 else 1
        g[side, G_BIG_PAIR] = (n - 6) // 2
        g[side, G_SMALL_ROWS] = len(regions(v)) * PATTERNS
    return g


def cone_table(v: Variant) -> np.ndarray:
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


def coord_table(v: Variant) -> np.ndarray:
    """Row and column of each bit (for distances)."""
    coords = np.zeros((2, 64), dtype=np.int64)
    for s in range(1, v.squares + 1):
        bit = v.bit(s).bit_length() - 1
        coords[0, bit], coords[1, bit] = v.row_col(s)
    return coords
