"""Command line: ``python -m engine perft|moves|play|hub|match|bench|egtb|analyse|puzzles|train|net|tablut-client``.

Scripts rely on these commands and their output.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

from engine.draughts.fen import parse_fen, to_fen
from engine.draughts.game import Game
from engine.draughts.notation import example_move, format_move, legal_move_texts
from engine.draughts.position import Move, Position
from engine.draughts.rules import legal_moves, make, perft, start_position
from engine.draughts.variants import VARIANTS, Variant, variant
from engine.errors import FenError, MoveError
from engine.games import game_type
from engine.training.plan import Plan


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine", description="Draughts rules engine.")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("perft", help="count the leaves of the move tree, depth by depth, with the speed")
    _variant_args(p)
    p.add_argument("--depth", type=int, required=True, help="deepest depth to count")
    p.add_argument("--divide", action="store_true", help="also list the leaves under each first move")

    p = sub.add_parser("moves", help="list the legal moves of a position (FENs from stdin without --fen)")
    _variant_args(p)
    p.add_argument("--json", action="store_true", help="one JSON array of moves per line")

    p = sub.add_parser("play", help="play in the terminal: against the engine with --level, else referee both sides")
    _variant_args(p)
    p.add_argument("--level", type=int, choices=range(1, 7), help="the engine plays the other side at this level")
    p.add_argument("--second", action="store_true", help="you take the side that moves second")
    p.add_argument("--time", type=float, default=1.0, help="the engine's seconds per move; default 1")
    p.add_argument("--threads", type=_threads, default=None,
                   help="the engine's search threads (lazy SMP); default 2 on two cores or more, else 1")

    p = sub.add_parser("hub", help="speak the Hub protocol (version 2) on standard input and output")

    p = sub.add_parser("match", help="play two engines over balanced openings; print the score and Elo")
    p.add_argument("--variant", required=True, choices=sorted(VARIANTS), type=str.lower)
    p.add_argument("a", help="player A: level:N[,setting=value...], minimax:D, hub:COMMAND or hub1:COMMAND (Scan 2.0; see engine/tools/players.py)")
    p.add_argument("b", help="player B, as A")
    p.add_argument("--games", type=int, default=20, help="games (rounded up to pairs of colours); default 20")
    p.add_argument("--time", type=float, default=0.2, help="seconds per move; default 0.2")
    p.add_argument("--jobs", type=int, default=1, help="games played at once (one core each); default 1")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--pdn", default="match.pdn", help="file for the games, each written as it ends; default match.pdn")
    p.add_argument("--resume", action="store_true",
                   help="go on with the match already in the --pdn file (same players and time), playing only the games missing")

    p = sub.add_parser("train", help="fit the evaluation to self-play games, in rounds (resumable; see engine/training)")
    p.add_argument("--variant", required=True, choices=sorted(VARIANTS), type=str.lower)
    plan = Plan("")  # the defaults
    p.add_argument("--rounds", type=int, default=plan.rounds, help=f"rounds of games and fitting; default {plan.rounds}")
    p.add_argument("--games", type=int, default=plan.games, help=f"games a round; default {plan.games}")
    p.add_argument("--nodes", type=int, default=plan.nodes, help=f"nodes a move in the games; default {plan.nodes}")
    p.add_argument("--seed", type=int, default=plan.seed)
    p.add_argument("--epochs", type=int, default=plan.epochs,
                   help=f"passes of the fit over the positions; default {plan.epochs}")
    p.add_argument("--result-share", type=float, default=plan.result_share,
                   help="share of the game's result in the target, the rest the search's score; "
                        f"default {plan.result_share}")
    p.add_argument("--prior", type=float, default=plan.prior,
                   help="how strongly tempo, balance and the other counts stay near their hand-set weights; "
                        f"default {plan.prior}")
    p.add_argument("--patterns", choices=("small", "large"), default=plan.patterns,
                   help="fit the small 4x4 pattern regions only, or the large 4x6 ones too; default "
                        f"{plan.patterns}")
    p.add_argument("--start", choices=("hand", "shipped"), default=plan.start,
                   help="round 0 plays with, and fits from, the hand-set weights or the shipped learned ones; "
                        f"default {plan.start}")
    p.add_argument("--match-games", type=_games, default=plan.match_games,
                   help="games of the match after each round (its weights against those before; a round that does "
                        f"not score above half is not kept); default {plan.match_games}")
    p.add_argument("--match-time", type=float, default=plan.match_time,
                   help=f"seconds a move in that match; default {plan.match_time}")
    p.add_argument("--data", default="train-data", help="folder for the games (kept for resuming); default train-data")
    p.add_argument("--out", help="weights file to write; default the engine's own for the variant")
    p.add_argument("--jobs", type=int, default=2, help="games played at once (one core each); default 2")

    p = sub.add_parser("bench", help="search fixed positions to fixed depths; print nodes, nodes/s and depths")
    p.add_argument("--repeat", type=int, default=3, help="runs to take the median of; default 3")
    p.add_argument("--seconds", type=float, default=1.0, help="time for the depth-from-the-start figure; default 1")

    from engine.tools import analyse, egtb, net, puzzles

    egtb.add_parser(sub)
    analyse.add_parser(sub)
    puzzles.add_parser(sub)
    net.add_parser(sub)

    p = sub.add_parser("tablut-client", help="play Tablut on an Ashton Tablut competition server (TCP)")
    p.add_argument("--color", required=True, choices=("white", "black"), type=str.lower)
    p.add_argument("--host", default="localhost")
    p.add_argument("--port", type=int, help="default 5800 for white, 5801 for black")
    p.add_argument("--name", default="draughts-bot", help="the player's name sent to the server")
    p.add_argument("--ms", type=int, default=60000, help="milliseconds per move the server allows; default 60000")
    p.add_argument("--level", type=int, default=6, choices=range(1, 7), help="1 (random) to 6 (full search); default 6")

    args = parser.parse_args(argv)
    if args.command == "tablut-client":
        return _tablut_client(args)
    if args.command == "hub":
        from engine.tools.hub import HubEngine

        HubEngine().run(sys.stdin)
        return 0
    if args.command == "bench":
        from engine.tools.bench import main as bench

        return bench(args.repeat, args.seconds)
    if args.command == "match":
        return _match(args)
    if args.command == "egtb":
        return egtb.run(args)
    if args.command == "puzzles":
        return puzzles.run(args)
    if args.command == "net":
        return net.run(args)
    if args.command in ("analyse", "analyze"):
        return analyse.run(args)
    if args.command == "train":
        return _train(args)
    v = variant(args.variant)
    try:
        if args.command == "perft":
            return _perft(v, _position(v, args.fen), args.depth, args.divide)
        if args.command == "moves":
            return _moves(v, args.fen, args.json)
        return _play(v, args.fen, args.level, args.second, args.time, args.threads)
    except FenError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2


def _tablut_client(args: argparse.Namespace) -> int:
    from engine.game import Color
    from engine.tablut.client import ProtocolError, random_chooser, run, search_chooser

    colour = Color.WHITE if args.color == "white" else Color.BLACK
    try:
        choose = random_chooser() if args.level == 1 else search_chooser(args.level)
        print(run(colour, args.host, args.port, args.name, args.ms, choose))
    except (OSError, EOFError, ProtocolError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    return 0


def _match(args: argparse.Namespace) -> int:
    from engine.tools.match import kept_games, match_to_file, summarize

    v = variant(args.variant)
    pdn = Path(args.pdn)
    print(f"{args.a} vs {args.b}: {v.name}, {args.games} games, {args.time:g} s per move", flush=True)

    def progress(record, records) -> None:
        outcome = {1.0: "win", 0.5: "draw", 0.0: "loss"}[record.score_a]
        print(f"game {record.round_no}: {outcome} for A in {record.plies} plies; so far {summarize(records)}",
              flush=True)

    try:
        kept = kept_games(pdn, args.a, args.b, v, args.games, args.time) if args.resume else []
        if kept:
            print(f"resuming: {len(kept)} games already in {pdn}; so far {summarize(kept)}", flush=True)
        games = match_to_file(args.a, args.b, v, args.games, args.time, pdn, kept, args.jobs, args.seed, progress)
    except (ValueError, RuntimeError, OSError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(f"{args.a} vs {args.b}: {summarize(games)}")
    print(f"games written to {pdn}")
    return 0


def _train(args: argparse.Namespace) -> int:
    from engine.tools.match import round_judge
    from engine.training.pipeline import run

    plan = Plan(args.variant, args.rounds, args.games, args.nodes, args.seed, args.epochs, args.result_share, args.prior,
                args.patterns, args.start, args.match_games, args.match_time)
    judge = round_judge(variant(plan.variant), plan.match_games, plan.match_time, args.jobs, plan.seed)
    try:
        run(plan, Path(args.data), judge, Path(args.out) if args.out else None, args.jobs)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    return 0


def _games(text: str) -> int:
    if not text.isdigit() or int(text) < 2:
        raise argparse.ArgumentTypeError(f"a number of games, 2 or more (a pair plays an opening with both colours), not {text!r}")
    return int(text)


def _threads(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"a number of threads, 1 or more, not {text!r}")
    return int(text)


def _variant_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--variant", required=True, choices=sorted(VARIANTS), type=str.lower)
    p.add_argument("--fen", help="start from this position (PDN FEN) instead of the opening")


def _position(v: Variant, fen: str | None) -> Position:
    return parse_fen(v, fen) if fen else start_position(v)


def _perft(v: Variant, pos: Position, depth: int, divide: bool) -> int:
    perft(pos, 1)  # load the compiled code before timing
    print(f"perft {v.name} {to_fen(pos)}")
    print(f"{'depth':>5} {'leaves':>14} {'seconds':>9} {'leaves/s':>14}")
    for d in range(1, depth + 1):
        t0 = time.perf_counter()
        n = perft(pos, d)
        dt = time.perf_counter() - t0
        rate = f"{n / dt:,.0f}" if dt > 0 else "-"
        print(f"{d:>5} {n:>14,} {dt:>9.3f} {rate:>14}", flush=True)
    if divide and depth >= 1:
        print(f"divide at depth {depth}:")
        total = 0
        for m in legal_moves(pos):
            n = perft(make(pos, m), depth - 1)
            total += n
            print(f"{format_move(pos, m, full=True):>12} {n:>14,}")
        print(f"{'total':>12} {total:>14,}")
    return 0


def _moves(v: Variant, fen: str | None, as_json: bool) -> int:
    lines = [fen] if fen else (line.strip() for line in sys.stdin)
    status = 0
    for line in lines:
        if not line:
            continue
        try:
            pos = parse_fen(v, line)
        except FenError as e:
            status = 1
            print(json.dumps({"error": str(e)}) if as_json else f"error: {e}", flush=True)
            continue
        if as_json:
            print(json.dumps([_move_json(pos, m) for m in legal_moves(pos)]), flush=True)
        else:
            print(" ".join(legal_move_texts(pos)), flush=True)
    return status


def _move_json(pos: Position, m: Move) -> dict:
    v = pos.variant
    name = (lambda sq: v.coordinate(sq)) if v.coordinates else (lambda sq: sq)
    # captured pieces in the order they are jumped
    jumped = [next(s for s in v.between(a, b) if s in m.captures) for a, b in zip(m.path, m.path[1:])] \
        if m.captures else []
    return {"move": format_move(pos, m, full=True), "from": name(m.start), "to": name(m.end),
            "path": [name(s) for s in m.path], "captures": [name(s) for s in jumped]}


def _play(v: Variant, fen: str | None, level_number: int | None = None, second: bool = False,
          budget: float = 1.0, threads: int | None = None) -> int:
    game = Game(v, fen)
    interactive = sys.stdin.isatty()
    print(f"{v.name.capitalize()} draughts. Type moves such as {example_move(v)}; "
          "'moves' lists them, 'undo' takes one back, 'fen' prints the position, 'quit' ends.")
    engine_side = None
    if level_number is not None:
        from engine.search import Searcher, spare_threads
        from engine.search.levels import choose_move, level

        lvl = level(level_number)
        engine_side = v.first if second else v.first.opponent
        print("Getting the engine ready (the first run on a machine compiles it: about 15 s)...", flush=True)
        searcher = Searcher(game_type(v.name), threads=threads or spare_threads())
        searcher.warm_up()
        rng = random.Random()
        print(f"You play {engine_side.opponent}; I play {engine_side} at level {lvl.number} ({lvl.name}).")
    print(_square_key(v))
    _show(game)
    while game.result() is None:
        if game.turn == engine_side:
            before = game.position
            found = choose_move(searcher, before, lvl, budget, game.history(), rng)
            game.play(found.move)
            print(f"I play {format_move(before, found.move)}")
            _show(game)
            continue
        if interactive:
            print(f"{game.turn} to move> ", end="", flush=True)
        line = sys.stdin.readline()
        if not line:
            break
        text = line.strip()
        if not text:
            continue
        if not interactive:
            print(f"{game.turn} to move> {text}")
        cmd = text.lower()
        if cmd in ("quit", "exit"):
            break
        if cmd == "moves":
            print("legal moves: " + " ".join(legal_move_texts(game.position)))
        elif cmd == "fen":
            print(to_fen(game.position))
        elif cmd == "undo":
            try:
                game.undo()
                if game.turn == engine_side and game.moves:
                    game.undo()  # take back the engine's answer too
                _show(game)
            except MoveError as e:
                print(f"sorry: {e}")
        else:
            try:
                before = game.position
                move = game.play_text(text)
                print(f"played {format_move(before, move)}")
                _show(game)
            except MoveError as e:
                print(f"sorry: {e}")
                if e.legal:
                    print("legal moves: " + " ".join(e.legal))
    result = game.result()
    if result is not None:
        print(result)
    return 0


def _show(game: Game) -> None:
    print(game.position)


def _square_key(v: Variant) -> str:
    """The board with each dark square's name, as moves are typed."""
    width = 3
    rows = []
    for row in range(v.size):
        cells = [v.square_name(sq) if (sq := v.square_at(row, col)) else "" for col in range(v.size)]
        rows.append(" ".join(c.rjust(width) for c in cells))
    return "squares:\n" + "\n".join(rows)
