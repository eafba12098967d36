"""How the bot's processes talk through PostgreSQL, for the web tier: a game's owner publishes what happened to it
(``publish``: its events announced by NOTIFY, the game as it then is kept in ``page_news``), a web process passes
on what a page asks (``ask``) and the owner answers (``answer``); owners beat a heartbeat so that a web process
knows who is there.

Nothing here knows what a game is: events, states, asks and answers are JSON objects, read and made by ``bot.web``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Awaitable, Callable

import asyncpg

from bot.store.base import SaveFailed
from bot.store.postgres import PostgresStore
from bot.store.postgres_logs import without_password

log = logging.getLogger(__name__)

NEWS = "draughts_news"
"""The channel a game's events are announced on: ``{"game", "seq"}``, with ``"events"`` when they fit."""
ASKS = "draughts_asks"
"""Asks from pages, for the process that owns the game: ``{"from", "id", ...}``."""
ANSWERS = "draughts_answers"
"""Answers to asks, for the process that asked: ``{"to", "id", ...}``."""
PAYLOAD_LIMIT = 7800
"""Bytes of a NOTIFY's payload (PostgreSQL takes 8000): a web process reads the game from ``page_news`` instead of
longer events."""
KEEP_ENDED = 3600.0
"""Seconds the news of an ended game is kept (a page opened just after the end still finds it)."""
CHECK_SECONDS = 2.0
"""How often the listening connection is checked: a server that has gone away, or frozen, is found within this and
a statement's timeout, and the listener connects again."""

Handler = Callable[[str, dict], None]


class Exchange:
    """Publishing, asking and listening through one PostgreSQL database (the store's)."""

    def __init__(self, store: PostgresStore):
        self.store = store

    # news

    async def publish(self, game: int, guild: str, state: dict, events: list[dict]) -> int:
        """Announce ``events`` of game ``game`` and keep ``state`` as how the game is after them (``"live"``: the
        game, None once it has ended); their sequence number (one more than the game's last, whichever process
        published that)."""
        text = json.dumps(state, separators=(",", ":"))
        async with self.store.connection(transaction=True) as db:
            seq = int(await db.fetchval(
                "INSERT INTO page_news (game, guild, seq, live, news, updated) VALUES ($1, $2, 1, $3, $4, $5)"
                " ON CONFLICT (game) DO UPDATE SET guild = excluded.guild, seq = page_news.seq + 1,"
                " live = excluded.live, news = excluded.news, updated = excluded.updated RETURNING seq",
                game, guild, state.get("live") is not None, text, time.time()))
            note = json.dumps({"game": game, "seq": seq, "events": events}, separators=(",", ":"))
            if len(note.encode()) > PAYLOAD_LIMIT:
                note = json.dumps({"game": game, "seq": seq})
            await db.execute("SELECT pg_notify($1, $2)", NEWS, note)
        return seq

    async def news(self, game: int) -> tuple[int, dict] | None:
        """How game ``game`` is as last published (the ``state`` of ``publish``) and its sequence number, or None
        if none was published (or it was forgotten)."""
        async with self.store.connection() as db:
            row = await db.fetchrow("SELECT seq, news FROM page_news WHERE game = $1", game)
        return (row["seq"], json.loads(row["news"])) if row is not None else None

    async def live_news(self, guild_prefix: str) -> list[dict]:
        """How every game on whose server name starts with ``guild_prefix`` is, as last published."""
        async with self.store.connection() as db:
            rows = await db.fetch("SELECT news FROM page_news WHERE live AND starts_with(guild, $1) ORDER BY game",
                                  guild_prefix)
        return [json.loads(row["news"]) for row in rows]

    async def live_games(self) -> list[tuple[int, str]]:
        """(game, server name) of every game last published as on."""
        async with self.store.connection() as db:
            rows = await db.fetch("SELECT game, guild FROM page_news WHERE live")
        return [(row["game"], row["guild"]) for row in rows]

    async def forget(self, games: list[int]) -> None:
        """Drop the news of ``games``."""
        async with self.store.connection() as db:
            await db.execute("DELETE FROM page_news WHERE game = ANY($1::bigint[])", games)

    # asks, answers and owners

    async def notify(self, channel: str, payload: dict) -> None:
        """Announce ``payload`` on ``channel`` (``ASKS`` or ``ANSWERS``)."""
        text = json.dumps(payload, separators=(",", ":"))
        if len(text.encode()) > PAYLOAD_LIMIT:
            raise SaveFailed(f"a message of {len(text)} characters is too long to pass between processes")
        async with self.store.connection() as db:
            await db.execute("SELECT pg_notify($1, $2)", channel, text)

    async def beat(self, process: str, guild: str) -> None:
        """Say that ``process`` is up and answers the pages of games kept under ``guild``; forget old ended news."""
        now = time.time()
        async with self.store.connection() as db:
            await db.execute("INSERT INTO page_owners (process, guild, beat) VALUES ($1, $2, $3) ON CONFLICT (process)"
                             " DO UPDATE SET guild = excluded.guild, beat = excluded.beat", process, guild, now)
            await db.execute("DELETE FROM page_news WHERE NOT live AND updated < $1", now - KEEP_ENDED)
            await db.execute("DELETE FROM page_owners WHERE beat < $1", now - KEEP_ENDED)  # processes long gone

    async def leave(self, process: str) -> None:
        """``process`` is stopping: no page's new game should go to it."""
        async with self.store.connection() as db:
            await db.execute("DELETE FROM page_owners WHERE process = $1", process)

    async def owners(self, within: float) -> list[str]:
        """The server names of the page games of the processes that beat within the last ``within`` seconds."""
        async with self.store.connection() as db:
            rows = await db.fetch("SELECT guild FROM page_owners WHERE beat > $1 ORDER BY guild",
                                  time.time() - within)
        return [row["guild"] for row in rows]

    # listening

    async def listen(self, channels: tuple[str, ...], handler: Handler,
                     connected: Callable[[], Awaitable[None]] | None = None) -> None:
        """Call ``handler(channel, payload)`` for each notification on ``channels``, for ever, on a connection of
        its own that is connected again whenever it is lost; ``connected`` after each (re)connection, since what
        was announced while it was away is not told again. Run as a task; cancel it to stop."""
        pause = 0.5
        while True:
            db: asyncpg.Connection | None = None

            def heard(_db: object, _pid: int, channel: str, text: str) -> None:
                try:
                    payload = json.loads(text)
                except ValueError:
                    log.warning("an unreadable notification on %s", channel)
                    return
                handler(channel, payload)

            try:
                async with asyncio.timeout(2 * self.store.timeout):  # a server that freezes now is let go of too
                    db = await asyncpg.connect(self.store.url, timeout=self.store.timeout,
                                               command_timeout=self.store.timeout)
                    for channel in channels:
                        await db.add_listener(channel, heard)
                    if connected is not None:
                        await connected()
                pause = 0.5
                while not db.is_closed():
                    await asyncio.sleep(CHECK_SECONDS)
                    await db.execute("SELECT 1", timeout=self.store.timeout)
            except asyncio.CancelledError:
                raise
            except Exception as error:  # the server went away, froze or refused: connect again after a pause
                log.warning("listening to the database stopped (%s: %s); connecting again in %.1f s",
                            type(error).__name__, without_password(str(error), self.store.url), pause)
            finally:
                if db is not None:
                    db.terminate()
            await asyncio.sleep(pause)
            pause = min(pause * 2, 5.0)


@contextlib.asynccontextmanager
async def listening(exchange: Exchange, channels: tuple[str, ...], handler: Handler,
                    connected: Callable[[], Awaitable[None]] | None = None):
    """``Exchange.listen`` as a task for the length of the block."""
    task = asyncio.create_task(exchange.listen(channels, handler, connected), name="database listener")
    try:
        yield task
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
