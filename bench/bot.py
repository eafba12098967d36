"""Load on the bot core: many games against the bot at once, measured from the event loop.

    .venv/bin/python bench/bot.py --games 20 --budget 0.5 --think 10 --moves 8

Simulated people in ``--games`` channels each play a random legal move
``--think`` seconds (on average) after the bot's reply; each bot move is a
search of ``--budget`` seconds in the pool. Printed: the event loop's lag
(how late a 10 ms sleep wakes; p50/p99/max), the reply time (person's move
received to the bot's reply ready; median and p90, over all moves and over
those whose search found a free process), how long searches waited for a
process, and the memory one active game costs the bot process (tracemalloc
over 200 games of 40 plies).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import random
import statistics
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.config import Config, default_workers  # noqa: E402
from bot.core import Core  # noqa: E402
from bot.pool import SearchPool  # noqa: E402
from bot.present import board_png, warm_up  # noqa: E402
from bot.store import SqliteStore, is_postgres, open_store  # noqa: E402
from bot.tables import Message, Reply, User  # noqa: E402
from engine import format_move  # noqa: E402


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


async def load(args: argparse.Namespace) -> None:
    workdir = Path(tempfile.mkdtemp())
    database = args.database or str(workdir / "bench.sqlite3")
    config = Config(database=database, workers=args.workers, move_time=args.budget,
                    games_per_user=args.games, queue_limit=10 * args.games)
    pool = SearchPool(config.workers, config.queue_limit, config.tt_mb)
    await asyncio.gather(asyncio.to_thread(pool.start), asyncio.to_thread(warm_up))  # as bot.app does
    gc.freeze()
    store = await open_store(config.database)
    rng = random.Random(1)
    asked: dict[str, tuple[float, bool]] = {}  # channel -> (when the person's move reached the core, pool idle then)
    replies: list[tuple[float, bool]] = []  # (seconds, found a free process)
    left = {f"c{i}": args.moves for i in range(args.games)}
    done = asyncio.Event()

    async def send(reply: Reply) -> None:
        if reply.board is not None:
            await asyncio.to_thread(board_png, reply.board)  # as a front end would
        if reply.text.startswith("I played") and reply.channel in asked:
            sent, idle = asked.pop(reply.channel)
            replies.append((time.perf_counter() - sent, idle))
            asyncio.get_running_loop().call_later(rng.uniform(0.5, 1.5) * args.think, lambda: asyncio.ensure_future(
                person(reply.channel)))

    core = Core(config, store, pool, send)
    user = User("p", "player")

    async def person(channel: str) -> None:
        table = core.state.tables.get(channel)
        if table is None or left[channel] == 0:
            left[channel] = 0
            if not any(left.values()):
                done.set()
            return
        left[channel] -= 1
        game = table.game
        text = format_move(game.position, rng.choice(game.legal_moves()), full=True)
        asked[channel] = (time.perf_counter(), pool.idle)
        await core.handle(Message("g", channel, user, text))

    lags: list[float] = []
    worst = [0.0, 0.0]  # the largest lag, and when it came (seconds after the start)

    async def watch_loop() -> None:
        while not done.is_set():
            before = time.perf_counter()
            await asyncio.sleep(0.01)
            lags.append(time.perf_counter() - before - 0.01)
            if lags[-1] > worst[0]:
                worst[:] = [lags[-1], before - start]

    start = time.perf_counter()
    watcher = asyncio.create_task(watch_loop())
    for channel in left:
        await core.handle(Message("g", channel, user, f"new english level 6 time {args.budget}"))
        asyncio.get_running_loop().call_later(rng.uniform(0, args.think), lambda c=channel: asyncio.ensure_future(
            person(c)))
    await done.wait()
    await core.settle()
    elapsed = time.perf_counter() - start
    await watcher
    await core.close()
    await store.close()
    pool.close()

    free = [t for t, was_free in replies if was_free]
    waits = list(pool.waits)
    ms = 1000
    print(f"{args.games} games against the bot, {args.budget * ms:.0f} ms a move, {config.workers} search "
          f"process(es), people think ~{args.think:g} s, {'PostgreSQL' if is_postgres(database) else 'SQLite'}; "
          f"{len(replies)} bot replies in {elapsed:.0f} s")
    print(f"event-loop lag: p50 {statistics.median(lags) * ms:.1f} ms, p99 {percentile(lags, 99) * ms:.1f} ms, "
          f"max {worst[0] * ms:.1f} ms at {worst[1]:.1f} s ({len(lags)} samples)")
    print(f"reply time, all moves: median {statistics.median(t for t, _ in replies) * ms:.0f} ms, "
          f"p90 {percentile([t for t, _ in replies], 90) * ms:.0f} ms")
    if free:
        print(f"reply time, a process free when the move came ({len(free)} moves): median {statistics.median(free) * ms:.0f} ms, "
              f"p90 {percentile(free, 90) * ms:.0f} ms (budget + 200 = {args.budget * ms + 200:.0f} ms)")
    print(f"waits for a process: median {statistics.median(waits) * ms:.0f} ms, p90 {percentile(waits, 90) * ms:.0f}"
          f" ms, {sum(w < 0.01 for w in waits)}/{len(waits)} started at once")


def memory_per_game(workdir: Path, games: int = 200, plies: int = 40) -> None:
    """Bytes the bot process holds per active game: people games of ``plies`` plies, measured by tracemalloc."""

    async def fill() -> int:
        store = SqliteStore(str(workdir / "memory.sqlite3"))
        core = Core(Config(games_per_user=10 * games), store, None, _discard)  # type: ignore[arg-type]
        rng = random.Random(2)
        tracemalloc.start()
        before = tracemalloc.take_snapshot()
        for i in range(games):
            a, b = User(f"a{i}", "a"), User(f"b{i}", "b")
            await core.handle(Message("g", f"m{i}", a, "challenge", (b,)))
            await core.handle(Message("g", f"m{i}", b, "accept"))
            for _ in range(plies):
                table = core.state.tables.get(f"m{i}")
                if table is None:
                    break
                mover = table.to_move.user
                assert mover is not None
                move = rng.choice(table.game.legal_moves())
                await core.handle(Message("g", f"m{i}", mover, format_move(table.game.position, move, full=True)))
        after = tracemalloc.take_snapshot()
        tracemalloc.stop()
        return sum(s.size_diff for s in after.compare_to(before, "filename"))

    size = asyncio.run(fill())
    print(f"memory per active game: {size / games / 1024:.1f} KB (Python objects, {games} games of {plies} plies)")


async def _discard(reply: Reply) -> None:
    return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--budget", type=float, default=0.5)
    parser.add_argument("--think", type=float, default=10.0, help="people's average seconds per move")
    parser.add_argument("--moves", type=int, default=8, help="moves each person plays")
    parser.add_argument("--workers", type=int, default=default_workers())
    parser.add_argument("--postgres", action="store_true",
                        help="keep the games in PostgreSQL (a server of its own, from the pgserver wheel)")
    args = parser.parse_args()
    args.database = None
    server = None
    if args.postgres:
        sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
        from postgres import start_server

        server, args.database = start_server()
    try:
        asyncio.run(load(args))
    finally:
        if server is not None:
            server.cleanup()
    if not args.postgres:
        memory_per_game(Path(tempfile.mkdtemp()))


if __name__ == "__main__":
    main()
