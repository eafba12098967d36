"""The bot's moves: started when a bot is to move, searched in the pool, stored, then announced."""

from __future__ import annotations

import asyncio
import logging
import random
import time

from bot.clocks import LEAST_THINK, think_time
from bot.core import flags
from bot.core.replay import reload
from bot.core.results import finish, finish_by_rules
from bot.core.state import Plays, written
from bot.ending import Ending
from bot.evaluation import Evaluation
from bot.events import Moved, Started
from bot.pool import PoolBusy, PoolFailed
from bot.store import MoveConflict, SaveFailed
from bot.tables import Kind, Seat, Table
from bot.translation import tr
from bot.worker import Job
from engine import GameRecord, Termination

log = logging.getLogger(__name__)

MATCH_PLY_LIMIT = 300  # a bot match this long is a draw
FIRST_RETRY = 1.0  # seconds before the first try again to save a bot move the database did not take
LAST_RETRY = 30.0  # the longest pause between tries (each pause doubles)


def kick(s: Plays, table: Table) -> None:
    """Start the bot's move (or the bot match) if a bot is to move and none is under way."""
    if table.to_move.is_bot and (table.task is None or table.task.done()) and s.tables.is_on(table):
        table.task = asyncio.create_task(_bot_moves(s, table), name=f"bot moves in game {table.id}")


async def _bot_moves(s: Plays, table: Table) -> None:
    """Play the bot's moves while a bot is to move: one in a game against a person, all in a match."""
    try:
        await _play_bot_moves(s, table)
    except asyncio.CancelledError:
        raise
    except Exception:  # the game stays as stored; the clock's tick starts the bot again
        log.exception("the bot's move in game %d failed", table.id)


async def _play_bot_moves(s: Plays, table: Table) -> None:
    while s.tables.is_on(table) and table.to_move.is_bot:
        game = table.game
        seat = table.to_move
        assert seat.level is not None
        ply = len(game.moves)
        budget = _budget(s, table)
        timed = table.clocks is not None and not table.control.correspondence
        job = Job(game.type.name, game.type.write_position(game.position), game.history(), seat.level, budget,
                  due=time.time() + budget if timed else None)  # (a wait in the pool's queue, real time, comes off)
        try:
            answer_text, score = await think(s, table, job)
        except PoolBusy:
            await asyncio.sleep(1.0)
            continue
        if not await _store_and_play(s, table, game, ply, seat, answer_text, score):
            continue
        if not s.tables.is_on(table) or table.game.result() is not None:
            return
        if table.kind is Kind.MATCH and table.delay:
            await asyncio.sleep(table.delay)


def _budget(s: Plays, table: Table) -> float:
    """The seconds the bot may search its move: its level's time a move, or in a timed game a share of its clock
    (``bot.clocks.think_time``), never over ``max_move_time``; no time at all for the only legal move. A choice between captures is critical:
    draughts games are won and lost there."""
    game, clocks = table.game, table.clocks
    if clocks is None or table.control.correspondence:
        return table.budget
    moves = game.legal_moves()
    if len(moves) == 1:
        return LEAST_THINK
    return min(s.config.max_move_time, think_time(clocks.left(game.turn, game.turn, s.clock()),
                                                  table.control.increment, len(game.moves) // 2,
                                                  critical=any(move.captures for move in moves)))


async def _store_and_play(s: Plays, table: Table, game: GameRecord, ply: int, seat: Seat, answer_text: str,
                          score: int) -> bool:
    """Write the bot's found move, then play and announce it; False if the game changed meanwhile, so the move no
    longer counts. While the database cannot take it (``table.saving``), the move is kept and the write tried again
    after a pause that grows (the search is not run again); the channel hears of it once, and again when it is
    saved."""
    pause = FIRST_RETRY
    try:
        while True:
            async with table.lock:
                if not s.tables.is_on(table) or table.game is not game or len(game.moves) != ply:
                    return False  # the game ended, changed or was reloaded while the bot was thinking or waiting
                before = game.position
                move = game.type.parse_move(before, answer_text)
                now = s.clock()
                if await flags.flag(s, table):
                    return False  # (it never should: the bot keeps time in hand)
                clocks = table.clocks_moved(now)
                try:
                    table.version = await s.store.add_move(table.id, table.version, ply, answer_text,
                                                           clocks.to_json() if clocks else None)
                except MoveConflict:
                    await reload(s, table)
                    if table.saving and s.tables.is_on(table) and written(table, ply, answer_text):
                        # an earlier try was written, though the database's answer to it was lost
                        # (its followers have had the game whole from the reload, with the move)
                        await _played(s, table, seat, table.game.positions[ply], table.game.moves[ply], score,
                                      reloaded=True)
                        return True
                    log.warning("game %d moved on in the database while I was thinking: reloading it", table.id)
                    return False
                except SaveFailed as error:
                    log.warning("could not store the bot's move in game %d (%s); trying again in %.0f s",
                                table.id, error, pause)
                    if not table.saving:
                        table.saving = True
                        await s.say(table.channel, tr(
                            "I could not save my move: the database is not answering. I will keep trying, and play "
                            "it as soon as it is saved.") if table.kind is not Kind.MATCH else tr(
                            "I could not save {name}'s move: the database is not answering. I will keep trying, and "
                            "play it as soon as it is saved.", name=seat.name))
                else:
                    game.play(move)
                    table.clocks = clocks
                    table.clocks_after.append(clocks)
                    await _played(s, table, seat, before, move, score)
                    return True
            await asyncio.sleep(pause)
            pause = min(pause * 2, LAST_RETRY)
    finally:
        table.saving = False


async def _played(s: Plays, table: Table, seat: Seat, before, move, score: int, reloaded: bool = False) -> None:
    """A bot move stored and played: announced (saved at last, if the channel heard it could not be), and the game
    ended if the rules or the match's length say so."""
    table.evaluation = Evaluation.of(score, before.turn).white
    now = s.clock()
    took, table.last_activity, table.reminded = now - table.last_activity, now, False
    await _announce(s, table, before, move, took, late=table.saving, reloaded=reloaded)
    if await finish_by_rules(s, table):
        return
    if table.kind is Kind.MATCH and len(table.game.moves) >= MATCH_PLY_LIMIT:
        await finish(s, table, Ending(None, Termination.MOVE_LIMIT))
    else:
        flags.watch(s, table)


async def think(s: Plays, table: Table, job: Job) -> tuple[str, int]:
    """The bot's move as full path text, and its score; searched in the pool, else in process."""
    try:
        answer = await s.pool.think(table.channel, job)
        return answer.move, answer.score
    except PoolFailed:
        log.exception("the search processes failed on game %d; falling back to a shallow search", table.id)
        position = table.game.position
        move = table.game.type.fallback_move(position, random.Random())
        return table.game.type.write_move(position, move, full=True), 0


async def _announce(s: Plays, table: Table, before, move, took: float, late: bool = False,
                    reloaded: bool = False) -> None:
    """Say the bot's move ``move`` (from ``before``, the game's last), and tell it to the game's followers (the game
    whole if it was ``reloaded`` with the move)."""
    text = table.move_said(late)
    if reloaded:  # (the game whole again, now with the bot's evaluation and the move's words)
        s.tell(table, Started, text)
    else:
        s.tell(table, Moved, text, move=table.game.type.write_move(before, move, full=True), mover=before.turn,
               seconds=took, evaluation=table.evaluation, late=late, clocks=table.clocks)
    to_move = table.to_move.user
    await s.show(table, text, before=before, move=move, mentions=(to_move,) if to_move else (), told=True)
