"""The values the core works with: people, seats, messages, replies, and a game at a table in a channel.

Players are ids and names, never a chat service's objects, so every front end
can use the core.
"""

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass, field, fields, replace
from enum import Enum
from typing import TYPE_CHECKING, Any

from bot.translation import ENGLISH, Text, plural, render, tr
from bot.user_text import inert
from engine import Color, GameRecord, GameType, Result, Words, game_type
from engine.analysis import Analysis

if TYPE_CHECKING:
    from bot.ending import Ending


class Kind(Enum):
    """Who sits at a table. The values are the database's words."""

    BOT = "bot"
    """A person against the bot."""
    PEOPLE = "people"
    """Two people."""
    MATCH = "match"
    """The bot against itself, for people to watch."""


class ColourChoice(Enum):
    """The colour a player asks for."""

    WHITE = "white"
    BLACK = "black"
    RANDOM = "random"

    def colour(self) -> Color:
        """The colour it gives: a random one for RANDOM."""
        if self is ColourChoice.RANDOM:
            return random.choice(list(Color))
        return Color.WHITE if self is ColourChoice.WHITE else Color.BLACK


class Buttons(Enum):
    """Which controls a front end puts under a reply."""

    ANSWER = "answer"
    """Accept and Decline (a challenge, a draw offer, a takeback request)."""
    GAME = "game"
    """Resign, Offer draw, Takeback, and a menu of ``Controls.moves`` when there are any."""
    ANALYSE = "analyse"
    """Analyse, under the message that ends a game: anyone may press it (it asks `analyse GAME`)."""
    PUZZLE = "puzzle"
    """Solution, and a menu of ``Controls.moves`` (the solver's legal moves), under a puzzle's latest board; anyone
    in the channel may use them. ``Controls.game`` is then the served puzzle's number (``Core.may_answer``)."""


@dataclass(frozen=True)
class Controls:
    """The controls under a reply, and what they act on; the core decides them when it sends the reply."""

    buttons: Buttons
    game: int
    """The game they act on; 0 under a challenge, which has no game yet."""
    ply: int = 0
    """Moves played when the board was shown: a move chosen from an older board is refused."""
    moves: tuple[str, ...] = ()
    """The legal move texts of the person to move; empty while the bot is to move and once the game is over."""


NO_GAME = 0  # the game of controls under a challenge


@dataclass(frozen=True)
class User:
    """A person, as the front end knows them."""

    id: str
    name: str


@dataclass(frozen=True)
class Message:
    """Something a person typed in a channel."""

    guild: str
    """The server (or the terminal)."""
    channel: str
    """A channel or thread id: one game at a time per channel."""
    user: User
    text: str
    mentions: tuple[User, ...] = ()
    """People the message names (@someone), resolved by the front end, in order."""
    channel_name: str = ""
    origin: object = None
    """The front end's own handle on the message (an interaction, say); handed back in replies."""
    manager: bool = False
    """Whether the person may change the server's settings (Discord's Manage Server; the terminal's one person)."""


def colour_name(colour: Color) -> Text:
    """"White" or "Black", in the reader's language."""
    return tr("White") if colour is Color.WHITE else tr("Black")


LEVEL_NAMES = {1: tr("beginner"), 2: tr("novice"), 3: tr("casual"), 4: tr("club"), 5: tr("strong"), 6: tr("master")}
"""The bot's levels' names (``engine.search.levels``), in the reader's language."""

def position_status(kind: GameType[Any, Any], position: Any) -> Text:
    """The words under a board: whose turn it is, or why nobody moves, in the reader's language."""
    return engine_words(kind.status_words(position))


def engine_words(said: Words) -> Text:
    """The engine's words (why a move is refused, why a game ended, whose turn it is) to be shown in the reader's
    language: their template read from the catalogs (pybabel finds the engine's by ``phrase`` and ``counted``),
    their values as the bot shows them: squares, moves and numbers as they are, a colour by its name, a game's
    result in words, and what a person typed made inert."""
    values = {name: _engine_value(name, value) for name, value in said.values.items()}
    if said.plural is not None:
        count = values.pop("count")
        assert isinstance(count, int), "words that count have a whole number"
        return plural(said.template, said.plural, count, **values)
    return tr(said.template, **values)


def _engine_value(name: str, value: object) -> object:
    if isinstance(value, Words):
        return engine_words(value)
    if isinstance(value, Color):
        return colour_name(value)
    if isinstance(value, Result):
        reason = engine_words(value.words)
        if value.winner is None:
            return tr("Draw: {reason}", reason=reason)
        return tr("{colour} wins: {reason}", colour=colour_name(value.winner), reason=reason)
    if name == "text":  # what the person typed, repeated
        return inert(str(value))
    return value


JUDGEMENTS = {"inaccuracy": tr("inaccuracy"), "mistake": tr("mistake"), "blunder": tr("blunder")}
"""The analysis's judgements of a move, in the reader's language."""

GAME_NAMES = {"english": tr("English"), "international": tr("International"), "russian": tr("Russian"),
              "brazilian": tr("Brazilian"), "tablut": tr("Tablut")}
"""The games' names as a title starts with them, in the reader's language."""


def game_name(name: str) -> str:
    return GAME_NAMES.get(name, name.capitalize())


GAME_TITLES = {"english": tr("English draughts / checkers (8x8)"), "international": tr("International (10x10)"),
               "brazilian": tr("Brazilian (8x8)"), "russian": tr("Russian (8x8)"),
               "tablut": tr("Tablut (9x9, Ashton rules)")}
"""The games' titles (``GameType.title``), in the reader's language."""


def game_title(name: str) -> str:
    return GAME_TITLES.get(name) or game_type(name).title


@dataclass(frozen=True)
class Board:
    """A position to show: the front end draws it as an image or as text."""

    game_id: int
    """The game's id (``NO_GAME`` for a puzzle's board)."""
    game: str
    """The game's name (``engine.game_type``): english, ..., tablut."""
    position: Any
    """A position of that game."""
    last_move: Any = None
    before: Any = None
    """The position before ``last_move``, to show what it captured."""
    flipped: bool = False
    """Drawn from Black's side."""
    caption: str = ""
    status: str = ""
    """Whose turn it is, under the board ("": the game's own words, in English)."""


@dataclass(frozen=True)
class Reply:
    """What the bot says. ``private`` replies are for ``to.user`` alone (where the chat service allows it)."""

    channel: str
    text: str
    private: bool = False
    board: Board | None = None
    to: Message | None = None
    """The message answered, if any."""
    mentions: tuple[User, ...] = ()
    """People to notify (a reminder, a challenge)."""
    pdn: str | None = None
    """The game's PDN (with the final message, and for `pdn`)."""
    replay: GameRecord[Any, Any] | None = None
    """The finished game, with the final message: a front end can show it as an animation."""
    controls: Controls | None = None
    """Buttons (and a move menu) to put under the reply, if the front end has them."""
    game: int | None = None
    """The game whose record the reply carries (``pdn``, ``replay``, ``analysis``): it names the files."""
    analysis: Analysis | None = None
    """A game's analysis: a front end shows its graph (``renders.render_graph``) with the text."""
    ending: Ending | None = None
    """How the game ended, with the message that ends it (``replay`` carries its record)."""
    update: str | None = None
    """A key this reply shares with earlier ones it brings up to date (an analysis's progress, then its result):
    a front end that can edit its messages edits the last one with this key (in this channel) instead of posting."""

    def in_language(self, language: str) -> Reply:
        """This reply as a front end shows it to readers of ``language``: its words and its board's captions."""
        if language == ENGLISH:
            return self
        board = self.board
        if board is not None:
            board = replace(board, caption=render(board.caption, language), status=render(board.status, language))
        return replace(self, text=render(self.text, language), board=board)


@dataclass(frozen=True)
class Seat:
    """Who plays one side: a person, or the bot at a level."""

    user: User | None = None
    level: int | None = None

    @property
    def is_bot(self) -> bool:
        return self.user is None

    @property
    def name(self) -> str:
        if self.user is not None:
            return self.user.name
        assert self.level is not None
        return tr("Bot level {level}", level=self.level)  # (as lidraughts names its bots; a colour follows in brackets)

    def to_json(self) -> dict:
        return {"user": [self.user.id, self.user.name]} if self.user else {"level": self.level}

    @classmethod
    def from_json(cls, data: dict) -> Seat:
        if "user" in data:
            return cls(user=User(*data["user"]))
        return cls(level=int(data["level"]))


class Seated:
    """What a game at a table and a copy of it shown on a page answer alike: who is to move, who plays which
    colour, the title."""

    game: GameRecord[Any, Any]
    seats: dict[Color, Seat]

    @property
    def to_move(self) -> Seat:
        return self.seats[self.game.turn]

    def colour_of(self, user: User) -> Color | None:
        for colour, seat in self.seats.items():
            if seat.user is not None and seat.user.id == user.id:
                return colour
        return None

    def players(self) -> list[User]:
        return [s.user for s in self.seats.values() if s.user is not None]

    def title(self) -> Text:
        first = self.game.type.first
        return tr("{game}: {first} ({first_colour}) vs {second} ({second_colour})", game=game_name(self.game.type.name),
                  first=self.seats[first].name, first_colour=colour_name(first),
                  second=self.seats[first.opponent].name, second_colour=colour_name(first.opponent))


@dataclass
class Table(Seated):
    """An active game in a channel, with what the chat around it needs."""

    id: int
    guild: str
    channel: str
    channel_name: str
    kind: Kind
    game: GameRecord[Any, Any]
    seats: dict[Color, Seat]
    budget: float
    """The bot's seconds per move."""
    rated: bool
    delay: float = 0.0
    """Seconds between moves in a bot match."""
    starter: User | None = None
    takebacks_used: int = 0
    draw_offer: Color | None = None
    takeback_offer: Color | None = None
    offered: dict[tuple[str, Color], int] = field(default_factory=dict)
    """The ply of each player's last offer, by what they offered ("draw", "takeback") and their colour: an offer
    is made again only some moves later (``bot.core.play.OFFER_AGAIN``)."""
    last_activity: float = 0.0
    reminded: bool = False
    evaluation: int | None = None
    """The bot's last evaluation, for White (``bot.evaluation.Evaluation.white``); None before its first move and
    after a takeback (it was of a later position)."""
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    task: asyncio.Task | None = None
    """The bot's move (or the match) in progress."""
    version: int = 0
    """The game's version in the database when this process last wrote or read it (every write names it)."""
    saving: bool = False
    """The bot's move is found and waits for the database to take it."""
    unsure: tuple[int, str] | None = None
    """A person's move (ply, full path) whose write failed without an answer: it may have been kept."""

    @property
    def flipped(self) -> bool:
        """Draw the board from Black's side: when the one person at the table plays Black."""
        people = [c for c, seat in self.seats.items() if not seat.is_bot]
        return people == [Color.BLACK]

    def settings(self) -> dict:
        """What the database keeps besides the moves."""
        return {"budget": self.budget, "rated": self.rated, "delay": self.delay, "channel_name": self.channel_name,
                "takebacks_used": self.takebacks_used,
                "starter": [self.starter.id, self.starter.name] if self.starter else None}


@dataclass(frozen=True, eq=False)
class LiveGame(Seated):
    """A game on as a front end that shows it whole (the web page) sees it: a copy of its table that the core
    makes and never changes, and that travels between processes as JSON."""

    id: int
    guild: str
    channel: str
    channel_name: str
    kind: Kind
    game: GameRecord[Any, Any]
    seats: dict[Color, Seat]
    budget: float
    """The bot's seconds per move."""
    starter: User | None = None
    draw_offer: Color | None = None
    takeback_offer: Color | None = None
    evaluation: int | None = None
    """The bot's last evaluation, for White (``bot.evaluation.Evaluation.white``), or None."""
    takebacks_left: int | None = None
    """The takebacks the person may still take in a game against the bot; None in other games (a takeback is asked
    of the opponent there)."""

    @classmethod
    def of(cls, table: Table, takebacks: int) -> LiveGame:
        """The copy of ``table``, where a person has ``takebacks`` takebacks a game against the bot."""
        left = max(0, takebacks - table.takebacks_used) if table.kind is Kind.BOT else None
        own: dict[str, Any] = {"game": table.game.copy(), "seats": dict(table.seats), "takebacks_left": left}
        shared = {f.name: getattr(table, f.name) for f in fields(cls) if f.name not in own}  # Table has the others
        return cls(**shared, **own)

    def to_json(self) -> dict:
        return {"id": self.id, "guild": self.guild, "channel": self.channel, "channel_name": self.channel_name,
                "kind": self.kind.value, **record_json(self.game),
                "seats": {str(c): seat.to_json() for c, seat in self.seats.items()}, "budget": self.budget,
                "starter": [self.starter.id, self.starter.name] if self.starter else None,
                "draw_offer": _colour_name(self.draw_offer), "takeback_offer": _colour_name(self.takeback_offer),
                "evaluation": self.evaluation, "takebacks_left": self.takebacks_left}

    @classmethod
    def from_json(cls, data: dict, known: GameRecord[Any, Any] | None = None) -> LiveGame:
        """The game ``to_json`` wrote; ``known``, an earlier record of it, saves playing again the moves it has.
        ``ValueError`` for data that does not read as a game."""
        try:
            return cls._read(data, known)
        except (KeyError, TypeError) as error:
            raise ValueError(f"not a game on: {error!r} is missing or wrong") from None

    @classmethod
    def _read(cls, data: dict, known: GameRecord[Any, Any] | None) -> LiveGame:
        colours = {str(c): c for c in Color}
        return cls(int(data["id"]), data["guild"], data["channel"], data["channel_name"], Kind(data["kind"]),
                   record_from_json(data, known),
                   {colours[name]: Seat.from_json(seat) for name, seat in data["seats"].items()},
                   float(data["budget"]), User(*data["starter"]) if data["starter"] else None,
                   _colour(colours, data["draw_offer"]), _colour(colours, data["takeback_offer"]),
                   data.get("evaluation"), data.get("takebacks_left"))  # (absent from a process of the version before)


def record_json(game: GameRecord[Any, Any]) -> dict:
    """A game record as JSON: the game's name, its start and its moves (full texts)."""
    return {"game": game.type.name, "start": game.type.write_position(game.start),
            "moves": [game.type.write_move(p, m, full=True) for p, m in zip(game.positions, game.moves)]}


def record_from_json(data: dict, known: GameRecord[Any, Any] | None = None) -> GameRecord[Any, Any]:
    """The record ``record_json`` wrote; ``known``, an earlier record of the game, saves playing again the moves
    it has (a copy is made: ``known`` stays as it is)."""
    moves = data["moves"]
    if known is not None and known.type.name == data["game"] and _starts(known, moves, data["start"]):
        record = known.copy()
    else:
        record = game_type(data["game"]).new_game(data["start"])
    for text in moves[len(record.moves):]:
        record.play_text(text)
    return record


def _colour(colours: dict[str, Color], name: str | None) -> Color | None:
    return None if name is None else colours[name]


def _colour_name(colour: Color | None) -> str | None:
    return str(colour) if colour is not None else None


def _starts(known: GameRecord[Any, Any], moves: list[str], start: str) -> bool:
    """Whether ``known`` is the game that starts at ``start`` and plays ``moves``, or a beginning of it."""
    t = known.type
    return (len(known.moves) <= len(moves) and t.write_position(known.start) == start
            and all(t.write_move(p, m, full=True) == text for p, m, text in zip(known.positions, known.moves, moves)))


@dataclass
class Challenge:
    """A game offered in a channel, waiting for an answer."""

    challenger: User
    challenged: User | None
    """None: anyone may accept."""
    variant: str
    colour: ColourChoice
    """The challenger's colour."""
    rated: bool
    created: float
    origin: Message
