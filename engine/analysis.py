"""After the game: every move judged by the search, the way the field's reference site judges them.

    analysis = analyse(record)                  # any game's GameRecord, searched to a node count a position
    analysis.moves[12].judgement, analysis.moves[12].line
    analysis.players[Color.WHITE].accuracy

Each position of the game is searched to a fixed node count (``nodes``), so
the same game gives the same analysis on any machine. The positions are
searched from the last back to the first in segments of ``SEGMENT`` plies,
each segment with the transposition table cleared at its start: within a
segment the later positions' searches help the earlier ones, and a segment
can be searched on its own (the bot hands each one to its search pool as a
short job) with the same result as in one run.

How a move is judged (lidraughts' ``Advice``, read for its facts):

- a score, in hundredths of a man from the mover's side and clamped to
  +-1000, becomes winning chances ``wc = 2 / (1 + exp(-k * score)) - 1``,
  with ``k`` the game's ``chances_scale`` (0.004 for draughts);
- a move's loss is how far it lowered the mover's winning chances below the
  best move's: an inaccuracy from 0.075, a mistake from 0.15, a blunder from
  0.30;
- a move that throws a forced win away (a win seen to its end, or an ending
  the endgame databases hold as won) is judged by what remains: an
  inaccuracy if the score is still beyond 999, a mistake beyond 600, else a
  blunder; a move that walks into a forced loss from a position that was not
  lost, likewise by the score it had.

Each side's accuracy follows lichess's ``AccuracyPercent``: a move's accuracy
is ``103.1668 * exp(-0.04354 * d) - 3.1669`` (0 to 100), ``d`` the drop in
win percent (``50 + 50 * wc``); the game's figure is the mean of a mean
weighted by how much the game swung around each move and a harmonic mean.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from engine.game import Color, GameRecord, History
from engine.records import game_record
from engine.search.searcher import ENDING_BOUND, MAX_DEPTH, WIN, Limits, Searcher

NODES = 300_000
"""The default effort: nodes searched a position (about 0.1 s of one core; BENCHMARKS.md)."""
SEGMENT = 8
"""Plies searched back to back with one transposition table: the unit of work the bot queues."""
LINE = 6
"""Plies of the better line kept."""
CLAMP = 1000
"""Scores are clamped to +-this before they become winning chances (hundredths of a man)."""
THRESHOLDS = ((0.30, "blunder"), (0.15, "mistake"), (0.075, "inaccuracy"))
"""Winning chances lost from which a move is judged so, worst first."""
NAGS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}
"""How a record marks each judgement (the PGN/PDN numeric annotation glyphs' symbols)."""
WON_STILL, WON_MOSTLY = 999, 600
"""A forced win thrown away is an inaccuracy if the score left is beyond the first, a mistake beyond the second."""


def winning_chances(score: int, scale: float = 0.004) -> float:
    """The mover's winning chances, -1 to +1, of a score in hundredths of a man from the mover's side."""
    score = max(-CLAMP, min(CLAMP, score))
    return 2 / (1 + math.exp(-scale * score)) - 1


def decisive(score: int) -> bool:
    """Whether a score is a forced result: a win or loss seen to its end, or an ending the databases hold."""
    return abs(score) > ENDING_BOUND


def judge(before: int, after: int, scale: float = 0.004) -> tuple[float, str | None]:
    """(winning chances lost, judgement or None) of a move, from the best move's score ``before`` and the
    played move's score ``after``, both for the mover."""
    loss = max(0.0, winning_chances(before, scale) - winning_chances(after, scale))
    if decisive(before) and before > 0 and not (decisive(after) and after > 0):
        return loss, ("inaccuracy" if after > WON_STILL else "mistake" if after > WON_MOSTLY else "blunder")
    if decisive(after) and after < 0 and not (decisive(before) and before < 0):
        return loss, ("inaccuracy" if before < -WON_STILL else "mistake" if before < -WON_MOSTLY else "blunder")
    if decisive(before) or decisive(after):
        return loss, None  # a win kept (perhaps longer), or a loss that was already there
    return loss, next((name for limit, name in THRESHOLDS if loss >= limit), None)


def move_accuracy(before: float, after: float) -> float:
    """A move's accuracy in percent from the mover's win percent (0-100) before and after it."""
    if after >= before:
        return 100.0
    raw = 103.1668 * math.exp(-0.04354 * (before - after)) - 3.1669
    return max(0.0, min(100.0, raw))


@dataclass(frozen=True)
class Look:
    """What the search saw in one position."""

    score: int
    """For the side to move, hundredths of a man; beyond ``ENDING_BOUND`` a forced result (0 when the rules
    have drawn the game, ``-WIN`` when the side to move has lost)."""
    line: tuple[str, ...]
    """The best line, its moves as a record writes them (empty when the game is over here)."""
    database: str | None
    """The endgame databases' value for the side to move ('win', 'draw', 'loss') where they hold it."""
    nodes: int


@dataclass(frozen=True)
class Judged:
    """One move of the game, judged."""

    ply: int
    """0 for the first move of the game."""
    mover: Color
    played: str
    best: str
    line: tuple[str, ...]
    """The better line from the position before the move, starting with ``best``."""
    before: int
    """The best move's score for the mover."""
    after: int
    """The played move's score for the mover."""
    loss: float
    """Winning chances lost (0 to 2)."""
    judgement: str | None
    """'inaccuracy', 'mistake', 'blunder', or None."""
    database: str | None
    """The databases' value of the position before the move, for the mover, where they hold it."""


@dataclass(frozen=True)
class Player:
    """One side's figures."""

    inaccuracies: int
    mistakes: int
    blunders: int
    average_loss: int
    """Hundredths of a man lost a move, on average (scores clamped to +-1000)."""
    accuracy: float
    """Percent."""


@dataclass(frozen=True)
class Analysis:
    """A whole game judged: every move, and each side's figures."""

    game: str
    """The game's name (``GameType.name``)."""
    nodes: int
    """Nodes searched a position."""
    scores: tuple[int, ...]
    """Every position's score from White's side, the start's first, the final position's last."""
    moves: tuple[Judged, ...]
    players: dict[Color, Player]

    def costliest(self, count: int = 3) -> list[Judged]:
        """The moves that lost the most, worst first (judged moves only)."""
        judged = [m for m in self.moves if m.judgement is not None]
        return sorted(judged, key=lambda m: (-m.loss, m.ply))[:count]

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "nodes": self.nodes, "scores": list(self.scores),
                "moves": [{**asdict(m), "mover": int(m.mover), "line": list(m.line)} for m in self.moves],
                "players": {str(int(c)): asdict(p) for c, p in self.players.items()}}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Analysis:
        moves = tuple(Judged(**{**m, "mover": Color(m["mover"]), "line": tuple(m["line"])}) for m in data["moves"])
        players = {Color(int(c)): Player(**p) for c, p in data["players"].items()}
        return cls(data["game"], data["nodes"], tuple(data["scores"]), moves, players)


# --- searching -----------------------------------------------------------------------

@dataclass(frozen=True)
class Ply:
    """A position of the game as the analysis searches it."""

    position: Any
    history: History
    over: int | None
    """The score for the side to move when the rules have ended the game here (0 drawn, -WIN lost), else None."""


def plies(record: GameRecord[Any, Any]) -> list[Ply]:
    """Every position of a game, the start's first, with what the search needs there."""
    game = record.type.new_game(record.type.write_position(record.start))
    out = []
    for ply in range(len(record.moves) + 1):
        result = game.result()
        over = None if result is None else (0 if result.winner is None else
                                            (WIN if result.winner == game.turn else -WIN))
        out.append(Ply(game.position, game.history(), over))
        if ply < len(record.moves):
            game.play(record.moves[ply])
    return out


def segments(count: int, size: int = SEGMENT) -> list[range]:
    """The plies 0..count-1 as the segments the analysis searches, each a descending range, the last plies'
    first."""
    return [range(end - 1, max(0, end - size) - 1, -1) for end in range(count, 0, -size)]


def look_segment(searcher: Searcher[Any, Any], game: Sequence[Ply], span: Sequence[int], nodes: int = NODES,
                 known: int = 0, stop: Callable[[], bool] | None = None,
                 each: Callable[[], None] | None = None) -> list[Look]:
    """The looks at the positions of ``span`` (one of ``segments``), searched in its order with the table
    cleared first. The first ``known`` positions are searched again but not returned (they rebuild the table
    as it was when a segment cut short is taken up again, so the rest come out the same); ``stop``, asked
    before and after each position, cuts the segment short: the looks found so far come back. (A caller that
    also stops the searcher from another thread when ``stop`` turns true cuts the position in hand short too:
    its look is dropped.) ``each`` is called after each look kept."""
    searcher.clear()
    out = []
    for i, ply in enumerate(span):
        if stop is not None and stop():
            break
        seen = look(searcher, game[ply], nodes)
        if stop is not None and stop():
            break  # it may have been stopped before its node count
        if i >= known:
            out.append(seen)
            if each is not None:
                each()
    return out


def look(searcher: Searcher[Any, Any], ply: Ply, nodes: int = NODES) -> Look:
    """Search one position to ``nodes``."""
    game = searcher.game
    verdict = searcher.hooks.verdict(ply.position, ply.history.reversible) if searcher.endgames else None
    if ply.over is not None or not game.legal_moves(ply.position):
        return Look(ply.over if ply.over is not None else -WIN, (), verdict, 0)
    # a depth limit too: without one, a position with a single legal move gets only a quick look
    result = searcher.search(ply.position, Limits(nodes=nodes, depth=MAX_DEPTH), ply.history)
    line, position = [], ply.position
    for move in result.pv[:LINE]:
        line.append(game.write_move(position, move))
        position = game.make(position, move)
    return Look(result.score, tuple(line), verdict, result.nodes)


def analyse(record: GameRecord[Any, Any], nodes: int = NODES, searcher: Searcher[Any, Any] | None = None,
            progress: Callable[[int, int], None] | None = None) -> Analysis:
    """Judge every move of a game. ``progress(done, total)`` is called after each position."""
    searcher = searcher or Searcher(record.type, tt_mb=16)
    game = plies(record)
    looks: dict[int, Look] = {}
    done = 0

    def each() -> None:
        nonlocal done
        done += 1
        if progress is not None:
            progress(done, len(game))

    for span in segments(len(game)):
        looks.update(zip(span, look_segment(searcher, game, span, nodes, each=each)))
    return judged(record, [looks[ply] for ply in range(len(game))], nodes)


# --- judging -------------------------------------------------------------------------

def judged(record: GameRecord[Any, Any], looks: Sequence[Look], nodes: int) -> Analysis:
    """The analysis of a game from the looks at each of its positions (``plies`` order)."""
    if len(looks) != len(record.moves) + 1:
        raise ValueError(f"{len(looks)} looks for a game of {len(record.moves) + 1} positions")
    kind = record.type
    scale = kind.chances_scale
    moves = []
    for ply, move in enumerate(record.moves):
        position = record.positions[ply]
        seen, next_seen = looks[ply], looks[ply + 1]
        played = kind.write_move(position, move)
        after = -next_seen.score
        line = seen.line or (played,)
        before = seen.score
        if line[0] == played or after > before:
            before = after  # the best move was played, or the deeper look after it found it no worse
        loss, judgement = judge(before, after, scale)
        moves.append(Judged(ply, position.turn, played, line[0], line, before, after, loss, judgement, seen.database))
    scores = tuple(seen.score if p.turn == Color.WHITE else -seen.score
                   for seen, p in zip(looks, record.positions))
    players = {color: _player([m for m in moves if m.mover == color], scores, record, scale) for color in Color}
    return Analysis(kind.name, nodes, scores, tuple(moves), players)


def _player(moves: list[Judged], scores: tuple[int, ...], record: GameRecord[Any, Any], scale: float) -> Player:
    count = {name: sum(1 for m in moves if m.judgement == name) for name in NAGS}
    losses = [max(0, _clamped(m.before) - _clamped(m.after)) for m in moves]
    average = round(statistics.fmean(losses)) if losses else 0
    return Player(count["inaccuracy"], count["mistake"], count["blunder"], average,
                  round(_accuracy(moves, scores, scale), 1))


def _clamped(score: int) -> int:
    return max(-CLAMP, min(CLAMP, score))


def _accuracy(moves: list[Judged], scores: tuple[int, ...], scale: float) -> float:
    """One side's accuracy: lichess's mean of a volatility-weighted mean and a harmonic mean of its moves'
    accuracies, each move weighted by the spread of White's win percent over a window of positions around it."""
    if not moves:
        return 100.0
    white = [50 + 50 * winning_chances(s, scale) for s in scores]
    size = max(2, min(8, (len(scores) - 1) // 10))
    windows = [white[:size]] * max(0, min(size, len(white)) - 2) + [white[i:i + size] for i in range(len(white) - size + 1)]
    weights = [max(0.5, min(12.0, statistics.pstdev(w))) for w in windows]
    accuracies, used = [], []
    for m in moves:
        before, after = white[m.ply], white[m.ply + 1]
        if m.mover == Color.BLACK:
            before, after = 100 - before, 100 - after
        accuracies.append(move_accuracy(before, after))
        used.append(weights[min(m.ply, len(weights) - 1)])
    weighted = sum(a * w for a, w in zip(accuracies, used)) / sum(used)
    harmonic = len(accuracies) / sum(1 / max(a, 1.0) for a in accuracies)
    return (weighted + harmonic) / 2


# --- the record ----------------------------------------------------------------------

def annotated(record: GameRecord[Any, Any], analysis: Analysis, tags: dict[str, str]) -> str:
    """The game as a record with each judged move's symbol (``?!``, ``?``, ``??``) and, in a comment after
    it, the better line and the scores."""
    by_ply = {m.ply: m for m in analysis.moves}

    def write(ply: int) -> str:
        text = record.type.write_move(record.positions[ply], record.moves[ply])
        m = by_ply[ply]
        if m.judgement is None:
            return text
        held = f" The endgame databases: a {m.database}." if m.database else ""
        return (f"{text}{NAGS[m.judgement]} {{{m.judgement.capitalize()} ({_words(m.after)}). "
                f"Better {' '.join(m.line)} ({_words(m.before)}).{held}}}")

    return game_record(record, tags, write)


def _words(score: int) -> str:
    """A score as a comment gives it, for the mover: '+1.25', 'a win', 'a loss'."""
    if decisive(score):
        return "a win" if score > 0 else "a loss"
    return f"{score / 100:+.2f}"
