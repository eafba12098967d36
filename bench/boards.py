"""A crowd of analysis boards beside bot matches: whether the engine's looks at their positions delay any game's move.

    .venv/bin/python bench/boards.py --boards 50 --games 10 --seconds 30
    .venv/bin/python bench/boards.py --boards 50 --games 10 --seconds 30 --workers 1

One process runs the bot core with its search processes (``--workers``; by default one a core, as ``./run-bot``),
the web server and ``--games`` bot matches (level 1 against level 1, ``--delay`` seconds between moves). For ``--seconds`` it records
how long each of the matches' moves waited for the search process (the pool's own record, from the move's job to
its start) with no board open; then again with ``--boards`` analysis boards open, each a person at an address of
their own (sent through a proxy the server believes), who asks for the engine's look at a new position of a game
they play out at random every ``--every`` seconds (``POST /api/board/eval``, as the page does). The looks run in the
pool's analysis lane, which gives way to every move, and at most ``bot.web.board_routes.BOARD_LOOKS`` at once.

Printed, for both phases in the same run: the moves' waits (count, p50, p95, max) and the matches' moves played;
with the boards, their answers (looks, refusals as one-at-a-time or busy) and how long a look took (p50, p95).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import aiohttp  # noqa: E402


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))] if ordered else float("nan")


def waits_line(name: str, waits: list[float], moves: int) -> str:
    return (f"  {name}: {moves} match moves, each one's wait for a search process: p50 "
            f"{1000 * statistics.median(waits) if waits else float('nan'):.1f} ms, p95 {1000 * percentile(waits, 95):.1f} ms, "
            f"max {1000 * max(waits, default=float('nan')):.1f} ms")


async def board(session: aiohttp.ClientSession, base: str, person: int, every: float, until: float,
                tally: dict) -> None:
    """One person's analysis board: a game played out at random, the engine asked to look at each new position."""
    from engine import game_type

    rng = random.Random(person)
    kind = game_type("english")
    headers = {"X-Forwarded-For": f"10.{person // 250}.{person % 250}.1"}
    await asyncio.sleep(rng.uniform(0, every))  # not all at once
    while time.monotonic() < until:
        record, moves = kind.new_game(), []
        for _ in range(rng.randint(4, 30)):
            legal = record.legal_moves()
            if not legal:
                break
            move = rng.choice(legal)
            moves.append(kind.write_move(record.position, move, full=True))
            record.play(move)
        asked = time.monotonic()
        async with session.post(f"{base}/api/board/eval", json={"variant": "english", "moves": moves},
                                headers=headers) as answer:
            await answer.read()
            tally[answer.status] = tally.get(answer.status, 0) + 1
            if answer.status == 200:
                tally.setdefault("took", []).append(time.monotonic() - asked)
        await asyncio.sleep(every)


async def bench(args: argparse.Namespace) -> None:
    from aiohttp import web

    from bot.config import Config
    from bot.core import Core
    from bot.pool import SearchPool
    from bot.replies import Message, User
    from bot.store import SqliteStore
    from bot.web.pages import Pages
    from bot.web.seats import SeatKeys
    from bot.web.server import make_app

    config = Config(database=":memory:", matches_per_server=args.games, games_per_user=args.games,
                    queue_limit=10 * args.games, **({"workers": args.workers} if args.workers else {}))
    pool = SearchPool(config.workers, config.queue_limit, 16)
    await asyncio.to_thread(pool.start)
    core = Core(config, SqliteStore(":memory:"), pool)
    pages = Pages(SeatKeys(os.urandom(32)), "http://127.0.0.1", core)
    core.connect(pages.send_for(None))
    runner = web.AppRunner(make_app(pages, frozenset({"127.0.0.1"})), access_log=None)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", 0).start()
    base = f"http://127.0.0.1:{runner.addresses[0][1]}"
    try:
        async def phase(boards: int) -> tuple[list[float], int, dict]:
            for table in await pages.games.live_games(None):  # the last phase's matches stopped: fresh ones
                await core.handle(Message(table.guild, table.channel, table.starter or User("bench", "bench"), "stop"))
            for k in range(args.games):
                game, _ = await pages.start(User("bench", "bench"), f"watch english 1 1 delay {args.delay:g}")
                if game is None:
                    raise SystemExit("a match did not start")
            await asyncio.sleep(2.0)
            pool.waits.clear()
            tally: dict = {}
            until = time.monotonic() + args.seconds
            async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as session:
                crowd = [asyncio.create_task(board(session, base, k, args.every, until, tally)) for k in range(boards)]
                await asyncio.sleep(args.seconds)
                waits = list(pool.waits)
                played = len(waits)  # (each match move is one search, its wait recorded)
                for task in crowd:
                    task.cancel()
                await asyncio.gather(*crowd, return_exceptions=True)
            return waits, played, tally

        print(f"analysis boards beside {args.games} bot matches (level 1, {args.delay:g} s between moves), "
              f"{config.workers} search process(es), {args.seconds:g} s a phase", flush=True)
        alone = await phase(0)
        print(waits_line("no board open", alone[0], alone[1]), flush=True)
        crowded = await phase(args.boards)
        print(waits_line(f"{args.boards} boards open, each asking a look every {args.every:g} s", crowded[0],
                         crowded[1]))
        tally = crowded[2]
        took = tally.get("took", [])
        print(f"  the boards' answers: {tally.get(200, 0)} looks, {tally.get(429, 0)} refused as one at a time, "
              f"{tally.get(503, 0)} as busy; a look took p50 {1000 * statistics.median(took) if took else float('nan'):.0f} ms, "
              f"p95 {1000 * percentile(took, 95):.0f} ms")
    finally:
        await core.close()
        pages.close()
        await runner.cleanup()
        pool.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=50)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--delay", type=float, default=0.5, help="seconds between a match's moves")
    parser.add_argument("--every", type=float, default=1.0, help="seconds a person waits between looks")
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--workers", type=int, default=0, help="search processes (default: BOT_WORKERS' default, "
                                                                 "one a core)")
    asyncio.run(bench(parser.parse_args()))


if __name__ == "__main__":
    main()
