"""The bot against the clock: whether it ever loses on time, how much of its time it uses, and how strong its time
management plays against the bot at a fixed time a move.

    .venv/bin/python bench/clocks.py --control 1+1 --games 100 --jobs 2
    .venv/bin/python bench/clocks.py --control 3+2 --games 20 --jobs 2
    .venv/bin/python bench/clocks.py --control 1+1 --games 40 --jobs 2 --versus-fixed

The first two play bot matches (level ``--level`` against itself, ``--variant``) through the bot's own core, as
``watch english 6 6 1+1`` does in a channel: its search processes, its database (a SQLite file), its clocks and
its loss on time, on the real clock. Each finished game is read back from the database: how it ended, and for
each side the time it used of the time it had (its start and the increments it got). ``--jobs`` matches run at
once, each in a search process of its own.

``--versus-fixed`` plays the same bot with its clock against the bot at a fixed time a move, in this process's
workers, over balanced openings with colours swapped: the fixed side gets, a move, the average time the clock
side spent a move in this control's matches (so both use about the same time in all), or ``--fixed-time``.

Games go to ``clock-games/`` (kept out of git) as they end, one JSON line each; run the same command again after
an interruption and it goes on where it stopped. Progress is printed as games end, and the figures at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.clocks import Clocks, TimeControl, read_control, think_time  # noqa: E402
from engine import Color  # noqa: E402

OUT = ROOT / "clock-games"


def _file(args: argparse.Namespace, kind: str) -> Path:
    return OUT / f"{args.variant}-{args.control}-level{args.level}-{kind}.jsonl"


def _done(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()] if path.exists() else []


# --- bot matches through the core -------------------------------------------------------------------------------

def _sides(stored, control: TimeControl) -> dict:
    """Each side's time used and had, from a stored game's clocks after each move."""
    out = {}
    for colour in Color:
        name = colour.name.lower()
        mine = [Clocks.from_json(c) for c, move_turn in zip(stored.clocks, _turns(stored)) if move_turn is colour and c]
        had = control.start + control.increment * len(mine)
        left = mine[-1].of(colour) if mine else control.start
        out[name] = {"moves": len(mine), "had": round(had, 3), "used": round(had - left, 3),
                     "least_left": round(min([m.of(colour) for m in mine], default=control.start), 3)}
    return out


def _turns(stored) -> list[Color]:
    from engine import game_type

    game = game_type(stored.variant).new_game(stored.start_fen)
    turns = []
    for text in stored.moves:
        turns.append(game.turn)
        game.play_text(text)
    return turns


async def _matches(args: argparse.Namespace, control: TimeControl) -> None:
    from bot.config import Config
    from bot.core import Core
    from bot.pool import SearchPool
    from bot.replies import Message, User
    from bot.store import SqliteStore

    path = _file(args, "matches")
    done = _done(path)
    if len(done) >= args.games:
        return
    database = OUT / f"{path.stem}.sqlite3"
    store = SqliteStore(str(database))
    config = Config(database=str(database), workers=args.jobs, matches_per_server=args.jobs,
                    games_per_user=args.jobs, queue_limit=10 * args.jobs)
    pool = SearchPool(args.jobs)
    said: list[str] = []

    async def send(reply) -> None:  # the chat's words, kept for a match that does not start
        said.append(str(reply.text))

    core = Core(config, store, pool, send, clock=time.time)
    starter = User("bench", "bench")
    left = args.games - len(done)
    queue: asyncio.Queue[int] = asyncio.Queue()
    for n in range(len(done), args.games):
        queue.put_nowait(n)

    async def play(job: int) -> None:
        nonlocal left
        while not queue.empty():
            n = queue.get_nowait()
            channel = f"bench-{job}"
            started = time.monotonic()
            await core.handle(Message("bench", channel, starter,
                                      f"watch {args.variant} {args.level} {args.level} {control}", (),
                                      channel_name=channel))
            game = core.game_in(channel)
            if game is None:
                raise SystemExit(f"the match did not start: {said[-1] if said else ''}")
            while core.game_in(channel) is not None:
                await asyncio.sleep(0.2)
            finished = await store.finished_game(game)
            assert finished is not None and finished.ending is not None
            record = {"game": n, "id": game, "plies": len(finished.game.moves),
                      "termination": finished.ending.termination.value,
                      "winner": str(finished.ending.winner) if finished.ending.winner is not None else None,
                      "seconds": round(time.monotonic() - started, 1),
                      **_sides(finished.game, control)}
            with path.open("a") as out:
                out.write(json.dumps(record) + "\n")
            left -= 1
            print(f"game {n + 1}/{args.games}: {record['plies']} plies, {record['termination']}, "
                  f"{record['seconds']} s; {left} to go", flush=True)

    try:
        await asyncio.to_thread(pool.start)
        await core.start()
        await asyncio.gather(*(play(job) for job in range(args.jobs)))
    finally:
        await core.close()
        pool.close()
        await store.close()


def _report_matches(args: argparse.Namespace) -> None:
    games = _done(_file(args, "matches"))
    if not games:
        return
    sides = [game[c] for game in games for c in ("white", "black")]
    shares = [side["used"] / side["had"] for side in sides if side["had"]]
    per_move = [side["used"] / side["moves"] for side in sides if side["moves"]] or [0.0]
    timeouts = sum(game["termination"] == "time_out" for game in games)
    results = {key: sum(1 for g in games if (g["winner"] or "draw") == key) for key in ("White", "Black", "draw")}
    print(f"\n{args.variant}, level {args.level} against itself at {args.control}: {len(games)} games "
          f"({results['White']} won by White, {results['Black']} by Black, {results['draw']} drawn)")
    print(f"  lost on time: {timeouts}")
    print(f"  share of its time a side used: median {statistics.median(shares):.0%}, "
          f"least {min(shares):.0%}, most {max(shares):.0%}")
    print(f"  least time a side had left after a move: {min(side['least_left'] for side in sides):.2f} s")
    print(f"  seconds a move: median {statistics.median(per_move):.2f}, mean {statistics.fmean(per_move):.2f}; "
          f"plies a game: median {statistics.median(g['plies'] for g in games):.0f}")


# --- the clock against a fixed time a move -----------------------------------------------------------------------

_players: dict = {}


def _init(variant_name: str, level: int) -> None:
    from engine.draughts.variants import variant
    from engine.tools.players import Player

    v = variant(variant_name)
    _players["clock"] = Player(f"level:{level}", v, 1)
    _players["fixed"] = Player(f"level:{level}", v, 2)
    _players["variant"] = v


def _versus(n: int, opening: tuple, control_text: str, fixed: float) -> dict:
    """Game ``n``: the clock side plays the side that moves first in even games. On its clock, as the core keeps
    it: each move's time taken, the increment added; it loses if it runs out."""
    from engine.draughts.game import Game
    from engine.tools.match import MAX_PLIES

    control = read_control(control_text)
    assert control is not None
    v = _players["variant"]
    game = Game(v)
    for m in opening:
        game.play(m)
    clock_colour = v.first if n % 2 == 0 else v.first.opponent
    left, used, moves, fixed_used = control.start, 0.0, 0, 0.0
    for p in ("clock", "fixed"):
        _players[p].new_game()
    while game.result() is None and len(game.moves) < MAX_PLIES:
        started = time.monotonic()
        if game.turn is clock_colour:
            legal = game.legal_moves()
            budget = 0.02 if len(legal) == 1 else think_time(left, control.increment, moves,
                                                             any(m.captures for m in legal))
            game.play(_players["clock"].move(game, budget))
            took = time.monotonic() - started
            left -= took
            used += took
            moves += 1
            if left <= 0:
                return {"game": n, "score": 0.0, "plies": len(game.moves), "timeout": True, "clock_used": used,
                        "clock_moves": moves, "fixed_used": fixed_used}
            left += control.increment
        else:
            game.play(_players["fixed"].move(game, fixed))
            fixed_used += time.monotonic() - started
    result = game.result()
    score = 0.5 if result is None or result.winner is None else float(result.winner is clock_colour)
    return {"game": n, "score": score, "plies": len(game.moves), "timeout": False, "clock_used": round(used, 3),
            "clock_moves": moves, "fixed_used": round(fixed_used, 3)}


def _versus_fixed(args: argparse.Namespace) -> None:
    from engine.draughts.variants import variant
    from engine.tools.match import openings

    path = _file(args, "versus-fixed")
    done = _done(path)
    fixed = args.fixed_time
    if fixed is None:
        matches = _done(_file(args, "matches"))
        sides = [g[c] for g in matches for c in ("white", "black") if g[c]["moves"]]
        if not sides:
            raise SystemExit("no matches at this control to take the fixed time from: play them first, or give "
                             "--fixed-time")
        fixed = sum(s["used"] for s in sides) / sum(s["moves"] for s in sides)
    lines = openings(variant(args.variant), (args.games + 1) // 2)
    todo = [n for n in range(len(done), args.games)]
    print(f"the clock ({args.control}) against {fixed:.2f} s a move: {len(todo)} games to play", flush=True)
    with ProcessPoolExecutor(args.jobs, initializer=_init, initargs=(args.variant, args.level)) as pool:
        futures = [pool.submit(_versus, n, lines[n // 2], args.control, fixed) for n in todo]
        for k, future in enumerate(as_completed(futures), 1):
            record = future.result() | {"fixed": round(fixed, 3)}
            with path.open("a") as out:
                out.write(json.dumps(record) + "\n")
            print(f"game {record['game'] + 1}: score {record['score']} for the clock; {len(todo) - k} to go",
                  flush=True)


def _report_versus(args: argparse.Namespace) -> None:
    from engine.tools.match import Summary

    games = _done(_file(args, "versus-fixed"))
    if not games:
        return
    wins = sum(g["score"] == 1.0 for g in games)
    losses = sum(g["score"] == 0.0 for g in games)
    summary = Summary(wins, sum(g["score"] == 0.5 for g in games), losses)
    low, high = summary.elo()[1], summary.elo()[2]
    clock = sum(g["clock_used"] for g in games) / sum(g["clock_moves"] for g in games)
    fixed_moves = sum(g["plies"] for g in games) - sum(g["clock_moves"] for g in games)
    print(f"\nthe clock at {args.control} against {games[0]['fixed']:.2f} s a move, {len(games)} games: "
          f"+{wins} ={len(games) - wins - losses} -{losses} for the clock (Elo {summary.elo()[0]:+.0f}, "
          f"95% {low:+.0f} to {high:+.0f}); lost on time: {sum(g['timeout'] for g in games)}")
    print(f"  seconds a move: the clock {clock:.2f}, the fixed side "
          f"{sum(g['fixed_used'] for g in games) / max(1, fixed_moves):.2f}")


def main() -> int:
    import logging

    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--control", default="1+1")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--level", type=int, default=6)
    parser.add_argument("--variant", default="english")
    parser.add_argument("--versus-fixed", action="store_true", help="the clock against a fixed time a move")
    parser.add_argument("--fixed-time", type=float, help="the fixed side's seconds a move (default: the matches')")
    parser.add_argument("--report", action="store_true", help="only print the figures of the games played")
    args = parser.parse_args()
    control = read_control(args.control)
    if control is None or not control.timed or control.correspondence:
        raise SystemExit("--control is minutes plus an increment, such as 1+1")
    OUT.mkdir(exist_ok=True)
    if not args.report:
        if args.versus_fixed:
            _versus_fixed(args)
        else:
            asyncio.run(_matches(args, control))
    (_report_versus if args.versus_fixed else _report_matches)(args)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
