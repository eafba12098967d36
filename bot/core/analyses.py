"""Game analyses: `analyse [game]` in chat, the Analyse button and the web page's request.

Only a finished game is analysed (a game still on between people never is:
that would be the engine's help). The work is cut into the engine's segments
(``engine.analysis.segments``), each a low-priority job of the search pool,
so live moves go first and the answer is the same as ``python -m engine
analyse`` gives. One analysis at a time per person, at most
``MAX_PER_SERVER`` a server and ``MAX_ANALYSES`` in all. While it runs, the channel that asked gets a
progress line now and then (a reply that updates the first one, where the
front end can edit it); at the end, each channel that asked gets the summary
and the graph. The analysis is kept in the database, so asking again, or
after a restart, answers at once.
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass, replace
from typing import Any, Protocol

from bot.commands import whole_number
from bot.core.replay import replayed_record
from bot.core.state import Keeps, Refusal, Running, Send
from bot.pool import PoolFailed, SearchPool
from bot.store import FinishedGame, SaveFailed
from bot.evaluation import Evaluation
from bot.replies import Message, Reply, User
from bot.tables import Seat
from bot.words import JUDGEMENTS, colour_name, game_name
from bot.translation import PERCENT, TWO_PLACES, Text, join, number, plural, tr
from bot.worker import Segment
from engine import Color, GameRecord, game_type
from engine.analysis import Analysis, Judged, Look, judged, segments

log = logging.getLogger(__name__)

MAX_ANALYSES = 20
"""Analyses queued or running in this process; past it, asking is refused with a wait."""
MAX_PER_SERVER = 5
"""Of those, the most one server may have (the web page's guests are one server)."""
PROGRESS_EVERY = 5.0
"""Seconds between progress lines."""
SHOWN_FOR = 30 * 60.0
"""Seconds after an analysis is posted in a channel during which asking for it there again is pointed at the post
rather than posting it again (an analysis is a long text and an image: anyone asking could flood the channel)."""


class Needs(Keeps, Protocol):
    """What the analyses use of the core's state: the search processes, the analyses under way and shown, and the
    front end's ``send`` (an analysis's progress is a reply that updates itself)."""

    send: Send
    pool: SearchPool
    analyses: dict[int, Running]
    analysis_asks: asyncio.Lock
    analyses_shown: dict[tuple[str, int], float]


def still_on(game: int) -> Text:
    """Why a game still on is not analysed (in chat and on its page)."""
    return tr("Game {game} is still being played. I analyse a game once it is over.", game=game)


@dataclass(frozen=True)
class Progress:
    """How far the analysis of one game is, for a front end that shows it (the web page)."""

    game: int
    done: int
    """Positions searched so far (``total`` once done, 0 when not asked for)."""
    total: int
    analysis: Analysis | None = None
    """The analysis once done."""
    running: bool = False
    """Under way (asked for, not done yet)."""


def progress_key(game: int) -> str:
    """The key of a game's analysis replies: each one updates the last (``Reply.update``)."""
    return f"analysis-{game}"


async def command(s: Needs, msg: Message, words: list[str]) -> None:
    """`analyse [game]`: the channel's last finished game, or the one numbered."""
    finished = await _finished(s, msg.guild, await _game_named(s, msg, words))
    game = finished.game.id
    kept, running = await _kept_or_running(s, finished, msg.user, msg)
    if kept is not None:
        await _answer(s, msg, finished, Analysis.from_json(kept))
        return
    assert running is not None
    await s.send(Reply(msg.channel, _analysing(game, running.total, bool(s.pool.waiting), len(s.analyses) - 1),
                       to=msg, update=progress_key(game)))


def _once_here(s: Needs, msg: Message, game: int) -> None:
    """Mark the analysis of ``game`` posted in the message's channel now; refused, pointing at the post, if it was
    posted there less than ``SHOWN_FOR`` seconds ago (anyone may ask, but the channel sees it once)."""
    now = s.clock()
    for key, at in list(s.analyses_shown.items()):  # forget the posts that are old enough to be asked for again
        if now - at >= SHOWN_FOR:
            del s.analyses_shown[key]
    posted = s.analyses_shown.get((msg.channel, game))
    if posted is not None:
        raise Refusal(plural("I posted the analysis of game {game} in this channel {count} minute ago: scroll up to "
                             "it.", "I posted the analysis of game {game} in this channel {count} minutes ago: scroll "
                             "up to it.", max(1, round((now - posted) / 60)), game=game))
    s.analyses_shown[msg.channel, game] = now


def _analysing(game: int, total: int, moves: bool, others: int) -> str:
    """The first progress line: how many positions, and what goes first (the moves being played, other analyses)."""
    if moves and others:
        after: str | None = plural("the moves being played and {count} other analysis",
                                   "the moves being played and {count} other analyses", others)
    elif moves:
        after = tr("the moves being played")
    else:
        after = plural("{count} other analysis", "{count} other analyses", others) if others else None
    if after is None:
        return plural("Analysing game {game}: {count} position. I will post it here.",
                      "Analysing game {game}: {count} positions. I will post it here.", total, game=game)
    return plural("Analysing game {game}: {count} position, after {after}. I will post it here.",
                  "Analysing game {game}: {count} positions, after {after}. I will post it here.", total, game=game,
                  after=after)


async def progress(s: Needs, game: int, guild: str) -> Progress:
    """How far the analysis of ``game`` is: done (from the database), under way, or not asked for."""
    running = s.analyses.get(game)
    if running is not None:
        return Progress(game, running.done, running.total, running=True)
    finished = await _finished(s, guild, game)
    return _kept(finished, await s.store.analysis(game, s.config.analysis_nodes))


async def ask(s: Needs, game: int, guild: str, asker: User) -> Progress:
    """Start the analysis of ``game`` for a front end without a chat message (the web page); refused as in chat."""
    finished = await _finished(s, guild, game)
    kept, running = await _kept_or_running(s, finished, asker, None)
    if kept is not None:
        return _kept(finished, kept)
    assert running is not None  # (joined, if under way)
    return Progress(game, running.done, running.total, running=True)


def _kept(finished: FinishedGame, stored: dict | None) -> Progress:
    """The progress of an analysis the database has (done) or has not (not asked for)."""
    total = len(finished.game.moves) + 1
    return Progress(finished.game.id, total if stored else 0, total, Analysis.from_json(stored) if stored else None)


async def _kept_or_running(s: Needs, finished: FinishedGame, asker: User,
                           msg: Message | None) -> tuple[dict | None, Running | None]:
    """The analysis of a finished game as the database keeps it (marked posted in the channel of ``msg``, if any),
    or else the one under way, started or joined. Asks are taken one at a time, from the database's answer to the
    join, so asks at the same moment, or one made as an analysis ends, cannot pass each other's checks."""
    async with s.analysis_asks:
        if finished.game.id in s.analyses:  # (first: one that is saved but not yet posted is still joined)
            return None, await _request(s, finished, asker, msg)
        kept = await s.store.analysis(finished.game.id, s.config.analysis_nodes)
        if kept is not None:
            if msg is not None:
                _once_here(s, msg, finished.game.id)
            return kept, None
        return None, await _request(s, finished, asker, msg)


async def _request(s: Needs, finished: FinishedGame, asker: User, msg: Message | None) -> Running:
    """The analysis of a finished game, started (or joined, if under way: under ``s.analysis_asks``); ``msg`` is
    answered at the end, in its channel (once a channel: a second ask there is told it is coming)."""
    game = finished.game.id
    running = s.analyses.get(game)
    if running is not None:
        if msg is not None:
            asked_here = next((m for m in running.asked if m.channel == msg.channel), None)
            if asked_here is not None and asked_here.user.id == msg.user.id:
                raise Refusal(tr("You asked already: the analysis of game {game} is {done}, and I will post it "
                                 "here.", game=game, done=_percent(running)))
            if asked_here is not None:
                raise Refusal(tr("Game {game} is being analysed already ({done}); I will post it here.",
                                 game=game, done=_percent(running)))
            running.asked.append(msg)
        return running
    mine = next((r for r in s.analyses.values() if r.owner == asker.id), None)
    if mine is not None:
        raise Refusal(tr("Your analysis of game {game} is still under way ({done}); one at a time, please.",
                         game=mine.game, done=_percent(mine)))
    if len(s.analyses) >= MAX_ANALYSES:
        raise Refusal(plural("{count} analysis is waiting for me already. Ask again in a few minutes.",
                             "{count} analyses are waiting for me already. Ask again in a few minutes.",
                             len(s.analyses)))
    here = sum(1 for r in s.analyses.values() if r.guild == finished.game.guild)
    if here >= MAX_PER_SERVER:
        raise Refusal(plural("{count} analysis of this server's games is waiting for me already. Ask again when "
                             "one is done.", "{count} analyses of this server's games are waiting for me already. "
                             "Ask again when one is done.", here))
    record = await asyncio.to_thread(replayed_record, finished.game)  # a long game: tens of ms
    if record is None:
        raise Refusal(tr("Game {game} cannot be replayed, so I cannot analyse it.", game=game))
    running = s.analyses[game] = Running(game, asker.id, finished.game.guild, len(record.moves) + 1)
    running.task = asyncio.create_task(_run(s, running, finished, record))
    if msg is not None:
        running.asked.append(msg)
    return running


async def _run(s: Needs, running: Running, finished: FinishedGame, record: GameRecord[Any, Any]) -> None:
    nodes = s.config.analysis_nodes
    try:
        analysis = await _searched(s, running, record, nodes)
        try:
            await s.store.save_analysis(running.game, nodes, analysis.to_json())
        except SaveFailed as error:
            log.warning("could not keep the analysis of game %d (%s); it is posted all the same", running.game, error)
    except Exception as error:  # the pool's processes died on every try, or anything unforeseen: say so
        if isinstance(error, PoolFailed):
            log.error("the analysis of game %d failed: %s", running.game, error)
        else:
            log.exception("the analysis of game %d failed", running.game)
        for msg in running.asked:  # in place of the progress line, which everyone saw
            await s.send(Reply(msg.channel, tr("The analysis of game {game} failed on my side; it is logged. Ask "
                                               "again in a while.", game=running.game), to=msg,
                               update=progress_key(running.game)))
        return
    finally:
        if s.analyses.get(running.game) is running:
            del s.analyses[running.game]
    for msg in running.asked:  # (one a channel)
        s.analyses_shown[msg.channel, running.game] = s.clock()
        await _answer(s, msg, finished, analysis)


async def _searched(s: Needs, running: Running, record: GameRecord[Any, Any], nodes: int) -> Analysis:
    """Every segment searched in the pool (all queued at once; the pool orders them), with progress lines."""
    game = Segment.of(record, (), nodes)  # the game written once, for every segment's job

    async def segment(span: range) -> tuple[range, list[Look]]:
        found: list[Look] = []
        while len(found) < len(span):  # a segment that gave way to a move goes on where it stopped
            found += await s.pool.look(running.owner, replace(game, plies=tuple(span), known=len(found)))
        return span, found

    jobs = [asyncio.ensure_future(segment(span)) for span in segments(running.total)]
    looks: dict[int, Look] = {}
    told = time.monotonic()
    try:
        for done in asyncio.as_completed(jobs):
            span, found = await done
            looks.update(zip(span, found))
            running.done = len(looks)
            if time.monotonic() - told >= PROGRESS_EVERY and running.done < running.total:
                told = time.monotonic()
                for msg in running.asked:
                    await s.send(Reply(msg.channel, tr("Analysing game {game}: {done}.", game=running.game,
                                                       done=_percent(running)), to=msg,
                                       update=progress_key(running.game)))
    finally:
        for job in jobs:
            job.cancel()
    return await asyncio.to_thread(judged, record, [looks[p] for p in range(running.total)], nodes)  # ~10 ms


async def _answer(s: Needs, msg: Message, finished: FinishedGame, analysis: Analysis) -> None:
    await s.send(Reply(msg.channel, summary(finished, analysis), to=msg, analysis=analysis,
                       game=finished.game.id, update=progress_key(finished.game.id)))


def summary(finished: FinishedGame, analysis: Analysis) -> str:
    """The analysis in a few lines: each side's figures, then the costliest moves with the better line."""
    stored = finished.game
    names = {Color.WHITE: _name(stored.seats["white"]), Color.BLACK: _name(stored.seats["black"])}
    lines: list[str] = [tr("Analysis of game {game} ({variant}, {nodes} nodes a position):", game=stored.id,
                variant=game_name(stored.variant), nodes=number(analysis.nodes))]
    for colour, p in analysis.players.items():
        lines.append(tr("{colour} ({name}): {inaccuracies}, {mistakes}, {blunders}; average loss {loss} of a man a "
                        "move; accuracy {accuracy}.", colour=colour_name(colour), name=names[colour],
                        inaccuracies=plural("{count} inaccuracy", "{count} inaccuracies", p.inaccuracies),
                        mistakes=plural("{count} mistake", "{count} mistakes", p.mistakes),
                        blunders=plural("{count} blunder", "{count} blunders", p.blunders),
                        loss=number(p.average_loss / 100, TWO_PLACES), accuracy=number(p.accuracy / 100, PERCENT)))
    costly = analysis.costliest(3)
    if costly:
        lines.append(tr("Costliest moves (evaluations for White):"))
        lines += [_costly(analysis, m) for m in costly]
    else:
        lines.append(tr("No inaccuracy, mistake or blunder: well played."))
    return join(lines, "\n")


def _costly(analysis: Analysis, m: Judged) -> str:
    """A costly move as a record numbers it ('12.' for the first player's, '12...' for the other's), its scores
    for White."""
    first = game_type(analysis.game).first
    opened_by = m.mover if m.ply % 2 == 0 else m.mover.opponent  # who made the game's first move
    move_number = (m.ply + (0 if opened_by == first else 1)) // 2 + 1
    said = tr("{number} {move} ({judgement}, {before} → {after}). Better {best}: {line}.",
              number=f"{move_number}{'.' if m.mover == first else '...'}", move=m.played,
              judgement=JUDGEMENTS.get(m.judgement or "", m.judgement or ""),
              before=Evaluation.of(m.before, m.mover).score(), after=Evaluation.of(m.after, m.mover).score(),
              best=m.best, line=" ".join(m.line))
    if m.database == "draw":
        return join([said, tr("The endgame databases: a draw before it.")])
    if m.database in ("win", "loss"):
        winner = m.mover if m.database == "win" else m.mover.opponent
        return join([said, tr("The endgame databases: a win for {colour} before it.", colour=colour_name(winner))])
    return said


def _name(seat: dict) -> str:
    return Seat.from_json(seat).name


def _percent(running: Running) -> str:
    done = 100 * running.done // max(1, running.total) / 100  # (floored: never 100% before the end)
    return tr("{percent} done", percent=number(done, PERCENT))


async def _game_named(s: Needs, msg: Message, words: list[str]) -> int:
    if words:
        number = whole_number(words[0].removeprefix("#"))
        if number is None or len(words) > 1:
            raise Refusal(tr("`analyse` takes a game's number, or nothing for this channel's last finished game."))
        return number
    game = await s.store.last_finished(msg.guild, msg.channel)
    if game is None:
        raise Refusal(tr("No game has finished in this channel yet; `analyse NUMBER` names another game."))
    return game


async def _finished(s: Needs, guild: str, game: int) -> FinishedGame:
    """A finished game of this server, or a refusal saying why not."""
    finished = await s.store.finished_game(game)
    if finished is None or finished.game.guild != guild:
        active = await s.store.game(game)
        if active is not None and active.guild == guild:
            raise Refusal(still_on(game))
        raise Refusal(tr("There is no game {game} on this server.", game=game))
    if not finished.game.moves:
        raise Refusal(tr("Game {game} ended before its first move: there is nothing to analyse.", game=game))
    return finished
