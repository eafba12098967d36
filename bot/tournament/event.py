"""A tournament as the database keeps it and the bot runs it: its settings, its players and its pairings (each
with its game's result once played), and what follows from them: the standings and the next pairings.

Its games are played in rooms of their own (``Tournament.room``): a channel id under the tournament's channel,
one a pairing, so a pairing has one game at most whatever processes try to start it, and its result is read
from that game."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from enum import Enum

from bot.clocks import TimeControl
from bot.tournament import arena, round_robin, swiss

BOT = "bot:"  # a bot player's id: "bot:LEVEL"
ROOM = "~t"  # between a tournament's channel and the rest of a room's id: "CHANNEL~tID.ROUND.BOARD"


def parent_channel(channel: str) -> str:
    """The channel a tournament game's room is under (any other channel is its own)."""
    return channel.split(ROOM, 1)[0]


def room_of(channel: str) -> tuple[int, int, int] | None:
    """A room's tournament, round and board; None for a channel that is no room."""
    if ROOM not in channel:
        return None
    try:
        tournament, rnd, board = map(int, channel.split(ROOM, 1)[1].split("."))
    except ValueError:
        return None
    return tournament, rnd, board


class Format(Enum):
    """How a tournament pairs its players. The values are the database's words."""

    ARENA = "arena"
    SWISS = "swiss"
    ROUND_ROBIN = "round_robin"


class Status(Enum):
    SCHEDULED = "scheduled"
    RUNNING = "running"
    FINISHED = "finished"
    CANCELLED = "cancelled"


class Standing(Enum):
    """A player's part in a tournament."""

    IN = "in"
    PAUSED = "paused"
    """Not paired until they come back (an arena or a Swiss event: they miss rounds meanwhile)."""
    OUT = "out"
    """Withdrawn: never paired again; their games played still count."""


@dataclass(frozen=True)
class Entrant:
    """A player of a tournament: a person (``id`` their user id) or the bot at a level (``id`` "bot:LEVEL")."""

    id: str
    name: str
    joined: float
    standing: Standing = Standing.IN
    rating: float = 1500.0
    """Their rating at the tournament's speed when they joined: the seeding."""
    back: int = 0
    """The round (an arena: the wave) when they last joined or came back: a game they missed before it is past."""

    @property
    def level(self) -> int | None:
        return int(self.id[len(BOT):]) if self.id.startswith(BOT) else None


@dataclass(frozen=True)
class Pairing:
    """Two players paired (or a bye: no ``black``) in a round (an arena's pairings are numbered in the order
    made), and how their game ended: White's points, its plies, who went berserk."""

    round: int
    board: int
    white: str
    black: str | None
    result: float | None = None
    """White's points (1, 0.5, 0) once the game ended with a result; None while it is on (or not started)."""
    plies: int = 0
    berserk: frozenset[str] = frozenset()
    ended: bool = False
    """The game is over (with a result, or aborted: ``result`` None)."""
    game: int | None = None
    """Its game's id, once started."""
    absent: str | None = None
    """The player who never moved in it (and lost it so)."""

    @property
    def bye(self) -> bool:
        return self.black is None

    def players(self) -> tuple[str, ...]:
        return (self.white,) if self.black is None else (self.white, self.black)


@dataclass(frozen=True)
class Tournament:
    """A tournament's settings and progress."""

    id: int
    guild: str
    channel: str
    format: Format
    variant: str
    control: TimeControl
    rated: bool
    starts: float
    rounds: int = 0
    """A Swiss event's rounds (a round robin's follow from its players)."""
    minutes: float = 0.0
    """An arena's length."""
    status: Status = Status.SCHEDULED
    round: int = 0
    """The round being played (0 before the first); an arena counts its pairings so."""
    creator: str = ""
    name: str = ""
    version: int = 0
    players: tuple[Entrant, ...] = ()
    pairings: tuple[Pairing, ...] = field(default=())

    @property
    def over(self) -> bool:
        """Finished or cancelled."""
        return self.status in (Status.FINISHED, Status.CANCELLED)

    @property
    def ends(self) -> float:
        """When an arena stops pairing (its games on then still count)."""
        return self.starts + self.minutes * 60

    def room(self, pairing: Pairing) -> str:
        """The channel id of a pairing's game."""
        return f"{self.channel}{ROOM}{self.id}.{pairing.round}.{pairing.board}"

    def entrant(self, player: str) -> Entrant | None:
        return next((e for e in self.players if e.id == player), None)

    def playing(self) -> set[str]:
        """The players in a game now."""
        return {p for pairing in self.pairings if not pairing.ended and not pairing.bye for p in pairing.players()}

    def seeding(self) -> list[str]:
        """The players in, by rating (the best first), then by who joined first."""
        ranked = sorted(self.players, key=lambda e: (-e.rating, e.joined))
        return [e.id for e in ranked if e.standing is Standing.IN]

    def round_over(self) -> bool:
        """Whether every game of the current round has ended."""
        return all(p.ended or p.bye for p in self.pairings if p.round == self.round)

    def with_players(self, players: Sequence[Entrant]) -> Tournament:
        return replace(self, players=tuple(players))

    # pairings

    def swiss_games(self) -> list[swiss.Game]:
        """The pairings as Swiss pairing and standings read them (a game stopped without a result is no game; a
        round robin's bye, a round off, scores nothing)."""
        return [swiss.Game(p.round, p.white, p.black, p.result) for p in self.pairings
                if (self.format is not Format.ROUND_ROBIN if p.bye else p.result is not None or not p.ended)]

    def next_round(self) -> list[tuple[str, str | None]]:
        """The next round's pairings (Swiss or round robin); none when the event is over."""
        if self.format is Format.ROUND_ROBIN:
            return self._robin_round()
        seeding = self.seeding()
        if self.round >= self.rounds or len(seeding) < 2:
            return []
        try:
            return swiss.pair(seeding, swiss.pasts(seeding, self.swiss_games()))
        except ValueError:  # no pairing left without a repeat: the event ends early, as lidraughts' do
            return []

    def _robin_round(self) -> list[tuple[str, str | None]]:
        """A round robin's next round, from the Berger tables of the players in when it started; a player whose
        opponent has withdrawn has the round off."""
        if self.round == 0:
            started = [e.id for e in sorted(self.players, key=lambda e: e.joined) if e.standing is Standing.IN]
        else:
            first = {p for pairing in self.pairings if pairing.round == 1 for p in pairing.players()}
            started = [e.id for e in sorted(self.players, key=lambda e: e.joined) if e.id in first]
        schedule = round_robin.schedule(started)
        out = {e.id for e in self.players if e.standing is not Standing.IN}
        if self.round >= len(schedule) or len(set(started) - out) < 2:
            return []
        pairs: list[tuple[str, str | None]] = []
        for white, black in schedule[self.round]:
            left = [p for p in (white, black) if p is not None and p not in out]
            if len(left) == 2:
                pairs.append((white, black))
            elif left:
                pairs.append((left[0], None))
        return pairs

    def arena_wave(self) -> list[tuple[str, str]]:
        """Pairs of the arena's players who are in and free now, neighbours in the standings."""
        busy = self.playing()
        order = [player for player, _ in self.standings()]
        free = [p for p in order if p not in busy and self.entrant(p) is not None
                and self.entrant(p).standing is Standing.IN]  # type: ignore[union-attr]
        last: dict[str, str] = {}
        balance: dict[str, int] = {}
        for p in self.pairings:
            if p.black is None:
                continue
            last[p.white], last[p.black] = p.black, p.white
            balance[p.white] = balance.get(p.white, 0) + 1
            balance[p.black] = balance.get(p.black, 0) - 1
        return arena.pair(free, last, balance)

    # standings

    def sheets(self) -> dict[str, arena.Sheet]:
        """Each player's arena sheet."""
        results: dict[str, list[arena.Result]] = {e.id: [] for e in self.players}
        for p in self.pairings:
            if p.black is None or p.result is None:
                continue
            for player, points in ((p.white, p.result), (p.black, 1 - p.result)):
                results.setdefault(player, []).append(arena.Result(points, p.plies, player in p.berserk))
        return {player: arena.sheet(r) for player, r in results.items()}

    def standings(self) -> list[tuple[str, tuple[float, ...]]]:
        """The players in order, each with what orders them: an arena's score (then rating); a Swiss event's or
        round robin's score, Buchholz, Sonneborn-Berger."""
        rating = {e.id: e.rating for e in self.players}
        if self.format is Format.ARENA:
            sheets = self.sheets()
            return sorted(((p, (float(sheets[p].total),)) for p in rating),
                          key=lambda item: (-item[1][0], -rating[item[0]], item[0]))
        seeding = sorted(rating, key=lambda p: -rating[p])
        return [(p, breaks) for p, breaks in swiss.standings(seeding, self.swiss_games())]
