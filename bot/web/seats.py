"""Seat links: the secret in a player's link to their game, the only way to move for that seat from the page.

A seat's secret is a keyed hash of the game, the colour and the player, so it needs no table of its own and
outlives a restart: the key is made once and kept in a file beside the database (0600), or comes from
``BOT_WEB_SECRET``. With a database kept only in memory, the key lives as long as the process.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import secrets
from pathlib import Path

from engine import Color

KEY_BYTES = 32


def load_key(database: str, configured: str = "") -> bytes:
    """The key seat secrets are made with: ``configured`` if set, else the one kept beside ``database``
    (made on first use)."""
    if configured:
        return hashlib.sha256(configured.encode()).digest()
    if database == ":memory:":
        return secrets.token_bytes(KEY_BYTES)
    path = Path(database).with_name(Path(database).name + ".web-key")
    try:
        key = path.read_bytes()
        if len(key) == KEY_BYTES:
            return key
    except FileNotFoundError:
        pass
    key = secrets.token_bytes(KEY_BYTES)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as f:
        f.write(key)
    return key


class SeatKeys:
    """Makes and checks seat secrets, and the shorter keys in a game's watching address (so that game ids, which
    count up, do not let anyone find the games of servers they are not in)."""

    def __init__(self, key: bytes):
        self._key = key

    def _digest(self, text: str, size: int) -> str:
        digest = hmac.new(self._key, text.encode(), hashlib.sha256).digest()
        return base64.urlsafe_b64encode(digest[:size]).decode()

    def secret(self, game: int, colour: Color, user_id: str) -> str:
        return self._digest(f"{game}:{int(colour)}:{user_id}", 18)

    def check(self, game: int, colour: Color, user_id: str, secret: str) -> bool:
        return hmac.compare_digest(self.secret(game, colour, user_id).encode(), secret.encode("utf-8", "replace"))

    def watch_key(self, game: int) -> str:
        return self._digest(f"watch:{game}", 9)

    def check_watch(self, game: int, key: str) -> bool:
        return hmac.compare_digest(self.watch_key(game).encode(), key.encode("utf-8", "replace"))
