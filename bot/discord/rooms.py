"""Tournament games' rooms on Discord. The core plays each tournament game in a room of its own, a channel id
under the tournament's channel (``bot.tournament.event``); here each room is a public thread of that channel,
named for its board, made when the game's first message is posted and found again by its name after a restart.
Where the bot may not make threads, the room's messages go to the tournament's channel itself, each headed with
its board, and the players type their moves there (the core sends them to their game)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterable

import discord

from bot.tournament.event import parent_channel, room_of
from bot.tournament.words import room_label
from bot.translation import render

log = logging.getLogger(__name__)

NOT_MADE = (discord.HTTPException, discord.ClientException, ValueError)


class Rooms:
    """Which Discord channel shows each room, and which room a thread is."""

    def __init__(self, client: discord.Client, language: Callable[[str], str],
                 live_rooms: Callable[[str], Iterable[str]]):
        """``language``: a channel's language (thread names are in it); ``live_rooms``: the rooms of games on
        under a channel (for a thread met again after a restart)."""
        self.client = client
        self.language = language
        self.live_rooms = live_rooms
        self._shown: dict[str, int] = {}  # room -> the thread (or the tournament's channel) that shows it
        self._rooms: dict[int, str] = {}  # thread -> room
        self._making: dict[str, asyncio.Lock] = {}

    def name(self, room: str) -> str:
        """A room's thread name: its board, in its channel's language."""
        label = room_label(room)
        assert label is not None
        return render(label, self.language(parent_channel(room)))[:100]

    async def shown_in(self, channel: str) -> tuple[int, bool]:
        """The Discord channel id a reply to ``channel`` goes to, and whether it must say its board (a room shown
        in the tournament's channel, for want of a thread)."""
        if room_of(channel) is None:
            return int(channel), False
        if channel not in self._shown:
            async with self._making.setdefault(channel, asyncio.Lock()):
                if channel not in self._shown:
                    self._remember(channel, await self._thread(channel))
        shown = self._shown[channel]
        return shown, shown == int(parent_channel(channel))

    async def _thread(self, room: str) -> int:
        """The thread of ``room``: found among its channel's threads by name, or made; the channel itself where
        no thread can be made."""
        parent_id = int(parent_channel(room))
        parent = self.client.get_channel(parent_id)
        name = self.name(room)
        if not isinstance(parent, discord.TextChannel):
            return parent_id
        found = next((t for t in parent.threads if t.name == name and not t.archived), None)
        if found is not None:
            return found.id
        try:
            thread = await parent.create_thread(name=name, type=discord.ChannelType.public_thread)
        except NOT_MADE as error:
            log.info("no thread for %s (%s): its messages go to the channel", room, error.__class__.__name__)
            return parent_id
        return thread.id

    def _remember(self, room: str, shown: int) -> None:
        self._shown[room] = shown
        if shown != int(parent_channel(room)):
            self._rooms[shown] = room

    def room(self, channel: object, channel_id: int | None) -> str:
        """The core's channel for a Discord channel: the room a thread shows, else the channel's own id."""
        if channel_id is None:
            return ""
        if channel_id in self._rooms:
            return self._rooms[channel_id]
        if isinstance(channel, discord.Thread) and channel.parent_id is not None:
            for room in self.live_rooms(str(channel.parent_id)):  # a thread met again after a restart
                if self.name(room) == channel.name:
                    self._remember(room, channel_id)
                    return room
        return str(channel_id)
