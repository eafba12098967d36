"""Whether a position is a puzzle, proved by searching every move: one move wins, and only that one.

    line = solve(searcher, position, depth=16)     # a Solution, or a Rejected saying why not

The side to move is the solver. A position is a puzzle when, searched to
``depth`` (each move's reply to ``depth - 1``):

- the best move scores at least ``WIN_BY`` (a man and a half, or a win the
  search sees to its end, or one the endgame databases hold);
- that is at least ``GAIN`` above the material on the board: the win is the
  move's doing, not a lead the solver had already;
- every other move scores at most ``NOT_WON`` (no second way to win; with
  the first rule each is at least a man worse).

The solution goes on, with the defender's best reply each time, while the
solver's move is still the only one that keeps the win (a move that is the only
legal one counts too); it ends with the solver's last such move, when several
moves win (the win is clear) or the defender has no move left, and after
``MAX_MOVES`` of the solver's moves at most. A later move that is not the only
way on ends the line without rejecting it; the first must be.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.draughts.evaluation_tables import W_KING, W_MAN
from engine.draughts.weight_files import hand_weights
from engine.draughts.position import Move, Position
from engine.errors import FenError, MoveError
from engine.game import Color, GameType
from engine.puzzles.puzzle import Puzzle
from engine.search.searcher import ENDING_BOUND, WIN, Limits, Searcher

WIN_BY = 150
"""The solution's score at least this many hundredths of a man."""
GAIN = 100
"""... and at least this above the material balance before it."""
NOT_WON = 50
"""Every other move scores at most this."""
MAX_MOVES = 10
"""The solver's moves in a solution at most."""


@dataclass(frozen=True)
class Scored:
    """A move and what the search makes of it, from the mover's side."""

    move: Move
    score: int
    line: tuple[Move, ...]
    """The move and the replies the search expects."""


@dataclass(frozen=True)
class Solution:
    """A proved puzzle's solution."""

    moves: tuple[Move, ...]
    """The solver's moves and the defender's replies between them; it ends with the solver's move."""
    score: int
    """The first move's score, from the solver's side."""
    gain: int
    """The score above the material balance on the board before it."""
    others: int
    """The best score of any other first move (-WIN if the solution is the only legal move)."""
    databases: bool
    """Whether the win is one the endgame databases hold."""


@dataclass(frozen=True)
class Rejected:
    """Why a position is not a puzzle."""

    reason: str


def material(position: Position, colour: Color) -> int:
    """``colour``'s men and kings at their nominal values minus the other side's, in hundredths of a man."""
    weights = hand_weights(position.variant)
    man, king = int(weights[W_MAN]), int(weights[W_KING])
    (men, kings), (their_men, their_kings) = position.count(colour), position.count(colour.opponent)
    return (men - their_men) * man + (kings - their_kings) * king


def scored_moves(searcher: Searcher, position: Position, depth: int) -> list[Scored]:
    """Every legal move with its score (its reply searched to ``depth - 1``), best first."""
    game: GameType = searcher.game
    scored = []
    for move in game.legal_moves(position):
        after = game.make(position, move)
        if not game.legal_moves(after):
            scored.append(Scored(move, WIN - 1, (move,)))  # the defender cannot move: won at once
            continue
        reply = searcher.search(after, Limits(depth=max(1, depth - 1)))
        scored.append(Scored(move, -reply.score, (move,) + reply.pv))
    scored.sort(key=lambda s: -s.score)
    return scored


def winning(score: int, margin: int = 0) -> bool:
    return score >= WIN_BY + margin


def solve(searcher: Searcher, position: Position, depth: int, margin: int = 0) -> Solution | Rejected:
    """The puzzle's solution if ``position`` is one at ``depth``, else why not; ``margin`` makes each rule stricter
    by that much (the miner's safety, so that a deeper search in ``check`` still agrees). The searcher's tables are
    cleared first, so the answer depends only on the position and the settings."""
    searcher.clear()
    game: GameType = searcher.game
    solver = position.turn
    first = scored_moves(searcher, position, depth)
    if len(first) < 2:
        return Rejected("the move is forced")
    best, second = first[0], first[1]
    if not winning(best.score, margin):
        return Rejected(f"no move wins ({best.score:+d})")
    gain = best.score - material(position, solver)
    if best.score < ENDING_BOUND and gain < GAIN:
        return Rejected(f"the solver is ahead already ({material(position, solver):+d} on the board)")
    if second.score > NOT_WON - margin:
        return Rejected(f"not unique: {game.write_move(position, second.move)} wins too ({second.score:+d})")
    moves = [best.move]
    line, here = best.line, game.make(position, best.move)
    while len(moves) < 2 * MAX_MOVES - 1:
        reply = line[1] if len(line) > 1 else None
        if reply is None:
            defender = game.legal_moves(here)
            if not defender:
                break
            reply = searcher.search(here, Limits(depth=max(1, depth - 1))).move
        there = game.make(here, reply)
        if not game.legal_moves(there):
            break  # the defender's reply leaves the solver without a move: cannot happen after a win, but stop
        options = scored_moves(searcher, there, depth)
        if len(options) > 1 and options[1].score > NOT_WON - margin or not winning(options[0].score, margin):
            break  # several moves win now (or the line was misjudged): the win is clear where it stands
        moves += [reply, options[0].move]
        line, here = options[0].line, game.make(there, options[0].move)
    return Solution(tuple(moves), best.score, gain, second.score, best.score >= ENDING_BOUND)


def first_seen(searcher: Searcher, position: Position, move: Move, depth: int) -> int:
    """The shallowest depth, up to ``depth``, at which a plain search plays ``move`` with a winning score: how deep
    a player must look to find it (``depth + 1`` if it never does)."""
    for d in range(1, depth + 1):
        result = searcher.search(position, Limits(depth=d), fresh=True)
        if result.move == move and winning(result.score):
            return d
    return depth + 1


REPLY_SLACK = 50
"""A defender's reply in a stored line may score this much below the defender's best at ``check``'s depth."""


def check(searcher: Searcher, puzzle: Puzzle, depth: int) -> str | None:
    """None if each of the solver's moves in ``puzzle`` is still the only winning one at ``depth`` (the first one
    winning by ``WIN_BY``, by ``GAIN`` above the material on the board, the later ones keeping the win), and each of
    the defender's replies is the best or about as good as the best, else what is wrong."""
    game: GameType = searcher.game
    try:
        here = game.read_position(puzzle.position)
    except FenError as e:
        return f"the position cannot be read: {e}"
    searcher.clear()
    for ply, text in enumerate(puzzle.solution):
        try:
            move = game.parse_move(here, text)
        except MoveError as e:
            return f"move {ply + 1}, {text}, is not legal: {e}"
        if ply % 2 == 0 and len(game.legal_moves(here)) > 1:
            scored = scored_moves(searcher, here, depth)
            mine = next(s for s in scored if s.move == move)
            if not winning(mine.score):
                return f"{text} does not win ({mine.score:+d})"
            other = next(s for s in scored if s.move != move)
            if other.score > NOT_WON:
                return f"not unique: {game.write_move(here, other.move)} wins too ({other.score:+d})"
            if ply == 0 and mine.score < ENDING_BOUND and mine.score - material(here, here.turn) < GAIN:
                return f"{text} wins only {mine.score - material(here, here.turn):+d} above the material"
        elif ply % 2 == 1 and len(game.legal_moves(here)) > 1:
            scored = scored_moves(searcher, here, depth - 1)
            mine = next(s for s in scored if s.move == move)
            if mine.score < scored[0].score - REPLY_SLACK and scored[0].score > -ENDING_BOUND:
                return (f"the defender's {text} is not the best reply: {game.write_move(here, scored[0].move)} "
                        f"holds out better ({scored[0].score:+d} against {mine.score:+d})")
        here = game.make(here, move)
    return None
