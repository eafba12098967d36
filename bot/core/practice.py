"""Practice from a person's own games: the positions of their analysed games where they made a mistake or a blunder,
to find the better move.

`practice` posts the newest such position the person has not practised yet (the
positions come from `analyse`: only analysed games have them). Only that person
answers. The engine's move counts, and so does any move that keeps within an
inaccuracy of it: the move is searched in the pool as the analysis searches
(the same effort, the same judgement), and counts when the analysis would not
have marked it. Practice is not rated.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace
from typing import Any, Protocol

from bot.core import puzzles
from bot.pool import PoolFailed, SearchPool
from bot.core.state import Refusal
from bot.store import Attempt, ServedPuzzle
from bot.replies import Message
from bot.tables import stored_seats
from bot.words import colour_name
from bot.translation import TWO_PLACES, Text, number, tr
from bot.worker import Segment
from engine import GameType, game_type
from engine.analysis import Analysis, Judged, judge

JUDGE_WAIT = 60.0
"""Seconds a move waits to be judged (its search waits behind every move of every game) before the person is told
to try again."""
PRACTISED = ("mistake", "blunder")
"""The judgements whose positions a person practises."""
KEY = "practice:{game}:{ply}"


class Needs(puzzles.Needs, Protocol):
    """What practice uses of the core's state: the puzzles', and the search processes."""

    pool: SearchPool


async def command(s: Needs, msg: Message, words: list[str]) -> None:
    """`practice`: a position from the asker's own analysed games where they went wrong."""
    if words:
        raise Refusal(tr("Usage: `practice` (positions from your own analysed games)."))
    puzzles.check_free(s, msg.channel)
    spots = await _spots(s, msg)
    if not spots:
        raise Refusal(tr("You have nothing to practise yet: `analyse` your finished games, and the positions where "
                         "you made a mistake or a blunder come here."))
    seen: dict[str, set[str]] = {}
    for variant, _, _ in spots:
        if variant not in seen:
            seen[variant] = await s.store.puzzles_seen(msg.guild, variant, msg.user.id)
    variant, game, move = next((spot for spot in spots if _key(spot) not in seen[spot[0]]), spots[0])
    stored = await s.store.game(game)
    if stored is None:
        raise Refusal(tr("That game is no longer in the database."))
    gt = game_type(variant)
    here = gt.read_position(stored.start_fen)
    for text in stored.moves[:move.ply]:
        here = gt.make(here, gt.parse_move(here, text))
    best = gt.parse_move(here, move.best)
    served = ServedPuzzle(0, msg.guild, msg.channel, variant, _key((variant, game, move)), "practice",
                          gt.write_position(here), (gt.write_move(here, best, full=True),), msg.user.id, msg.user.name,
                          s.clock())
    number = len(stored.moves[:move.ply]) // 2 + 1
    text = tr("Practice for {name}, from game {game} (move {number}): you played {move} here, {judgement}. {colour} to "
              "play: find the better move. Only {name} answers; `solution` shows it.", name=msg.user.name, game=game,
              number=number, move=move.played, judgement=_a(move.judgement), colour=colour_name(here.turn))
    await puzzles.post(s, served, puzzles.UNRATED, msg, text)


JUDGEMENTS = {"inaccuracy": tr("an inaccuracy"), "mistake": tr("a mistake"), "blunder": tr("a blunder")}
"""The analysis's judgements of a move, as a sentence names one."""


def _a(judgement: str | None) -> str:
    return JUDGEMENTS.get(judgement or "", tr("a slip"))


def _key(spot: tuple[str, int, Judged]) -> str:
    return KEY.format(game=spot[1], ply=spot[2].ply)


async def _spots(s: Needs, msg: Message) -> list[tuple[str, int, Judged]]:
    """The asker's mistakes and blunders in this server's analysed games: (variant, game, the move), newest game
    first, in the order played."""
    spots = []
    for game, seats, data in await s.store.analysed_games(msg.guild, s.config.analysis_nodes):
        people = {c: seat.user for c, seat in stored_seats(seats).items()}
        colours = [c for c, person in people.items() if person is not None and person.id == msg.user.id]
        if not colours:
            continue
        analysis = Analysis.from_json(data)
        spots += [(analysis.game, game, m) for m in analysis.moves
                  if m.mover in colours and m.judgement in PRACTISED]
    return spots


async def answer(s: Needs, msg: Message) -> None:
    """The asker's move in their practice position: the engine's move, one within an inaccuracy of it, or not."""
    solving = s.puzzles[msg.channel]
    async with solving.lock:
        if s.puzzles.get(msg.channel) is not solving:
            raise Refusal(puzzles.GONE)
        served = solving.served
        if msg.user.id != served.asker:
            raise Refusal(tr("This practice position is {name}'s: only they answer it. `solution` ends it.",
                             name=served.asker_name))
        record = solving.record
        before = record.position
        played = record.type.parse_move(before, msg.text)
        best = record.type.parse_move(before, served.solution[0])
        good, words = await verdict(s, msg.user.id, record.type, before, played, best)
        await s.store.end_puzzle(served.id, "solved" if good else "failed", [Attempt(msg.user.id, msg.user.name, good)])
        del s.puzzles[msg.channel]
        await s.say(msg.channel, words, to=msg, board=puzzles.shown(solving, before, played if good else best))


async def verdict(s: Needs, owner: str, kind: GameType[Any, Any], before: Any, played: Any,
                  best: Any) -> tuple[bool, Text]:
    """Whether ``played`` counts in a practice position (``before``, of game ``kind``; ``best``: the engine's move):
    the engine's move does, and so does one the analysis would not have marked (searched in the pool for
    ``owner``); and the words that say so."""
    shown, right = kind.write_move(before, played), kind.write_move(before, best)
    if played == best:
        return True, tr("{move}: the engine's move. Well found!", move=shown)
    loss, judgement = await _judged(s, owner, kind, before, played)
    if judgement is None:
        return True, tr("{move} keeps within an inaccuracy of the engine's move, {best}: that counts.", move=shown,
                        best=right)
    return False, tr("{move} is not it ({judgement}: {loss} of your winning chances lost). The engine's move: "
                     "{best}.", move=shown, judgement=_a(judgement), loss=number(loss, TWO_PLACES), best=right)


async def _judged(s: Needs, owner: str, kind: GameType[Any, Any], before: Any, played: Any) -> tuple[float, str | None]:
    """How the analysis would judge ``played`` in the practice position: searched in the pool, both the position
    and the one after the move, at the analysis's effort."""
    record = kind.new_game(kind.write_position(before))
    record.play(played)
    segment = Segment.of(record, (0, 1), s.config.analysis_nodes)
    found: list = []
    try:
        async with asyncio.timeout(JUDGE_WAIT):
            while len(found) < 2:  # a segment that gave way to a move goes on where it stopped
                found += await s.pool.look(owner, replace(segment, known=len(found)))
    except (TimeoutError, PoolFailed):  # (failed: a search process died on every try)
        raise Refusal(tr("I am busy with many games right now and could not judge that move; the position is still "
                         "yours: try again in a minute.")) from None
    return judge(found[0].score, -found[1].score, record.type.chances_scale)
