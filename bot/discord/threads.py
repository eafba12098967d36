"""A thread of its own for each game, when the bot is set to keep games in threads."""

from __future__ import annotations

import logging
from dataclasses import replace

import discord

from bot import commands
from bot.core import Core
from bot.discord.messages import name_of
from bot.replies import Message

log = logging.getLogger(__name__)

THREAD_COMMANDS = {"new", "challenge", "watch"}  # commands that start a game (or offer one) in a thread


class GameThread:
    """Moves a game-starting command into a new thread, when the bot is set to keep games in threads.

    ``async with`` gives the message to hand the core (its channel the thread's); a thread the command did
    not use (the core refused it) is deleted again.
    """

    def __init__(self, core: Core, threads: bool, msg: Message, channel: object, member: discord.abc.User):
        self.core, self.threads = core, threads
        """Whether games go in threads (the setting)."""
        self.msg, self.channel, self.member = msg, channel, member
        self.thread: discord.Thread | None = None

    async def __aenter__(self) -> Message:
        msg, channel = self.msg, self.channel
        if (not self.threads or not isinstance(channel, discord.TextChannel)
                or commands.split(msg.text)[0] not in THREAD_COMMANDS):
            return msg
        try:
            self.thread = await channel.create_thread(name=f"Draughts with {msg.user.name}"[:100],  # cleaned
                                                      type=discord.ChannelType.public_thread)
            await self.thread.add_user(self.member)
        except discord.HTTPException:
            log.info("could not open a thread in channel %s; the game stays in the channel", channel.id)
            self.thread = None
            return msg
        return replace(msg, channel=str(self.thread.id), channel_name=name_of(self.thread))  # every other field kept

    async def __aexit__(self, *exc: object) -> None:
        if self.thread is None:
            return
        key = str(self.thread.id)
        if not self.core.has_game_or_challenge(key):
            try:
                await self.thread.delete()
            except discord.HTTPException:
                log.info("could not delete the unused thread %s", key)
