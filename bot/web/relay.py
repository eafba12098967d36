"""The owner's side of the web tier: a chat process that plays games tells their pages, wherever they are served,
what happens (each game's events, through the database), and plays what those pages ask, through ``Core.handle``
as any message.

The relay follows the core's events (``bot.events``) and publishes them in order in the background, each game's
with the game as it then is, for a web process that finds a gap. ``Relay.send_for`` sits between the core and the
process's own chat (and pages): a private answer to a page's ask goes back to the web process that asked, and so
does a public one that no event told (the bot declining a draw). ``Relay.run`` listens for asks once the core has
brought its games back, answers those of the servers this process owns, and beats a heartbeat so that web
processes know where to start new games.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import socket
from collections import OrderedDict
from dataclasses import dataclass, replace

from bot.core import Core, SaveFailed, Send
from bot.events import Ended, Event
from bot.store.exchange import ANSWERS, ASKS, Exchange, listening
from bot.replies import Message, Reply, User
from bot.translation import text_json
from bot.page_guilds import CHANNEL_PREFIX

log = logging.getLogger(__name__)

BEAT_SECONDS = 5.0
"""How often an owner says it is up; a web process counts it gone after ``3 * BEAT_SECONDS``."""
RETRY_SECONDS = 1.0
"""The pause before news the database did not take is published again."""


def answer_text(text: str) -> dict:
    """A page's answer as it travels: its English (what a process of an older version reads) and what it was made
    from (``text_json``), which a page shows in its own language."""
    return {"text": str(text), "words": text_json(text)}


def process_name() -> str:
    """A name for this process, unique among the bot's: the machine, the process id and a random part."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"


@dataclass(frozen=True)
class PageAsk:
    """Marks a message a page sent through another process: its answers go back to ``process``, for ask ``id``."""

    process: str
    id: str


class Relay:
    """The web tier's side of one chat process."""

    def __init__(self, exchange: Exchange, core: Core, guild: str, process: str | None = None):
        """``guild``: the server name this process keeps the page's games under (``web_guild``)."""
        self.exchange = exchange
        self.core = core
        self.guild = guild
        self.process = process or process_name()
        self._pending: OrderedDict[int, list[Event]] = OrderedDict()  # by game, in the order they first waited
        """Each game's events not yet published: a game that moves faster than the database takes them has them
        published together, in order."""
        self._publishing: int | None = None
        self._waiting = asyncio.Event()
        self._published = asyncio.Condition()
        self._failing = False
        self._asks: set[asyncio.Task] = set()
        self.ready = asyncio.Event()
        """Set once the relay hears pages' asks."""
        core.follow(self._told)

    def send_for(self, chat: Send, pages: bool) -> Send:
        """The ``send`` to give the core: replies reach ``chat`` (which is the process's own pages in front of its
        chat when ``pages``; else replies of the page's own games, which no chat shows, stop here), and an answer
        to a page's ask that no event told goes back to the page."""
        async def deliver(reply: Reply) -> None:
            origin = reply.to.origin if reply.to is not None else None
            if isinstance(origin, PageAsk):
                if reply.private or not reply.told:
                    await self._answer(origin, answer_text(reply.text))
                if reply.private:
                    return
                reply = replace(reply, to=None)  # the chat answers no message of its own
            if pages or not reply.channel.startswith(CHANNEL_PREFIX):
                await chat(reply)
        return deliver

    def _told(self, event: Event) -> None:
        self._pending.setdefault(event.game, []).append(event)  # a game already waiting keeps its place
        self._waiting.set()

    async def run(self) -> None:
        """Publish the news, answer pages' asks and beat, for ever (run as a task once the core is connected)."""
        publisher = asyncio.create_task(self._publish(), name="page news")
        try:
            await self.core.started()
            await self._forget_lost({game.id for game in await self.core.live_games()})
            async with listening(self.exchange, (ASKS,), self._heard, self._listening):
                while True:
                    try:
                        await self.exchange.beat(self.process, self.guild)
                    except SaveFailed as error:
                        log.warning("the web tier's heartbeat failed: %s", error)
                    await asyncio.sleep(BEAT_SECONDS)
        finally:
            publisher.cancel()
            for task in list(self._asks):
                task.cancel()
            with contextlib.suppress(SaveFailed):
                await self.exchange.leave(self.process)

    async def _forget_lost(self, games: set[int]) -> None:
        """Forget the news of games of this process's servers that it did not bring back (they ended while their
        last news could not be published): no page shows them as on."""
        try:
            lost = [game for game, guild in await self.exchange.live_games() if self.core.owns(guild)
                    and game not in games]
            if lost:
                await self.exchange.forget(lost)
        except SaveFailed as error:
            log.warning("could not tidy the news of games no longer on: %s", error)

    async def _listening(self) -> None:
        self.ready.set()

    async def published(self, game: int | None = None) -> None:
        """Wait until the news so far (of ``game``, if given) is published."""
        def done() -> bool:
            if game is None:
                return not self._pending and self._publishing is None
            return game not in self._pending and self._publishing != game

        async with self._published:
            await self._published.wait_for(done)

    async def _publish(self) -> None:
        while True:
            await self._waiting.wait()
            while self._pending:
                game, events = self._pending.popitem(last=False)
                self._publishing = game
                try:
                    await self._publish_events(game, events)
                    if self._failing:
                        log.info("the news of games is published again")
                        self._failing = False
                except SaveFailed as error:  # kept, before any that came meanwhile, and published again
                    if not self._failing:
                        log.warning("could not publish the news of game %d (%s): trying again every %g s",
                                    game, error, RETRY_SECONDS)
                        self._failing = True
                    self._pending[game] = events + self._pending.get(game, [])
                    self._pending.move_to_end(game, last=False)
                    await asyncio.sleep(RETRY_SECONDS)
                except Exception:
                    log.exception("could not publish the news of game %d", game)
                finally:
                    self._publishing = None
                    async with self._published:
                        self._published.notify_all()
            self._waiting.clear()

    async def _publish_events(self, game: int, events: list[Event]) -> None:
        """Publish ``events`` of ``game``, with the game as it is now (or, once it has ended, how it ended) for a
        web process that finds a gap."""
        live = await self.core.live_game(game)
        ended = next((e for e in events if isinstance(e, Ended)), None)
        state = {"live": live.to_json() if live is not None else None,
                 "ended": ended.to_json() if ended is not None else None}
        # (only a game on is found by its server: an ended one's row keeps none)
        await self.exchange.publish(game, live.guild if live is not None else "", state,
                                    [event.to_json() for event in events])

    def _heard(self, channel: str, payload: dict) -> None:
        try:
            guild = str(payload["guild"])
            if not self.core.owns(guild):
                return
            ask = PageAsk(str(payload["from"]), str(payload["id"]))
            user = User(str(payload["user"][0]), str(payload["user"][1]))
            msg = Message(guild, str(payload["channel"]), user, str(payload["text"]),
                          channel_name=str(payload.get("channel_name", "")), origin=ask)
            at = (int(payload["game"]), int(payload["ply"])) if payload.get("game") is not None else None
        except (KeyError, IndexError, TypeError, ValueError):
            log.warning("an ask from a page that cannot be read: %.200r", payload)
            return
        task = asyncio.create_task(self._play(msg, ask, at))
        self._asks.add(task)
        task.add_done_callback(self._asks.discard)

    async def _play(self, msg: Message, ask: PageAsk, at: tuple[int, int] | None) -> None:
        """Play a page's ask; ``at``: the game and ply the page showed, for a move (which is refused if the game
        has moved on since, as the chat's menus are)."""
        refusal = self.core.may_press(msg.channel, msg.user, *at) if at is not None else None
        if refusal:
            await self._answer(ask, answer_text(refusal))
        else:
            await self.core.handle(msg)
        game = self.core.game_in(msg.channel)
        if game is not None:
            await self.published(game)  # the page that asked for a new game finds it at once
        await self._answer(ask, {"done": True, "game": game})

    async def _answer(self, ask: PageAsk, payload: dict) -> None:
        try:
            await self.exchange.notify(ANSWERS, {"to": ask.process, "id": ask.id, **payload})
        except SaveFailed as error:  # the page waits its time and says that no answer came
            log.warning("could not answer a page: %s", error)
