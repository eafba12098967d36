"""A progress line for the engine's long commands (database builds, analyses, matches, training), rewritten in
place on standard error: what is going on, a bar, the share done, the count and the time left. It is the library's
own, so that the engine needs no progress package."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import TextIO

Progress = Callable[[str, int, int], None]  # (what, done, in all)


def progress_bar(stream: TextIO | None = None, count: Callable[[int, int], str] | None = None) -> Progress:
    """A progress line rewritten in place (on standard error by default): bar, percentage, positions (as
    ``count(done, total)`` writes them; by default in millions), elapsed and remaining time. The time left is
    reckoned from the first count shown, so a job that goes on from where it stopped is not taken as faster."""
    t0 = time.perf_counter()
    out = stream or sys.stderr
    first: list[int] = []

    def show(what: str, done: int, total: int) -> None:
        first[:] = first or [done]
        frac = done / total if total else 1.0
        spent = time.perf_counter() - t0
        rate = (done - first[0]) / spent if spent > 0 else 0.0
        eta = f"{(total - done) / rate:4.0f} s left" if 0 < frac < 1 and rate > 0 else "         "
        bar = "#" * int(frac * 30)
        counted = count(done, total) if count else f"{done / 1e6:7.1f}/{total / 1e6:.1f} M"
        out.write(f"\r{what:<28} [{bar:<30}] {frac:4.0%} {counted}  {spent:5.0f} s  {eta}")
        if done >= total:
            out.write("\n")
        out.flush()

    return show
