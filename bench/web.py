"""Load on the web page: many watchers on one game while other games are played; and the bytes one move costs.

    .venv/bin/python bench/web.py --watchers 500 --games 20 --seconds 30
    .venv/bin/python bench/web.py --tier --watchers 500 --games 20 --seconds 30
    .venv/bin/python bench/web.py --tier --hold --watchers 500 --games 20 --seconds 30
    .venv/bin/python bench/web.py --deflate --watchers 500 --games 20 --seconds 30
    .venv/bin/python bench/web.py --bytes

A server process runs the bot core, one search process and the web server, and plays ``--games`` bot matches
(level 1 against level 1, ``--delay`` seconds between moves). This process opens ``--watchers`` WebSockets on the
first match's page and times every update: from the moment the server made it (its ``at``) to its arrival.
With ``--tier``, the matches are played by one process (core, search process, relay) and their pages served by
another (the web tier's: its pages and shared games), around a PostgreSQL server started for the bench; an
update is timed from when the owner made the move's news, just after storing the move, so the time includes the
trip through the database.
With ``--hold`` as well, the web process's database reads of a second match are held up (2 s each) and every event
of it is read from the database (as a gap, or events too long to announce, make it), with a page open on it: the
watchers' updates of the first match show whether one slow game delays the others.
Printed: each server's event-loop lag (how late a 10 ms sleep wakes; p50/p99/max), an update's delivery time to
every watcher (p50/p95/p99), the updates seen, and the page server's memory per watcher (its resident memory
before and after the watchers connect). All processes share this machine's cores with the search process.

``--bytes`` plays a game of two people to its 100th ply in this process and prints what its 100th move costs:
the bytes a watching page is sent (the move alone; and the page of the player to move, which is also sent their
legal moves), against the update of the version before (the position after the move and the page's whole status,
rebuilt here from the same game in the same run); and the bytes each web process of the web tier is sent through
the database (the NOTIFY payload): the game's events now, against the news of the version before the events (the
whole game, ``GameNews``, rebuilt the same way).
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


# --- the server processes ----------------------------------------------------------------------------------------

class LagWatch:
    """How late a 10 ms sleep wakes on this process's event loop, sampled all the time."""

    def __init__(self) -> None:
        self.lags: list[float] = []
        self.task = asyncio.create_task(self._watch())

    async def _watch(self) -> None:
        while True:
            start = time.perf_counter()
            await asyncio.sleep(0.01)
            self.lags.append(time.perf_counter() - start - 0.01)


async def answer(lag: LagWatch, paths=None) -> None:
    """Answer the bench on standard input until it closes: ``lag`` (the lags since the last ask), ``path N`` (the
    page of game N)."""
    reader = asyncio.StreamReader()
    await asyncio.get_running_loop().connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    while line := (await reader.readline()).decode().strip():
        if line == "lag":
            print(json.dumps({"lags": lag.lags}), flush=True)
            lag.lags = []
        elif line.startswith("path "):
            print(json.dumps({"path": paths(int(line.split()[1]))}), flush=True)
    lag.task.cancel()


def bench_config(args: argparse.Namespace, database: str = ":memory:"):
    from bot.config import Config

    return Config(database=database, workers=1, matches_per_server=args.games, games_per_user=args.games,
                  queue_limit=10 * args.games)


async def start_matches(args: argparse.Namespace, open_match) -> list[int]:
    from bot.replies import User

    ids = []
    for k in range(args.games):
        game = await open_match(User("bench", "bench"), f"watch english 1 1 delay {args.delay:g}", k)
        if game is None:
            raise SystemExit("a match did not start")
        ids.append(game)
    return ids


async def listen_at(app) -> tuple[object, int]:
    from aiohttp import web

    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", 0).start()
    return runner, runner.addresses[0][1]


async def serve(args: argparse.Namespace) -> None:
    """One process: the core, one search process and the web page."""
    from bot.core import Core
    from bot.pool import SearchPool
    from bot.store import SqliteStore
    from bot.web.pages import Pages
    from bot.web.seats import SeatKeys
    from bot.web.server import make_app

    config = bench_config(args)
    pool = SearchPool(1, config.queue_limit, 16)
    await asyncio.to_thread(pool.start)
    core = Core(config, SqliteStore(":memory:"), pool)
    pages = Pages(SeatKeys(os.urandom(32)), "http://127.0.0.1", core)
    core.connect(pages.send_for(None))
    runner, port = await listen_at(make_app(pages))
    gc.freeze()
    lag = LagWatch()

    async def open_match(user, command: str, k: int) -> int | None:
        game, _ = await pages.start(user, command)
        return game

    ids = await start_matches(args, open_match)
    print(json.dumps({"port": port, "games": ids}), flush=True)
    await answer(lag, pages.game_path)
    await core.close()
    pages.close()
    await runner.cleanup()
    pool.close()


async def serve_owner(args: argparse.Namespace) -> None:
    """The web tier's chat process: the core, one search process and the relay (no page of its own)."""
    from bot.core import Core
    from bot.pool import SearchPool
    from bot.store.exchange import Exchange
    from bot.store.postgres import PostgresStore
    from bot.replies import Message
    from bot.web.relay import Relay

    config = bench_config(args, args.database)
    pool = SearchPool(1, config.queue_limit, 16)
    await asyncio.to_thread(pool.start)
    store = await PostgresStore.connect(args.database)
    core = Core(config, store, pool)
    relay = Relay(Exchange(store), core, "web")

    async def nowhere(reply) -> None:  # no chat: the pages are on the web process
        pass

    core.connect(relay.send_for(nowhere, pages=False))
    await core.start()
    relaying = asyncio.create_task(relay.run())
    gc.freeze()
    lag = LagWatch()

    async def open_match(user, command: str, k: int) -> int | None:
        return await core.open(Message("bench", f"web-bench-{k}", user, command, channel_name="bench"))

    ids = await start_matches(args, open_match)
    print(json.dumps({"games": ids}), flush=True)
    await answer(lag)
    relaying.cancel()
    await core.close()
    await store.close()
    pool.close()


async def serve_web(args: argparse.Namespace) -> None:
    """The web tier's web process: the pages of the owner's games (no search process: no analysis is asked)."""
    from bot.core import Core
    from bot.pool import SearchPool
    from bot.store.postgres import PostgresStore
    from bot.web.pages import Pages
    from bot.web.seats import SeatKeys, load_key
    from bot.web.server import make_app
    from bot.store.exchange import Exchange
    from bot.web.shared import SharedGames, sharing

    store = await PostgresStore.connect(args.database)
    core = Core(bench_config(args, args.database), store, SearchPool(1, 1, 16))  # its pool never starts
    games = SharedGames(Exchange(store))
    if args.held:
        hold_up(games, args.held)
    pages = Pages(SeatKeys(await load_key(store, args.database)), "http://127.0.0.1", core, games)
    runner, port = await listen_at(make_app(pages))
    async with sharing(games, core, pages):
        await games.ready.wait()
        gc.freeze()
        lag = LagWatch()
        print(json.dumps({"port": port}), flush=True)
        await answer(lag, pages.game_path)
    await runner.cleanup()
    await store.close()


def hold_up(games, held: int, seconds: float = 2.0) -> None:
    """Make game ``held`` slow on this web process: each of its database reads waits ``seconds``, and each of its
    events is read from the database (its notifications lose their events, as a gap does)."""
    from bot.store.exchange import NEWS

    reads, heard = games.exchange.news, games.heard

    async def slow_news(game: int):
        if game == held:
            await asyncio.sleep(seconds)
        return await reads(game)

    def heard_without_events(channel: str, payload: dict) -> None:
        if channel == NEWS and payload.get("game") == held:
            payload = {"game": held, "seq": payload.get("seq")}
        heard(channel, payload)

    games.exchange.news, games.heard = slow_news, heard_without_events


async def move_bytes(args: argparse.Namespace) -> None:
    """Play a game of two people to its 100th ply here, and print what its 100th move costs on the wire."""
    import random

    from bot.core import Core
    from bot.pool import SearchPool
    from bot.replies import Message, User
    from bot.store import SqliteStore
    from bot.translation import ENGLISH, rendered, text_json
    from bot.web import views
    from bot.web.pages import Pages
    from bot.web.seats import SeatKeys

    core = Core(bench_config(args), SqliteStore(":memory:"), SearchPool(1, 1, 16))  # no bot moves: never started
    pages = Pages(SeatKeys(os.urandom(32)), "http://127.0.0.1", core)
    core.connect(pages.send_for(None))
    told = []
    core.follow(told.append)
    ana, ben = User("1", "Ana"), User("2", "Ben")
    rng = random.Random(1)
    for attempt in range(200):  # random games until one lasts 100 plies
        channel = f"c{attempt}"
        await core.handle(Message("bench", channel, ana, f"challenge @Ben {args.variant} casual", (ben,)))
        await core.handle(Message("bench", channel, ben, "accept"))
        game = core.game_in(channel)
        assert game is not None
        watcher = await pages.join(game)
        assert watcher is not None
        seated = {}  # a page seated as each player: one of them is to move after the 100th move
        for user in (ana, ben):
            colour = (await core.live_game(game)).colour_of(user)  # type: ignore[union-attr]
            seated[colour] = await pages.join(game)
            assert await pages.take_seat(seated[colour], pages.seat_path(game, colour, user).split("#seat=")[1])
        pages_here = [watcher, *seated.values()]
        while (live := await core.live_game(game)) is not None and len(live.game.moves) < 100:
            record = live.game
            move = rng.choice(record.legal_moves())
            for page in pages_here:
                while not page.queue.empty():
                    page.queue.get_nowait()
            await core.handle(Message("bench", channel, live.to_move.user,
                                      record.type.write_move(record.position, move, full=True)))
        if live is not None:
            break
        for page in pages_here:
            pages.leave(page)
    else:
        raise SystemExit("no game lasted 100 plies")

    def last(page) -> str:
        message = None
        while not page.queue.empty():
            message = page.queue.get_nowait()
        assert message is not None
        return message

    page_message, to_move_message = last(watcher), last(seated[live.game.turn])
    event = told[-1]
    compact = {"separators": (",", ":")}
    now = json.dumps({"game": game, "seq": 100, "events": [event.to_json()]}, **compact)
    whole = {key: value for key, value in live.to_json().items() if key != "told"}  # (no version then)
    news = {"game": game, "said": str(event.said), "said_text": text_json(event.said), "about_game": True,
            "at": event.at, "live": whole, "ended": None}  # bot.web.news.GameNews.to_json, until events
    before = json.dumps({"game": game, "seq": 100, "news": news}, **compact)
    page_before = json.dumps({"type": "update", "from": 100, "entries": [views.entry(live.game, 100)],
                              "status": rendered(views.status(live, event.said), ENGLISH), "at": event.at})
    print(f"the 100th move of a game of {args.variant} between two people ({type(event).__name__}), in bytes:")
    print(f"  to each web process of the web tier (NOTIFY payload): {len(now.encode())} (events) against "
          f"{len(before.encode())} (the whole game as news, before): {len(now.encode()) / len(before.encode()):.2f}")
    print(f"  to each watching page (WebSocket message): {len(page_message.encode())} (the move) against "
          f"{len(page_before.encode())} (the position and status, before): "
          f"{len(page_message.encode()) / len(page_before.encode()):.2f}")
    print(f"  to the page of the player to move, with their legal moves: {len(to_move_message.encode())}: "
          f"{len(to_move_message.encode()) / len(page_before.encode()):.2f}")
    await core.close()


# --- the watchers ------------------------------------------------------------------------------------------------

async def drain(ws, delays: list[float], start: list[float]) -> None:
    """Read a socket's messages, noting each update's delay once the measurement began (``start[0]``)."""
    async for message in ws:
        data = json.loads(message.data)
        if data["type"] in ("update", "moved") and data.get("at", 0.0) >= start[0]:
            delays.append(time.time() - data["at"])


class Server:
    """A server process of the bench, asked over its standard input and output."""

    def __init__(self, args: argparse.Namespace, role: str, database: str = "", held: int = 0):
        self.role = role
        self.process = subprocess.Popen([sys.executable, __file__, "--serve", role, "--games", str(args.games),
                                         "--delay", str(args.delay), "--database", database, "--held", str(held)],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def read(self) -> dict:
        assert self.process.stdout is not None
        return json.loads(self.process.stdout.readline())

    def ask(self, line: str) -> dict:
        assert self.process.stdin is not None
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()
        return self.read()

    def stop(self) -> None:
        if self.process.stdin and not self.process.stdin.closed:
            self.process.stdin.close()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()


async def watch(args: argparse.Namespace) -> None:
    database, postgres = "", None
    if args.tier:
        sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
        from postgres import start_server

        postgres, database = start_server()
    servers: list[Server] = []
    try:
        if args.tier:
            owner = Server(args, "owner", database)
            servers.append(owner)
            ids = owner.read()["games"]
            web_server = Server(args, "web", database, held=ids[1] if args.hold else 0)
            servers.append(web_server)
            port = web_server.read()["port"]
        else:
            web_server = Server(args, "single")
            servers.append(web_server)
            started = web_server.read()
            port, ids = started["port"], started["games"]
        base = f"http://127.0.0.1:{port}"
        game = web_server.ask(f"path {ids[0]}")["path"]
        delays: list[float] = []
        updates = [0] * args.watchers
        connector = aiohttp.TCPConnector(limit=0)
        async with aiohttp.ClientSession(connector=connector) as session:
            deflate = 15 if args.deflate else 0  # (a browser asks for permessage-deflate, with a 32 KB window)
            sockets = [await session.ws_connect(base + game.replace("/g/", "/ws/"), max_msg_size=0, compress=deflate)]
            assert (await sockets[0].receive_json())["type"] == "game"  # the first page loads what pages need
            await asyncio.sleep(1.0)
            before = rss_mb(web_server.process.pid)
            languages = args.languages.split(",")
            for k in range(1, args.watchers):  # each in its turn of the languages (its browser's Accept-Language)
                sockets.append(await session.ws_connect(
                    base + game.replace("/g/", "/ws/"), max_msg_size=0, compress=deflate,
                    headers={"Accept-Language": languages[k % len(languages)]}))
            for ws in sockets[1:]:
                first = await ws.receive_json()
                assert first["type"] == "game", first
            if args.hold:  # a page on the held game, so that the web process follows it (its updates not counted)
                held = await session.ws_connect(base + web_server.ask(f"path {ids[1]}")["path"].replace("/g/", "/ws/"),
                                                max_msg_size=0)
                assert (await held.receive_json())["type"] == "game"
                held_delays: list[float] = []
                began = [float("inf")]
                draining = asyncio.create_task(drain(held, held_delays, began))
            gc.collect()
            gc.freeze()  # this process's own collections would stall its reading, and count as the server's delay
            after = rss_mb(web_server.process.pid)
            start = float("inf")

            async def follow(k: int, ws: aiohttp.ClientWebSocketResponse) -> None:
                async for message in ws:
                    now = time.time()
                    data = json.loads(message.data)
                    # only updates made once the measurement began: those that waited in the sockets while the
                    # watchers connected would time this process's setting up, not the server
                    if data["type"] in ("update", "moved") and data.get("at", 0.0) >= start:
                        delays.append(now - data["at"])
                        updates[k] += 1

            followers = [asyncio.create_task(follow(k, ws)) for k, ws in enumerate(sockets)]
            for server in servers:  # the lag while the watchers connected: not counted
                await asyncio.to_thread(server.ask, "lag")
            start = time.time()
            if args.hold:
                began[0] = start
            await asyncio.sleep(args.seconds)
            lags = {server.role: (await asyncio.to_thread(server.ask, "lag"))["lags"] for server in servers}
            for task in followers:
                task.cancel()
            if args.hold:
                draining.cancel()
            for ws in sockets:
                await ws.close()
        where = ("through the web tier: the games played by one process, their pages served by another, around "
                 "one PostgreSQL" if args.tier else "one process")
        if args.hold:
            where += ", with a second match's database reads held up 2 s each (and all its events read so)"
        print(f"web page under load, {where}: {args.watchers} watchers on one game (pages in {args.languages}), "
              f"{args.games} bot matches (level 1, {args.delay:g} s between moves), {args.seconds:g} s")
        for role, values in lags.items():
            print(f"  {role} process's event-loop lag (10 ms sleeps, {len(values)}): p50 "
                  f"{1000 * statistics.median(values):.1f} ms, p99 {1000 * percentile(values, 99):.1f} ms, "
                  f"max {1000 * max(values):.1f} ms")
        since = "the move's news was made where it was played" if args.tier else "the update was made"
        if delays:
            print(f"  update to every watcher, from when {since} ({len(delays)} deliveries, {min(updates)}-"
                  f"{max(updates)} updates a watcher): p50 {1000 * statistics.median(delays):.1f} ms, "
                  f"p95 {1000 * percentile(delays, 95):.1f} ms, p99 {1000 * percentile(delays, 99):.1f} ms")
        else:
            print("  no update reached the watchers")
        if args.hold:
            print(f"  the held match's page: {len(held_delays)} updates, from when made: p50 "
                  f"{statistics.median(held_delays) if held_delays else float('nan'):.2f} s, max "
                  f"{max(held_delays, default=float('nan')):.2f} s")
        print(f"  page server's memory: {before:.1f} MB with one watcher, {after:.1f} MB with them: "
              f"{1024 * (after - before) / (args.watchers - 1):.0f} KB a watcher")
    finally:
        for server in reversed(servers):
            server.stop()
        if postgres is not None:
            postgres.cleanup()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--watchers", type=int, default=500)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--delay", type=float, default=0.5, help="seconds between a match's moves")
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--tier", action="store_true",
                        help="through the web tier: the matches played by one process, the pages served by a second "
                             "(python -m bot web's parts), around a PostgreSQL server of its own (the pgserver wheel)")
    parser.add_argument("--languages", default="en",
                        help="the watchers' languages, shared out in turn (such as en,nl,fr,ru,pt-BR): each update is "
                             "written once a language")
    parser.add_argument("--hold", action="store_true",
                        help="with --tier: hold up the web process's database reads of a second match (2 s each)")
    parser.add_argument("--deflate", action="store_true",
                        help="the watchers ask for permessage-deflate, as browsers do (each socket compresses its own)")
    parser.add_argument("--bytes", action="store_true",
                        help="only print the bytes the 100th move of a game costs, to a page and through the web tier")
    parser.add_argument("--variant", default="english", help="the game of --bytes")
    parser.add_argument("--serve", choices=["single", "owner", "web"], help=argparse.SUPPRESS)
    parser.add_argument("--database", default="", help=argparse.SUPPRESS)
    parser.add_argument("--held", type=int, default=0, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.hold and not args.tier:
        parser.error("--hold is for --tier")
    roles = {"single": serve, "owner": serve_owner, "web": serve_web}
    asyncio.run(move_bytes(args) if args.bytes else roles[args.serve](args) if args.serve else watch(args))


if __name__ == "__main__":
    main()
