"""The endgame databases, built in the background at start-up where missing, so that a fresh install plays
its endings perfectly a minute later without waiting for them.

The build is ``python -m engine egtb build`` in a process of its own, at low priority; the search processes
find the files when it has written them (they look again now and then), so nothing restarts. It ends with the bot
however the bot ends, as the search processes do: the bot holds its standard input open, and the build stops when
that closes (``--end-with-input``), so a bot killed with kill -9 leaves no build behind to race the next one.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import sys

from engine.games import GAMES

log = logging.getLogger(__name__)


def missing(pieces: int) -> list[str]:
    """The games whose endgame databases of ``pieces`` pieces are not built."""
    return [name for name, game in GAMES.items() if game.endgames_missing(pieces)]


async def build_missing(pieces: int) -> None:
    """Build what is missing, one variant after another; cancelling stops the build (files are written whole
    or not at all, so it goes on from there at the next start)."""
    names = missing(pieces) if pieces >= 2 else []
    if not names:
        return
    print(f"Building the endgame databases up to {pieces} pieces ({', '.join(names)}) in the background; "
          f"the bot plays meanwhile.", file=sys.stderr, flush=True)
    for name in names:
        try:
            process = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "engine", "egtb", "build", "--variant", name, "--pieces", str(pieces),
                "--quiet", "--end-with-input", stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE)
        except OSError as error:
            log.error("could not start the endgame database build: %s", error)
            return
        assert process.stdin is not None and process.stdout is not None and process.stderr is not None
        with contextlib.suppress(OSError):
            os.setpriority(os.PRIO_PROCESS, process.pid, 10)  # below the search processes
        try:  # not communicate(): it would close the build's input, and so end it
            out, err, _ = await asyncio.gather(process.stdout.read(), process.stderr.read(), process.wait())
        except asyncio.CancelledError:
            process.kill()
            await process.wait()
            raise
        finally:
            process.stdin.close()
        if process.returncode == -signal.SIGTERM:  # the bot is being stopped: systemd signals every process at once
            log.info("endgame database build for %s stopped by SIGTERM; the next start goes on from there", name)
            return
        if process.returncode != 0:
            log.error("endgame database build for %s failed: %s", name, err.decode(errors="replace").strip()[-500:])
            return
        lines = out.decode(errors="replace").strip().splitlines()
        log.info("endgame databases built: %s", lines[-1] if lines else name)
    log.info("endgame databases up to %d pieces ready", pieces)

