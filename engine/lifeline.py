"""A process that ends with the one that started it, however that one ends (a kill -9 included).

The starter holds one end of a pipe and never writes to it; this process watches the other end, which reads as
closed the moment the starter is gone, since the system closes a dead process's files. A thread does the watching
and exits the process at once: compiled work releases the interpreter while it runs (``nogil``), so the thread
acts even in the middle of it. The bot's search processes watch multiprocessing's pipe to their parent; an
endgame database build started in the background watches its standard input (``egtb build --end-with-input``).
"""

from __future__ import annotations

import os
import threading
from multiprocessing.connection import wait


def end_with(pipe: int) -> None:
    """Exit this process as soon as the pipe read by the file descriptor ``pipe`` is closed at its other end."""

    def watch() -> None:
        wait([pipe])  # readable: closed, as nothing is ever written
        os._exit(1)

    threading.Thread(target=watch, name="lifeline", daemon=True).start()
