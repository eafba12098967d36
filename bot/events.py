"""What happens to a game, told as typed events: it started, a side moved, an offer was made or answered, moves
were taken back, it ended. The core tells them (``bot.core.state.State.tell``) as it changes a game, numbered by
the game's version (1, 2, ... for each game: ``LiveGame.told`` is the number its copy has seen), and the web
pages and the web tier follow them, as lila's rounds tell their sockets; nothing there reads a chat reply back.

An event says only what changed (a move, not the game): ``after`` turns a copy of the game into the next one. A
follower that finds a gap in the versions asks for the game's state (a ``Started`` carries it whole). Events
travel between processes as JSON (``to_json``, ``event_from_json``), their words (``said``) in every language.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, ClassVar

from bot.clocks import Clocks
from bot.ending import Ending
from bot.tables import LiveGame
from bot.translation import text_from_json, text_json
from engine import Color

_COLOURS = {str(c): c for c in Color}


@dataclass(frozen=True)
class Event:
    """Something that happened to game ``game``, its ``version``-th event, with what the chat said of it."""

    game: int
    version: int
    said: str
    """The chat's words on it (a ``Text``: each reader's language), which the game's page shows."""
    at: float
    """When it happened (Unix time), where the game is played: pages time their updates from it."""

    kind: ClassVar[str] = ""

    def after(self, live: LiveGame) -> LiveGame:
        """The game as it is after this event, from ``live``, the copy as it was just before it (version
        ``version - 1``)."""
        return dataclasses.replace(live, told=self.version)

    def to_json(self) -> dict:
        data: dict[str, Any] = {"type": self.kind, "game": self.game, "v": self.version, "at": round(self.at, 3)}
        if not self.said_again:
            data["said"] = text_json(self.said)
        for field in dataclasses.fields(self):
            value = getattr(self, field.name)
            if field.name not in ("game", "version", "said", "at") and not (value is None and field.default is None):
                data[field.name] = _json(value)  # (a field that is None by default, and is, goes without saying)
        return data

    said_again: ClassVar[bool] = False
    """Whether its words are made again from the game where it is read (``GameView.move_said``), not carried."""


def _json(value: object) -> object:
    if isinstance(value, float):
        return round(value, 3)  # (times, in seconds: to the millisecond)
    if isinstance(value, Color):
        return str(value)
    if isinstance(value, (LiveGame, Ending, Clocks)):
        return value.to_json()
    return value


@dataclass(frozen=True)
class Started(Event):
    """The game whole, as it is now: told when it starts, when it is brought back (a restart, another process's
    move), and to a follower that asks for it after a gap."""

    live: LiveGame

    kind: ClassVar[str] = "started"

    def after(self, live: LiveGame | None = None) -> LiveGame:  # type: ignore[override]
        return self.live


@dataclass(frozen=True)
class Moved(Event):
    """A side played a move."""

    move: str
    """The move, as a full path (``GameType.write_move(..., full=True)``)."""
    mover: Color
    seconds: float
    """The time the side took for it."""
    evaluation: int | None
    """The bot's last evaluation after it, for White (``LiveGame.evaluation``)."""
    late: bool
    """A bot's move that the database could not take at first (the chat says it is saved at last)."""
    clocks: Clocks | None = None
    """A timed game's clocks just after it."""

    kind: ClassVar[str] = "moved"
    said_again: ClassVar[bool] = True

    def after(self, live: LiveGame) -> LiveGame:
        game = live.game.copy()
        game.play_text(self.move)
        return dataclasses.replace(live, game=game, draw_offer=None, takeback_offer=None, evaluation=self.evaluation,
                                   clocks=self.clocks, told=self.version)


@dataclass(frozen=True)
class Offered(Event):
    """A player offered a draw or asked to take back their last move (``what``: "draw" or "takeback")."""

    what: str
    by: Color

    kind: ClassVar[str] = "offered"

    def after(self, live: LiveGame) -> LiveGame:
        if self.what == "draw":
            return dataclasses.replace(live, draw_offer=self.by, told=self.version)
        return dataclasses.replace(live, takeback_offer=self.by, told=self.version)


@dataclass(frozen=True)
class Answered(Event):
    """What waited for an answer was declined or withdrawn (``by``: the player who did); an accepted offer is
    followed by what it does (``TakenBack``, ``Ended``)."""

    what: str
    by: Color

    kind: ClassVar[str] = "answered"

    def after(self, live: LiveGame) -> LiveGame:
        return dataclasses.replace(live, draw_offer=None, takeback_offer=None, told=self.version)


@dataclass(frozen=True)
class TakenBack(Event):
    """The last ``plies`` moves were taken back."""

    plies: int
    takebacks_left: int | None
    clocks: Clocks | None = None
    """A timed game's clocks as they were after the move now last, started again."""

    kind: ClassVar[str] = "taken_back"

    def after(self, live: LiveGame) -> LiveGame:
        game = live.game.copy()
        for _ in range(self.plies):
            game.undo()
        return dataclasses.replace(live, game=game, draw_offer=None, takeback_offer=None, evaluation=None,
                                   takebacks_left=self.takebacks_left, clocks=self.clocks, told=self.version)


@dataclass(frozen=True)
class Ended(Event):
    """The game ended: how (``ending``), and its record as the chat gave it (``pdn``)."""

    ending: Ending
    pdn: str

    kind: ClassVar[str] = "ended"


EVENTS: dict[str, type[Event]] = {kind.kind: kind for kind in (Started, Moved, Offered, Answered, TakenBack, Ended)}


def applied(event: Event, before: LiveGame | None) -> tuple[Event, LiveGame | None]:
    """An event read from JSON, applied to the game as it was just before it (``before``; None if not known): the
    event with its words (a move's, which it does not carry, made again from the game after it) and the game after
    it (None once it has ended, or when ``before`` is not known and the event does not carry the game whole)."""
    if isinstance(event, Ended):
        return event, None
    if isinstance(event, Started):
        return event, event.live
    if before is None:
        return event, None
    after = event.after(before)
    if isinstance(event, Moved) and not event.said:
        event = dataclasses.replace(event, said=after.move_said(event.late))
    return event, after


def event_from_json(data: dict, known: LiveGame | None = None) -> Event:
    """The event ``Event.to_json`` wrote (``known``: the game as last seen, which saves replaying a ``Started``'s
    moves; a move's words are made when it is ``applied``). ``ValueError`` for one that does not read."""
    try:
        kind = EVENTS[data["type"]]
        common: dict[str, Any] = {"game": int(data["game"]), "version": int(data["v"]),
                                  "said": text_from_json(data.get("said", "")), "at": float(data["at"])}
        if kind is Started:
            return Started(**common, live=LiveGame.from_json(data["live"], known.game if known else None))
        if kind is Moved:  # (its words are made again where it is applied: ``applied``)
            return Moved(**common, move=str(data["move"]), mover=_COLOURS[data["mover"]],
                         seconds=float(data["seconds"]), evaluation=data["evaluation"], late=bool(data["late"]),
                         clocks=_clocks(data.get("clocks")))
        if kind is Offered:
            return Offered(**common, what=str(data["what"]), by=_COLOURS[data["by"]])
        if kind is Answered:
            return Answered(**common, what=str(data["what"]), by=_COLOURS[data["by"]])
        if kind is TakenBack:
            return TakenBack(**common, plies=int(data["plies"]), takebacks_left=data["takebacks_left"],
                             clocks=_clocks(data.get("clocks")))
        return Ended(**common, ending=Ending.from_json(data["ending"]), pdn=str(data["pdn"]))
    except (KeyError, TypeError, ValueError) as error:
        raise ValueError(f"not a game's event: {error!r}") from None


def _clocks(data: list | None) -> Clocks | None:
    return Clocks.from_json(data) if data else None
