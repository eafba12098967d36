"""``python -m engine``: the engine's command line (``engine.tools.cli``)."""

import os
import sys

from engine.tools.cli import main


def run() -> int:
    """``python -m engine``, and the ``draughts-engine`` command."""
    try:
        status = main()
        sys.stdout.flush()
    except BrokenPipeError:
        # the reader went away (``python -m engine ... | head``): stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        status = 0
    return status


if __name__ == "__main__":
    raise SystemExit(run())
