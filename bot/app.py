"""Putting the bot together: settings, database, search processes, core, clock, and a front end."""

from __future__ import annotations

import asyncio
import gc
import logging
import sys
from pathlib import Path

from bot import present
from bot.config import Config
from bot.core import Core
from bot.pool import SearchPool
from bot.store import Store
from bot.terminal import Terminal, chat

log = logging.getLogger(__name__)

TICK_SECONDS = 5.0  # how often reminders, abandonment and challenge expiry are checked


async def tick_forever(core: Core) -> None:
    while True:
        await asyncio.sleep(TICK_SECONDS)
        try:
            await core.tick()
        except Exception:
            log.exception("the clock tick failed")


async def run_terminal(config: Config) -> None:
    """The terminal chat, until the end of standard input."""
    image_dir = Path(config.image_dir).resolve()
    image_dir.mkdir(parents=True, exist_ok=True)
    store = Store(config.database)
    pool = SearchPool(config.workers, config.queue_limit, config.tt_mb)
    print(f"Starting {config.workers} search process{'es' if config.workers > 1 else ''} ...", file=sys.stderr)
    await asyncio.gather(asyncio.to_thread(pool.start), asyncio.to_thread(present.warm_up))
    # What start-up made (modules, numba, caches) lives as long as the process: keep the collector off it,
    # or each full collection walks it all and stalls the event loop for 25-110 ms (measured).
    gc.freeze()
    terminal = Terminal(image_dir)
    core = Core(config, store, pool, terminal.send)
    ticker = asyncio.create_task(tick_forever(core))
    try:
        print(f"Draughts bot, terminal chat. Games are kept in {config.database}; board images go to {image_dir}.\n"
              "Type `help` for the commands, `new` to play me, `as NAME` to type as someone else.\n", flush=True)
        restored = await core.start()
        for table in restored:
            print(f"Restored game {table.id}: {table.title()}, {len(table.game.moves)} moves played.", flush=True)
        await chat(core, terminal)
    finally:
        ticker.cancel()
        await core.close()
        pool.close()
        store.close()
