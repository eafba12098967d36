"""What every duty of the core shares: the settings, database, search pool, clock and the games and challenges
by channel, with the few ways of answering and showing a game that all of them use."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from bot.config import Config
from bot.pool import SearchPool
from bot.ratings import Rating
from bot.store import ServedPuzzle, Store
from bot.replies import Board, Buttons, Controls, Message, NO_GAME, Reply, User
from bot.core.registry import Registry
from bot.events import Event, Started
from bot.tables import Challenge, Kind, LiveGame, Table
from bot.tournament.event import Tournament
from bot.words import game_name, position_status
from bot.translation import Text, tr
from engine import Color, GameRecord

if TYPE_CHECKING:
    from bot.store import Daily

log = logging.getLogger(__name__)

Send = Callable[[Reply], Awaitable[None]]
Follower = Callable[[Event], None]
"""Told each event of every game (``State.tell``), in order, as it happens; it must not block."""
DEFAULT_VARIANT = "english"
MOVED_ELSEWHERE = tr("That was not done: the game had changed meanwhile (another bot process moved in it or ended "
                     "it). `board` shows it as it is now.")


class Refusal(Exception):
    """A command that cannot be done now; the message tells the person why."""


@dataclass
class Running:
    """An analysis under way."""

    game: int
    owner: str
    """Who asked first (one analysis at a time each)."""
    guild: str
    total: int
    """Positions to search."""
    done: int = 0
    asked: list[Message] = field(default_factory=list)
    """The chat messages that asked, one a channel, each answered in its channel at the end."""
    task: asyncio.Task | None = None


@dataclass
class Solving:
    """A puzzle on in a channel: as stored, and its line played so far."""

    served: ServedPuzzle
    record: GameRecord
    strength: Rating
    """The puzzle's rating when it was posted."""
    movers: dict[str, User] = field(default_factory=dict)
    """Who played the solver's moves so far, by user id."""
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    @property
    def solver(self) -> Color:
        return self.record.start.turn


class Tells(Protocol):
    """Telling the games' followers what happened to a game (``State.tell``)."""

    def tell(self, table: Table, kind: type[Event], said: str, **fields: Any) -> None: ...


class Answers(Tells, Protocol):
    """The ways a duty answers: in the chat (privately, aloud, with a question, with the board) and to the games'
    followers."""

    async def private(self, msg: Message, text: str) -> None: ...

    async def say(self, channel: str, text: str, to: Message | None = None, **more: Any) -> None: ...

    async def ask(self, channel: str, text: str, to: Message, mentions: tuple[User, ...],
                  told: bool = False) -> None: ...

    async def show(self, table: Table, text: str, to: Message | None = None, before: Any = None, move: Any = None,
                   mentions: tuple[User, ...] = (), told: bool = False) -> None: ...


class Keeps(Protocol):
    """The settings, the database and the clock."""

    config: Config
    store: Store
    clock: Callable[[], float]


class Plays(Answers, Keeps, Protocol):
    """What playing the games on takes: the ways of answering, the settings, database and clock, the games on and
    the search processes."""

    tables: Registry
    pool: SearchPool


class State:
    """The core's shared state. Each duty module declares, as a ``Protocol`` (its ``Needs``), the part of it that
    its functions use, made of ``Tells``, ``Answers``, ``Keeps`` and ``Plays`` and the dicts it keeps; the type check holds it
    to that, and ``State`` is what every one of them is handed."""

    def __init__(self, config: Config, store: Store, pool: SearchPool, send: Send,
                 clock: Callable[[], float] = time.time):
        self.config = config
        self.store = store
        self.pool = pool
        self.send = send
        self.followers: list[Follower] = []
        self.clock = clock
        self.tables = Registry()  # the games on, by channel (and by id): opened and closed only through it
        self.challenges: dict[str, Challenge] = {}  # by channel
        self.opening: set[str] = set()  # channels whose new game is being written to the database
        self.analyses: dict[int, Running] = {}  # by game: the analyses under way
        self.analysis_asks = asyncio.Lock()  # taken while an ask for an analysis is checked and joined or started
        self.analyses_shown: dict[tuple[str, int], float] = {}  # by channel and game: when its analysis was posted
        self.puzzles: dict[str, Solving] = {}  # by channel: the puzzles on
        self.dailies: dict[str, Daily] = {}  # by server: the daily puzzles of the servers this process serves
        self.languages: dict[str, str] = {}  # by server: the language its administrators chose (bot.core.languages)
        self.tournaments: dict[int, Tournament] = {}  # by id: those scheduled or running on this process's servers

    def expired(self, challenge: Challenge) -> bool:
        return self.clock() - challenge.created > self.config.challenge_expiry

    def table(self, msg: Message) -> Table:
        """The game in the message's channel; refused if there is none."""
        table = self.tables.get(msg.channel)
        if table is None:
            raise Refusal(tr("No game is on here. `new` starts one."))
        return table

    def view(self, table: Table) -> LiveGame:
        """``table``'s game as a front end that shows it whole sees it: a copy (``LiveGame.of``)."""
        return LiveGame.of(table, self.config.takebacks)

    def tell(self, table: Table, kind: type[Event], said: str, **fields: Any) -> None:
        """Tell the followers what just happened to ``table``'s game: an event of ``kind`` (with ``fields``; a
        ``Started`` is given the game as it is now), with the chat's words on it, as the game's next version."""
        table.told += 1
        if kind is Started:
            fields["live"] = self.view(table)
        event = kind(table.id, table.told, said, time.time(), **fields)
        for follower in self.followers:
            try:
                follower(event)
            except Exception:  # a follower's fault is not the game's: the others are told, and play goes on
                log.exception("a follower of the games failed on %r", event)

    async def private(self, msg: Message, text: str) -> None:
        await self.send(Reply(msg.channel, text, private=True, to=msg))

    async def say(self, channel: str, text: str, to: Message | None = None, **more: Any) -> None:
        await self.send(Reply(channel, text, to=to, **more))

    async def ask(self, channel: str, text: str, to: Message, mentions: tuple[User, ...], told: bool = False) -> None:
        """Say something that waits for an `accept` or `decline`, with the buttons for them (``told``: as
        ``show``)."""
        table = self.tables.get(channel)
        await self.say(channel, text, to=to, mentions=mentions, told=told,
                       controls=Controls(Buttons.ANSWER, table.id if table is not None else NO_GAME))

    async def show(self, table: Table, text: str, to: Message | None = None, before: Any = None, move: Any = None,
                   mentions: tuple[User, ...] = (), told: bool = False) -> None:
        """Say ``text`` with the board (after ``move`` from ``before``, else after the last move) and its controls
        (``told``: the game's followers had the words with an event)."""
        await self.say(table.channel, text, to=to, board=board(table, before, move, self.clock()),
                       controls=controls(table), mentions=mentions, told=told)


def player(table: Table, msg: Message) -> Color:
    """The colour the message's author plays; refused if they are not playing."""
    colour = table.colour_of(msg.user)
    if colour is None:
        raise Refusal(tr("You are not playing in this game."))
    return colour


def written(table: Table, ply: int, text: str) -> bool:
    """Whether the table's game (just reloaded) has move ``text`` (full path) as its last move, at ``ply``: a write
    reported failed that the database had made."""
    game = table.game
    return len(game.moves) == ply + 1 and game.type.write_move(game.positions[ply], game.moves[ply], full=True) == text


def board(table: Table, before=None, move=None, now: float = 0.0) -> Board:
    """The table's position to show, with ``move`` (by default the last one) marked, and its clocks at ``now``."""
    game = table.game
    if move is None and game.moves:
        move, before = game.moves[-1], game.positions[-2]
    number = len(game.moves) // 2 + 1
    status = position_status(game.type, game.position)
    caption = tr("{game} · move {number} · {status}", game=game_name(game.type.name), number=number, status=status)
    clocks, runs_out = None, None
    if table.clocks is not None:
        clocks = tuple(table.clocks.left(colour, game.turn, now) for colour in Color)
        runs_out = table.clocks.deadline(game.turn) if game.result() is None else None
    return Board(table.id, game.type.name, game.position, move, before, table.flipped, caption, status,
                 clocks, runs_out)  # type: ignore[arg-type]


def controls(table: Table) -> Controls | None:
    """The controls under the table's latest board: none in a bot match; the move menu for a person to move."""
    if table.kind is Kind.MATCH:
        return None
    game = table.game
    moves = () if table.to_move.is_bot or game.result() else tuple(game.type.legal_texts(game.position))
    return Controls(Buttons.GAME, table.id, len(game.moves), moves)


def capital(text: str) -> str:
    """``text`` with a capital first letter (a marked text is left as it is: its messages are written so)."""
    return text if isinstance(text, Text) else text[:1].upper() + text[1:]
