"""Seat links: the secret in a player's link to their game, the only way to move for that seat from the page.

A seat's secret is a keyed hash of the game, the colour and the player, so it needs no table of its own and
outlives a restart: the key is made once and kept in the database, where every process of the bot finds the same
one, or comes from ``BOT_WEB_SECRET``. With a database kept only in memory, the key lives as long as the process.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from pathlib import Path

from bot.store import SaveFailed, Store, StoreError
from bot.replies import User
from engine import Color

KEY_BYTES = 32
KEY_NAME = "seat-links"
"""The seat links' key in the database's ``shared_keys``."""


async def load_key(store: Store, database: str, configured: str = "") -> bytes:
    """The key seat secrets are made with: ``configured`` if set, else the one kept in the database (made by the
    first process to ask). ``StoreError`` if the database does not give it: a process with a key of its own would
    refuse every other process's seat links."""
    if configured:
        return hashlib.sha256(configured.encode()).digest()
    try:
        return bytes.fromhex(await store.shared_key(KEY_NAME, _first_key(database).hex()))
    except (SaveFailed, ValueError) as error:
        raise StoreError(f"cannot read the seat links' key from the database ({error}); set BOT_WEB_SECRET, or "
                         "start again once the database answers") from None


def _first_key(database: str) -> bytes:
    """The key to store when the database has none: the one an older bot kept in a file beside a SQLite database
    (so that the seat links it gave still work), else a new one."""
    if database != ":memory:" and "://" not in database:
        try:
            key = Path(database).with_name(Path(database).name + ".web-key").read_bytes()
            if len(key) == KEY_BYTES:
                return key
        except OSError:
            pass
    return secrets.token_bytes(KEY_BYTES)


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

    def player_ref(self, guild: str, user_id: str) -> str:
        """A player's page's reference (``/p/REF``): their server and id, and a key without which it is not found
        (the page lists their games' watching addresses)."""
        who = base64.urlsafe_b64encode(f"{guild}\n{user_id}".encode()).decode().rstrip("=")
        return f"{who}.{self._digest(f'player:{who}', 9)}"  # (the encoded pair signed: one way to read it)

    def read_player(self, ref: str) -> tuple[str, str] | None:
        """The (server, user id) of a player's page reference, or None if it is not one of this bot's."""
        who, _, key = ref.partition(".")
        try:
            guild, _, user_id = base64.urlsafe_b64decode(who + "=" * (-len(who) % 4)).decode().partition("\n")
        except (ValueError, UnicodeDecodeError):
            return None
        return (guild, user_id) if user_id and hmac.compare_digest(self.player_ref(guild, user_id).encode(),
                                                                   ref.encode("utf-8", "replace")) else None

    def tournament_ref(self, tournament: int) -> str:
        """A tournament's page's reference (``/t/REF``): its id and a key (ids count up)."""
        return f"{tournament}-{self._digest(f'tournament:{tournament}', 9)}"

    def read_tournament(self, ref: str) -> int | None:
        """The tournament of a page reference, or None if it is not one of this bot's."""
        number, _, _ = ref.partition("-")
        if not (number.isascii() and number.isdigit()) or len(number) > 12:
            return None
        return int(number) if hmac.compare_digest(self.tournament_ref(int(number)).encode(),
                                                  ref.encode("utf-8", "replace")) else None

    def sign(self, text: str) -> str:
        """``text`` with this bot's signature, for a cookie: read back only by ``unsign``."""
        body = base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")
        return f"{body}.{self._digest(f'signed:{body}', 18)}"

    def unsign(self, signed: str) -> str | None:
        """The text ``sign`` signed, or None if ``signed`` is not one of this bot's."""
        body, _, digest = signed.partition(".")
        if not hmac.compare_digest(self._digest(f"signed:{body}", 18).encode(), digest.encode("utf-8", "replace")):
            return None
        try:
            return base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)).decode()
        except (ValueError, UnicodeDecodeError):
            return None

    def session(self, person: User, until: int) -> str:
        """A signed-in person's session cookie, good until ``until`` (a Unix time)."""
        return self.sign(f"{person.id}\n{until}\n{person.name}")

    def read_session(self, cookie: str, now: float) -> User | None:
        """The person a session cookie names, while it is good; None for anything else."""
        text = self.unsign(cookie[:300]) if cookie else None
        if text is None or text.count("\n") < 2:
            return None
        user_id, until, name = text.split("\n", 2)
        return User(user_id, name) if user_id.isdigit() and until.isdigit() and int(until) > now else None

    def watch_key(self, game: int) -> str:
        return self._digest(f"watch:{game}", 9)

    def check_watch(self, game: int, key: str) -> bool:
        return hmac.compare_digest(self.watch_key(game).encode(), key.encode("utf-8", "replace"))
