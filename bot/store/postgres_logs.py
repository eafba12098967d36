"""What the PostgreSQL side tells the operator: asyncpg's pool's failures to reconnect in one line each, and a
database URL's password kept out of every message."""

from __future__ import annotations

import logging
from urllib.parse import urlsplit


class _OneLine(logging.Filter):
    """asyncpg's pool logs a traceback each time it fails to reconnect to a server that is down (after 1, 2, 4 ...
    60 s): the operator needs the one line and the reason, not the driver's stack."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info and record.exc_info[1] is not None:
            error = record.exc_info[1]
            record.msg = f"{record.getMessage()} ({type(error).__name__}: {error})"
            record.args, record.exc_info, record.exc_text = (), None, None
        return True


logging.getLogger("asyncpg.pool").addFilter(_OneLine())  # (once, when the PostgreSQL store is first imported)


def without_password(text: str, url: str) -> str:
    """``text`` with the URL's password taken out, should the driver have quoted it."""
    try:
        password = urlsplit(url).password
    except ValueError:
        return "(details withheld: they may hold the password)"
    return text.replace(password, "***") if password else text
