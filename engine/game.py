"""A game record: the start position, the moves played, and the result.

Positions are values (copy-make); what the draw rules need from the history
(repetitions, move counters) lives here, one entry per position, so a takeback
is a pop.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, TypeVar

from engine.errors import IllegalMoveError
from engine.fen import parse_fen, to_fen
from engine.notation import legal_move_texts, parse_move
from engine.position import Move, Position
from engine.rules import key, legal_moves, make, start_position
from engine.variants import Color, Variant

# International's endgame rules (FMJD 6.4 and 6.5), in plies: each player moves this often.
ENDGAME_16_PLIES = 2 * 16  # three pieces with a king (3K, 2K+1M, 1K+2M) against a lone king
ENDGAME_5_PLIES = 2 * 5  # at most two pieces with a king (2K, 1K+1M, 1K) against a lone king
REPETITIONS = 3  # the same position with the same side to move, for the third time


@dataclass(frozen=True)
class Result:
    """How a game ended."""

    winner: Color | None
    """The side that won, or None for a draw."""
    reason: str
    """Why, in words a player can read."""

    def __str__(self) -> str:
        if self.winner is None:
            return f"Draw: {self.reason}"
        return f"{self.winner} wins: {self.reason}"


P = TypeVar("P")
M = TypeVar("M")


class GameRecord(Generic[P, M]):
    """What every game's record does alike: the current position, moves typed as text, no move after the
    end, takebacks. A game (draughts' ``Game``, ``engine.tablut.TablutGame``) keeps ``positions`` and
    ``moves``, decides ``result`` and ``play``, and says how it reads a move and writes a position."""

    positions: list[P]
    moves: list[M]
    _legal: list[M] | None
    """The current position's legal moves, once generated."""

    @property
    def position(self) -> P:
        return self.positions[-1]

    @property
    def turn(self) -> Color:
        return self.position.turn  # type: ignore[attr-defined]

    def play(self, move: M) -> P:
        raise NotImplementedError

    def result(self) -> object:
        raise NotImplementedError

    def _read(self, text: str) -> M:
        """The legal move ``text`` names in the current position (a MoveError if none)."""
        raise NotImplementedError

    def _written(self) -> str:
        """The current position as text (FEN, or Tablut's position string)."""
        raise NotImplementedError

    def _per_position(self) -> tuple[list, ...]:
        """The lists that hold one entry per position (``positions`` first); a takeback shortens them all."""
        return (self.positions,)

    def play_text(self, text: str) -> M:
        """Read a move as a player typed it and play it; notation errors change nothing."""
        self._refuse_if_over(text)
        move = self._read(text)
        self.play(move)
        return move

    def _refuse_if_over(self, text: str) -> None:
        over = self.result()
        if over is not None:
            raise IllegalMoveError(f"the game is over ({over})", text, self._written())

    def undo(self) -> M:
        """Take the last move back."""
        if not self.moves:
            raise IllegalMoveError("there is no move to take back", "", self._written())
        for history in self._per_position():
            history.pop()
        self._legal = None
        return self.moves.pop()


class Game(GameRecord[Position, Move]):
    """A game in progress or finished, from any start position."""

    def __init__(self, variant: Variant, fen: str | None = None):
        self.variant = variant
        self.start = parse_fen(variant, fen) if fen else start_position(variant)
        self.moves: list[Move] = []
        self.positions: list[Position] = [self.start]
        self._keys: list[int] = [key(self.start)]
        self._king_plies: list[int] = [0]  # plies of king moves without a capture, up to each position
        self._endgame: list[tuple[int, int]] = [(_endgame_limit(self.start), 0)]  # (limit, plies in that ending)
        self._legal: list[Move] | None = None

    def legal_moves(self) -> list[Move]:
        if self._legal is None:
            self._legal = legal_moves(self.position)
        return self._legal

    def play(self, move: Move) -> Position:
        """Play a legal move; raises IllegalMoveError (changing nothing) otherwise."""
        self._refuse_if_over("")
        legal = self.legal_moves()
        if move not in legal:
            name = self.variant.square_name
            text = f"{name(move.start)}-{name(move.end)}"
            raise IllegalMoveError(f"{text} is not a legal move here", text, to_fen(self.position),
                                   legal_move_texts(self.position))
        move = legal[legal.index(move)]  # the generated move, with its path
        before = self.position
        after = make(before, move)
        man_moved = not (self.variant.bit(move.start) & before.kings)
        king_plies = 0 if (move.is_capture or man_moved) else self._king_plies[-1] + 1
        limit = _endgame_limit(after)
        prev_limit, prev_plies = self._endgame[-1]
        endgame = (limit, prev_plies + 1 if (limit == prev_limit and not move.is_capture) else 0)
        self.moves.append(move)
        self.positions.append(after)
        self._keys.append(key(after))
        self._king_plies.append(king_plies)
        self._endgame.append(endgame)
        self._legal = None
        return after

    def _read(self, text: str) -> Move:
        return parse_move(self.position, text)

    def _written(self) -> str:
        return to_fen(self.position)

    def _per_position(self) -> tuple[list, ...]:
        return (self.positions, self._keys, self._king_plies, self._endgame)

    @property
    def reversible_plies(self) -> int:
        """Plies of king moves taking nothing that led to the current position."""
        return self._king_plies[-1]

    @property
    def ending_plies(self) -> int:
        """Plies played in the current lone-king ending (International's 16- and 5-move rules)."""
        return self._endgame[-1][1]

    def earlier_keys(self) -> tuple[int, ...]:
        """Zobrist keys of the positions since the last capture or man move, before the current one."""
        back = self._king_plies[-1]
        return tuple(self._keys[-1 - back:-1]) if back else ()

    def repetitions(self) -> int:
        """How many times the current position has stood on the board with the same side to move."""
        # Captures and man moves are irreversible: nothing before them can come back.
        back = self._king_plies[-1]
        current = self._keys[-1]
        return sum(1 for i in range(0, back + 1, 2) if self._keys[-1 - i] == current)

    def result(self) -> Result | None:
        """The result if the game is over, else None."""
        if not self.legal_moves():
            side = self.turn
            return Result(side.opponent, f"{side} has no legal move")
        if self.repetitions() >= REPETITIONS:
            return Result(None, "the same position came up three times")
        limit = self.variant.king_move_limit
        if self._king_plies[-1] >= limit:
            return Result(None, f"{limit // 2} moves each with only kings moving and nothing taken")
        ending, plies = self._endgame[-1]
        if ending and plies >= ending:
            return Result(None, f"{ending // 2} moves each in this ending against a lone king")
        return None


def _endgame_limit(position: Position) -> int:
    """Plies allowed in the position's ending under International's 16- and 5-move rules; 0 if none apply."""
    if not position.variant.endgame_limits:
        return 0
    for lone, other in ((Color.WHITE, Color.BLACK), (Color.BLACK, Color.WHITE)):
        if position.count(lone) != (0, 1):
            continue
        men, kings = position.count(other)
        if kings >= 1 and men + kings == 3:
            return ENDGAME_16_PLIES
        if kings >= 1 and men + kings <= 2:
            return ENDGAME_5_PLIES
    return 0
