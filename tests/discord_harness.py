"""The Discord bot of the tests: the real front end and discord.py, connected to the emulator."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator
from dataclasses import replace

import discord
import yarl
from discord.gateway import DiscordWebSocket

from bot.app import connect
from bot.config import Config
from bot.core import Core
from bot.discord.client import DraughtsBot
from bot.store import SqliteStore
from discord_emulator import DiscordEmulator

CONFIG = Config(token="emulated-token", database=":memory:", workers=1, move_time=0.05)


@contextlib.contextmanager
def pointed_at(emulator: DiscordEmulator):
    """discord.py's REST base and gateway URL pointed at the emulator for a while."""
    base, gateway = discord.http.Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY
    discord.http.Route.BASE = emulator.api
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(emulator.gateway_url)
    try:
        yield
    finally:
        discord.http.Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY = base, gateway


@contextlib.asynccontextmanager
async def running(emulator: DiscordEmulator, store: Store, pool, config: Config = CONFIG, pages=None, clock=time.time,
                  **changes) -> AsyncIterator[DraughtsBot]:
    """A bot logged in to the emulator and ready (its replies passing through the web page's ``pages``, if given; its
    core on ``clock``, a test's, if given); closed at the end."""
    config = replace(config, **changes)
    core = Core(config, store, pool, clock=clock)
    pages = pages(core) if pages is not None else None  # (made for the bot's core, as its start-up makes them)
    bot = DraughtsBot(config, core, store, pages=pages, guild_ready_timeout=0.05)
    connect(core, bot.deliver, pages)  # as the bot's start-up wires them
    task = asyncio.create_task(bot.start(config.token))
    try:
        for _ in range(1000):
            if bot.is_ready() or task.done():
                break
            await asyncio.sleep(0.01)
        if task.done():
            task.result()  # raises what stopped it
        assert bot.is_ready(), "the bot did not connect to the emulator"
        yield bot
    finally:
        await bot.close()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(task, 5)
