"""One perft, for an instruction count of the move generator alone: run it under callgrind at two depths and
subtract, which leaves out the interpreter's start-up and the kernel's loading.

    valgrind --tool=callgrind --callgrind-out-file=/dev/null .venv/bin/python bench/perft_work.py international 3
    valgrind --tool=callgrind --callgrind-out-file=/dev/null .venv/bin/python bench/perft_work.py international 8

("Collected" in each run's last line; the second minus the first.) Instruction counts do not depend on what
else the machine is doing, so two commits can be compared on a busy machine. The first run under valgrind
compiles the kernels again (numba's cache is kept per CPU, and valgrind's looks new): run each depth once first.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine as e  # noqa: E402

name, depth = sys.argv[1], int(sys.argv[2])
start = e.start_position(e.variant(name))
e.perft(start, 1)  # load the kernel
print(e.perft(start, depth))
