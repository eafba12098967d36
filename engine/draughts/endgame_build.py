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

import contextlib
import json
import os
import shutil
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from engine.draughts import kernel, kernel_layout
from engine.draughts.endgame_solve import UNKNOWN, check_table, farthest, init_table, position_at, retro_pass, settle
from engine.draughts.endgames import DRAW, FORMAT, INVALID, LOSS, WIN, Endgames, Layout, paths
from engine.draughts.fen import to_fen
from engine.draughts.position import Position
from engine.draughts.variants import Variant
from engine.game import Color
from engine.progress import Progress


@dataclass(frozen=True)
class Built:
    """What a build made."""

    wdl: Path
    dist: Path
    positions: int
    seconds: float
    counts: dict[str, int]  # wins, losses, draws (positions held, unused indexes left out)
    longest: int  # plies of the longest win


def _rows(tables) -> np.ndarray:
    return np.array(tables, dtype=np.int64).reshape(-1, 6)


def unpack(wdl: np.ndarray, positions: int) -> np.ndarray:
    val = np.empty(wdl.shape[0] * 4, dtype=np.uint8)
    for k in range(4):
        val[k::4] = (wdl >> (2 * k)) & 3
    return val[:positions]


def pack(val: np.ndarray) -> np.ndarray:
    padded = np.full((val.shape[0] + 3) // 4 * 4, INVALID, dtype=np.uint8)
    padded[: val.shape[0]] = val
    return (padded[0::4] | padded[1::4] << 2 | padded[2::4] << 4 | padded[3::4] << 6).astype(np.uint8)


def build(variant: Variant, pieces: int, directory: Path, progress: Progress | None = None,
          command: str = "") -> Built:
    """Solve every position of ``variant`` with up to ``pieces`` pieces and write the database to ``directory``.

    A build stopped part way goes on where it stopped, at two levels: a database of fewer pieces already there is
    taken as it is (its tables come first in this one's; build 3 before 4 to keep that step), and each pair of
    tables solved is kept at once in a folder beside the database (``partial``), read back by the next build and
    removed when the database is written. Memory: ``BUILD_BYTES`` a position while building (International 5 pieces:
    1.9 G positions, about 8 GB), and little more to write the files, which are made a slice at a time.
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
        val[:solved] = unpack(np.asarray(prior.wdl), solved)
        dist[:solved] = prior.dist
    kept = partial(variant, pieces, directory)
    done = {t[:4] for t in layout.tables if t[4] < solved}
    for tables in _groups(layout):
        if any(t[:4] in done for t in tables) or not all(_read_kept(kept, t, val, dist) for t in tables):
            continue
        done.update(t[:4] for t in tables)
        solved += sum(t[5] for t in tables)
    out = np.zeros((kernel_layout.MAX_MOVES, kernel_layout.MOVE_COLS), dtype=np.uint64)
    work = np.zeros((kernel_layout.MAX_PATH, kernel.WORK_COLS), dtype=np.uint64)
    rules = variant.rules
    lay = (layout.vector, layout.offsets, layout.binom)
    what = f"{variant.name} {pieces} pieces"
    if progress:
        progress(what, solved, layout.positions)  # where it starts: with what the build before left
    for tables in _groups(layout):
        if tables[0][:4] in done:
            continue
        group = _rows(tables)
        for row in group:
            if init_table(row, *lay, rules, val, dist, cnt, out, work):
                raise RuntimeError(f"table {tuple(row[:4])} reads an unsolved table: the build order is wrong")
        k, far = 0, farthest(group, val, dist)
        while k <= far:
            far = max(far, retro_pass(k, group, *lay, rules, val, dist, cnt))
            k += 1
        settle(group, val, dist)
        for t in tables:
            _keep(kept, t, val, dist)
        solved += int(group[:, 5].sum())
        if progress:
            progress(what, solved, layout.positions)
    del cnt
    longest = int(dist.max()) if dist.size else 0
    counts = {name: int(np.count_nonzero(val == code)) for name, code in (("wins", WIN), ("losses", LOSS),
                                                                          ("draws", DRAW))}
    directory.mkdir(parents=True, exist_ok=True)
    wdl_path, dist_path, info_path = paths(variant, pieces, directory)
    _save_slices(wdl_path, val, pack, 4)
    _save_slices(dist_path, dist, lambda d: np.minimum(d, 255).astype(np.uint8), 1)
    seconds = time.perf_counter() - t0
    info = {"format": FORMAT, "variant": variant.name, "pieces": pieces, "positions": layout.positions,
            "bytes": wdl_path.stat().st_size + dist_path.stat().st_size, "seconds": round(seconds, 1),
            "longest_win_plies": longest, **counts, "command": command}
    _save_text(info_path, json.dumps(info, indent=1) + "\n")
    shutil.rmtree(kept, ignore_errors=True)
    return Built(wdl_path, dist_path, layout.positions, seconds, counts, longest)


BUILD_BYTES = 4  # bytes a position while building: its value, distance (two) and count of undecided moves


def physical_memory() -> int:
    """This machine's memory in bytes, or 0 where the system does not say."""
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return 0


def _groups(layout: Layout) -> list[list[tuple[int, int, int, int, int, int]]]:
    """The tables in the order they are solved, each with its colour twin (one group when it is its own)."""
    groups, seen = [], set()
    for t in layout.tables:
        if t[:4] in seen:
            continue
        a, b, c, d = t[:4]
        twin = next(u for u in layout.tables if u[:4] == (c, d, a, b))
        groups.append([t] if twin == t else [t, twin])
        seen.update({t[:4], twin[:4]})
    return groups


def partial(variant: Variant, pieces: int, directory: Path) -> Path:
    """The folder where a build keeps each pair of tables it has solved until the database is written."""
    return directory / f"{variant.name}-{pieces}.partial"


def _table_paths(kept: Path, t) -> tuple[Path, Path]:
    stem = kept / "-".join(str(n) for n in t[:4])
    return stem.with_suffix(".val.npy"), stem.with_suffix(".dist.npy")


def _keep(kept: Path, t, val: np.ndarray, dist: np.ndarray) -> None:
    """One solved table into ``kept``: its distances first, then its values, whose file says the table is whole."""
    kept.mkdir(parents=True, exist_ok=True)
    val_path, dist_path = _table_paths(kept, t)
    _save(dist_path, dist[t[4]:t[4] + t[5]])
    _save(val_path, val[t[4]:t[4] + t[5]])


def _read_kept(kept: Path, t, val: np.ndarray, dist: np.ndarray) -> bool:
    """Table ``t`` read back from ``kept`` into the arrays; False when it is not there whole."""
    val_path, dist_path = _table_paths(kept, t)
    try:
        v, d = np.load(val_path, mmap_mode="r"), np.load(dist_path, mmap_mode="r")
    except (OSError, ValueError):
        return False
    if v.shape != (t[5],) or d.shape != (t[5],) or v.dtype != val.dtype or d.dtype != dist.dtype:
        return False
    val[t[4]:t[4] + t[5]] = v
    dist[t[4]:t[4] + t[5]] = d
    return True


SLICE = 1 << 26  # positions made into a file's bytes at a time (a multiple of 4: four values share a byte)


def _save_slices(path: Path, arr: np.ndarray, make: Callable[[np.ndarray], np.ndarray], per_byte: int) -> None:
    """``make(arr)`` saved as a .npy file of uint8, made and written a slice at a time, so that writing a large
    database needs no second copy of it in memory."""
    length = (arr.shape[0] + per_byte - 1) // per_byte
    with _whole(path) as f:
        np.lib.format.write_array_header_1_0(f, {"descr": "|u1", "fortran_order": False, "shape": (length,)})
        for start in range(0, arr.shape[0], SLICE):
            f.write(make(arr[start:start + SLICE]).tobytes())


def _save(path: Path, arr: np.ndarray) -> None:
    with _whole(path) as f:
        np.save(f, arr)


def _save_text(path: Path, text: str) -> None:
    with _whole(path) as f:
        f.write(text.encode())


@contextlib.contextmanager
def _whole(path: Path):
    """A file written whole or not at all: into a temporary file of its own (two builders at once never share
    one), renamed into place when complete."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name + ".", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            yield f
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def verify(endgames: Endgames, progress: Progress | None = None) -> tuple[int, int, str]:
    """Check every position against its successors' stored values: (positions checked, positions wrong, the
    first wrong one as its table, index and FEN (stored as if White moved), or '')."""
    layout = endgames.layout
    out = np.zeros((kernel_layout.MAX_MOVES, kernel_layout.MOVE_COLS), dtype=np.uint64)
    work = np.zeros((kernel_layout.MAX_PATH, kernel.WORK_COLS), dtype=np.uint64)
    wrong = 0
    first = ""
    checked = 0
    for t in layout.tables:
        n, i = check_table(_rows([t])[0], layout.vector, layout.offsets, layout.binom, layout.variant.rules,
                            endgames.wdl, endgames.dist, out, work)
        if n and not first:
            me, opp, kings, _ = position_at(*t[:4], i - t[4], layout.vector, layout.binom)
            pos = Position(layout.variant, int(me), int(opp), int(kings), Color.WHITE)
            first = f"table {t[:4]} index {i}: {to_fen(pos)}"
        wrong += n
        checked += t[5]
        if progress:
            progress(f"check {layout.variant.name} {layout.pieces}", checked, layout.positions)
    return checked, wrong, first
