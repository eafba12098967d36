"""``python -m engine bench``: fixed positions searched to fixed depths.

The total node count is the search's signature: it changes only when the
search or the evaluation changes (the machine and the clock do not affect it).
Nodes per second measure speed; the depth reached in one second from each
start position is the figure a chat user feels.
"""

from __future__ import annotations

import statistics
import time
from dataclasses import dataclass

from engine.draughts.fen import parse_fen
from engine.draughts.rules import start_position
from engine.draughts.variants import VARIANTS, variant
from engine.games import game_type
from engine.search import Limits, Searcher

# Middlegames reached by level-4 self-play (seeds 1-3, after 16, 24 and 30 plies), and the depth each is searched to.
POSITIONS = {
    "english": (17, (
        "B:W13,18,19,21,23,25,27,29,31,32:B1,2,3,4,6,8,10,12,14,15",
        "B:W15,16,19,21,23,24,27,30,32:B1,2,3,4,6,10,12,14,22",
        "B:W14,18,26,27,28,29,31:B1,2,3,13,16,19,20",
    )),
    "international": (14, (
        "W:W27,29,31,32,33,34,37,40,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,10,11,15,16,17,18,19,20,21,23",
        "W:W27,28,31,32,34,35,37,38,39,40,41,44,46,47,48,49,50:B1,2,3,4,5,6,7,10,11,12,13,16,19,21,23,24,25",
        "W:W25,27,33,36,37,38,41,42,43,45,46,47,48,49:B1,2,3,4,5,6,7,8,9,11,14,26,35",
    )),
    "russian": (18, (
        "W:W13,19,20,21,22,23,24,29,30,31,32:B1,2,3,6,8,9,10,11,12,14,15",
        "W:W18,20,21,22,29,30,31,32:B2,3,5,11,12,14,15,16",
        "W:W17,19,21,22,23,25,29:B3,4,5,9,13,14,15",
    )),
    "brazilian": (16, (
        "W:W21,22,25,27,29,30,31,32:B1,2,3,4,7,9,11,12",
        "W:W17,18,22,24,29,30,31,32:B2,3,5,9,11,12,15,19",
        "W:W13,20,21,22,25,30,32:B1,2,10,11,12,14,19",
    )),
}


@dataclass(frozen=True)
class BenchLine:
    variant: str
    fen: str
    depth: int
    nodes: int
    seconds: float


def run_positions(tt_mb: float = 64) -> list[BenchLine]:
    """Search every bench position to its depth from empty tables."""
    lines = []
    for name, (depth, fens) in POSITIONS.items():
        v = variant(name)
        searcher = Searcher(game_type(v.name), tt_mb=tt_mb, endgames=False)  # the same nodes on every machine
        searcher.warm_up()
        for fen in fens:
            searcher.clear()
            result = searcher.search(parse_fen(v, fen), Limits(depth=depth))
            lines.append(BenchLine(name, fen, depth, result.nodes, result.time))
    return lines


def depth_in(seconds: float, name: str, tt_mb: float = 64) -> tuple[int, int]:
    """(depth, nodes) completed from the start position within ``seconds``."""
    v = variant(name)
    searcher = Searcher(game_type(v.name), tt_mb=tt_mb)
    searcher.warm_up()
    result = searcher.search(start_position(v), Limits(time=seconds))
    return result.depth, result.nodes


def main(repeat: int = 3, seconds: float = 1.0) -> int:
    print("search bench: fixed positions to fixed depths (empty tables each)")
    runs = [run_positions() for _ in range(repeat)]
    first = runs[0]
    print(f"{'variant':<14}{'depth':>6}{'nodes':>12}{'seconds':>9}  fen")
    for line in first:
        print(f"{line.variant:<14}{line.depth:>6}{line.nodes:>12,}{line.seconds:>9.3f}  {line.fen}")
    total = sum(line.nodes for line in first)
    speeds = [sum(x.nodes for x in run) / sum(x.seconds for x in run) for run in runs]
    print(f"total nodes {total:,} (signature)")
    print(f"nodes/s median of {repeat}: {statistics.median(speeds):,.0f}")
    print(f"depth reached from the start position in {seconds:g} s (median of {repeat}):")
    for name in VARIANTS:
        results = [depth_in(seconds, name) for _ in range(repeat)]
        depths = sorted(d for d, _ in results)
        print(f"  {name:<14} depth {statistics.median(depths):g} (runs: {', '.join(map(str, depths))})")
    return 0


if __name__ == "__main__":
    start = time.perf_counter()
    main()
    print(f"{time.perf_counter() - start:.1f} s")
