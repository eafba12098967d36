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

``--analyses N`` keeps N game analyses running all the while (N people, each
asking for the analysis of another finished 100-ply International game as
soon as the last is done): they run below the moves, which should not be
slowed by more than one analysed position. "A process free" then means that
no other move was running or waiting.
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
from bot.replies import Message, Reply, User
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
        if reply.analysis is not None and analysed is not None:
            analysed.put_nowait(reply)
        if reply.board is not None:
            await asyncio.to_thread(board_png, reply.board)  # as a front end would
        if reply.text.startswith("I played") and reply.channel in asked:
            sent, idle = asked.pop(reply.channel)
            replies.append((time.perf_counter() - sent, idle))
            asyncio.get_running_loop().call_later(rng.uniform(0.5, 1.5) * args.think, lambda: asyncio.ensure_future(
                person(reply.channel)))

    core = Core(config, store, pool, send)
    user = User("p", "player")
    analysed = asyncio.Queue() if args.analyses else None
    to_analyse = await finished_games(core, args.analyses * 40) if args.analyses else []

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
        asked[channel] = (time.perf_counter(), pool.free_for_moves)
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

    positions = [0]

    async def analyst(n: int) -> None:
        who = User(f"analyst{n}", f"analyst {n}")
        while not done.is_set() and to_analyse:
            game = to_analyse.pop()
            await core.handle(Message("g", f"a{n}", who, f"analyse {game}"))
            while (reply := await analysed.get()).game != game:
                analysed.put_nowait(reply)
                await asyncio.sleep(0.01)
            positions[0] += len(reply.analysis.moves) + 1

    start = time.perf_counter()
    watcher = asyncio.create_task(watch_loop())
    analysts = [asyncio.create_task(analyst(n)) for n in range(args.analyses)]
    for channel in left:
        await core.handle(Message("g", channel, user, f"new english level 6 time {args.budget}"))
        asyncio.get_running_loop().call_later(rng.uniform(0, args.think), lambda c=channel: asyncio.ensure_future(
            person(c)))
    await done.wait()
    for task in analysts:
        task.cancel()
    await asyncio.gather(*analysts, return_exceptions=True)
    elapsed = time.perf_counter() - start
    await core.close()
    await watcher
    await store.close()
    pool.close()

    free = [t for t, was_free in replies if was_free]
    waits = list(pool.waits)
    ms = 1000
    print(f"{args.games} games against the bot, {args.budget * ms:.0f} ms a move, {config.workers} search "
          f"process(es), people think ~{args.think:g} s, {'PostgreSQL' if is_postgres(database) else 'SQLite'}; "
          f"{len(replies)} bot replies in {elapsed:.0f} s"
          + (f"; {args.analyses} analyses running all the while ({positions[0]} positions analysed)"
             if args.analyses else ""))
    print(f"event-loop lag: p50 {statistics.median(lags) * ms:.1f} ms, p99 {percentile(lags, 99) * ms:.1f} ms, "
          f"max {worst[0] * ms:.1f} ms at {worst[1]:.1f} s ({len(lags)} samples)")
    print(f"reply time, all moves: median {statistics.median(t for t, _ in replies) * ms:.0f} ms, "
          f"p90 {percentile([t for t, _ in replies], 90) * ms:.0f} ms, p95 {percentile([t for t, _ in replies], 95) * ms:.0f} ms")
    if free:
        print(f"reply time, a process free when the move came ({len(free)} moves): median {statistics.median(free) * ms:.0f} ms, "
              f"p90 {percentile(free, 90) * ms:.0f} ms, p95 {percentile(free, 95) * ms:.0f} ms "
              f"(budget + 150 = {args.budget * ms + 150:.0f} ms)")
    print(f"waits for a process: median {statistics.median(waits) * ms:.0f} ms, p90 {percentile(waits, 90) * ms:.0f}"
          f" ms, {sum(w < 0.01 for w in waits)}/{len(waits)} started at once")


async def finished_games(core: Core, count: int, plies: int = 100) -> list[int]:
    """``count`` finished International games between two people, of ``plies`` random moves each (fewer if one
    ends first): the games the analysts ask about."""
    rng = random.Random(3)
    games = []
    for i in range(count):
        a, b, channel = User(f"x{i}", "x"), User(f"y{i}", "y"), f"f{i}"
        await core.handle(Message("g", channel, a, "challenge international casual", (b,)))
        await core.handle(Message("g", channel, b, "accept"))
        table = core.state.tables[channel]
        games.append(table.id)
        while channel in core.state.tables and len(table.game.moves) < plies:
            mover = table.to_move.user
            move = format_move(table.game.position, rng.choice(table.game.legal_moves()), full=True)
            await core.handle(Message("g", channel, mover, move))
        if channel in core.state.tables:
            await core.handle(Message("g", channel, a, "resign"))
    return games


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
    parser.add_argument("--analyses", type=int, default=0, help="game analyses kept running meanwhile")
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
