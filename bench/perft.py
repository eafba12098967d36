"""Perft speed benchmark: median leaves per second over repeated runs.

    python bench/perft.py [--repeat 5]

Runs English perft 11 and International perft 9 from the start (the issue's
targets: 30 M and 10 M leaves/s on one core), checks the counts against the
published ones, and prints the median time and rate of each. Pin it to one
core with ``taskset -c 0`` for figures comparable across runs.
"""

from __future__ import annotations

import argparse
import statistics
import time

from engine import perft, start_position, variant

# (variant, depth, published leaf count: see tests/perft_data.py for sources)
CASES = [("english", 11, 85242128), ("international", 9, 41022423)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    for name, depth, expected in CASES:
        pos = start_position(variant(name))
        perft(pos, 2)  # compiled code loaded before timing
        times = []
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            n = perft(pos, depth)
            times.append(time.perf_counter() - t0)
            if n != expected:
                raise SystemExit(f"{name} perft {depth}: {n} leaves, expected {expected}")
        med = statistics.median(times)
        print(f"{name:>13} perft {depth:>2}: {expected:>13,} leaves  median {med:6.3f} s  "
              f"{expected / med / 1e6:6.1f} M leaves/s  (min {min(times):.3f} s, max {max(times):.3f} s, n={len(times)})")


if __name__ == "__main__":
    main()
