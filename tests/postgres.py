"""A real PostgreSQL server for the tests, started in a temporary directory from the ``pgserver`` wheel (which
ships the server's binaries; ``./run-tests`` installs it with the test extras). Each test that asks gets a fresh,
empty database on it."""

from __future__ import annotations

import contextlib
import itertools
import tempfile
import warnings
from urllib.parse import urlsplit, urlunsplit

_counter = itertools.count(1)


def start_server():
    """The server (``pgserver``'s handle) and its base URL; stopped by ``server.cleanup()``."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # platformdirs warns that XDG_RUNTIME_DIR is unset, as it is in CI
        import pgserver

        server = pgserver.get_server(tempfile.mkdtemp(prefix="bot-postgres-"), cleanup_mode="delete")
    return server, server.get_uri()


def with_database(url: str, name: str) -> str:
    """``url`` pointing at database ``name`` instead."""
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, f"/{name}", parts.query, parts.fragment))


async def fresh_database(url: str) -> str:
    """A new empty database on the server; its URL."""
    import asyncpg

    name = f"test_{next(_counter)}"
    db = await asyncpg.connect(url)
    try:
        await db.execute(f"CREATE DATABASE {name}")
    finally:
        await db.close()
    return with_database(url, name)


def _processes(server):
    """The server's postmaster and its children, as psutil processes (pgserver depends on psutil)."""
    import psutil

    try:
        postmaster = psutil.Process(server.get_pid())
        return [postmaster, *postmaster.children(recursive=True)]
    except psutil.NoSuchProcess:  # stopped
        return []


def freeze(server) -> None:
    """Stop every process of the server with SIGSTOP, as a hung machine or a frozen container would: connections
    stay open, and nothing answers."""
    import signal

    import psutil

    for process in _processes(server):
        with contextlib.suppress(psutil.NoSuchProcess):  # a connection's process that has just ended
            process.send_signal(signal.SIGSTOP)


def thaw(server) -> None:
    """Let a frozen server run again."""
    import signal

    import psutil

    for process in _processes(server):
        with contextlib.suppress(psutil.NoSuchProcess):
            process.send_signal(signal.SIGCONT)


def stop(server) -> None:
    """Shut the server down (fast mode: connections are closed)."""
    from pgserver import _commands

    _commands.pg_ctl(["-w", "-m", "fast", "stop"], pgdata=server.pgdata, user=server.system_user)


def restart(server) -> None:
    """Start a stopped server again on the same data and socket."""
    server.ensure_postgres_running()
