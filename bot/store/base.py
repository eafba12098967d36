"""What the bot keeps, whatever keeps it: the values, the errors, and the interface both back ends implement.

A game is stored as its start position and its move list (full paths, so a
replay is exact); positions are rebuilt by replaying. Every write is committed
before it returns, so a move the bot announces is kept.

Every write to a game (a move, a takeback, its end) is a compare-and-set on the
game's ``version``, a counter of its writes: the writer names the version it
last read, and the write is refused (``MoveConflict``) if the game has been
written since, or has ended. Of two processes that race on one game, exactly one
succeeds; the other reloads the game. Each such method returns the new version.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from bot import ending
from bot.ending import Ending
from engine import Color, Termination
from bot.ratings import Change, RatedGame, RatedPuzzle, Rating
from bot.tournament.event import Entrant, Pairing, Status, Tournament


class StoreError(RuntimeError):
    """The database cannot be opened or used at all; the message says why."""


class SaveFailed(Exception):
    """The database refused a read or a write, or did not answer in time. A refused write changed nothing; one
    whose answer was lost (the server went quiet after its commit) may have been made: the game's version then
    tells, as the next write to the game conflicts."""


class MoveConflict(SaveFailed):
    """A write to a game was refused: the game has been written since the version the writer read (another
    process moved it, took a move back or ended it), or it is over."""


CORRESPONDENCE = "correspondence"
"""The speed of untimed and correspondence games' ratings (``bot.clocks.Speed``), where every rating from before
ratings were kept per speed went."""


class Ratings(NamedTuple):
    """A table of people's ratings: its name, the column that counts what each rating is made of, and the columns
    that name a rating's pool besides the server (a game's variant and speed; a puzzle's variant)."""

    table: str
    counted: str
    keys: tuple[str, ...]

    def where(self, mark: str, first: int = 0) -> str:
        """The pool's columns, each equal to a parameter: ``?`` each (SQLite), or ``$first``, ... (PostgreSQL)."""
        return " AND ".join(f"{key} = {mark}" if not first else f"{key} = {mark}{first + k}"
                            for k, key in enumerate(self.keys))

    def upsert(self, marks: Sequence[str]) -> str:
        """The statement that counts one more rated game (or puzzle) for a person: their new rating, from the
        parameters ``marks`` (guild, the pool's keys, user, name, rating, rd, volatility)."""
        keys, table, counted = ", ".join(self.keys), self.table, self.counted
        return (f'INSERT INTO {table} (guild, {keys}, "user", name, rating, rd, volatility, {counted})'
                f' VALUES ({", ".join(marks)}, 1) ON CONFLICT (guild, {keys}, "user") DO UPDATE SET'
                " name = excluded.name, rating = excluded.rating, rd = excluded.rd,"
                f" volatility = excluded.volatility, {counted} = {table}.{counted} + 1")


GAME_RATINGS = Ratings("ratings", "games", ("variant", "speed"))
"""People's ratings from games: per server, variant and speed."""
PUZZLE_RATINGS = Ratings("puzzle_ratings", "puzzles", ("variant",))
"""People's ratings from puzzles: per server and variant."""


NO_RESULT = tuple(sorted(t.value for t in ending.NO_RESULT))
"""``bot.ending.NO_RESULT`` as the ``termination`` column writes it: the ends of a game without a result."""


@dataclass(frozen=True)
class StoredGame:
    """A game as the database holds it."""

    id: int
    guild: str
    channel: str
    variant: str
    start_fen: str
    kind: str
    seats: dict
    settings: dict
    moves: list[str]
    updated: float
    version: int = 0
    """Writes to the game so far: what a write must name to be accepted."""
    clocks: list[list[float] | None] = field(default_factory=list)
    """A timed game's clocks just after each move (``bot.clocks.Clocks.to_json``); None for an untimed move."""


@dataclass(frozen=True)
class FinishedGame:
    """A finished game as the database holds it: the game, and how it ended."""

    game: StoredGame
    ending: Ending | None
    """How it ended; None for a game whose end an old version wrote in words the migration did not know."""
    reason: str
    """Why, in English, as the version that ended it wrote it (shown as it is only when ``ending`` is None)."""
    pdn: str


def stored_ending(ending: Ending) -> tuple[str | None, str]:
    """An ending as the ``games`` table's columns keep it: ``winner`` ('white', 'black' or NULL) and
    ``termination`` (``engine.Termination``'s value)."""
    return (ending.winner.name.lower() if ending.winner is not None else None), ending.termination.value


def read_ending(winner: str | None, termination: str | None) -> Ending | None:
    """The ending ``stored_ending`` wrote (None without a termination: an old version's words the migration did not
    know)."""
    if termination is None:
        return None
    return Ending(None if winner is None else Color[winner.upper()], Termination(termination))


@dataclass(frozen=True)
class Standing:
    """One line of a leaderboard."""

    user: str
    name: str
    rating: Rating
    games: int


@dataclass(frozen=True)
class ServedPuzzle:
    """A puzzle posted in a channel, as the database holds it: while it is on (being solved), and after."""

    id: int
    """Its row (0 before it is stored)."""
    guild: str
    channel: str
    variant: str
    puzzle: str
    """Which puzzle: a shipped puzzle's id (``engine.puzzles.Puzzle.id``), or ``practice:GAME:PLY`` for a position
    from a person's own analysed game."""
    kind: str
    """'puzzle' (asked for), 'daily' (the server's puzzle of the day) or 'practice'."""
    position: str
    """The start, as a FEN; the side to move solves."""
    solution: tuple[str, ...]
    """The solver's moves and the defender's replies, full move texts (a practice position's: its one better
    move)."""
    asker: str
    """The user id of whoever asked for it ('' for the daily puzzle)."""
    asker_name: str
    started: float
    ply: int = 0
    """Moves of the solution played so far."""
    day: str | None = None
    """The daily puzzle's day, 'YYYY-MM-DD' in UTC."""
    movers: tuple[tuple[str, str], ...] = ()
    """(user id, name) of each person who has played a right move of it so far, first first."""


@dataclass(frozen=True)
class Attempt:
    """One person's result on a served puzzle."""

    user: str
    name: str
    solved: bool


PUZZLE_HISTORY = ('SELECT s.variant, s.puzzle, a.solved, s.ended, a.rating FROM puzzle_attempts a'
                  ' JOIN served_puzzles s ON s.id = a.served WHERE a."user" = ? AND s.guild = ?'
                  ' ORDER BY s.ended DESC, s.id DESC LIMIT ?')
"""A person's puzzles in a server, the latest first (``Store.puzzle_history``)."""


@dataclass(frozen=True)
class PuzzleTry:
    """A puzzle a person tried, as their history lists it."""

    variant: str
    puzzle: str
    solved: bool
    ended: float
    rating: float | None
    """Their puzzle rating just after it (None: it was not rated)."""


@dataclass(frozen=True)
class Daily:
    """A server's daily puzzle: where and when it is posted."""

    guild: str
    channel: str
    hour: int
    """The hour of the day, UTC, 0-23."""
    variant: str
    last_day: str | None = None
    """The latest day it was posted, 'YYYY-MM-DD'."""


class Store(ABC):
    """Games, moves and ratings. Every method may raise ``SaveFailed``."""

    @abstractmethod
    async def version(self) -> int:
        """The schema version (``schema.MIGRATIONS`` applied)."""

    @abstractmethod
    async def close(self) -> None: ...

    # games

    @abstractmethod
    async def create_game(self, guild: str, channel: str, variant: str, start_fen: str, kind: str,
                          seats: dict, settings: dict) -> int:
        """A new active game; its id."""

    @abstractmethod
    async def add_move(self, game: int, version: int, ply: int, move: str, clocks: list[float] | None = None) -> int:
        """Write move number ``ply`` (from 0) of ``game``, still at ``version``, with the clocks just after it in a
        timed game; the new version."""

    @abstractmethod
    async def remove_moves(self, game: int, version: int, from_ply: int, settings: dict) -> int:
        """Take back the moves from ``from_ply`` on, and save the game's settings (its takebacks used); the new
        version."""

    @abstractmethod
    async def finish_game(self, game: int, version: int, ending: Ending, reason: str, pdn: str,
                          rated: RatedGame | None = None) -> list[Change]:
        """Mark a game finished with its ``ending`` (its ``reason`` in English beside it, for a process of an older
        version that reads the game) and its PDN and, for a ``rated`` one, update its players' ratings, all or nothing;
        the rating changes. The ratings are read and written inside the transaction, the players' held meanwhile,
        so two games of one player that end at the same moment (on two processes) both count."""

    @abstractmethod
    async def shared_key(self, name: str, made: str) -> str:
        """The key kept under ``name``: the one stored already, else ``made``, stored now (so every process that
        asks gets the first one stored)."""

    @abstractmethod
    async def active_games(self) -> list[StoredGame]:
        """Every unfinished game, oldest first."""

    @abstractmethod
    async def game(self, game: int) -> StoredGame | None:
        """One game as it is now in the database (active or finished), or None."""

    @abstractmethod
    async def finished_game(self, game: int) -> FinishedGame | None:
        """A finished game by its id (for its replay), or None if there is none."""

    @abstractmethod
    async def player_games(self, guild: str, user: str, limit: int = 10) -> list[int]:
        """The ids of the games ``user`` played on server ``guild`` to a result, the latest to end first, at most
        ``limit``."""

    @abstractmethod
    async def last_finished(self, guild: str, channel: str) -> int | None:
        """The id of the channel's most recently finished game (the latest to end) that was played out: it has a
        move, and it ended with a result (by the rules, a resignation, a draw, a player abandoning it), not aborted
        (a player who never moved) nor stopped (a bot match). The game's columns mark all of them 'finished'; the
        store tells them by their PDN, whose Result tag is "*" (no result) for those two alone, as
        ``bot.core.results.finish`` writes it. None if the channel has no such game."""

    # analyses

    @abstractmethod
    async def analysis(self, game: int, nodes: int) -> dict | None:
        """The game's stored analysis (``engine.analysis.Analysis.to_json()``) if it was made at ``nodes`` nodes a
        position, else None (there is none, or one at another effort)."""

    @abstractmethod
    async def save_analysis(self, game: int, nodes: int, analysis: dict) -> None:
        """Keep the game's analysis at ``nodes`` nodes a position, in place of any the game had (one a game).
        Idempotent: two processes saving the same game's analysis at once both succeed, and one of the two is
        kept. A game that is not in the database is refused (``SaveFailed``)."""

    @abstractmethod
    async def analysed_games(self, guild: str, nodes: int, limit: int = 200) -> list[tuple[int, dict, dict]]:
        """The server's games analysed at ``nodes`` nodes a position, the latest to end first, at most ``limit``:
        (game, seats, analysis) each (for practice from a person's own games)."""

    # ratings

    @abstractmethod
    async def ratings(self, guild: str, user: str) -> dict[tuple[str, str], tuple[Rating, int]]:
        """A person's ratings on ``guild``, by (variant, speed: ``bot.clocks.Speed``'s value), each with the rated
        games played at it: one read for all of them."""

    async def rating(self, guild: str, variant: str, user: str, speed: str = CORRESPONDENCE) -> tuple[Rating, int]:
        """A person's rating for one game at a speed and rated games played at it; a new player's rating when
        there is none."""
        return (await self.ratings(guild, user)).get((variant, speed), (Rating(), 0))

    @abstractmethod
    async def leaderboard(self, guild: str, variant: str, limit: int = 10,
                          speed: str = CORRESPONDENCE) -> list[Standing]: ...

    # tournaments (bot.tournament.event)

    @abstractmethod
    async def create_tournament(self, tournament: Tournament) -> int:
        """Store a new tournament (its ``id``, players and pairings are ignored); its id."""

    @abstractmethod
    async def tournament(self, tournament: int) -> Tournament | None:
        """A tournament with its players and pairings, each pairing with its game's result; None if none."""

    @abstractmethod
    async def live_tournaments(self) -> list[int]:
        """The ids of the tournaments scheduled or running, the first to start first."""

    @abstractmethod
    async def tournaments_of(self, guild: str, user: str | None = None, limit: int = 10) -> list[int]:
        """The ids of ``guild``'s latest tournaments (those ``user`` played in, if given), the latest first."""

    @abstractmethod
    async def put_entrant(self, tournament: int, entrant: Entrant) -> None:
        """Add a player to a tournament, or change their standing, name and round of coming back (their joining
        time and rating stay); the tournament's version steps, so a pairing made from what it was before fails."""

    @abstractmethod
    async def link_game(self, tournament: int, pairing: Pairing, game: int) -> bool:
        """Make ``game`` the game of ``pairing``, if it has none yet; whether it was made so (else another
        process started its game first)."""

    @abstractmethod
    async def advance_tournament(self, tournament: Tournament, status: Status, round: int,
                                 pairings: Sequence[Pairing] = ()) -> bool:
        """Set a tournament's status, round and start (``tournament.starts``: an arena started early counts its
        length from then), and add ``pairings``, all at once, if it is still at the version ``tournament`` was read
        at; whether it was (else nothing changed: another process got there first)."""

    # puzzles

    @abstractmethod
    async def start_puzzle(self, served: ServedPuzzle) -> int:
        """Store a puzzle now on in its channel (``served.id`` is ignored); its id. Refused (``MoveConflict``) if
        the channel has a puzzle on already, or for a daily puzzle if the server has had that day's."""

    @abstractmethod
    async def advance_puzzle(self, served: int, ply: int, movers: Sequence[tuple[str, str]] = ()) -> None:
        """The solution of puzzle ``served`` has been played up to ``ply`` moves, its right moves so far by
        ``movers`` ((user id, name) each). Refused (``MoveConflict``) if the puzzle is no longer on, or was at
        ``ply`` or beyond already."""

    @abstractmethod
    async def end_puzzle(self, served: int, outcome: str, attempts: Sequence[Attempt],
                         rated: RatedPuzzle | None = None) -> list[Change]:
        """End puzzle ``served`` ('solved', 'failed' or 'shown'), all or nothing: keep each person's attempt (in the
        order they were made, which ``daily_solvers`` follows) and, for a ``rated`` end, update the people's puzzle
        ratings in its server and variant (counting one more puzzle each) and the puzzle's own strength (counting
        one more attempt); the people's rating changes. The ratings are read and written inside the transaction,
        held meanwhile, so puzzles that end at the same moment (the day's puzzle in many servers) all count.
        Refused (``MoveConflict``) if it has ended already."""

    @abstractmethod
    async def tried_puzzle(self, served: ServedPuzzle, outcome: str, attempt: Attempt,
                           rated: RatedPuzzle | None = None) -> list[Change]:
        """Keep a puzzle one person tried alone (on the web page) as ended (``outcome`` 'solved' or 'failed'), with
        their attempt, rated as ``end_puzzle`` rates (``served.id`` and ``served.ply`` are ignored): one transaction,
        so there is never a puzzle left on. Refused (``MoveConflict``) when the page's puzzle (its channel
        ``web-puzzles``) was kept for that person already: only their first try counts."""

    @abstractmethod
    async def puzzle_history(self, guild: str, user: str, limit: int = 50) -> list[PuzzleTry]:
        """A person's puzzles in a server, the latest first."""

    @abstractmethod
    async def puzzles_on(self) -> list[ServedPuzzle]:
        """Every puzzle still on, oldest first (to bring them back after a restart)."""

    @abstractmethod
    async def puzzle_rating(self, guild: str, variant: str, user: str) -> tuple[Rating, int]:
        """A person's puzzle rating in a server and variant, and the puzzles it counts; a new player's rating when
        there is none."""

    @abstractmethod
    async def puzzle_strengths(self, variant: str) -> dict[str, tuple[Rating, int]]:
        """The rating and the attempts counted of every puzzle of ``variant`` that has been attempted, by puzzle."""

    @abstractmethod
    async def puzzles_seen(self, guild: str, variant: str, user: str) -> set[str]:
        """The puzzles of ``variant`` a person has attempted in a server (so as not to give them again)."""

    @abstractmethod
    async def puzzle_leaderboard(self, guild: str, variant: str, limit: int = 10) -> list[Standing]: ...

    # languages

    @abstractmethod
    async def set_language(self, guild: str, language: str | None) -> None:
        """The language the bot speaks on ``guild``, as its administrators chose it; None: its chat service's."""

    @abstractmethod
    async def languages(self) -> dict[str, str]:
        """Every server's chosen language, by server."""

    # the daily puzzle

    @abstractmethod
    async def set_daily(self, guild: str, channel: str | None, hour: int = 0, variant: str = "") -> None:
        """Post a daily puzzle of ``variant`` in ``channel`` at ``hour`` (UTC) on this server; ``channel`` None
        stops it. Setting it again keeps the day it was last posted."""

    @abstractmethod
    async def dailies(self) -> list[Daily]:
        """Every server's daily puzzle setting."""

    @abstractmethod
    async def mark_daily(self, guild: str, day: str) -> bool:
        """Note that the server's daily puzzle of ``day`` is being posted; False if it had been already (another
        process, or before a restart), so that a day's puzzle is posted once."""

    @abstractmethod
    async def daily_solvers(self, guild: str, day: str) -> list[str]:
        """The names of the people who solved the server's daily puzzle of ``day``, first solver first."""
