"""Start-up time with the compiled cache present: median wall time of fresh processes.

    python bench/startup.py [--repeat 7]

Measures a new interpreter doing (a) ``import engine`` and (b) importing it
and using every compiled kernel once (legal moves, make, perft, Zobrist key),
which loads them from numba's cache. A first run fills the cache and is not
counted. The issue's target: a warm import in under 1 s.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time

IMPORT = "import engine"
FIRST_USE = (
    "import engine as e\n"
    "p = e.start_position(e.variant('international'))\n"
    "m = e.legal_moves(p)[0]\n"
    "e.make(p, m); e.perft(p, 2); e.key(p); e.parse_move(p, '32-28')\n"
)


def wall(code: str) -> float:
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], check=True)
    return time.perf_counter() - t0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    wall(FIRST_USE)  # fill the cache
    for label, code in (("import engine", IMPORT), ("import and first use of every kernel", FIRST_USE)):
        times = [wall(code) for _ in range(args.repeat)]
        print(f"{label:>38}: median {statistics.median(times):.3f} s  "
              f"(min {min(times):.3f}, max {max(times):.3f}, n={len(times)})")
    print(f"{'bare python -c pass':>38}: median {statistics.median(wall('pass') for _ in range(args.repeat)):.3f} s")


if __name__ == "__main__":
    main()
