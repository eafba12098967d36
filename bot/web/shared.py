"""The web process's side of the web tier: the games on of every chat process, as the pages see them, and the way
back to the process that owns each one.

``SharedGames`` is what ``Pages`` asks for the games on (``pages.LiveGames``) in ``python -m bot web``. It keeps
the news of the games its pages show, heard through the database (``bot.store.exchange``), and hands each to the
pages in order; a move or a command from a page is asked of the game's owner, which plays it through
``Core.handle`` as any message and sends back its private answers, then says it is done.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import random
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, replace

from bot.store.exchange import ANSWERS, ASKS, NEWS, Exchange, listening
from bot.core import Core, SaveFailed
from bot.replies import Message
from bot.tables import LiveGame
from bot.translation import text_from_json, tr
from bot.web.news import GameNews
from bot.web.pages import GUILD, Pages, WebOrigin, web_shard
from bot.web.relay import BEAT_SECONDS, process_name

log = logging.getLogger(__name__)

_LOAD = "load"
"""A page opened on a game not in the cache: read it in the order of the news (``_load``)."""
LIST_SECONDS = 1.0
"""How long the list of games on is kept for the front page (every visitor's page asks for it)."""
KEEP_UNWATCHED = 60.0
"""Seconds a game read for a page stays in the cache with no page open on it (a page that opens it again, or one
just opening, misses none of its news)."""
ASK_SECONDS = 10.0
"""How long a page's move waits for the game's owner to answer before the page is told that none did."""
NO_ANSWER = tr("The game's server did not answer in time (it may be starting again). If the board does not show "
               "it in a moment, it was not played: try again then.")
NO_OWNER = tr("No game server is running just now, so no game can start. Try again in a moment.")
NOT_SENT = tr("I could not pass that on: the database is not answering. Please try again in a moment.")


def _is_page_guild(guild: str) -> bool:
    return guild == GUILD or web_shard(guild) is not None


@dataclass
class _Waiting:
    origin: WebOrigin
    done: asyncio.Future[int | None]


class SharedGames:
    """Every chat process's games on, for the pages of a web process."""

    def __init__(self, exchange: Exchange, process: str | None = None):
        self.exchange = exchange
        self.process = process or process_name()
        self._apply: Callable[[GameNews], object] = lambda news: None
        self._watched: Callable[[int], bool] = lambda game: False
        self._dropped: Callable[[int], None] = lambda game: None
        self._listed: tuple[float, str | None, list[LiveGame]] | None = None  # the latest list, for LIST_SECONDS
        self._games: dict[int, tuple[int, LiveGame]] = {}  # by id: the latest news's number and the game it had
        self._since: dict[int, float] = {}  # by id: when it was read into ``_games``
        self._heard: asyncio.Queue[tuple[str, dict]] = asyncio.Queue()
        self._waiting: dict[str, _Waiting] = {}
        self._ids = itertools.count(1)
        self.ready = asyncio.Event()
        """Set once the listener has connected (and caught up): the pages hear every news from then on."""

    def show(self, apply: Callable[[GameNews], object], watched: Callable[[int], bool],
             dropped: Callable[[int], None]) -> None:
        """Hand each news to ``apply`` (``Pages.apply``), for the games ``watched`` says have pages open, and say
        which game is no longer followed to ``dropped`` (``Pages.forget``)."""
        self._apply, self._watched, self._dropped = apply, watched, dropped

    # listening

    def heard(self, channel: str, payload: dict) -> None:
        """A notification from the database (``Exchange.listen``'s handler): taken in order by ``run``."""
        if channel == ANSWERS and payload.get("to") != self.process:
            return
        self._heard.put_nowait((channel, payload))

    async def caught_up(self) -> None:
        """After the listener (re)connects: what its pages show may have moved on meanwhile."""
        for game in list(self._games):
            if self._watched(game):
                self._heard.put_nowait((NEWS, {"game": game, "seq": None}))
            else:
                self._forget(game)
        self.ready.set()

    async def run(self) -> None:
        """Take the notifications in the order they came, for ever (run as a task)."""
        while True:
            channel, payload = await self._heard.get()
            try:
                if channel == NEWS:
                    await self._news(payload)
                elif channel == ANSWERS:
                    await self._answer(payload)
                elif channel == _LOAD:
                    await self._load(payload["game"], payload["found"])
            except SaveFailed as error:
                log.warning("could not read a game's news: %s", error)
                if channel == _LOAD and not payload["found"].done():
                    payload["found"].set_exception(error)
            except Exception:
                log.exception("a notification could not be taken: %.200r", payload)
                if channel == _LOAD and not payload["found"].done():
                    payload["found"].set_exception(SaveFailed("the game's news could not be read"))

    async def _news(self, payload: dict) -> None:
        game = int(payload["game"])
        if game not in self._games:
            return  # no page shows it: read from the database when one opens
        if not self._watched(game) and time.monotonic() - self._since.get(game, 0.0) > KEEP_UNWATCHED:
            self._forget(game)
            return
        seq, data = payload.get("seq"), payload.get("news")
        if data is None or seq is None:
            found = await self.exchange.news(game)
            if found is None:
                return
            seq, data = found
        known = self._games.get(game)
        if known is not None and known[0] >= seq:
            return
        news = GameNews.from_json(data, known[1].game if known is not None else None)
        if news.live is not None:
            self._games[game] = (seq, news.live)
        self._apply(news)
        if news.live is None:  # ended: its pages have been told, with its players' names
            self._forget(game)

    def _forget(self, game: int) -> None:
        self._games.pop(game, None)
        self._since.pop(game, None)
        self._dropped(game)

    async def _answer(self, payload: dict) -> None:
        waiting = self._waiting.get(str(payload.get("id")))
        if waiting is None:
            return  # an answer that came after its page stopped waiting
        if "text" in payload:
            await waiting.origin.notice(text_from_json(payload["words"]) if "words" in payload else str(payload["text"]))
        elif payload.get("done") and not waiting.done.done():
            game = payload.get("game")
            waiting.done.set_result(int(game) if game is not None else None)

    # what the pages ask

    async def _load(self, game: int, found: asyncio.Future[LiveGame | None]) -> None:
        """Read game ``game`` from the database into the cache, between two news (so that no news of it is missed
        while it is read)."""
        known = self._games.get(game)
        if known is None:
            latest = await self.exchange.news(game)
            news = GameNews.from_json(latest[1]) if latest is not None else None
            if latest is not None and news is not None and news.live is not None:
                known = self._games[game] = (latest[0], news.live)
                self._since[game] = time.monotonic()
        if not found.done():
            found.set_result(known[1] if known is not None else None)

    async def live_game(self, game: int) -> LiveGame | None:
        """The game on with the id ``game`` as its latest news has it (SaveFailed if the database does not
        answer)."""
        known = self._games.get(game)
        if known is not None:
            return known[1]
        found: asyncio.Future[LiveGame | None] = asyncio.get_running_loop().create_future()
        self._heard.put_nowait((_LOAD, {"game": game, "found": found}))
        try:
            async with asyncio.timeout(2 * self.exchange.store.timeout):
                await found
        except TimeoutError:
            raise SaveFailed("the game's news was not read in time") from None
        # as the news stands now, not when it was read: news taken meanwhile is in the cache (the page that asked
        # is seated before any more is taken), and a game that ended meanwhile has left it
        known = self._games.get(game)
        return known[1] if known is not None else None

    async def live_games(self, guild: str | None = None) -> list[LiveGame]:
        """The games on of ``guild`` (``GUILD``: those started on the page, whichever process plays them), or of
        every server."""
        now = time.monotonic()
        if self._listed is not None and self._listed[1] == guild and now - self._listed[0] < LIST_SECONDS:
            return self._listed[2]
        prefix = "" if guild is None else GUILD if guild == GUILD else guild
        games = []
        for data in await self.exchange.live_news(prefix):
            live = data.get("live")
            if live is None or (guild == GUILD and not _is_page_guild(live["guild"])) or (
                    guild not in (None, GUILD) and live["guild"] != guild):
                continue
            known = self._games.get(int(data["game"]))
            games.append(LiveGame.from_json(live, known[1].game if known is not None else None))
        self._listed = (now, guild, games)
        return games

    async def handle(self, msg: Message) -> None:
        await self._ask(msg)

    async def open(self, msg: Message) -> int | None:
        """Start a page's game on one of the chat processes that are up (any one: they share the database)."""
        try:
            owners = await self.exchange.owners(3 * BEAT_SECONDS)
        except SaveFailed:
            owners = None
        if not owners:
            await self._origin(msg).notice(NOT_SENT if owners is None else NO_OWNER)
            return None
        game = await self._ask(replace(msg, guild=random.choice(owners)))
        self._listed = None  # the new game is listed at once
        return game

    async def _ask(self, msg: Message) -> int | None:
        """Ask the owner of ``msg``'s game to play it; the id of the game on in its channel once it has, or None
        (the page is told why)."""
        origin = self._origin(msg)
        ask = str(next(self._ids))
        waiting = _Waiting(origin, asyncio.get_running_loop().create_future())
        self._waiting[ask] = waiting
        try:
            at = origin.at or (None, None)
            await self.exchange.notify(ASKS, {"from": self.process, "id": ask, "guild": msg.guild,
                                              "channel": msg.channel, "user": [msg.user.id, msg.user.name],
                                              "text": msg.text, "channel_name": msg.channel_name,
                                              "game": at[0], "ply": at[1]})
            async with asyncio.timeout(ASK_SECONDS):
                return await waiting.done
        except SaveFailed:
            await origin.notice(NOT_SENT)
        except TimeoutError:
            await origin.notice(NO_ANSWER)
        finally:
            del self._waiting[ask]
        return None

    @staticmethod
    def _origin(msg: Message) -> WebOrigin:
        assert isinstance(msg.origin, WebOrigin), "only a page's messages are asked of another process"
        return msg.origin


@contextlib.asynccontextmanager
async def sharing(games: SharedGames, core: Core, pages: Pages) -> AsyncIterator[SharedGames]:
    """``pages`` (made with ``games``) showing the games of every chat process around the database of ``games``'s
    exchange (a web process's), for the length of the block; ``core``, this process's own, answers for finished
    games, analyses and puzzles."""
    core.connect(pages.send_for(None))  # its own replies: an analysis asked from a page
    games.show(pages.apply, lambda game: pages.watchers(game) > 0, pages.forget)
    taking = asyncio.create_task(games.run(), name="web tier news")
    try:
        async with listening(games.exchange, (NEWS, ANSWERS), games.heard, games.caught_up):
            yield games
    finally:
        taking.cancel()
        pages.close()
