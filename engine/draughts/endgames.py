"""Endgame databases: the value of every position with few pieces, read without search.

A database holds, for one variant and every position of at most ``pieces``
pieces, whether the side to move wins, loses or draws with best play (2 bits
a position) and in how many plies the game ends (one byte a position, for
wins and losses: the winner takes the shortest way, the loser the longest).
``engine.draughts.endgame_build`` makes them by retrograde analysis;
``python -m engine egtb build`` runs it.

Positions are stored from the mover's side, as if White were to move: a
position with Black to move is turned half a turn (square ``s`` becomes
``N - 1 - s``, which on our bit layout reverses the board's bits) and its
colours swapped. So one table serves both sides.

The index needs no hashing. A table is one material signature: the mover's
men, the mover's kings, the other side's men and kings, counted (a, b, c, d).
Each group of like pieces is a set of squares, ranked in colex order
(the sum of C(square, i)); the mover's men never stand on its crowning row
and the other side's never on theirs, so men are ranked among the squares
left. A position's index is the mixed-radix number of the four ranks, and the
tables lie one after another, smallest piece counts first. Indexes where two
groups share a square are unused (marked ``INVALID``).
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass
from math import comb
from pathlib import Path

import numpy as np
import platformdirs
from numba import njit

from engine.compiled import hot
from engine.draughts import kernel
from engine.draughts.kernel import popcount
from engine.draughts.position import Position
from engine.draughts.variants import Variant
from engine.game import Color

U0 = np.uint64(0)
U1 = np.uint64(1)

# Values, as stored (2 bits).
DRAW = 0
WIN = 1
LOSS = 2
INVALID = 3

MAX_PIECES = 5  # the largest databases the layout allows (counts 0-5 per group); 5 on 10x10 is 1.9 G positions
_SIG = MAX_PIECES + 1  # the offset table's side: counts 0..MAX_PIECES
NOT_FOUND = np.int64(-1)

# The layout vector (int64) the compiled code reads.
L_PIECES = 0  # largest piece count held
L_SIZE = 1  # board width
L_HALF = 2
L_SQUARES = 3
L_BITS = 4  # bits of the board layout (the top square's bit + 1)
LAYOUT_LEN = 5

FORMAT = 1  # bump when the layout or the values change; old files are then rebuilt


@njit(cache=True, inline="always")
def rotate(b, nbits):
    """The bitboard turned half a turn: bit ``i`` goes to ``nbits - 1 - i`` (ghost bits go to ghost bits)."""
    b = ((b >> np.uint64(1)) & np.uint64(0x5555555555555555)) | ((b & np.uint64(0x5555555555555555)) << np.uint64(1))
    b = ((b >> np.uint64(2)) & np.uint64(0x3333333333333333)) | ((b & np.uint64(0x3333333333333333)) << np.uint64(2))
    b = ((b >> np.uint64(4)) & np.uint64(0x0F0F0F0F0F0F0F0F)) | ((b & np.uint64(0x0F0F0F0F0F0F0F0F)) << np.uint64(4))
    b = ((b >> np.uint64(8)) & np.uint64(0x00FF00FF00FF00FF)) | ((b & np.uint64(0x00FF00FF00FF00FF)) << np.uint64(8))
    b = ((b >> np.uint64(16)) & np.uint64(0x0000FFFF0000FFFF)) | ((b & np.uint64(0x0000FFFF0000FFFF)) << np.uint64(16))
    b = (b >> np.uint64(32)) | (b << np.uint64(32))
    return b >> np.uint64(64 - nbits)


@njit(cache=True, inline="always")
def signature(a, b, c, d):
    """Row of a material signature in the offset table."""
    return ((a * _SIG + b) * _SIG + c) * _SIG + d


@njit(cache=True, inline="always")
def _rank(group, lo, size, binom):
    """Colex rank of the squares of ``group`` (each less ``lo``) among sets of as many squares."""
    r = np.int64(0)
    i = 1
    while group:
        low = group & ~(group - U1)
        group ^= low
        b = kernel.bit_index(low)
        r += binom[b - b // (size + 1) - lo, i]
        i += 1
    return r


@hot()
def index(me, opp, kings, layout, offsets, binom):
    """Index of a position (the mover moving up the board, as White does) in the databases, or -1 if none holds it."""
    size = layout[L_SIZE]
    half = layout[L_HALF]
    n = layout[L_SQUARES]
    men = me & ~kings
    mk = me & kings
    om = opp & ~kings
    ok = opp & kings
    a = popcount(men)
    b = popcount(mk)
    c = popcount(om)
    d = popcount(ok)
    if a + b + c + d > layout[L_PIECES] or a + b == 0 or c + d == 0:
        return NOT_FOUND
    base = offsets[signature(a, b, c, d)]
    if base < 0:
        return NOT_FOUND
    r = _rank(men, half, size, binom)
    r = r * binom[n, b] + _rank(mk, 0, size, binom)
    r = r * binom[n - half, c] + _rank(om, 0, size, binom)
    r = r * binom[n, d] + _rank(ok, 0, size, binom)
    return base + r


@hot()
def probe(me, opp, kings, side, layout, offsets, binom, wdl, dist):
    """(value, plies to the end) of a position for the side to move, ``side`` moving up if 0 (White) and down
    if 1; value -1 when the databases do not hold it. Plies are 0 for draws."""
    if side != 0:
        nbits = layout[L_BITS]
        me = rotate(me, nbits)
        opp = rotate(opp, nbits)
        kings = rotate(kings, nbits)
    i = index(me, opp, kings, layout, offsets, binom)
    if i < 0:
        return NOT_FOUND, np.int64(0)
    v = np.int64((wdl[i >> 2] >> np.uint8(2 * (i & 3))) & np.uint8(3))
    if v == DRAW or v == INVALID:
        return v, np.int64(0)
    return v, np.int64(dist[i])


# --- the layout in Python ------------------------------------------------------

@dataclass(frozen=True)
class Layout:
    """Where each material signature's table lies, for one variant and piece count."""

    variant: Variant
    pieces: int
    vector: np.ndarray  # int64, L_*
    offsets: np.ndarray  # int64 by signature(a, b, c, d); -1 where none
    binom: np.ndarray  # int64 C(n, k), n <= 64, k <= MAX_PIECES
    tables: tuple[tuple[int, int, int, int, int, int], ...]  # (a, b, c, d, offset, size), in file order
    positions: int  # indexes in all

    @classmethod
    def of(cls, variant: Variant, pieces: int) -> Layout:
        if not 2 <= pieces <= MAX_PIECES:
            raise ValueError(f"{variant.name} databases hold 2 to {MAX_PIECES} pieces, not {pieces}")
        n, half = variant.squares, variant.half
        binom = np.array([[comb(i, k) for k in range(MAX_PIECES + 1)] for i in range(65)], dtype=np.int64)
        offsets = np.full(_SIG**4, -1, dtype=np.int64)
        tables = []
        at = 0
        for total in range(2, pieces + 1):
            for a, b, c, d in signatures(total):
                size = comb(n - half, a) * comb(n, b) * comb(n - half, c) * comb(n, d)
                offsets[signature(a, b, c, d)] = at
                tables.append((a, b, c, d, at, size))
                at += size
        top = variant.bit(n).bit_length()
        vector = np.array([pieces, variant.size, half, n, top], dtype=np.int64)
        for arr in (vector, offsets, binom):
            arr.flags.writeable = False
        return cls(variant, pieces, vector, offsets, binom, tuple(tables), at)


def signatures(total: int) -> list[tuple[int, int, int, int]]:
    """Material signatures (mover's men, mover's kings, other men, other kings) of ``total`` pieces, both sides
    with at least one, men-heavy last (the order the builder solves them in: crowning takes a man away)."""
    out = [(a, b, c, d) for a in range(total + 1) for b in range(total + 1 - a) for c in range(total + 1 - a - b)
           for d in [total - a - b - c] if a + b > 0 and c + d > 0]
    return sorted(out, key=lambda s: (s[0] + s[2], s))


# --- files -----------------------------------------------------------------------

APP = "draughts-engine"
"""The installed distribution's name, which names its folder in the user's data directory."""


def default_directory() -> Path:
    """Where databases are kept, for this copy of the engine (``directory_for``)."""
    return directory_for(Path(__file__).resolve(), os.environ)


def directory_for(module: Path, environ: Mapping[str, str]) -> Path:
    """Where the databases are kept by the engine whose file ``module`` (this one) is: ``ENGINE_EGTB_DIR`` when
    set; else, in a source checkout (``pyproject.toml`` beside the ``engine`` package: ./run-bot, an editable
    install), ``data/egtb`` in it, where they have always been; else, in an installed package (a virtual
    environment that an upgrade replaces, or a read-only system folder), ``egtb`` in the user's data directory as
    platformdirs names it for the platform (``$XDG_DATA_HOME/draughts-engine/egtb``, by default
    ``~/.local/share/draughts-engine/egtb``, on Linux)."""
    if chosen := environ.get("ENGINE_EGTB_DIR"):
        return Path(chosen)
    root = module.parents[2]
    if (root / "pyproject.toml").is_file():
        return root / "data" / "egtb"
    return Path(platformdirs.user_data_dir(APP, appauthor=False)) / "egtb"


def paths(variant: Variant, pieces: int, directory: Path) -> tuple[Path, Path, Path]:
    """The values file, the distances file and the description of one database."""
    stem = directory / f"{variant.name}-{pieces}"
    return stem.with_suffix(".wdl.npy"), stem.with_suffix(".dist.npy"), stem.with_suffix(".json")


def larger_built(variant: Variant, pieces: int, directory: Path | None = None) -> bool:
    """Whether a database of ``variant`` with more than ``pieces`` pieces has been written (its description is
    there)."""
    directory = directory or default_directory()
    return any(paths(variant, n, directory)[2].exists() for n in range(pieces + 1, MAX_PIECES + 1))


@dataclass(frozen=True)
class Endgames:
    """A built database, its files mapped into memory (opened at once; pages are read as probes touch them)."""

    layout: Layout
    wdl: np.ndarray  # uint8, four values a byte
    dist: np.ndarray  # uint8 plies to the end

    @classmethod
    def open(cls, variant: Variant, pieces: int | None = None, directory: Path | None = None) -> Endgames | None:
        """The largest database of ``variant`` found (up to ``pieces``), or None."""
        directory = directory or default_directory()
        for n in range(min(pieces or MAX_PIECES, MAX_PIECES), 1, -1):
            wdl_path, dist_path, info_path = paths(variant, n, directory)
            try:
                info = json.loads(info_path.read_text())
                if info.get("format") != FORMAT:
                    continue
                layout = Layout.of(variant, n)
                wdl = np.load(wdl_path, mmap_mode="r")
                dist = np.load(dist_path, mmap_mode="r")
            except (OSError, ValueError):
                continue
            if wdl.shape[0] != (layout.positions + 3) // 4 or dist.shape[0] != layout.positions:
                continue
            return cls(layout, np.asarray(wdl), np.asarray(dist))
        return None

    @property
    def pieces(self) -> int:
        return self.layout.pieces

    def probe(self, me: int, opp: int, kings: int, side: int) -> tuple[int, int]:
        """(value, plies) for the side to move (``side`` 0 moves up the board); value -1 if not held."""
        lay = self.layout
        v, d = probe(np.uint64(me), np.uint64(opp), np.uint64(kings), side, lay.vector, lay.offsets, lay.binom,
                     self.wdl, self.dist)
        return int(v), int(d)

    def value(self, position: Position) -> tuple[int, int]:
        """(value, plies to the end) of a position for its side to move: WIN, LOSS or DRAW, or -1 if not held."""
        me, opp = ((position.white, position.black) if position.turn == Color.WHITE
                   else (position.black, position.white))
        return self.probe(me, opp, position.kings, 0 if position.turn == Color.WHITE else 1)

    def arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """What the compiled search takes: (layout, offsets, binom, wdl, dist)."""
        lay = self.layout
        return lay.vector, lay.offsets, lay.binom, self.wdl, self.dist

