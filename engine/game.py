"""What a game is to the rest of the program: a ``GameType`` and its ``GameRecord``s.

A ``GameType`` is the rules of one game as functions over immutable values
(start position, legal moves, make), its notation in and out (with reasons for
an illegal move), its positions as text, its records, what a board image
shows, and the search's hooks. A ``GameRecord`` is one game being played: its
positions, its moves and its result.

Draughts implements them once per variant (``engine.draughts.game``), Tablut
once (``engine.tablut.game``); ``engine.games`` looks them up by name. The bot,
the renders and the search use a game only through these (the chat's words
and menus for a game come from its ``name``, ``aliases`` and ``title``). A new
game is a new package, its entry in ``engine.games``, and its branch in the
compiled search (``engine.search.kernel``: numba cannot call through an
object).
"""

from __future__ import annotations

import copy as _copy
import random
from abc import ABC, abstractmethod
from dataclasses import dataclass
from enum import Enum, IntEnum
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

from engine.errors import IllegalMoveError, Words, phrase

if TYPE_CHECKING:
    from engine.search.hooks import SearchHooks


class Color(IntEnum):
    """A side; the compiled code's numbers (0 White, 1 Black) in every game."""

    WHITE = 0
    BLACK = 1

    @property
    def opponent(self) -> Color:
        return Color(1 - self)

    def __str__(self) -> str:
        return self.name.capitalize()


class Termination(Enum):
    """Why a game ended, as data (python-chess's ``Termination``, lila's stored ``Status``): the rules' own ends,
    which ``GameRecord.result`` finds, and the ends people (or a front end's clock) bring. The values are the
    database's words."""

    NO_MOVES = "no_moves"
    """The side to move has no legal move (in draughts, no pieces left or all blocked): it loses."""
    REPETITION = "repetition"
    """The same position came up again (three times in draughts): a draw."""
    QUIET_MOVES = "quiet_moves"
    """Kings only moving and nothing taken for the variant's number of moves: a draw."""
    LONE_KING = "lone_king"
    """The moves an ending against a lone king is given (International's 16- and 5-move rules): a draw."""
    KING_CAPTURED = "king_captured"
    """Tablut: the king is captured, the attackers (Black) win."""
    KING_ESCAPED = "king_escaped"
    """Tablut: the king reached an escape square, the defenders (White) win."""
    RESIGNED = "resigned"
    """A player resigned."""
    AGREED = "agreed"
    """A draw offered and accepted."""
    ABANDONED = "abandoned"
    """A player stopped moving for too long, after their first move: they lose."""
    NEVER_MOVED = "never_moved"
    """A player never made a first move: the game is aborted and counts for nothing."""
    STOPPED = "stopped"
    """A bot match stopped by the person who started it."""
    MOVE_LIMIT = "move_limit"
    """A bot match played to its length: a draw."""
    TIME_OUT = "time_out"
    """The side to move ran out of time on its clock: it loses (lidraughts' rule, whatever is left on the board)."""

    @property
    def by_rules(self) -> bool:
        """Whether the rules end the game this way (``GameRecord.result`` says so), not a person or a clock."""
        return self in _BY_RULES


_BY_RULES = frozenset({Termination.NO_MOVES, Termination.REPETITION, Termination.QUIET_MOVES, Termination.LONE_KING,
                       Termination.KING_CAPTURED, Termination.KING_ESCAPED})


@dataclass(frozen=True)
class Result:
    """How a game ended."""

    winner: Color | None
    """The side that won, or None for a draw."""
    termination: Termination
    """Why, as data."""
    words: Words
    """Why, as words a front end shows in its reader's language."""

    @property
    def reason(self) -> str:
        """Why, in English."""
        return str(self.words)

    def __str__(self) -> str:
        if self.winner is None:
            return f"Draw: {self.reason}"
        return f"{self.winner} wins: {self.reason}"


@dataclass(frozen=True)
class History:
    """What the draw rules need from a game before the position searched: a record's ``history()``, the search's
    input."""

    keys: tuple[int, ...] = ()
    """Zobrist keys of earlier positions, oldest first (the searched position not included)."""
    reversible: int = 0
    """Plies of reversible moves leading to the searched position (draughts: king moves taking nothing; Tablut:
    moves since the last capture)."""
    ending: int = 0
    """Plies already played in the position's lone-king ending (International's 16- and 5-move rules)."""


LABELS = ("numbers", "coordinates", "none")
"""What a picture may write on a board (``GameType.grid``): square numbers, coordinates on the edges, or nothing."""

Cell = tuple[int, int]
"""(row, column) on a board picture, row 0 at the top as the first player's opponent sits, before any flip."""


@dataclass(frozen=True)
class Grid:
    """A game's empty board as a picture shows it (drawn once per theme, size and orientation, then cached)."""

    size: int
    """Cells per side."""
    playable: frozenset[Cell]
    """Cells drawn in the dark colour (draughts: the dark squares; empty for boards where every cell is played)."""
    labels: tuple[tuple[Cell, str], ...] = ()
    """Small text in a cell's corner (square numbers)."""
    files: str = ""
    """Column names along the top and bottom edges, left to right ('' for none)."""
    ranks: tuple[str, ...] = ()
    """Row names along the left and right edges, top to bottom."""
    marks: tuple[tuple[Cell, str], ...] = ()
    """Special cells drawn on the board itself (Tablut: 'throne', 'camp', 'escape')."""
    letters: tuple[tuple[str, str], ...] = (("w", "w"), ("W", "W"), ("b", "b"), ("B", "B"))
    """How each piece kind is written in a text diagram."""


class MoveLike(Protocol):
    """What every game's move has."""

    @property
    def start(self) -> int: ...

    @property
    def end(self) -> int: ...

    @property
    def captures(self) -> tuple[int, ...]: ...

    @property
    def is_capture(self) -> bool: ...


class PositionLike(Protocol):
    """What every game's position has."""

    @property
    def turn(self) -> Color: ...


P = TypeVar("P", bound=PositionLike)
M = TypeVar("M", bound=MoveLike)


class GameType(ABC, Generic[P, M]):
    """One game's rules, notation, records, pictures and search hooks, as free functions of its values.

    Pieces on a picture are one character: ``w``/``W`` a White man/king,
    ``b``/``B`` Black's (Tablut: ``w`` a White soldier, ``W`` the king, ``b``
    a Black soldier).
    """

    name: str
    """The name players type: english, international, brazilian, russian, tablut."""
    title: str
    """The game as a menu names it: 'International (10x10)'."""
    aliases: tuple[str, ...] = ()
    """Other words players type for it: 'checkers'."""
    first: Color
    """The side that moves first."""
    chances_scale: float = 0.004
    """How a score becomes winning chances in a game's analysis (``engine.analysis``): ``2 / (1 + exp(-k * s)) - 1``
    for a score ``s`` from the mover's side; 0.004 for draughts, as the field's reference site uses."""

    # rules

    @abstractmethod
    def start(self) -> P:
        """The usual start position."""

    @abstractmethod
    def new_game(self, start: str | None = None) -> GameRecord[P, M]:
        """A game record from the start (or from the position written ``start``)."""

    @abstractmethod
    def legal_moves(self, position: P) -> list[M]:
        """The legal moves of the side to move, in a fixed order."""

    @abstractmethod
    def make(self, position: P, move: M) -> P:
        """The position after a legal move (copy-make)."""

    # notation

    @abstractmethod
    def parse_move(self, position: P, text: str) -> M:
        """The legal move ``text`` names; a ``MoveError`` saying why not (with the legal moves) otherwise."""

    @abstractmethod
    def write_move(self, position: P, move: M, full: bool = False) -> str:
        """A move as players write it; ``full``: every square it lands on (unambiguous, for records and jobs)."""

    def legal_texts(self, position: P) -> tuple[str, ...]:
        """The legal moves as players write them."""
        return tuple(self.write_move(position, m) for m in self.legal_moves(position))

    @abstractmethod
    def is_move_text(self, text: str) -> bool:
        """Whether ``text``, written alone, is a move of this game (legal or not), as ``parse_move`` reads them."""

    @abstractmethod
    def write_position(self, position: P) -> str:
        """The position as text: FEN for draughts, a position string for Tablut."""

    @abstractmethod
    def read_position(self, text: str) -> P:
        """A position from ``write_position``'s text; a ``FenError`` saying what is wrong otherwise."""

    @abstractmethod
    def score_text(self, winner: Color | None) -> str:
        """The result as a record writes it ('1-0', '0-2', '1/2-1/2', ...)."""

    @abstractmethod
    def record_text(self, game: GameRecord[P, M], tags: dict[str, str]) -> str:
        """The game with its tags, to save (PDN for draughts, the same layout for Tablut)."""

    # pictures

    @abstractmethod
    def grid(self, labels: str | None = None) -> Grid:
        """The empty board; ``labels`` 'numbers', 'coordinates' or 'none' where the game has a choice
        (None: the game's own)."""

    @abstractmethod
    def cell(self, square: int) -> Cell:
        """Where a square is on the grid."""

    @abstractmethod
    def pieces(self, position: P) -> tuple[tuple[Cell, str], ...]:
        """Every piece on the board, as (cell, kind)."""

    def path(self, move: M) -> tuple[Cell, ...]:
        """The cells a move stands on, from start to end."""
        return (self.cell(move.start), self.cell(move.end))

    def status(self, position: P) -> str:
        """Whose turn it is, or that the side to move has none, in English."""
        return str(self.status_words(position))

    def status_words(self, position: P) -> Words:
        """Whose turn it is, or that the side to move has none (``Words`` a front end shows in any language)."""
        if self.legal_moves(position):
            return phrase("{colour} to move", colour=position.turn)
        return phrase("{colour} has no move", colour=position.turn)

    # the search

    @abstractmethod
    def search_hooks(self, weights: object = None) -> SearchHooks[P, M]:
        """What the search needs of this game: its compiled rules and evaluation (``weights``: the evaluation's
        own, None for the shipped ones)."""

    @abstractmethod
    def fallback_move(self, position: P, rng: random.Random) -> M:
        """A move from a shallow search in this process, for when the search processes fail."""

    def endgames_missing(self, pieces: int) -> bool:
        """Whether this game has endgame databases of up to ``pieces`` pieces that are not built yet
        (``python -m engine egtb build --variant NAME``); a game without databases has none missing."""
        return False


KEEP_LEGAL = 32  # positions back whose generated moves a record keeps for takebacks


class GameRecord(ABC, Generic[P, M]):
    """A game being played: the start, the moves, a position per ply, and the result.

    What every record does alike lives here: the current position, moves typed
    as text, no move after the end, takebacks. A game keeps ``positions`` and
    ``moves``, decides ``result`` and ``play``, and gives the search its history.
    """

    type: GameType[P, M]
    start: P
    positions: list[P]
    moves: list[M]
    _legal: list[M] | None
    """The current position's legal moves, once generated."""
    _legal_before: list[list[M] | None]
    """Each earlier position's moves as they were generated (None: they were not), for takebacks."""

    @property
    def position(self) -> P:
        return self.positions[-1]

    @property
    def turn(self) -> Color:
        return self.position.turn

    @abstractmethod
    def play(self, move: M) -> P:
        """Play a legal move; raises IllegalMoveError (changing nothing) otherwise."""

    @abstractmethod
    def result(self) -> Result | None:
        """The result if the game is over, else None."""

    @abstractmethod
    def history(self) -> History:
        """What the search needs of the game before its current position (for the draw rules)."""

    def _moved(self) -> None:
        """After a move: the moves of the position left are kept for a takeback (those of the last
        ``KEEP_LEGAL`` positions: a tree walked move by move goes back that far, and a long game keeps no more),
        the new one's are not known."""
        self._legal_before.append(self._legal)
        if len(self._legal_before) > KEEP_LEGAL:
            self._legal_before[-KEEP_LEGAL - 1] = None
        self._legal = None

    def legal_moves(self) -> list[M]:
        """The current position's legal moves, generated once per position."""
        if self._legal is None:
            self._legal = self.type.legal_moves(self.position)
        return self._legal

    def _per_position(self) -> tuple[list[Any], ...]:
        """The lists that hold one entry per position (``positions`` first); a takeback shortens them all."""
        return (self.positions,)

    def copy(self) -> GameRecord[P, M]:
        """A record of its own, the same game so far: later moves in either leave the other as it is (positions
        and moves never change, so the two share them)."""
        other = _copy.copy(self)
        for name, value in vars(self).items():
            if isinstance(value, list):
                setattr(other, name, list(value))
        return other

    def play_text(self, text: str) -> M:
        """Read a move as a player typed it and play it; notation errors change nothing."""
        self._refuse_if_over(text)
        move = self.type.parse_move(self.position, text)
        self.play(move)
        return move

    def _refuse_if_over(self, text: str) -> None:
        over = self.result()
        if over is not None:
            raise IllegalMoveError(phrase("the game is over ({result})", result=over), text,
                                   self.type.write_position(self.position))

    def undo(self) -> M:
        """Take the last move back."""
        if not self.moves:
            raise IllegalMoveError(phrase("there is no move to take back"), "", self.type.write_position(self.position))
        for history in self._per_position():
            history.pop()
        self._legal = self._legal_before.pop()
        return self.moves.pop()
