"""A game at a table in a channel: who sits at it (seats, the kind of game), the game as a front end may know it
(``GameView``), the table the core plays on (that view and its running parts), the copy of it a front end shows
whole (``LiveGame``), and a challenge waiting for an answer."""

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass, field, fields, replace
from enum import Enum
from typing import Any

from bot.clocks import UNTIMED, Clocks, TimeControl
from bot.evaluation import Evaluation
from bot.replies import Message, User
from bot.translation import Text, join, tr
from bot.words import colour_name, game_name
from engine import Color, GameRecord, game_type


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


def stored_seats(data: dict) -> dict[Color, Seat]:
    """The seats as the database keeps them (``seats_json``'s)."""
    return {colour: Seat.from_json(data[colour.name.lower()]) for colour in Color}


def seats_json(seats: dict[Color, Seat]) -> dict:
    """The seats as the database keeps them: ``{"white": ..., "black": ...}``."""
    return {colour.name.lower(): seats[colour].to_json() for colour in Color}


@dataclass(eq=False)
class GameView:
    """A game on, as a front end may know it, its fields declared once: the table the core plays on (``Table``)
    is one, with its running parts, and so is the copy of it a page shows whole (``LiveGame``). Both answer alike:
    who is to move, who plays which colour, the title, the chat's words on the last move."""

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
    """Who started it (a bot match's starter may stop it)."""
    draw_offer: Color | None = None
    takeback_offer: Color | None = None
    evaluation: int | None = None
    """The bot's last evaluation, for White (``bot.evaluation.Evaluation.white``); None before its first move and
    after a takeback (it was of a later position)."""
    told: int = 0
    """The events told of the game so far (``bot.events``): its version, as its pages follow it."""
    control: TimeControl = UNTIMED
    clocks: Clocks | None = None
    """A timed game's clocks (``bot.clocks``); None when it is untimed."""

    def names(self) -> dict[Color, str]:
        """The players' names, by colour."""
        return {colour: seat.name for colour, seat in self.seats.items()}

    @property
    def to_move(self) -> Seat:
        return self.seats[self.game.turn]

    def has_moved(self, colour: Color) -> bool:
        """Whether ``colour`` has made a move in the game."""
        return any(position.turn is colour for position in self.game.positions[:-1])

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

    def whose_turn(self) -> Text:
        seat = self.to_move
        if seat.is_bot:
            return (tr("{colour} ({name}) to move.", colour=colour_name(self.game.turn), name=seat.name)
                    if self.kind is Kind.MATCH else tr("My move."))
        return tr("{name}, your move ({colour}).", name=seat.name, colour=colour_name(self.game.turn))

    def move_said(self, late: bool = False) -> Text:
        """The chat's words on the last move, the game being as it is just after it: who played what (the bot
        with its evaluation; ``late``: its move could not be saved at first), and whose turn it is now. Made again
        from the game where it is read (the web tier), so that a move's event need not carry them."""
        game = self.game
        before = game.positions[-2]
        shown, seat = game.type.write_move(before, game.moves[-1]), self.seats[before.turn]
        parts: list[str] = [tr("Saved at last.")] if late else []
        if seat.is_bot and self.evaluation is not None:
            evaluation = Evaluation(self.evaluation).words()
            parts.append(tr("{name} played {move} ({evaluation}).", name=seat.name, move=shown, evaluation=evaluation)
                         if self.kind is Kind.MATCH else tr("I played {move} ({evaluation}).", move=shown,
                                                              evaluation=evaluation))
        else:
            parts.append(tr("{name} played {move}.", name=seat.name, move=shown))
        if game.result() is None:
            parts.append(self.whose_turn())
        return join(parts)


@dataclass(kw_only=True)
class Table(GameView):
    """An active game in a channel as the core plays it: its view, with what the chat around it needs and the
    parts of its running (lock, bot's move, saving)."""

    rated: bool
    delay: float = 0.0
    """Seconds between moves in a bot match."""
    takebacks_used: int = 0
    offered: dict[tuple[str, Color], int] = field(default_factory=dict)
    """The ply of each player's last offer, by what they offered ("draw", "takeback") and their colour: an offer
    is made again only some moves later (``bot.core.play.OFFER_AGAIN``)."""
    last_activity: float = 0.0
    reminded: bool = False
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    task: asyncio.Task | None = None
    """The bot's move (or the match) in progress."""
    version: int = 0
    """The game's version in the database when this process last wrote or read it (every write names it)."""
    saving: bool = False
    """The bot's move is found and waits for the database to take it."""
    unsure: tuple[int, str] | None = None
    """A person's move (ply, full path) whose write failed without an answer: it may have been kept."""
    clocks_after: list[Clocks | None] = field(default_factory=list)
    """A timed game's clocks as they were just after each move (a takeback puts them back)."""
    flag: asyncio.Task | None = None
    """Waits for the side to move's time to run out (``bot.core.flags``)."""
    tournament: int = 0
    """The tournament this game is a pairing of (0: none)."""
    berserk: frozenset[str] = frozenset()
    """The players (user ids) who went berserk in it (an arena's game): half their clock, and no increment."""

    def clocks_moved(self, now: float) -> Clocks | None:
        """The clocks after the side to move moves at ``now`` (None in an untimed game)."""
        if self.clocks is None:
            return None
        mover = self.seats[self.game.turn].user
        berserk = mover is not None and mover.id in self.berserk
        return self.clocks.moved(self.game.turn, now, replace(self.control, increment=0) if berserk else self.control)

    def out_of_time(self, now: float) -> bool:
        """Whether the side to move's time has run out at ``now``."""
        return self.clocks is not None and self.clocks.left(self.game.turn, self.game.turn, now) <= 0

    @property
    def flipped(self) -> bool:
        """Draw the board from Black's side: when the one person at the table plays Black."""
        people = [c for c, seat in self.seats.items() if not seat.is_bot]
        return people == [Color.BLACK]

    def settings(self) -> dict:
        """What the database keeps besides the moves (and their clocks)."""
        return {"budget": self.budget, "rated": self.rated, "delay": self.delay, "channel_name": self.channel_name,
                "takebacks_used": self.takebacks_used, "control": self.control.to_json(),
                "starter": [self.starter.id, self.starter.name] if self.starter else None,
                **({"tournament": self.tournament} if self.tournament else {}),
                **({"berserk": sorted(self.berserk)} if self.berserk else {}),
                **({"reminded": round(self.clocks.since, 3)} if self.reminded and self.clocks else {})}


@dataclass(eq=False)
class LiveGame(GameView):
    """A game on as a front end that shows it whole (the web page) sees it: a copy of its table that the core
    makes and nobody changes (its events make new copies), and that travels between processes as JSON."""

    takebacks_left: int | None = None
    """The takebacks the person may still take in a game against the bot; None in other games (a takeback is asked
    of the opponent there)."""

    @classmethod
    def of(cls, table: Table, takebacks: int) -> LiveGame:
        """The copy of ``table``, where a person has ``takebacks`` takebacks a game against the bot."""
        left = max(0, takebacks - table.takebacks_used) if table.kind is Kind.BOT else None
        view = {f.name: getattr(table, f.name) for f in fields(GameView)}
        return cls(**view | {"game": table.game.copy(), "seats": dict(table.seats)}, takebacks_left=left)

    def to_json(self) -> dict:
        return {"id": self.id, "guild": self.guild, "channel": self.channel, "channel_name": self.channel_name,
                "kind": self.kind.value, **record_json(self.game),
                "seats": {str(c): seat.to_json() for c, seat in self.seats.items()}, "budget": self.budget,
                "starter": [self.starter.id, self.starter.name] if self.starter else None,
                "draw_offer": _colour_name(self.draw_offer), "takeback_offer": _colour_name(self.takeback_offer),
                "evaluation": self.evaluation, "takebacks_left": self.takebacks_left, "told": self.told,
                "control": self.control.to_json(), "clocks": self.clocks.to_json() if self.clocks else None}

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
                   data.get("evaluation"), int(data.get("told", 0)), TimeControl.from_json(data.get("control")),
                   Clocks.from_json(data["clocks"]) if data.get("clocks") else None,
                   takebacks_left=data.get("takebacks_left"))
        # (evaluation, told, control and clocks are absent from a process of an earlier version)


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
    control: TimeControl = UNTIMED
