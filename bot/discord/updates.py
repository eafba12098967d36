"""Messages that later replies bring up to date (``Reply.update``): an analysis's first line, edited as it
progresses and at last into its result.

A reply is matched to the message posted for the same key, in the same channel, in answer to the same request
(the same interaction or typed message). So the person who asks sees their answer change in place, and someone
who asks again later (the analysis is kept) gets an answer of their own rather than an edit of a message far up
the channel. The map is small and forgets the oldest first: a reply whose message it forgot is posted anew.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from dataclasses import dataclass, field

import discord

from bot.replies import Reply

KEEP = 256  # messages remembered


@dataclass
class Updated:
    """The message of one key, posted once and then edited; its lock keeps one reply at a time on it."""

    origin: object
    """The request answered; held so that its ``id``, part of the key, is not reused while the entry lives."""
    message: discord.Message | None = None
    """The message last posted or edited; None until the first is posted."""
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)


class Updates:
    """(channel, key, request) -> the message of that key, the most recently used ``size`` of them."""

    def __init__(self, size: int = KEEP) -> None:
        self.size = size
        self._entries: OrderedDict[tuple[str, str, int], Updated] = OrderedDict()

    def __len__(self) -> int:
        return len(self._entries)

    def of(self, reply: Reply) -> Updated | None:
        """The entry a public reply with an ``update`` key goes to (made if new); None for any other reply."""
        if reply.update is None or reply.private:
            return None
        origin = reply.to.origin if reply.to is not None else None
        key = (reply.channel, reply.update, id(origin))
        entry = self._entries.get(key)
        if entry is None:
            entry = self._entries[key] = Updated(origin)
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)
        else:
            self._entries.move_to_end(key)
        return entry
