"""Load on the web page: many watchers on one game while other games are played.

    .venv/bin/python bench/web.py --watchers 500 --games 20 --seconds 30

A server process runs the bot core, one search process and the web server, and plays ``--games`` bot matches
(level 1 against level 1, ``--delay`` seconds between moves). This process opens ``--watchers`` WebSockets on the
first match's page and times every update: from the moment the server made it (its ``at``) to its arrival.
Printed: the server's event-loop lag (how late a 10 ms sleep wakes; p50/p99/max), an update's delivery time to
every watcher (p50/p95/p99), the updates seen, and the server's memory per watcher (its resident memory before
and after the watchers connect). Both processes share this machine's cores with the search process.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import aiohttp  # noqa: E402


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


# --- the server process ------------------------------------------------------------------------------------------

async def serve(args: argparse.Namespace) -> None:
    from aiohttp import web

    from bot.config import Config
    from bot.core import Core
    from bot.pool import SearchPool
    from bot.store import SqliteStore
    from bot.tables import User
    from bot.web.pages import Pages
    from bot.web.seats import SeatKeys
    from bot.web.server import make_app

    config = Config(database=":memory:", workers=1, matches_per_server=args.games, games_per_user=args.games,
                    queue_limit=10 * args.games)
    pool = SearchPool(1, config.queue_limit, 16)
    await asyncio.to_thread(pool.start)
    pages = Pages(SeatKeys(os.urandom(32)), "http://127.0.0.1")
    core = Core(config, SqliteStore(":memory:"), pool, pages.send_for(None))
    pages.attach(core)
    runner = web.AppRunner(make_app(pages), access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    gc.freeze()
    lags: list[float] = []

    async def watch_the_loop() -> None:
        while True:
            start = time.perf_counter()
            await asyncio.sleep(0.01)
            lags.append(time.perf_counter() - start - 0.01)

    monitor = asyncio.create_task(watch_the_loop())
    ids = []
    starter = User("bench", "bench")
    for _ in range(args.games):
        game, notes = await pages.start(starter, f"watch english 1 1 delay {args.delay:g}")
        if game is None:
            raise SystemExit(f"a match did not start: {notes}")
        ids.append(game)
    print(json.dumps({"port": port, "pages": [pages.game_path(game) for game in ids]}), flush=True)
    reader = asyncio.StreamReader()
    await asyncio.get_running_loop().connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    while line := (await reader.readline()).decode().strip():
        if line == "lag":
            print(json.dumps({"lags": lags}), flush=True)
            lags.clear()
    monitor.cancel()
    await core.close()
    pages.close()
    await runner.cleanup()
    pool.close()


# --- the watchers ------------------------------------------------------------------------------------------------

async def watch(args: argparse.Namespace) -> None:
    server = subprocess.Popen([sys.executable, __file__, "--serve", "--games", str(args.games),
                               "--delay", str(args.delay)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert server.stdin is not None and server.stdout is not None
    try:
        started = json.loads(server.stdout.readline())
        base = f"http://127.0.0.1:{started['port']}"
        game = started["pages"][0]
        await asyncio.sleep(1.0)
        before = rss_mb(server.pid)
        delays: list[float] = []
        updates = [0] * args.watchers
        connector = aiohttp.TCPConnector(limit=0)
        async with aiohttp.ClientSession(connector=connector) as session:
            sockets = []
            for _ in range(args.watchers):
                sockets.append(await session.ws_connect(base + game.replace("/g/", "/ws/"), max_msg_size=0))
            for ws in sockets:
                first = await ws.receive_json()
                assert first["type"] == "game", first
            gc.collect()
            after = rss_mb(server.pid)
            server.stdin.write("lag\n")
            server.stdin.flush()
            await asyncio.to_thread(server.stdout.readline)  # the lag while the watchers connected: not counted

            async def follow(k: int, ws: aiohttp.ClientWebSocketResponse) -> None:
                async for message in ws:
                    now = time.time()
                    data = json.loads(message.data)
                    if data["type"] == "update" and "at" in data:
                        delays.append(now - data["at"])
                        updates[k] += 1

            followers = [asyncio.create_task(follow(k, ws)) for k, ws in enumerate(sockets)]
            await asyncio.sleep(args.seconds)
            server.stdin.write("lag\n")
            server.stdin.flush()
            lags = json.loads(await asyncio.to_thread(server.stdout.readline))["lags"]
            for task in followers:
                task.cancel()
            for ws in sockets:
                await ws.close()
        print(f"web page under load: {args.watchers} watchers on one game, {args.games} bot matches "
              f"(level 1, {args.delay:g} s between moves), {args.seconds:g} s")
        print(f"  server event-loop lag (10 ms sleeps, {len(lags)}): p50 {1000 * statistics.median(lags):.1f} ms, "
              f"p99 {1000 * percentile(lags, 99):.1f} ms, max {1000 * max(lags):.1f} ms")
        if delays:
            print(f"  update to every watcher ({len(delays)} deliveries, {min(updates)}-{max(updates)} updates a "
                  f"watcher): p50 {1000 * statistics.median(delays):.1f} ms, p95 {1000 * percentile(delays, 95):.1f} ms, "
                  f"p99 {1000 * percentile(delays, 99):.1f} ms")
        else:
            print("  no update reached the watchers")
        print(f"  server memory: {before:.1f} MB before the watchers, {after:.1f} MB with them: "
              f"{1024 * (after - before) / args.watchers:.0f} KB a watcher")
    finally:
        if server.stdin and not server.stdin.closed:
            server.stdin.close()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--watchers", type=int, default=500)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--delay", type=float, default=0.5, help="seconds between a match's moves")
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    asyncio.run(serve(args) if args.serve else watch(args))


if __name__ == "__main__":
    main()
