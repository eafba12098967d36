import os
import sys

from engine.tools.cli import main

try:
    status = main()
    sys.stdout.flush()
except BrokenPipeError:
    # the reader went away (``python -m engine ... | head``): stop quietly
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    status = 0
raise SystemExit(status)
