"""Puzzles in a channel: one at a time, anyone there may answer, and the bot plays the defender's replies.

`puzzle [variant]` posts a shipped puzzle (``engine.puzzles``) near the
asker's puzzle rating that they have not had; a move typed where a puzzle is
on (and no game) answers it. The right move is played, with the defender's
reply, until the line ends: solved. A wrong move ends the puzzle with the
answer; `solution` ends it with the answer and rates nobody. Everyone who
played a move of a solved puzzle wins against the puzzle's rating, whoever
played a wrong one loses (Glicko-2, as for games; the puzzle's own rating moves
the other way). Each step is stored before it is shown, so a restart finds the
puzzle where it was.

A channel with a game on keeps its moves for the game: `puzzle` waits until the
game ends, and a game started where a puzzle is on ends the puzzle, with its
answer.
"""

from __future__ import annotations

import contextlib
import logging
import random
from collections.abc import AsyncIterator
from dataclasses import dataclass, replace
from functools import cache
from typing import Protocol

from bot.commands import ALIASES
from bot.core.registry import Registry
from bot.core.state import Answers, DEFAULT_VARIANT, Keeps, Refusal, Solving
from bot.ratings import Change, RatedPuzzle, Rating
from bot.store import Attempt, MoveConflict, ServedPuzzle
from bot.replies import Board, Buttons, Controls, Message, NO_GAME, User
from bot.words import colour_name, game_name, game_title
from bot.translation import join, tr
from bot.user_text import quoted
from engine import Color, game_type
from engine.puzzles.puzzle import Puzzle, shipped

log = logging.getLogger(__name__)

NEAR = 12
"""A puzzle is drawn from this many of the asker's unseen puzzles nearest their rating."""
START_RD = 250.0
"""How sure a new puzzle's rating is: it starts from a guess (``starting_strength``)."""
GONE = tr("The puzzle here has just ended.")
CHANGED = tr("That was not done: the puzzle here had changed meanwhile (another bot process answered it, or it had "
             "ended). `board` shows it as it is now.")
UNRATED = Rating()
"""The rating shown for a position that has none (practice)."""
DRAUGHTS = ("english", "international", "brazilian", "russian")
"""The games that have puzzles."""


class Needs(Answers, Keeps, Protocol):
    """What the puzzles use of the core's state: the puzzles on, and the games on and the channels whose game is
    being opened (a puzzle is not posted where a game is)."""

    tables: Registry
    puzzles: dict[str, Solving]
    opening: set[str]


@cache
def puzzle_set(variant: str) -> dict[str, Puzzle]:
    """The shipped puzzles of ``variant``, by id."""
    return {p.id: p for p in shipped(variant)}


def starting_strength(puzzle: Puzzle) -> Rating:
    """A puzzle's rating before anyone has tried it, from how deep the search must look to find it and how many
    moves the solver makes."""
    return Rating(1100.0 + 150 * (min(puzzle.depth, 8) - 1) + 120 * (min(puzzle.solver_moves, 6) - 1), START_RD)


def pick(puzzles: list[Puzzle], strengths: dict[str, tuple[Rating, int]], seen: set[str], rating: float,
         rng: random.Random) -> Puzzle:
    """One of the puzzles nearest ``rating`` that is not in ``seen`` (any, once all have been seen)."""
    fresh = [p for p in puzzles if p.id not in seen] or puzzles
    near = sorted(fresh, key=lambda p: abs(strength_of(p, strengths).rating - rating))[:NEAR]
    return rng.choice(near)


def strength_of(puzzle: Puzzle, strengths: dict[str, tuple[Rating, int]]) -> Rating:
    return strengths[puzzle.id][0] if puzzle.id in strengths else starting_strength(puzzle)


def variant_of(words: list[str]) -> str:
    name = ALIASES.get(words[0].lower()) if words else DEFAULT_VARIANT
    if name is None or name not in DRAUGHTS or not puzzle_set(name):
        draughts = ", ".join(v for v in DRAUGHTS if puzzle_set(v))
        what = name if name is not None or not words else quoted(words[0], 20)
        raise Refusal(tr("I have no puzzles for {what}. Puzzles are for: {variants}.", what=what, variants=draughts))
    if len(words) > 1:
        raise Refusal(tr("Usage: `puzzle [variant]`."))
    return name


async def command(s: Needs, msg: Message, words: list[str]) -> None:
    """`puzzle [variant]`: a puzzle here, near the asker's rating."""
    variant = variant_of(words)
    check_free(s, msg.channel)
    rating, _ = await s.store.puzzle_rating(msg.guild, variant, msg.user.id)
    strengths = await s.store.puzzle_strengths(variant)
    seen = await s.store.puzzles_seen(msg.guild, variant, msg.user.id)
    puzzle = pick(list(puzzle_set(variant).values()), strengths, seen, rating.rating, random.Random())
    served = ServedPuzzle(0, msg.guild, msg.channel, variant, puzzle.id, "puzzle", puzzle.position, puzzle.solution,
                          msg.user.id, msg.user.name, s.clock())
    await post(s, served, strength_of(puzzle, strengths), msg)


def check_free(s: Needs, channel: str) -> None:
    """Refuse a puzzle where a game or a puzzle is on."""
    if channel in s.tables or channel in s.opening:
        raise Refusal(tr("A game is on in this channel, and its moves come first. Ask for a puzzle in another "
                         "channel or thread, or when the game is over."))
    if channel in s.puzzles:
        raise Refusal(tr("A puzzle is on here already: answer it with a move, or `solution` shows the answer."))


async def post(s: Needs, served: ServedPuzzle, strength: Rating, msg: Message | None, text: str | None = None) -> None:
    """Store ``served`` as the channel's puzzle, then show it (with ``text``, or a puzzle's words). The channel is
    held while the database is written (as for a new game), so no game or other puzzle starts there meanwhile;
    ``MoveConflict`` if the database already has one on there (or, for a daily puzzle, that day's)."""
    check_free(s, served.channel)
    s.opening.add(served.channel)
    try:
        number = await s.store.start_puzzle(served)
    finally:
        s.opening.discard(served.channel)
    solving = _solving(replace(served, id=number), strength)
    s.puzzles[served.channel] = solving
    gt = solving.record.type
    values = dict(title=game_title(gt.name), rating=f"{strength.rating:.0f}", colour=colour_name(solving.solver))
    text = text or (tr("Daily puzzle for {day} ({title}, rated {rating}): {colour} to play and win. Anyone may answer "
                       "with a move; `solution` shows the answer.", day=served.day, **values) if served.kind == "daily"
                    else tr("Puzzle {puzzle} ({title}, rated {rating}): {colour} to play and win. Anyone may answer "
                            "with a move; `solution` shows the answer.", puzzle=served.puzzle, **values))
    await s.say(served.channel, text, to=msg, board=_board(solving), controls=controls(solving))


def controls(solving: Solving) -> Controls:
    """The menu of the solver's moves and the Solution button, under the puzzle's latest board."""
    record = solving.record
    return Controls(Buttons.PUZZLE, solving.served.id, len(record.moves),
                    tuple(record.type.legal_texts(record.position)))


def _solving(served: ServedPuzzle, strength: Rating) -> Solving:
    record = game_type(served.variant).new_game(served.position)
    for text in served.solution[:served.ply]:
        record.play_text(text)
    return Solving(served, record, strength, {user: User(user, name) for user, name in served.movers})


def _board(solving: Solving, before=None, move=None) -> Board:
    record = solving.record
    if move is None and record.moves:
        move, before = record.moves[-1], record.positions[-2]
    caption = tr("{game} · puzzle {puzzle} · {colour} to play and win", game=game_name(record.type.name),
                 puzzle=solving.served.puzzle, colour=colour_name(solving.solver))
    return Board(NO_GAME, record.type.name, record.position, move, before, solving.solver is Color.BLACK, caption)


async def board(s: Needs, msg: Message) -> None:
    """`board` where a puzzle is on: its board again, with the menu."""
    solving = s.puzzles[msg.channel]
    await s.say(msg.channel, tr("Puzzle {puzzle}: {colour} to play and win.", puzzle=solving.served.puzzle,
                                colour=colour_name(solving.solver)), to=msg,
                board=_board(solving), controls=controls(solving))


async def moves(s: Needs, msg: Message) -> None:
    """`moves` where a puzzle is on: the solver's legal moves."""
    record = s.puzzles[msg.channel].record
    await s.private(msg, tr("Legal moves for {colour}: {moves}.", colour=colour_name(record.turn),
                            moves=", ".join(record.type.legal_texts(record.position))))


def reads_as_answer(s: Needs, channel: str, text: str) -> bool:
    """Whether ``text`` answers the puzzle on in ``channel`` (a move, legal or not, where no game is on)."""
    solving = s.puzzles.get(channel)
    return solving is not None and channel not in s.tables and solving.record.type.is_move_text(text)


async def answer(s: Needs, msg: Message) -> None:
    """A move typed where a puzzle is on: the next of the solution, or a wrong one that ends it."""
    solving = s.puzzles[msg.channel]
    async with solving.lock:
        if s.puzzles.get(msg.channel) is not solving:
            raise Refusal(GONE)
        record, served = solving.record, solving.served
        before = record.position
        played = record.type.parse_move(before, msg.text)  # a typo or an illegal move changes nothing
        ply = len(record.moves)
        right = record.type.parse_move(before, served.solution[ply])
        if played != right:
            await _fail(s, solving, msg, played, right)
            return
        movers = {**solving.movers, msg.user.id: msg.user}
        if ply + 1 == len(served.solution):
            solving.movers = movers
            await _solved(s, solving, msg, right)
            return
        reply = record.type.parse_move(record.type.make(before, right), served.solution[ply + 1])
        async with _reloading(s, solving):
            await s.store.advance_puzzle(served.id, ply + 2, [(u.id, u.name) for u in movers.values()])
        solving.movers = movers
        record.play(right)
        after_right = record.position
        record.play(reply)
        gt = record.type
        await s.say(msg.channel, tr("Right: {move}. I answer {reply}. {colour} to play.",
                                    move=gt.write_move(before, right), reply=gt.write_move(after_right, reply),
                                    colour=colour_name(solving.solver)), to=msg,
                    board=_board(solving), controls=controls(solving))


async def _solved(s: Needs, solving: Solving, msg: Message, move) -> None:
    record = solving.record
    before = record.position
    async with _reloading(s, solving):
        changes = await s.store.end_puzzle(solving.served.id, "solved",
                                           [Attempt(u.id, u.name, True) for u in solving.movers.values()],
                                           _rated(solving, list(solving.movers.values()), True))
    words = _rating_words(changes)
    del s.puzzles[msg.channel]
    record.play(move)
    who = _and([u.name for u in solving.movers.values()])
    await s.say(msg.channel, tr("{move}: solved by {names}! The whole line: {line}. {ratings}",
                                move=record.type.write_move(before, move), names=who, line=_line(solving),
                                ratings=words), to=msg, board=_board(solving, before, move))


async def _fail(s: Needs, solving: Solving, msg: Message, played, right) -> None:
    record = solving.record
    before = record.position
    seen = [a for a in _seen_by(solving) if a.user != msg.user.id]  # not rated, but not given it again
    async with _reloading(s, solving):
        changes = await s.store.end_puzzle(solving.served.id, "failed",
                                           [Attempt(msg.user.id, msg.user.name, False), *seen],
                                           _rated(solving, [msg.user], False))
    words = _rating_words(changes)
    del s.puzzles[msg.channel]
    gt = record.type
    await s.say(msg.channel, tr("{move} is not it. The answer was {right}; the whole line: {line}. {ratings}",
                                move=gt.write_move(before, played), right=gt.write_move(before, right),
                                line=_line(solving), ratings=words), to=msg,
                board=shown(solving, before, right))


def shown(solving: Solving, before, move) -> Board:
    """The position after ``move`` from ``before``, the move marked (the record is left as it was)."""
    gt = solving.record.type
    board = _board(solving)
    return Board(board.game_id, board.game, gt.make(before, move), move, before, board.flipped, board.caption)


async def solution(s: Needs, msg: Message, words: list[str]) -> None:
    """`solution`: end the puzzle on here with its answer; nobody's rating changes."""
    solving = s.puzzles.get(msg.channel)
    if solving is None:
        raise Refusal(tr("No puzzle is on here. `puzzle` asks for one."))
    async with solving.lock:
        if s.puzzles.get(msg.channel) is not solving:
            raise Refusal(GONE)
        async with _reloading(s, solving):
            await s.store.end_puzzle(solving.served.id, "shown", _seen_by(solving))
        del s.puzzles[msg.channel]
        record = solving.record
        before = record.position
        right = record.type.parse_move(before, solving.served.solution[len(record.moves)])
        await s.say(msg.channel, tr("The answer: {move}; the whole line: {line}.",
                                    move=record.type.write_move(before, right), line=_line(solving)), to=msg,
                    board=shown(solving, before, right))


async def end_for_game(s: Needs, channel: str, daily: bool = False) -> None:
    """A game (or, ``daily``, the daily puzzle) is starting in ``channel``: the puzzle on there ends, with its
    answer."""
    solving = s.puzzles.get(channel)
    if solving is None:
        return
    async with solving.lock:
        if s.puzzles.get(channel) is not solving:
            return
        try:
            await s.store.end_puzzle(solving.served.id, "shown", _seen_by(solving))
        except MoveConflict:  # it had ended in the database already (another process, or a lost answer)
            log.info("puzzle %d had ended in the database already", solving.served.id)
        del s.puzzles[channel]
        await s.say(channel, tr("The puzzle here ends for today's daily puzzle. Its answer: {line}.",
                                line=_line(solving)) if daily
                    else tr("The puzzle here ends for the game. Its answer: {line}.", line=_line(solving)))


def _seen_by(solving: Solving) -> list[Attempt]:
    """A puzzle shown unsolved: not solved by whoever asked for it or played a move of it (they are not given it
    again), though nobody's rating changes."""
    served = solving.served
    people = {served.asker: served.asker_name} if served.asker else {}
    people.update({u.id: u.name for u in solving.movers.values()})
    return [Attempt(user, name, False) for user, name in people.items()]


def _line(solving: Solving) -> str:
    return _written(solving.served.variant, solving.served.position, solving.served.solution)


def _written(variant: str, position: str, solution: tuple[str, ...]) -> str:
    """A whole solution as players write it."""
    gt = game_type(variant)
    here, words = gt.read_position(position), []
    for text in solution:
        move = gt.parse_move(here, text)
        words.append(gt.write_move(here, move))
        here = gt.make(here, move)
    return " ".join(words)


def _rated(solving: Solving, people: list[User], solved: bool) -> RatedPuzzle:
    """The puzzle's end as the database rates it (from the ratings it holds then: others may have tried the puzzle
    meanwhile); ``solving.strength`` is the puzzle's strength when nobody has tried it yet."""
    return RatedPuzzle(tuple((person.id, person.name) for person in people), solved, solving.strength)


def _rating_words(changes: list[Change]) -> str:
    return join([join([tr("{name}'s puzzle rating {before} → {after}", name=c.name, before=f"{c.before.rating:.0f}",
                          after=f"{c.after.rating:.0f}") for c in changes], "; "), "."], "")


def _and(names: list[str]) -> str:
    """Names one after another: 'ana', 'ana and ben', 'ana and ben and eve'."""
    if len(names) <= 1:
        return "".join(names)
    return tr("{names} and {last}", names=_and(names[:-1]), last=names[-1])


@contextlib.asynccontextmanager
async def _reloading(s: Needs, solving: Solving) -> AsyncIterator[None]:
    """A write to a puzzle that the database refuses as out of date (another process moved or ended it, or the
    answer to an earlier write was lost after it was made): the puzzle is read again as the database has it, and
    the person told that nothing was done."""
    try:
        yield
    except MoveConflict:
        served = solving.served
        now = next((p for p in await s.store.puzzles_on() if p.id == served.id), None)
        if now is None:
            s.puzzles.pop(served.channel, None)
        else:
            s.puzzles[served.channel] = _solving(now, solving.strength)
        raise Refusal(CHANGED) from None


async def restore(s: Needs, owns) -> int:
    """Bring back the puzzles still on in the servers this process serves; how many."""
    count = 0
    for served in await s.store.puzzles_on():
        if not owns(served.guild):
            continue
        strengths = await s.store.puzzle_strengths(served.variant)
        puzzle = puzzle_set(served.variant).get(served.puzzle)
        strength = strengths[served.puzzle][0] if served.puzzle in strengths else (
            starting_strength(puzzle) if puzzle else Rating(1500.0, START_RD))
        s.puzzles[served.channel] = _solving(served, strength)
        count += 1
    return count


@dataclass(frozen=True)
class Step:
    """How far a solver's moves go in a puzzle (the web page's check, the same as the chat's)."""

    verdict: str
    """'right' (the moves so far are the solution's: go on), 'solved', or 'wrong'."""
    reply: str | None = None
    """After a right move that is not the last: the defender's answer, as players write it."""
    wrong: int | None = None
    """After a wrong move: which of the solver's moves it was (0 the first); any after it are not looked at."""
    line: str = ""
    """Once it is over: the whole solution."""


def attempt(puzzle: Puzzle, moves: list[str]) -> Step:
    """The solver's ``moves`` (as typed, one per turn) checked against ``puzzle``'s solution, the defender's replies
    played between them; a ``MoveError`` for a move that is not legal where it is played."""
    gt = game_type(puzzle.variant)
    here = gt.read_position(puzzle.position)
    whole = _written(puzzle.variant, puzzle.position, puzzle.solution)
    step = Step("right")
    for n, text in enumerate(moves):
        ply = 2 * n
        if ply >= len(puzzle.solution):
            return Step("solved", line=whole)
        played, right = gt.parse_move(here, text), gt.parse_move(here, puzzle.solution[ply])
        if played != right:
            return Step("wrong", wrong=n, line=whole)
        here = gt.make(here, right)
        if ply + 1 == len(puzzle.solution):
            return Step("solved", line=whole)
        reply = gt.parse_move(here, puzzle.solution[ply + 1])
        step = Step("right", reply=gt.write_move(here, reply))
        here = gt.make(here, reply)
    return step
