"""Outside engines that speak the Hub protocol, driven from asyncio (``popen_hub``), as python-chess's
``chess.engine`` drives UCI engines: started, their options set, asked to play or analyse a board within limits,
their ``info`` lines read as they come.

Version 2 is the protocol of Scan 3 and of Hub 2 (and of ``python -m engine hub``); version 1 is the older dialect
of Scan 2.0 (``scan hub``). An engine that misbehaves is met with an ``EngineError`` that says what happened and
leaves nothing running: it hangs (no answer within the limit and a grace, then ``stop``, then it is killed), it
ends (``EngineTerminatedError``), or it answers a move that is not legal (``IllegalEngineMoveError``).
"""

from __future__ import annotations

import asyncio
import contextlib
import shlex
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from engine.board import Board
from engine.draughts.game import Game
from engine.draughts.position import Move
from engine.draughts.variants import Variant
from engine.draughts.variants import variant as variant_named
from engine.errors import MoveError
from engine.tools.hub import HUB_VARIANTS, hub_position, move_text, parse_hub_move, parse_line, quote

START_TIMEOUT = 60.0  # seconds an engine may take from start to ``ready`` (Scan loads its bitbases then)
GRACE = 2.0  # seconds past its time an engine may take to answer, and to stop after ``stop``
UNTIMED = 300.0  # seconds a search bound only by depth or nodes may take before it is stopped
HUB_VARIANT_NAMES = {ours: hub for hub, ours in HUB_VARIANTS.items()}  # the protocol's own name where it has one


class EngineError(RuntimeError):
    """The engine did not do what the protocol says it does."""


class EngineTerminatedError(EngineError):
    """The engine's process ended."""


class EngineTimeoutError(EngineError):
    """The engine did not answer in time (it was then stopped, or ended)."""


class IllegalEngineMoveError(EngineError):
    """The engine answered a move that is not legal in the position it was given."""


@dataclass(frozen=True)
class Limit:
    """How long a search may go on: any one of a time a move, a depth, a number of nodes, or a clock (the time
    left, with an increment and the moves to the next time control, as ``level`` sends them)."""

    time: float | None = None
    depth: int | None = None
    nodes: int | None = None
    remaining: float | None = None
    increment: float = 0.0
    moves_to_go: int | None = None

    def words(self) -> str:
        """The ``level`` command's arguments."""
        if self.depth is not None:
            return f"depth={self.depth}"
        if self.nodes is not None:
            return f"nodes={self.nodes}"
        if self.time is not None:
            return f"move-time={self.time:g}"
        if self.remaining is not None:
            moves = f"moves={self.moves_to_go} " if self.moves_to_go else ""
            return f"{moves}time={self.remaining:g}" + (f" inc={self.increment:g}" if self.increment else "")
        raise ValueError("a limit needs a time, a depth, a number of nodes or a clock")

    def deadline(self) -> float:
        """Seconds the engine may take to answer: its time and a grace, or ``UNTIMED`` when only depth or
        nodes bound it (every wait on an outside engine ends)."""
        if self.time is not None:
            return self.time + GRACE
        if self.remaining is not None:
            return self.remaining + self.increment + GRACE
        return UNTIMED


@dataclass(frozen=True)
class Option:
    """A parameter the engine declared (``param name=... value=... type=...``)."""

    name: str
    type: str
    default: str
    min: str | None = None
    max: str | None = None
    values: tuple[str, ...] = ()


@dataclass(frozen=True)
class Info:
    """One ``info`` line: what the engine says of its search so far (fields it did not send are None)."""

    depth: int | None = None
    score: float | None = None
    """In men, for the side to move."""
    nodes: int | None = None
    time: float | None = None
    nps: float | None = None
    """Millions of nodes a second."""
    pv: tuple[Move, ...] = ()
    """The principal variation, read as moves as far as they are legal."""
    raw: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class PlayResult:
    move: Move
    ponder: Move | None
    info: Info | None
    """The last ``info`` before the move."""


def _game(board: Board | Game) -> Game:
    return board.record if isinstance(board, Board) else board


def read_info(board: Game, args: dict[str, str]) -> Info:
    """An ``info`` line's arguments, the PV read against ``board``'s position."""
    def number(name: str, kind: type[int] | type[float]) -> float | None:
        try:
            return kind(args[name]) if name in args else None
        except ValueError:
            return None
    pv: list[Move] = []
    position = board.position
    for text in args.get("pv", "").split():
        try:
            move = parse_hub_move(position, text)
        except (MoveError, ValueError):
            break
        pv.append(move)
        position = board.type.make(position, move)
    depth, nodes = number("depth", int), number("nodes", int)
    return Info(None if depth is None else int(depth), number("score", float), None if nodes is None else int(nodes),
                number("time", float), number("nps", float), tuple(pv), dict(args))


class HubProtocol:
    """One running Hub engine (version 2). Made by ``popen_hub``; every method is a coroutine."""

    def __init__(self, process: asyncio.subprocess.Process, command: str, variant: Variant) -> None:
        self.process = process
        self.command = command
        self.variant = variant
        self.id: dict[str, str] = {}
        """What the engine says it is: name, version, author, ..."""
        self.options: dict[str, Option] = {}
        self._sent_new_game = False

    # --- lines in and out

    async def _send(self, line: str) -> None:
        if self.process.stdin is None or self.process.returncode is not None:
            raise EngineTerminatedError(f"{self.command}: the engine has ended")
        try:
            self.process.stdin.write((line + "\n").encode())
            await self.process.stdin.drain()
        except (BrokenPipeError, ConnectionResetError):
            raise EngineTerminatedError(f"{self.command}: the engine ended (exit code {await self._end()})") from None

    async def _line(self) -> str:
        assert self.process.stdout is not None
        raw = await self.process.stdout.readline()
        if not raw:
            raise EngineTerminatedError(f"{self.command}: the engine ended (exit code {await self._end()})")
        return raw.decode(errors="replace").strip()

    async def _end(self) -> int | None:
        with contextlib.suppress(asyncio.TimeoutError):
            return await asyncio.wait_for(self.process.wait(), GRACE)
        return None

    async def _until(self, command: str, timeout: float | None, on_line: Callable[[str, dict[str, str]], None]
                     | None = None) -> dict[str, str]:
        """Read lines until one is ``command`` (its arguments), handing the others to ``on_line``; an ``error``
        line raises."""
        async def read() -> dict[str, str]:
            while True:
                name, args = parse_line(await self._line())
                if name == command:
                    return args
                if name == "error":
                    raise EngineError(f"{self.command}: {args.get('message') or ' '.join(args) or 'error'}")
                if on_line is not None:
                    on_line(name, args)
        return await asyncio.wait_for(read(), timeout) if timeout is not None else await read()

    # --- start

    async def _start(self, options: dict[str, str]) -> None:
        def declared(name: str, args: dict[str, str]) -> None:
            if name == "id":
                self.id.update(args)
            elif name == "param" and "name" in args:
                self.options[args["name"]] = Option(args["name"], args.get("type", "string"), args.get("value", ""),
                                                    args.get("min"), args.get("max"),
                                                    tuple(args.get("values", "").split()))
        await self._send("hub")
        await self._until("wait", START_TIMEOUT, declared)
        wanted = {**self._variant_option(), **options}
        unknown = sorted(set(options) - set(self.options))
        if unknown:
            raise ValueError(f"{self.command} has no option {', '.join(unknown)}; it has: "
                             f"{', '.join(sorted(self.options)) or 'none'}")
        for name, value in wanted.items():
            await self._send(f"set-param name={name} value={quote(str(value))}")
        await self._send("init")
        await self._until("ready", START_TIMEOUT)

    def _variant_option(self) -> dict[str, str]:
        option = self.options.get("variant")
        if option is None:
            if self.variant.name != "international":
                raise ValueError(f"{self.command} declares no variant: it plays International draughts only")
            return {}
        names = [HUB_VARIANT_NAMES.get(self.variant.name, self.variant.name), self.variant.name]
        for name in names:
            if not option.values or name in option.values:
                return {"variant": name}
        raise ValueError(f"{self.command} does not play {self.variant.name}: its variants are "
                         f"{', '.join(option.values)}")

    # --- searches

    async def new_game(self) -> None:
        """Say that a new game begins (the engine may clear what it learnt)."""
        await self._send("new-game")

    async def play(self, board: Board | Game, limit: Limit, *, info: Callable[[Info], None] | None = None
                   ) -> PlayResult:
        """The engine's move in ``board``'s position (``go think``); ``info`` hears each ``info`` line."""
        return await self._search(_game(board), limit, "think", info)

    async def analyse(self, board: Board | Game, limit: Limit, *, info: Callable[[Info], None] | None = None
                      ) -> Info:
        """What the engine finds in ``board``'s position (``go analyze``): its last ``info``, with its move first
        in the PV when the info gave none."""
        result = await self._search(_game(board), limit, "analyze", info)
        last = result.info or Info()
        return last if last.pv else Info(last.depth, last.score, last.nodes, last.time, last.nps, (result.move,),
                                         last.raw)

    async def _search(self, game: Game, limit: Limit, mode: str, hear: Callable[[Info], None] | None) -> PlayResult:
        if game.variant != self.variant:
            raise ValueError(f"the engine plays {self.variant.name}, the board is {game.variant.name}")
        if game.result() is not None:
            raise ValueError("the game is over: there is no move to search")
        back = game.reversible_plies  # from the last capture or man move: what repetitions need
        start = game.positions[-1 - back]
        moves = " ".join(move_text(m) for m in game.moves[len(game.moves) - back:]) if back else ""
        await self._send(f"pos pos={hub_position(start)}" + (f' moves="{moves}"' if moves else ""))
        await self._send(f"level {limit.words()}")
        await self._send(f"go {mode}")
        return await self._answer(game, limit, hear, "done")

    async def _answer(self, game: Game, limit: Limit, hear: Callable[[Info], None] | None, command: str
                      ) -> PlayResult:
        last: list[Info] = []

        def on_line(name: str, args: dict[str, str]) -> None:
            if name == "info":
                last[:] = [read_info(game, args)]
                if hear is not None:
                    hear(last[0])
        try:
            done = await self._until(command, limit.deadline(), on_line)
        except asyncio.TimeoutError:
            done = await self._stopped(limit)
        text = done.get("move", "")
        try:
            move = parse_hub_move(game.position, text)
        except (MoveError, ValueError) as error:
            raise IllegalEngineMoveError(f"{self.command} answered {text!r}, which is not a legal move here "
                                         f"({error})") from None
        ponder = None
        if done.get("ponder"):
            with contextlib.suppress(MoveError, ValueError):
                ponder = parse_hub_move(game.type.make(game.position, move), done["ponder"])
        return PlayResult(move, ponder, last[0] if last else None)

    async def _stopped(self, limit: Limit) -> dict[str, str]:
        """Past its time: ``stop``, and its move if it comes within the grace; else it is ended."""
        with contextlib.suppress(EngineError):
            await self._send("stop")
            with contextlib.suppress(asyncio.TimeoutError):
                return await self._until("done", GRACE)
        await self.kill()
        raise EngineTimeoutError(f"{self.command} did not answer within {limit.deadline():g} s, nor after stop; "
                                 "it was ended")

    # --- the end

    async def quit(self) -> None:
        """Ask the engine to end, and end it if it does not."""
        with contextlib.suppress(EngineError):
            await self._send("quit")
        if await self._end() is None:
            await self.kill()

    async def kill(self) -> None:
        if self.process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                self.process.kill()
            await self.process.wait()


class Hub1Protocol(HubProtocol):
    """Scan 2.0's older dialect (``scan hub``): ``set NAME VALUE`` options, ``pos`` with a lower-case side and
    no moves, ``time`` in milliseconds or ``depth``, ``go``, answered by ``move MOVE [PONDER]``. International
    draughts only; its opening book is turned off unless ``options`` say otherwise."""

    async def _start(self, options: dict[str, str]) -> None:
        if self.variant.name != "international":
            raise ValueError("the Hub 1 dialect (Scan 2.0) plays International draughts only")
        await self._send("hub")
        await self._until("wait", START_TIMEOUT, lambda name, args: self.id.update(
            {name: args["text"]} if name in ("name", "author", "country") else {}))
        for name, value in {"book": "false", **options}.items():
            await self._send(f"set {name} {value}")
        await self._send("init")
        await self._until("ready", START_TIMEOUT)

    async def new_game(self) -> None:
        await self._send("new")

    async def _search(self, game: Game, limit: Limit, mode: str, hear: Callable[[Info], None] | None) -> PlayResult:
        if game.variant != self.variant:
            raise ValueError(f"the engine plays {self.variant.name}, the board is {game.variant.name}")
        position = hub_position(game.position)
        await self._send(f"pos {position[0].lower()}{position[1:]}")
        if limit.depth is not None:
            await self._send(f"depth {limit.depth}")
        elif limit.time is not None:
            await self._send(f"time {max(1, round(limit.time * 1000))}")
        else:
            raise ValueError("the Hub 1 dialect takes a time a move or a depth")
        await self._send("go")
        return await self._answer(game, limit, hear, "move")

    async def _until(self, command: str, timeout: float | None, on_line: Callable[[str, dict[str, str]], None]
                     | None = None) -> dict[str, str]:
        """This dialect's answers are words, not arguments: ``move 32-28 17-22`` reads as move= and ponder=."""
        async def read() -> dict[str, str]:
            while True:
                words = (await self._line()).split()
                if not words:
                    continue
                if words[0] == command:
                    return {"move": words[1] if len(words) > 1 else "", "ponder": words[2] if len(words) > 2 else ""}
                if words[0] == "error":
                    raise EngineError(f"{self.command}: {' '.join(words[1:]) or 'error'}")
                if on_line is not None:
                    on_line(words[0], _hub1_args(words))
        return await asyncio.wait_for(read(), timeout) if timeout is not None else await read()

    async def _stopped(self, limit: Limit) -> dict[str, str]:
        await self.kill()
        raise EngineTimeoutError(f"{self.command} did not answer within {limit.deadline():g} s; it was ended")


def _hub1_args(words: list[str]) -> dict[str, str]:
    """A line of the older dialect as named arguments: ``info`` is depth, mean depth, score in hundredths of a
    man, nodes, seconds, millions of nodes a second, then the PV; anything else is its text."""
    if words[0] != "info" or len(words) < 7:
        return {"text": " ".join(words[1:])}
    args = dict(zip(("depth", "mean-depth", "score", "nodes", "time", "nps"), words[1:7]))
    try:
        args["score"] = f"{int(args['score']) / 100:.2f}"
    except ValueError:
        del args["score"]
    args["pv"] = " ".join(words[7:])
    return args


async def popen_hub(command: str, variant: Variant | str, *, version: int = 2,
                    options: dict[str, str] | None = None) -> HubProtocol:
    """Start the Hub engine ``command`` (a shell-like command line; a program given as a path runs in its own
    folder, where engines such as Scan find their settings and data), set its ``options`` and wait until it is
    ready for ``variant``. A start that fails leaves nothing running."""
    kind = {1: Hub1Protocol, 2: HubProtocol}.get(version)
    if kind is None:
        raise ValueError("Hub versions are 1 (Scan 2.0) and 2")
    v = variant if isinstance(variant, Variant) else variant_named(variant)
    argv = shlex.split(command)
    if not argv:
        raise ValueError("no engine command")
    cwd = None
    if "/" in argv[0]:
        program = Path(argv[0]).absolute()
        argv[0], cwd = str(program), program.parent
    try:
        process = await asyncio.create_subprocess_exec(*argv, cwd=cwd, stdin=asyncio.subprocess.PIPE,
                                                       stdout=asyncio.subprocess.PIPE)
    except OSError as error:
        raise EngineError(f"{command}: cannot start it ({error})") from None
    engine = kind(process, command, v)
    try:
        await engine._start(options or {})
    except asyncio.TimeoutError:
        await engine.kill()
        raise EngineTimeoutError(f"{command} was not ready within {START_TIMEOUT:g} s; it was ended") from None
    except BaseException:
        await engine.kill()
        raise
    return engine
