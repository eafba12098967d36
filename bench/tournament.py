"""Load on the bot core from a large arena: many players paired in waves, all playing at once.

    .venv/bin/python bench/tournament.py --players 200 --seconds 120

An arena (English, 3+2, casual) in one channel of one bot core, with ``--players`` simulated players who join
it, then play quickly: each move is a random legal move typed in the arena's channel (the core sends it to the
player's board) ``--think`` seconds after the last on average, and a game that reaches ``--plies`` plies is given
up by the side to move, so that players come back free and are paired again in the next wave. The core's own clock (its
tick every few seconds) pairs the waves, as in the bot. Each board's replies are drawn as images, in a thread, as
a front end would. After ``--seconds`` the games on are given up and the arena is cancelled.

Printed: the waves and the pairs each made; the time to pair a wave (``Tournament.arena_wave``: standings, then
the matching or the walk down the standings; median and max); a move's latency (typed to answered, through the
core and its database; p50/p95); the event loop's lag (how late a 10 ms sleep wakes; p50/p99/max); games and
moves played. The database is an SQLite file in a temporary directory.
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
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.config import Config  # noqa: E402
from bot.core import Core  # noqa: E402
from bot.pool import SearchPool  # noqa: E402
from bot.present import board_png, warm_up  # noqa: E402
from bot.replies import Message, Reply, User  # noqa: E402
from bot.store import SqliteStore  # noqa: E402
from bot.tournament import event  # noqa: E402

CHANNEL = "arena"
ADMIN = User("admin", "admin")


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))] if ordered else float("nan")


async def load(args: argparse.Namespace) -> None:
    workdir = Path(tempfile.mkdtemp())
    config = Config(database=str(workdir / "bench.sqlite3"), workers=1, games_per_user=5, input_limit=2000)
    pool = SearchPool(1)
    await asyncio.gather(asyncio.to_thread(pool.start), asyncio.to_thread(warm_up))
    gc.freeze()
    store = SqliteStore(config.database)
    drawn = 0

    async def send(reply: Reply) -> None:
        nonlocal drawn
        if reply.board is not None:
            await asyncio.to_thread(board_png, reply.board)  # as a front end would
            drawn += 1

    core = Core(config, store, pool, send)
    await core.start()
    waves: list[tuple[float, int]] = []  # (seconds to pair, pairs)
    wave = event.Tournament.arena_wave

    def timed_wave(self: event.Tournament) -> list[tuple[str, str]]:
        start = time.perf_counter()
        pairs = wave(self)
        if pairs:
            waves.append((time.perf_counter() - start, len(pairs)))
        return pairs

    event.Tournament.arena_wave = timed_wave  # type: ignore[method-assign]
    lags: list[float] = []
    latencies: list[float] = []
    moves = 0
    stop = asyncio.Event()

    async def watch_loop() -> None:
        while not stop.is_set():
            start = time.perf_counter()
            await asyncio.sleep(0.01)
            lags.append(time.perf_counter() - start - 0.01)

    async def say(user: User, text: str) -> None:
        await core.handle(Message("bench", CHANNEL, user, text, channel_name=CHANNEL, manager=user is ADMIN))

    players = [User(f"p{k:03}", f"p{k:03}") for k in range(args.players)]
    rng = random.Random(1)
    await say(ADMIN, f"tournament arena english 3+2 {max(5, round(args.seconds / 60))} minutes casual")
    for person in players:
        await say(person, "tournament join")
    await say(ADMIN, "tournament start")
    clock = asyncio.create_task(core.run_clock())
    lag_task = asyncio.create_task(watch_loop())
    ends = time.monotonic() + args.seconds
    print(f"{args.players} players in an arena of {args.seconds:g} s; playing ...", file=sys.stderr, flush=True)
    due: dict[int, float] = {}  # game id -> when its side to move moves
    while time.monotonic() < ends or any(t.tournament for t in core.state.tables.values()):
        now = time.monotonic()
        for table in [t for t in core.state.tables.values() if t.tournament and t.to_move.user is not None]:
            key = table.id * 1000 + len(table.game.moves)
            when = due.setdefault(key, now + rng.uniform(0, 2 * args.think))
            if when > now:
                continue
            game, mover = table.game, table.to_move.user
            assert mover is not None
            if len(game.moves) >= args.plies or now >= ends:
                await say(mover, "resign")
                continue
            text = game.type.write_move(game.position, rng.choice(game.legal_moves()), full=True)
            start = time.perf_counter()
            await say(mover, text)
            latencies.append(time.perf_counter() - start)
            moves += 1
        await asyncio.sleep(0.02)
    await say(ADMIN, "tournament cancel")  # (the bench's time is up before the arena's)
    stop.set()
    clock.cancel()
    await lag_task
    t = await store.tournament(next(iter(await store.tournaments_of("bench")), 0))
    games = len([p for p in t.pairings if p.ended]) if t is not None else 0
    seconds = [w for w, _ in waves]
    print(f"waves: {len(waves)}, pairs a wave: median {statistics.median([n for _, n in waves]):g} "
          f"(first {waves[0][1] if waves else 0})")
    print(f"pairing a wave: median {statistics.median(seconds) * 1000:.1f} ms, max {max(seconds) * 1000:.1f} ms")
    print(f"a move typed to answered: p50 {percentile(latencies, 50) * 1000:.1f} ms, "
          f"p95 {percentile(latencies, 95) * 1000:.1f} ms ({moves} moves, {moves / args.seconds:.0f} a second)")
    print(f"event-loop lag: p50 {percentile(lags, 50) * 1000:.1f} ms, p99 {percentile(lags, 99) * 1000:.1f} ms, "
          f"max {max(lags) * 1000:.1f} ms")
    print(f"games: {games}, boards drawn: {drawn}")
    await core.close()
    pool.close()
    await store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=120.0)
    parser.add_argument("--plies", type=int, default=30, help="a game this long is given up by the side to move")
    parser.add_argument("--think", type=float, default=1.0, help="a player's seconds a move, on average")
    asyncio.run(load(parser.parse_args()))


if __name__ == "__main__":
    main()
