"""Putting the bot together: settings, database, search processes, core, clock, and a front end."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import os
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import TYPE_CHECKING

from bot import endgames, present
from bot.config import Config
from bot.core import Core, Send
from bot.pool import SearchPool
from bot.store import Store, is_postgres, open_store, where
from bot.terminal import GUILD as TERMINAL_GUILD, Terminal, chat
from bot.translation import language_of, language_of_locale, plural, tr
from bot.page_guilds import GUILD, web_guild
from bot.web.pages import Pages
from bot.web.seats import SeatKeys, load_key
from bot.web.server import serve
from bot.web.signin import SignIn
from engine import games

if TYPE_CHECKING:
    from bot.web.relay import Relay


@contextlib.asynccontextmanager
async def services(config: Config) -> AsyncIterator[tuple[Store, Core]]:
    """The database, the warmed-up search processes and the core (not yet given a front end), closed again at the
    end."""
    store = await open_store(config.database)
    pool = SearchPool(config.workers, config.queue_limit, config.tt_mb, config.search_threads)
    try:
        print(f"Starting {config.workers} search process{'es' if config.workers > 1 else ''} ...", file=sys.stderr)
        await asyncio.gather(asyncio.to_thread(pool.start), asyncio.to_thread(present.warm_up),
                             asyncio.to_thread(games.warm_up))
        # What start-up made (modules, numba, caches) lives as long as the process: keep the collector off it,
        # or each full collection walks it all and stalls the event loop for 25-110 ms (measured).
        gc.freeze()
        build = asyncio.create_task(endgames.build_missing(config.endgame_pieces))
        core = Core(config, store, pool)
        try:
            yield store, core
        finally:
            await core.close()
            build.cancel()
            try:
                await build
            except asyncio.CancelledError:
                pass
            except Exception:  # a failed build must not stop the bot's shutdown: the next start tries again
                logging.getLogger(__name__).exception("endgame database build failed")
    finally:
        pool.close()
        await store.close()


def signing(config: Config) -> SignIn | None:
    """The bot's Discord application for signing in on the web page, when the operator set one up."""
    if not config.discord_client_id:
        return None
    return SignIn(config.discord_client_id, config.discord_client_secret, f"{config.web_base}/login/discord/back",
                  config.discord_oauth_url.rstrip("/"))


@contextlib.asynccontextmanager
async def web_page(config: Config, store: Store, core: Core, local_chat: bool) -> AsyncIterator[Pages | None]:
    """The web page (``Pages``), its server listening, closed again at the end; None with BOT_WEB off, or when the
    server cannot listen (the chat runs on without it, and says why). ``StoreError`` if the seat links' key cannot
    be read from the database."""
    if not config.web:
        yield None
        return
    pages = Pages(SeatKeys(await load_key(store, config.database, config.web_secret)), config.web_base, core,
                  local_chat=local_chat, guild=web_guild(config.shards))
    try:
        runner = await serve(pages, config.web_host, config.web_port, config.proxies, signing(config))
    except OSError as error:
        print(f"The web page could not start on {config.web_host}:{config.web_port} ({error.strerror or error}). "
              "The chat runs without it; set BOT_WEB_PORT to a free port, or BOT_WEB=false.", file=sys.stderr)
        yield None
        return
    try:
        yield pages
    finally:
        pages.close()
        await runner.cleanup()


@contextlib.asynccontextmanager
async def web_tier(config: Config, store: Store, core: Core) -> AsyncIterator[Relay | None]:
    """With PostgreSQL and the web page on, the relay that lets the web tier (``python -m bot web``, on any machine)
    show this process's games and play their pages' moves here; None otherwise."""
    if not (config.web and is_postgres(config.database)):
        yield None
        return
    from bot.store.exchange import Exchange  # asyncpg's side: loaded only with PostgreSQL
    from bot.store.postgres import PostgresStore
    from bot.web.relay import Relay

    assert isinstance(store, PostgresStore)
    relay = Relay(Exchange(store), core, web_guild(config.shards))
    task = asyncio.create_task(relay.run(), name="web tier relay")
    try:
        yield relay
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task


def connect(core: Core, chat: Send, pages: Pages | None, relay: Relay | None = None) -> None:
    """Send the core's replies to the chat front end's ``chat``, through the web page's ``pages`` when it runs, and
    through the web tier's ``relay`` when there is one."""
    send = pages.send_for(chat) if pages else chat
    core.connect(relay.send_for(send, pages=pages is not None) if relay else send)


async def run_terminal(config: Config) -> None:
    """The terminal chat, until the end of standard input."""
    image_dir = Path(config.image_dir).resolve()
    image_dir.mkdir(parents=True, exist_ok=True)
    async with (services(config) as (store, core), web_page(config, store, core, local_chat=True) as pages,
                web_tier(config, store, core) as relay):
        language = language_of(config.language) if config.language else language_of_locale(os.environ)
        terminal = Terminal(image_dir, language=language,
                            chosen=lambda: core.language(TERMINAL_GUILD))
        connect(core, terminal.send, pages, relay)
        clock = asyncio.create_task(core.run_clock())
        try:
            print(terminal.say(tr("Draughts bot, terminal chat. Games are kept in {database}; board images go to "
                                  "{images}.", database=where(config.database), images=str(image_dir))), flush=True)
            print(terminal.say(tr("Type `help` for the commands, `new` to play me, `as NAME` to type as someone "
                                  "else.")), flush=True)
            if pages:
                print(terminal.say(tr("Web page: {address}/ (play by clicking, watch games live).",
                                      address=config.web_base)), flush=True)
            print(flush=True)
            restored = await core.start()
            for table in restored:
                print(terminal.say(plural("Restored game {game}: {title}, {count} move played.",
                                          "Restored game {game}: {title}, {count} moves played.",
                                          len(table.game.moves), game=table.id, title=table.title())), flush=True)
            await chat(core, terminal)
        finally:
            clock.cancel()
            await core.close()  # its moves stopped before the page and the chat go


async def run_discord(config: Config) -> None:
    """The Discord bot, until it is stopped."""
    from bot.discord.boards import BoardMessages
    from bot.discord.client import DraughtsBot  # discord.py is only loaded when it is used

    async with (services(config) as (store, core), web_page(config, store, core, local_chat=False) as pages,
                web_tier(config, store, core) as relay):
        assert isinstance(store, BoardMessages), "the bot's stores keep Discord's board messages"
        bot = DraughtsBot(config, core, store, pages=pages)
        connect(core, bot.deliver, pages, relay)
        async with bot:
            await bot.start(config.token)


async def run_web(config: Config) -> None:
    """``python -m bot web``: the web page alone, for the games of every chat process around one PostgreSQL
    database, until it is stopped. ``OSError`` if it cannot listen."""
    from bot.store.exchange import Exchange
    from bot.store.postgres import PostgresStore
    from bot.web.shared import SharedGames, sharing

    async with services(config) as (store, core):
        assert isinstance(store, PostgresStore), "python -m bot web needs PostgreSQL"
        games = SharedGames(Exchange(store))
        pages = Pages(SeatKeys(await load_key(store, config.database, config.web_secret)), config.web_base, core,
                      games, guild=GUILD)
        async with sharing(games, core, pages):
            runner = await serve(pages, config.web_host, config.web_port, config.proxies, signing(config))
            try:
                print(f"Web page: {config.web_base}/ for the games of every chat process around "
                      f"{where(config.database)}.", flush=True)
                await asyncio.Event().wait()
            finally:
                pages.close()  # the pages' sockets end first, or the server waits for them to stop
                await runner.cleanup()
