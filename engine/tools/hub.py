"""The Hub protocol, version 2 (as Scan speaks it): our engine as a Hub engine, and a client for other engines.

Lines are ``command arg=value arg="quoted value" flag``. A position is the
side to move (``W`` or ``B``) then one character per square in PDN order:
``w``/``b`` men, ``W``/``B`` kings, ``e`` empty. Moves use square numbers on
every board: ``32-28``, and captures ``from x to x captured x captured ...``
(``28x19x23``), the captured squares in any order.

``python -m engine hub`` runs ``HubEngine`` on standard input and output. The
other side, driving any Hub engine from Python (Scan 2.0's older dialect too),
is ``engine.outside``.
"""

from __future__ import annotations

import os
import shlex
import sys
import threading
from typing import IO

from engine.draughts.fen import to_fen
from engine.draughts.game import Game
from engine.draughts.position import Move, Position
from engine.draughts.rules import legal_moves
from engine.draughts.variants import VARIANTS, Variant, variant
from engine.errors import IllegalMoveError
from engine.game import Color
from engine.games import game_type
from engine.search import Limits, Searcher, SearchResult, allocate
from engine.search.levels import choose_move, level

NAME = "Dambot"
VERSION = "0.1"
# The protocol's own variant names (Scan 3's): "normal" is International draughts. Ours are accepted too.
HUB_VARIANTS = {"normal": "international"}
MAX_THREADS = os.cpu_count() or 1  # search threads a GUI may ask for (lazy SMP)
_PIECES = {"w": (Color.WHITE, False), "W": (Color.WHITE, True), "b": (Color.BLACK, False), "B": (Color.BLACK, True)}


def parse_line(line: str) -> tuple[str, dict[str, str]]:
    """(command, arguments); a flag without a value maps to ''."""
    try:
        words = shlex.split(line)
    except ValueError:
        words = line.split()
    if not words:
        return "", {}
    args = {}
    for word in words[1:]:
        name, _, value = word.partition("=")
        args[name] = value
    return words[0], args


def hub_position(position: Position) -> str:
    """The Hub position string."""
    chars = ["W" if position.turn == Color.WHITE else "B"]
    for sq in range(1, position.variant.squares + 1):
        chars.append(position.piece_at(sq) or "e")
    return "".join(chars)


def parse_position(v: Variant, text: str) -> Position:
    """A position from its Hub string; ValueError if it does not fit the variant's board."""
    if len(text) != v.squares + 1 or text[0] not in "WB":
        raise ValueError(f"a {v.name} position is W or B and then {v.squares} squares, not {text!r}")
    white = black = kings = 0
    for sq, ch in enumerate(text[1:], start=1):
        if ch == "e":
            continue
        if ch not in _PIECES:
            raise ValueError(f"unknown piece {ch!r} on square {sq}")
        color, king = _PIECES[ch]
        bit = v.bit(sq)
        if color == Color.WHITE:
            white |= bit
        else:
            black |= bit
        if king:
            kings |= bit
    return Position(v, white, black, kings, Color.WHITE if text[0] == "W" else Color.BLACK)


def move_text(move: Move) -> str:
    """A move in Hub notation."""
    if not move.is_capture:
        return f"{move.start}-{move.end}"
    return "x".join(str(sq) for sq in (move.start, move.end, *move.captures))


def parse_hub_move(position: Position, text: str) -> Move:
    """The legal move that a Hub move string names; IllegalMoveError if none."""
    sep = "x" if "x" in text else "-"
    try:
        squares = [int(s) for s in text.split(sep)]
    except ValueError:
        squares = []
    for move in legal_moves(position):
        if len(squares) >= 2 and (move.start, move.end) == (squares[0], squares[1]) \
                and sorted(move.captures) == sorted(squares[2:]):
            return move
    raise IllegalMoveError(f"{text} is not a legal move here", text, to_fen(position))


class HubEngine:
    """Answers Hub commands; a search runs in a thread so that ``stop`` and ``ping`` are heard."""

    def __init__(self, out: IO[str] = sys.stdout):
        self.out = out
        self.params = {"variant": "normal", "tt-size": "64", "level": "6", "threads": "1"}
        self.searcher: Searcher[Position, Move] | None = None
        self.game: Game | None = None
        self.limits = Limits(time=1.0)
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    def send(self, line: str) -> None:
        with self._lock:
            self.out.write(line + "\n")
            self.out.flush()

    def run(self, lines: IO[str]) -> None:
        """Answer commands until ``quit`` or the end of input (which stops any search at once)."""
        for line in lines:
            if not self.handle(line):
                break
        self._stop_search()

    def handle(self, line: str) -> bool:
        """Act on one line; False on ``quit``."""
        command, args = parse_line(line)
        try:
            if command == "hub":
                self.send(f"id name={NAME} version={VERSION} author=\"the dambot team\"")
                names = " ".join([*HUB_VARIANTS, *VARIANTS])
                self.send(f"param name=variant value={self.params['variant']} type=enum values=\"{names}\"")
                self.send(f"param name=tt-size value={self.params['tt-size']} type=int min=1 max=4096")
                self.send(f"param name=level value={self.params['level']} type=int min=1 max=6")
                self.send(f"param name=threads value={self.params['threads']} type=int min=1 max={MAX_THREADS}")
                self.send("wait")
            elif command == "set-param":
                name, value = args.get("name"), args.get("value", "")
                if name == "variant":
                    _variant(value)  # refuse an unknown variant now, not at init
                if name in self.params:
                    self.params[name] = value
            elif command == "init":
                self._init()
                self.send("ready")
            elif command == "new-game":
                self._finish_search()
                if self.searcher:
                    self.searcher.clear()
            elif command == "pos":
                self._finish_search()
                self.game = self._game(args.get("pos", ""), args.get("moves", ""))
            elif command == "level":
                self.limits = _limits(args, self.limits)
            elif command == "go":
                self._finish_search()
                v = _variant(self.params["variant"])
                if self.searcher is None or self.searcher.game.name != v.name:
                    self._init()  # a GUI that skipped init: set up with the parameters as they are
                    if self.game is not None and self.game.variant != v:
                        self.game = None
                if self.game is None:
                    raise ValueError("no position: send pos pos=... first")
                self._thread = threading.Thread(target=self._think, daemon=True)
                self._thread.start()
            elif command == "stop":
                self._stop_search()
            elif command == "ping":
                self.send("pong")
            elif command == "quit":
                self._stop_search()
                return False
        except (ValueError, IllegalMoveError) as e:
            self.send(f"error message={quote(str(e))}")
        return True

    def _init(self) -> None:
        """Set up the search and run it once, so that the first ``go`` after a cold start has the compiled code
        loaded and spends its budget searching."""
        v = _variant(self.params["variant"])
        threads = int(self.params["threads"])
        if not 1 <= threads <= MAX_THREADS:
            raise ValueError(f"threads takes 1 to {MAX_THREADS}")
        self.searcher = Searcher(game_type(v.name), tt_mb=float(self.params["tt-size"]), threads=threads)
        self.searcher.warm_up()

    def _game(self, pos: str, moves: str) -> Game:
        v = _variant(self.params["variant"])
        game = Game(v, to_fen(parse_position(v, pos)))
        for text in moves.split():
            game.play(parse_hub_move(game.position, text))
        return game

    def _think(self) -> None:
        assert self.searcher is not None and self.game is not None
        game = self.game
        try:
            lvl = level(int(self.params["level"]))
            if lvl.number == 6:
                result = self.searcher.search(game.position, self.limits, game.history(), on_iteration=self._info)
            else:
                result = choose_move(self.searcher, game.position, lvl, self.limits.time or 1.0, game.history())
        except ValueError as e:
            self.send(f"error message={quote(str(e))}")
            return
        self._info(result)
        ponder = f" ponder={move_text(result.pv[1])}" if len(result.pv) > 1 else ""
        self.send(f"done move={move_text(result.move)}{ponder}")

    def _info(self, r: SearchResult[Move]) -> None:
        pv = " ".join(move_text(m) for m in r.pv)
        self.send(f"info depth={r.depth} score={r.score / 100:.2f} nodes={r.nodes} time={r.time:.3f} "
                  f"nps={r.nps / 1e6:.2f} pv=\"{pv}\"")

    def _finish_search(self) -> None:
        """Wait for a running search to end by itself."""
        if self._thread is not None:
            self._thread.join()
            self._thread = None

    def _stop_search(self) -> None:
        """End a running search now; it still answers ``done``."""
        while self._thread is not None and self._thread.is_alive():
            if self.searcher:
                self.searcher.stop()  # again until it is heard: the search clears the flag when it starts
            self._thread.join(0.01)
        self._thread = None


def _variant(name: str) -> Variant:
    """A variant by its Hub name (``normal``) or ours; ValueError naming the choices."""
    try:
        return variant(HUB_VARIANTS.get(name, name))
    except ValueError:
        raise ValueError(f"unknown variant {name!r}: choose one of {', '.join([*HUB_VARIANTS, *VARIANTS])}") \
            from None


def _limits(args: dict[str, str], current: Limits) -> Limits:
    if "depth" in args:
        return Limits(depth=int(args["depth"]))
    if "nodes" in args:
        return Limits(nodes=int(args["nodes"]))
    if "move-time" in args:
        return Limits(time=float(args["move-time"]))
    if "time" in args:
        moves = int(args["moves"]) if args.get("moves") else None
        return Limits(time=allocate(float(args["time"]), moves, float(args.get("inc") or 0)))
    if "infinite" in args:
        return Limits(time=3600.0)
    return current


def quote(text: str) -> str:
    """A value quoted as the protocol quotes one (no double quote inside)."""
    return '"' + text.replace('"', "'") + '"'
