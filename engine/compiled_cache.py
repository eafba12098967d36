"""Keep numba's cache of compiled kernels true to their sources.

numba keys a cached function to its own file's time stamp only. The search
kernel inlines each game's operations (``draughts/hooks.py``, ``tablut/search.py``)
and through them the draughts kernel, the evaluation and the Tablut kernel, so
after an edit of one of those it would load a search compiled from the old
code (measured here: a segmentation fault when the evaluation's tables
changed layout). ``refresh`` runs before any kernel is first called: when the
kernels' sources differ from those the cache was built from, it drops the
cache entries of the modules that inline others (and of those whose compile
options come from ``engine.compiled``), and numba compiles them anew. A module
of plain constants and tables that compiled code reads
(``draughts/kernel_layout.py``, ``draughts/evaluation_tables.py``) is a source
too: numba takes their values into the code compiled in the modules that read
them.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

ROOT = Path(__file__).parent
SOURCES = ("compiled.py", "draughts/kernel.py", "draughts/kernel_layout.py", "draughts/network.py",
           "draughts/evaluation.py", "draughts/evaluation_tables.py", "draughts/endgames.py",
           "draughts/endgame_solve.py", "draughts/hooks.py", "tablut/kernel.py", "tablut/search.py", "search/hooks.py",
           "search/kernel.py")
# modules whose compiled code inlines other modules' or takes its compile options from ``compiled``
DEPENDENT = ("draughts/kernel.py", "draughts/network.py", "draughts/evaluation.py", "draughts/endgames.py", "draughts/endgame_solve.py",
             "draughts/hooks.py", "tablut/kernel.py", "search/kernel.py")


def sources_digest() -> str:
    digest = hashlib.sha256()
    for name in SOURCES:
        digest.update((ROOT / name).read_bytes())
    return digest.hexdigest()


def refresh() -> None:
    """Drop the dependent modules' cache indexes if they were built from other sources."""
    digest = sources_digest()
    for name in DEPENDENT:
        source = ROOT / name
        cache = source.parent / "__pycache__"
        stamp = cache / f"{source.stem}.sources"
        try:
            if stamp.exists() and stamp.read_text() == digest:
                continue
            for index in cache.glob(f"{source.stem}.*.nbi"):
                index.unlink(missing_ok=True)
            cache.mkdir(exist_ok=True)
            stamp.write_text(digest)
        except OSError:
            pass  # a read-only install: numba then keeps its cache elsewhere or compiles in memory
