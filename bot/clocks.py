"""Time controls and the players' clocks, as lidraughts keeps them.

A ``TimeControl`` is what the players chose: minutes each plus an increment (``3+2``: three minutes, and two seconds
added after each move), days for each move (correspondence: every move has the whole period again), or no limit.
Its ``Speed`` is lidraughts': from the game's estimated length, the start plus forty increments. Ratings are kept
per speed; an untimed game counts as correspondence.

``Clocks`` are a timed game's two clocks: each side's seconds left when the side to move's clock started, and when
that was. They are plain values; the core keeps them, stores them with every move, and ends the game of a side to
move whose time runs out. A side that runs out loses, whatever is left on the board (lidraughts' rule).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum

from bot.translation import Text, plural, tr
from engine import Color


class Speed(Enum):
    """How fast a game is played. The values are the database's words."""

    BULLET = "bullet"
    BLITZ = "blitz"
    RAPID = "rapid"
    CLASSICAL = "classical"
    CORRESPONDENCE = "correspondence"

    def words(self) -> Text:
        return _SPEED_WORDS[self]


_SPEED_WORDS = {Speed.BULLET: tr("bullet"), Speed.BLITZ: tr("blitz"), Speed.RAPID: tr("rapid"),
                Speed.CLASSICAL: tr("classical"), Speed.CORRESPONDENCE: tr("correspondence")}
_FASTER_THAN = ((Speed.BULLET, 180), (Speed.BLITZ, 480), (Speed.RAPID, 1500))
"""Each speed's games are estimated shorter than this many seconds a side (lidraughts' limits)."""
DAYS = (1, 2, 3, 5, 7)
"""The correspondence controls: days a move."""
MAX_MINUTES = 180
MAX_INCREMENT = 180
DAY = 86400.0


@dataclass(frozen=True)
class TimeControl:
    """Minutes plus an increment, days a move, or untimed (all nought)."""

    minutes: float = 0.0
    increment: int = 0
    """Seconds added to a side's clock after each of its moves."""
    days: int = 0

    @property
    def timed(self) -> bool:
        return self.minutes > 0 or self.days > 0

    @property
    def correspondence(self) -> bool:
        return self.days > 0

    @property
    def start(self) -> float:
        """The seconds each side starts with (and, in correspondence, has again after each move)."""
        return self.days * DAY if self.days else self.minutes * 60

    @property
    def speed(self) -> Speed:
        if not self.timed or self.correspondence:
            return Speed.CORRESPONDENCE
        estimate = self.minutes * 60 + 40 * self.increment
        return next((speed for speed, limit in _FASTER_THAN if estimate < limit), Speed.CLASSICAL)

    def __str__(self) -> str:
        """As lidraughts writes it, and as it is typed: ``3+2``, ``2 days``, ``untimed``."""
        if self.days:
            return f"{self.days} day" if self.days == 1 else f"{self.days} days"
        if not self.minutes:
            return "untimed"
        return f"{_minutes(self.minutes)}+{self.increment}"

    def words(self) -> Text:
        """For people: "3+2 (blitz)", "2 days a move", "untimed"."""
        if self.days:
            return plural("{count} day a move", "{count} days a move", self.days)
        if not self.minutes:
            return tr("untimed")
        return tr("{control} ({speed})", control=str(self), speed=self.speed.words())

    def to_json(self) -> dict:
        if self.days:
            return {"days": self.days}
        return {"minutes": self.minutes, "increment": self.increment} if self.minutes else {}

    @classmethod
    def from_json(cls, data: dict | None) -> TimeControl:
        data = data or {}
        return cls(float(data.get("minutes", 0)), int(data.get("increment", 0)), int(data.get("days", 0)))


UNTIMED = TimeControl()
PRESETS = {  # by speed, the first of each is what the speed's name alone means
    Speed.BULLET: (TimeControl(1, 0), TimeControl(2, 1)),
    Speed.BLITZ: (TimeControl(3, 2), TimeControl(5, 3)),
    Speed.RAPID: (TimeControl(10, 5), TimeControl(15, 10)),
    Speed.CLASSICAL: (TimeControl(30, 20),),
    Speed.CORRESPONDENCE: tuple(TimeControl(days=d) for d in DAYS),
}


WEB_CONTROLS = tuple(control for speed in (Speed.BULLET, Speed.BLITZ, Speed.RAPID, Speed.CLASSICAL)
                     for control in PRESETS[speed])
"""The clocks the web page's forms offer (besides untimed): a person on the page plays there and then."""


def _minutes(minutes: float) -> str:
    """Minutes as lidraughts writes them: whole, or a quarter, half or three quarters (``0.5``)."""
    return str(int(minutes)) if minutes == int(minutes) else f"{minutes:g}"


def read_control(text: str) -> TimeControl | None:
    """A control as one word of a command: ``3+2``, a speed's name (its first preset; ``correspondence`` is a day a
    move), or ``untimed``; None if the word is none of these. Raises ``ValueError``, with the reason, for a control
    out of bounds."""
    word = text.lower()
    if word == "untimed":
        return UNTIMED
    for speed, presets in PRESETS.items():
        if word == speed.value:
            return presets[0]
    minutes, plus, increment = word.partition("+")
    if not plus:
        return None
    try:
        control = TimeControl(float(minutes), int(increment))
    except ValueError:
        return None
    if not (0 < control.minutes <= MAX_MINUTES and control.minutes * 4 == int(control.minutes * 4)
            and 0 <= control.increment <= MAX_INCREMENT):
        raise ValueError(tr("A time control is minutes (a quarter to {minutes}) plus seconds added a move (0 to "
                            "{increment}): `3+2`.", minutes=MAX_MINUTES, increment=MAX_INCREMENT))
    return control


def read_days(count: str, unit: str) -> TimeControl | None:
    """``2 days`` (two words of a command) as a correspondence control; None if they are not days. Raises
    ``ValueError`` for a number of days there is no control for."""
    if unit.lower() not in ("day", "days") or not count.isdigit():
        return None
    if int(count) not in DAYS:
        raise ValueError(tr("Correspondence games have 1, 2, 3, 5 or 7 days a move."))  # (DAYS)
    return TimeControl(days=int(count))


@dataclass(frozen=True)
class Clocks:
    """A timed game's clocks: each side's seconds left when the side to move's clock started, at ``since`` (seconds
    since the epoch). The side to move's clock runs from then; the other stands."""

    white: float
    black: float
    since: float

    @classmethod
    def started(cls, control: TimeControl, now: float) -> Clocks:
        return cls(control.start, control.start, now)

    def of(self, colour: Color) -> float:
        """``colour``'s seconds as they stood when the side to move's clock started."""
        return self.white if colour is Color.WHITE else self.black

    def left(self, colour: Color, turn: Color, now: float) -> float:
        """``colour``'s seconds left at ``now``, ``turn`` being the side to move (none below nought)."""
        return max(0.0, self.of(colour) - (now - self.since if colour is turn else 0.0))

    def deadline(self, turn: Color) -> float:
        """When the side to move runs out."""
        return self.since + self.of(turn)

    def moved(self, mover: Color, now: float, control: TimeControl) -> Clocks:
        """The clocks after ``mover`` moved at ``now``: its time taken from its clock and the increment added (in
        correspondence, the whole period again); the other side's clock starts."""
        left = control.start if control.correspondence else self.left(mover, mover, now) + control.increment
        return replace(self, since=now, **{mover.name.lower(): left})

    def berserk(self, colour: Color, control: TimeControl) -> Clocks:
        """The clocks after ``colour`` went berserk (an arena's): half its starting time taken off its clock."""
        return replace(self, **{colour.name.lower(): max(0.0, self.of(colour) - control.start / 2)})

    def resumed(self, now: float) -> Clocks:
        """The clocks started again at ``now`` as they stood (after a restart: the time the bot was away is charged
        to nobody)."""
        return replace(self, since=now)

    def to_json(self) -> list[float]:
        return [round(self.white, 3), round(self.black, 3), round(self.since, 3)]

    @classmethod
    def from_json(cls, data: list[float]) -> Clocks:
        white, black, since = data
        return cls(float(white), float(black), float(since))


def clock_words(seconds: float) -> str:
    """A clock as players read it: ``4:59``, ``0:07.3`` under ten seconds, ``1:02:03`` from an hour, ``2 d 03:00``
    from a day."""
    if seconds < 10:
        return f"0:{seconds:04.1f}"
    whole = int(seconds)
    days, rest = divmod(whole, 86400)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    if days:
        return f"{days} d {hours:02d}:{minutes:02d}"
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


OVERHEAD = 0.1
"""Seconds a bot move costs besides its search (the search process, the database, the chat), kept in hand."""
LEAST_THINK = 0.02


def think_time(left: float, increment: float, moves_made: int, critical: bool) -> float:
    """The seconds the bot searches a move with ``left`` seconds on its clock, ``increment`` added after it, having
    made ``moves_made`` moves, as engines manage their time: a share of what is left (as if a dozen to thirty moves
    were still to come, fewer as the game goes on) and most of the increment; half as much again in a ``critical``
    position; never more than a fifth of what is left beyond the overhead, so that it never runs out."""
    to_come = max(12, 30 - moves_made // 3)
    share = left / to_come + 0.7 * increment
    if critical:
        share *= 1.5
    spare = left - OVERHEAD
    return max(LEAST_THINK, min(share, spare / 5 + 0.7 * increment, spare - OVERHEAD))
