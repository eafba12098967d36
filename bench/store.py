"""The store under load, SQLite against PostgreSQL: moves written a second and each write's latency, with many
games in play at once.

    .venv/bin/python bench/store.py --games 200 --moves 40

Two loads, all games at once on one event loop, as one bot process runs them:
- flat out: each of ``--games`` games writes ``--moves`` moves back to back: the most moves a second;
- paced: each game writes a move every ``--every`` seconds on average (200 games every 2 s is 100 moves a
  second, a busy bot's load): a write's latency as players meet it.

SQLite is a file in a temporary directory (WAL, synchronous=NORMAL: no flush to disk at each commit);
PostgreSQL is a server started from the ``pgserver`` wheel in a temporary directory, with its defaults (a flush
at each commit), or ``--postgres URL``, a database to fill with test games. Printed per back end and load: moves
a second, and a write's latency p50/p99/max.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.store import SqliteStore, Store  # noqa: E402
from bot.store.postgres import PostgresStore  # noqa: E402

START = "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


async def load(store: Store, games: int, moves: int, every: float = 0.0) -> tuple[float, list[float]]:
    """(moves a second, each write's seconds); ``every``: a game's average seconds between moves (0: none)."""
    ids = [await store.create_game("bench", f"c{i}", "english", START, "people",
                                   {"white": {"user": ["1", "a"]}, "black": {"user": ["2", "b"]}},
                                   {"budget": 1.0, "rated": False}) for i in range(games)]
    latencies: list[float] = []
    rng = random.Random(1)

    async def play(game: int) -> None:
        version = 0
        for ply in range(moves):
            if every:
                await asyncio.sleep(rng.uniform(0, 2 * every))
            start = time.perf_counter()
            version = await store.add_move(game, version, ply, f"{ply}-{ply + 1}")
            latencies.append(time.perf_counter() - start)

    start = time.perf_counter()
    await asyncio.gather(*(play(g) for g in ids))
    return games * moves / (time.perf_counter() - start), latencies


async def main(args: argparse.Namespace) -> None:
    server = None
    url = args.postgres
    if url is None:
        sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
        from postgres import start_server

        server, url = start_server()
    try:
        sqlite = SqliteStore(str(Path(tempfile.mkdtemp()) / "bench.sqlite3"))
        postgres = await PostgresStore.connect(url, connections=args.connections)
        print(f"store under load: {args.games} games at once; flat out {args.moves} moves each, then paced "
              f"{args.paced} moves each, one every {args.every:g} s a game")
        for name, store in (("SQLite", sqlite), (f"PostgreSQL ({args.connections} connections)", postgres)):
            for load_name, moves, every in (("flat out", args.moves, 0.0), ("paced", args.paced, args.every)):
                rate, latencies = await load(store, args.games, moves, every)
                print(f"  {name}, {load_name}: {rate:,.0f} moves/s; a write p50 "
                      f"{1000 * statistics.median(latencies):.2f} ms, p99 {1000 * percentile(latencies, 99):.2f} ms, "
                      f"max {1000 * max(latencies):.2f} ms")
            await store.close()
    finally:
        if server is not None:
            server.cleanup()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--moves", type=int, default=40)
    parser.add_argument("--paced", type=int, default=10, help="moves each game writes in the paced load")
    parser.add_argument("--every", type=float, default=2.0, help="a game's average seconds between paced moves")
    parser.add_argument("--connections", type=int, default=4, help="PostgreSQL connections in the pool")
    parser.add_argument("--postgres", help="a PostgreSQL URL to use instead of a server of its own")
    asyncio.run(main(parser.parse_args()))
