"""The web process's side of the web tier: the games on of every chat process, as the pages see them, and the way
back to the process that owns each one.

``SharedGames`` is what ``Pages`` asks for the games on (``pages.LiveGames``) in ``python -m bot web``. It follows
the games its pages show through their events, heard through the database (``bot.store.exchange``), and hands
each to the pages in order. Each game is followed in a line of its own: one game's slow database read delays no
other game's events. A game whose events have a gap (or whose events were too long to be announced) is read whole
from the database. A move or a command from a page is asked of the game's owner, which plays it through
``Core.handle`` as any message and sends back its private answers, then says it is done.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import random
import time
from collections import deque
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, replace

from bot.store.exchange import ANSWERS, ASKS, NEWS, Exchange, listening
from bot.core import Core, SaveFailed
from bot.events import Ended, Event, Started, applied, event_from_json
from bot.replies import Message
from bot.tables import LiveGame
from bot.translation import text_from_json, tr
from bot.page_guilds import GUILD, is_page_guild
from bot.web.pages import Pages
from bot.web.watchers import WebOrigin
from bot.web.relay import BEAT_SECONDS, process_name

log = logging.getLogger(__name__)

LIST_SECONDS = 1.0
"""How long the list of games on is kept for the front page (every visitor's page asks for it)."""
KEEP_UNWATCHED = 60.0
"""Seconds a game read for a page stays followed with no page open on it (a page that opens it again, or one
just opening, misses none of its events)."""
READ_AGAIN_SECONDS = 1.0
"""The pause before a game whose read failed (after a gap in its events) is read again."""
ASK_SECONDS = 10.0
"""How long a page's move waits for the game's owner to answer before the page is told that none did."""
NO_ANSWER = tr("The game's server did not answer in time (it may be starting again). If the board does not show "
               "it in a moment, it was not played: try again then.")
NO_OWNER = tr("No game server is running just now, so no game can start. Try again in a moment.")
NOT_SENT = tr("I could not pass that on: the database is not answering. Please try again in a moment.")


async def _notice(origin: WebOrigin, text: str) -> None:
    await origin.notice(text)


@dataclass
class _Waiting:
    origin: WebOrigin
    done: asyncio.Future[int | None]


@dataclass
class _Load:
    """A page opened on a game not followed: it is read in the game's line (so that none of its events is
    missed while it is read)."""

    found: asyncio.Future[LiveGame | None]


class SharedGames:
    """Every chat process's games on, for the pages of a web process."""

    def __init__(self, exchange: Exchange, process: str | None = None):
        self.exchange = exchange
        self.process = process or process_name()
        self._told: Callable[[Event, LiveGame | None], object] = lambda event, after: None
        self._watched: Callable[[int], bool] = lambda game: False
        self._dropped: Callable[[int], None] = lambda game: None
        self._listed: tuple[float, str | None, list[LiveGame]] | None = None  # the latest list, for LIST_SECONDS
        self._games: dict[int, LiveGame] = {}  # the games followed, by id: as their events so far have them
        self._since: dict[int, float] = {}  # by id: when it was read to be followed
        self._seq: dict[int, int] = {}  # by id: the number of the owner's latest publication taken (``Exchange``)
        self._unread: set[int] = set()  # games whose reading failed, read again every READ_AGAIN_SECONDS
        self._lines: dict[int, deque[dict | _Load]] = {}  # by game: what waits to be taken, in order
        self._working: set[asyncio.Task] = set()
        self._waiting: dict[str, _Waiting] = {}
        self._ids = itertools.count(1)
        self.ready = asyncio.Event()
        """Set once the listener has connected (and caught up): the pages hear every event from then on."""

    def show(self, told: Callable[[Event, LiveGame | None], object], watched: Callable[[int], bool],
             dropped: Callable[[int], None]) -> None:
        """Hand each event, with the game after it, to ``told`` (``Pages.told``), for the games ``watched`` says
        have pages open, and say which game is no longer followed to ``dropped`` (``Pages.forget``)."""
        self._told, self._watched, self._dropped = told, watched, dropped

    # listening

    def heard(self, channel: str, payload: dict) -> None:
        """A notification from the database (``Exchange.listen``'s handler): an answer is taken at once, a game's
        events in the game's line."""
        if not isinstance(payload, dict):
            log.warning("a notification that cannot be read: %.200r", payload)
            return
        if channel == ANSWERS:
            if payload.get("to") == self.process:
                self._answer(payload)
            return
        try:
            game = int(payload["game"])
        except (KeyError, TypeError, ValueError):
            log.warning("a game's news that cannot be read: %.200r", payload)
            return
        # (a game no page shows is read from the database when one opens; one being read for a page now is taken
        # after that read, which it may already hold)
        if game in self._games or game in self._lines:
            self._queue(game, payload)

    async def caught_up(self) -> None:
        """After the listener (re)connects: what its pages show may have moved on meanwhile."""
        for game in list(self._games):
            if self._wanted(game):
                self._queue(game, {"game": game})  # (no events: the game is read whole)
            else:
                self._forget(game)
        self.ready.set()

    def _wanted(self, game: int) -> bool:
        """Whether game ``game`` is still followed: a page shows it, or one read it lately (``KEEP_UNWATCHED``)."""
        return self._watched(game) or time.monotonic() - self._since.get(game, 0.0) <= KEEP_UNWATCHED

    def _queue(self, game: int, item: dict | _Load) -> None:
        line = self._lines.get(game)
        if line is None:
            line = self._lines[game] = deque()
            task = asyncio.create_task(self._follow(game, line), name=f"web tier game {game}")
            self._working.add(task)
            task.add_done_callback(self._working.discard)
        line.append(item)

    async def _follow(self, game: int, line: deque[dict | _Load]) -> None:
        """Take what waits in ``game``'s line, in order, until it is empty."""
        try:
            while line:
                item = line.popleft()
                try:
                    if isinstance(item, _Load):
                        await self._load(game, item.found)
                    else:
                        await self._news(game, item)
                except SaveFailed as error:
                    log.warning("could not read the news of game %d: %s", game, error)
                    if isinstance(item, _Load) and not item.found.done():
                        item.found.set_exception(error)
                except Exception:
                    log.exception("the news of game %d could not be taken: %.200r", game, item)
                    if isinstance(item, _Load) and not item.found.done():
                        item.found.set_exception(SaveFailed("the game's news could not be read"))
        finally:
            if self._lines.get(game) is line:
                del self._lines[game]

    async def _news(self, game: int, payload: dict) -> None:
        """Take a notification of ``game``'s events (without ``seq``: read the game whole)."""
        known = self._games.get(game)
        if known is None:
            return
        if not self._wanted(game):
            self._forget(game)
            return
        seq = payload.get("seq")
        if seq is not None and int(seq) <= self._seq.get(game, 0):
            return  # had already (the game was read whole since)
        events = payload.get("events")
        if seq is not None and events is not None:
            starts = [k for k, data in enumerate(events) if data.get("type") == Started.kind]
            # from the game whole, whatever came before it (an owner started again numbers its events from 1 again)
            fresh = events[starts[-1]:] if starts else [data for data in events if int(data["v"]) > known.told]
            if not fresh or starts or int(fresh[0]["v"]) == known.told + 1:
                self._seq[game] = int(seq)
                for data in fresh:
                    if not self._take(game, event_from_json(data, self._games.get(game))):
                        break
                return
        try:  # a gap, or events too long to be announced: the game as it is now
            await self._read(game)
        except SaveFailed as error:  # read again in a moment (said once, not at every try)
            if game not in self._unread:
                log.warning("could not read game %d for its pages (%s): trying again every %g s", game, error,
                            READ_AGAIN_SECONDS)
                self._unread.add(game)
            asyncio.get_running_loop().call_later(READ_AGAIN_SECONDS, self._queue, game, {"game": game})
            return
        if game in self._unread:
            self._unread.discard(game)
            log.info("game %d is read again for its pages", game)

    def _take(self, game: int, event: Event) -> bool:
        """Hand ``event`` to the pages, with the game after it; False once the game has ended (it is followed no
        more)."""
        event, after = applied(event, self._games.get(game))
        if isinstance(event, Ended):
            self._told(event, None)
            self._forget(game)
            return False
        if after is not None:
            self._games[game] = after
            self._told(event, after)
        return True

    async def _read(self, game: int) -> None:
        """Bring ``game``'s pages up to the game as the database has it (it may have ended meanwhile)."""
        found = await self.exchange.news(game)
        known = self._games.get(game)
        if found is None or known is None or found[0] <= self._seq.get(game, 0):
            return
        self._seq[game] = found[0]
        state = found[1]
        if state.get("live") is not None:
            live = LiveGame.from_json(state["live"], known.game)
            if live.told != known.told or live.game.moves != known.game.moves:  # (not: the same game again)
                self._take(game, Started(game, live.told, "", time.time(), live=live))
        elif state.get("ended") is not None:
            self._take(game, event_from_json(state["ended"], known))

    def _forget(self, game: int) -> None:
        self._games.pop(game, None)
        self._since.pop(game, None)
        self._seq.pop(game, None)
        self._unread.discard(game)
        self._dropped(game)

    def _answer(self, payload: dict) -> None:
        waiting = self._waiting.get(str(payload.get("id")))
        if waiting is None:
            return  # an answer that came after its page stopped waiting
        if "text" in payload:
            text = text_from_json(payload["words"]) if "words" in payload else str(payload["text"])
            task = asyncio.create_task(_notice(waiting.origin, text))
            self._working.add(task)
            task.add_done_callback(self._working.discard)
        elif payload.get("done") and not waiting.done.done():
            game = payload.get("game")
            waiting.done.set_result(int(game) if isinstance(game, int) else None)

    # what the pages ask

    async def _load(self, game: int, found: asyncio.Future[LiveGame | None]) -> None:
        """Read game ``game`` from the database to be followed, in its line (so that none of its events is missed
        while it is read)."""
        if game not in self._games:
            latest = await self.exchange.news(game)
            live = latest[1].get("live") if latest is not None else None
            if latest is not None and live is not None:
                self._games[game] = LiveGame.from_json(live)
                self._since[game], self._seq[game] = time.monotonic(), latest[0]
        if not found.done():
            found.set_result(self._games.get(game))

    async def live_game(self, game: int) -> LiveGame | None:
        """The game on with the id ``game`` as its events so far have it (SaveFailed if the database does not
        answer)."""
        known = self._games.get(game)
        if known is not None:
            return known
        found: asyncio.Future[LiveGame | None] = asyncio.get_running_loop().create_future()
        self._queue(game, _Load(found))
        try:
            async with asyncio.timeout(2 * self.exchange.store.timeout):
                await found
        except TimeoutError:
            raise SaveFailed("the game's news was not read in time") from None
        # as its events stand now, not when it was read: those taken meanwhile are in (the page that asked is
        # seated before any more is taken), and a game that ended meanwhile is followed no more
        return self._games.get(game)

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
            if live is None or (guild == GUILD and not is_page_guild(live["guild"])) or (
                    guild not in (None, GUILD) and live["guild"] != guild):
                continue
            known = self._games.get(int(live["id"]))
            games.append(LiveGame.from_json(live, known.game if known is not None else None))
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

    async def close(self) -> None:
        """Stop following the games."""
        for task in list(self._working):
            task.cancel()
        await asyncio.gather(*self._working, return_exceptions=True)

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
    games.show(pages.told, lambda game: pages.watchers(game) > 0, pages.forget)
    try:
        async with listening(games.exchange, (NEWS, ANSWERS), games.heard, games.caught_up):
            yield games
    finally:
        await games.close()
        pages.close()
