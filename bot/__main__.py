"""``python -m bot``: the chat bot. With DISCORD_TOKEN set it runs on Discord; without, as a chat in the terminal.
``python -m bot web``: the web page alone, for the games of every chat process around one PostgreSQL database."""

from __future__ import annotations

import argparse
import os
import asyncio
import logging
import signal
import sys
from collections.abc import Coroutine
from typing import Any

from bot import config as settings
from bot.app import run_discord, run_terminal, run_web
from bot.store import VERSION, StoreError, is_postgres, open_store, where
from bot.terminal import InputLost

INTENT_HELP = ("Discord refused the Message Content intent. Turn it on in the Developer Portal (your application, "
               "Bot, Privileged Gateway Intents), or set BOT_MESSAGE_CONTENT=false to play by mentions, "
               "/draughts and buttons.")
BYE = "Bye. Unfinished games are kept; start again to play on."


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot", description=__doc__)
    parser.add_argument("command", nargs="?", choices=["migrate", "web"],
                        help="migrate: bring the database (BOT_DATABASE) up to this bot's schema, then stop; "
                             "web: serve the web page alone, for every chat process's games (needs PostgreSQL)")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--terminal", action="store_true", help="run the terminal chat even if a token is set")
    where.add_argument("--discord", action="store_true", help="run on Discord (needs DISCORD_TOKEN)")
    args = parser.parse_args(argv)
    try:
        # migrate needs only the database: the web page's settings are not checked for it
        config = settings.load({**os.environ, "BOT_WEB": "false"} if args.command == "migrate" else None)
    except settings.ConfigError as error:
        print(f"Configuration error: {error}", file=sys.stderr)
        return 2
    logging.basicConfig(level=config.log_level.upper(), stream=sys.stderr,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    if args.command == "migrate":
        return migrate(config.database)
    if args.command == "web":
        return web(config)
    if args.discord and not config.token:
        print("--discord needs DISCORD_TOKEN, in the environment or in .env (see .env.example).", file=sys.stderr)
        return 2
    on_discord = bool(config.token) and not args.terminal
    try:
        if asyncio.run(until_terminated(run_discord(config) if on_discord else run_terminal(config))):
            print(BYE, file=sys.stderr)
    except StoreError as error:
        print(f"Database error: {error}", file=sys.stderr)
        return 2
    except InputLost as error:
        print(f"The terminal chat stops: it {error}. Unfinished games are kept.", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("\n" + BYE, file=sys.stderr)
    except Exception as error:
        import discord  # only a Discord run gets here with its errors

        if isinstance(error, discord.LoginFailure):
            print("Discord refused the token: check DISCORD_TOKEN (Developer Portal, your application, Bot, "
                  "Reset Token).", file=sys.stderr)
            return 2
        if isinstance(error, discord.PrivilegedIntentsRequired):
            print(INTENT_HELP, file=sys.stderr)
            return 2
        if isinstance(error, (OSError, discord.GatewayNotFound)) or type(error).__module__.startswith("aiohttp"):
            print(f"Could not reach Discord ({error}). Check the network, then start again; games are kept.",
                  file=sys.stderr)
            return 1
        raise
    return 0


async def until_terminated(run: Coroutine[Any, Any, None]) -> bool:
    """Run the bot until it ends; a SIGTERM (how systemd and docker stop a service) stops it as Ctrl-C does, its
    search processes and endgame build ended and its games kept. Whether a SIGTERM stopped it."""
    task = asyncio.current_task()
    assert task is not None
    terminated = False

    def stop() -> None:
        nonlocal terminated
        if not terminated:  # once: a second SIGTERM must not cut the shutdown short
            terminated = True
            task.cancel()

    loop = asyncio.get_running_loop()
    loop.add_signal_handler(signal.SIGTERM, stop)
    try:
        await run
    except asyncio.CancelledError:
        if not terminated:
            raise
        task.uncancel()
    finally:
        loop.remove_signal_handler(signal.SIGTERM)
    return terminated


def web(config: settings.Config) -> int:
    """Run the web tier's process until it is stopped."""
    if not is_postgres(config.database):
        print("python -m bot web serves the pages of every chat process around one PostgreSQL database: set "
              "BOT_DATABASE to a postgresql:// URL. With SQLite, the chat process serves the web page itself.",
              file=sys.stderr)
        return 2
    if not config.web:
        print("python -m bot web serves the web page: unset BOT_WEB=false for it.", file=sys.stderr)
        return 2
    try:
        if asyncio.run(until_terminated(run_web(config))):
            print("The web page stops.", file=sys.stderr)
    except StoreError as error:
        print(f"Database error: {error}", file=sys.stderr)
        return 2
    except OSError as error:
        print(f"The web page could not start on {config.web_host}:{config.web_port} ({error.strerror or error}). "
              "Set BOT_WEB_PORT to a free port.", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("\nThe web page stops.", file=sys.stderr)
    return 0


def migrate(database: str) -> int:
    """Open the database, which runs the migrations it lacks, and say where it stands (never the URL's password)."""
    async def run() -> int:
        store = await open_store(database)
        try:
            return await store.version()
        finally:
            await store.close()

    try:
        version = asyncio.run(run())
    except StoreError as error:
        print(f"Database error: {error}", file=sys.stderr)
        return 2
    print(f"The database, {where(database)}, is at schema version {version} of {VERSION}: up to date.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
