"""One open game page as the server holds it (``Watcher``): the game it shows, the seat it holds, its outgoing
queue; and the mark on a message sent from a page (``WebOrigin``), which brings the core's private answers back
to it."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from bot.replies import User
from bot.translation import ENGLISH
from bot.web import views
from engine import Color

QUEUE_LIMIT = 64  # messages waiting for a slow page before it is dropped (it reconnects and gets the whole game)


@dataclass(frozen=True)
class WebOrigin:
    """Marks a message sent from a page: the core hands it back in its replies, and private ones go to ``notice``."""

    notice: Callable[[str], Awaitable[None]]
    at: tuple[int, int] | None = None
    """For a move: the game and the ply the page showed (a process that plays the game from afar checks it)."""


@dataclass(eq=False)
class Watcher:
    """One open page: the game it shows, the seat it holds (if its link had the secret), its outgoing queue."""

    game: int
    language: str = ENGLISH
    """The language the page is shown in: what it is sent is in it."""
    queue: asyncio.Queue[str | None] = field(default_factory=lambda: asyncio.Queue(QUEUE_LIMIT))
    seat: tuple[Color, User] | None = None
    starter: User | None = None
    """The person who started the bot match shown, when the page has their link: they may stop it."""
    dropped: bool = False
    """The page fell behind (or the server is closing): its connection is to be closed, and it reconnects."""

    def put(self, text: str | None) -> bool:
        """Queue a message for the page; False if the page is too slow to keep up (it should be closed)."""
        try:
            self.queue.put_nowait(text)
        except asyncio.QueueFull:
            return False
        return True

    def send(self, message: dict) -> bool:
        """Queue ``message`` for the page, its texts in the page's language (False as ``put``)."""
        return self.put(views.written(message, self.language))

    async def notice(self, text: str) -> None:
        self.send({"type": "notice", "text": text})

    def finish(self) -> None:
        """End the page's connection once what is waiting has been sent."""
        try:
            self.queue.put_nowait(None)
        except asyncio.QueueFull:
            self.drop()

    def drop(self) -> None:
        """End the page's connection now: what is waiting is thrown away, and the writer closes the socket."""
        self.dropped = True
        while not self.queue.empty():
            self.queue.get_nowait()
        self.queue.put_nowait(None)
