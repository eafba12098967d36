"""Results and ratings: ending a game (recorded, rated, announced with its PDN), and the rating commands."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import time
from collections.abc import Callable, Iterator
from typing import Any

from bot import commands
from bot.commands import Options
from bot.core.replay import reload
from bot.core.state import DEFAULT_VARIANT, MOVED_ELSEWHERE, Refusal, State, capital
from bot.ratings import RatedGame, Rating, Side, level_rating
from bot.tables import (Buttons, Controls, LiveGame, Message, Outcome, Seat, Table, User, colour_name, engine_words,
                        game_name)
from bot.translation import Joined, Text, join, plural, tr
from bot.store import MoveConflict, SaveFailed
from engine import NAMES, Color, GameRecord, MoveError

log = logging.getLogger(__name__)


async def finish_by_rules(s: State, table: Table) -> bool:
    """End the game if the rules say it is over (under the lock); True if it ended."""
    result = table.game.result()
    if result is None:
        return False
    await finish(s, table, result.winner, engine_words(result.words))
    return not s.current(table)  # it stays on if another process had moved it meanwhile (and it was reloaded)


_REASONS: list[tuple[re.Pattern, Callable[[re.Match], Text]]] = [
    (re.compile(r"(.+) resigned"), lambda m: tr("{name} resigned", name=m[1])),
    (re.compile(r"(.+) abandoned the game"), lambda m: tr("{name} abandoned the game", name=m[1])),
    (re.compile(r"(.+) never made a first move"), lambda m: tr("{name} never made a first move", name=m[1])),
    (re.compile(r"agreed"), lambda m: tr("agreed")),
    (re.compile(r"stopped"), lambda m: tr("stopped")),
    (re.compile(r"(\d+) moves? each played"),
     lambda m: plural("{count} move each played", "{count} moves each played", int(m[1]))),
]
"""The chat's own reasons for an end, as the database keeps them (in English), and as the bot says them in any
language (a finished game's page shows them again; the rules' reasons are read from the game itself)."""


def stored_reason(reason: str, record: GameRecord[Any, Any] | None = None) -> str:
    """A finished game's reason as the database keeps it, to be shown in the reader's language: the rules' own
    words when the game's ``record`` ended by them for that reason, else the chat's (as it is, if not known)."""
    rules = record.result() if record is not None else None
    if rules is not None and rules.reason == reason:
        return engine_words(rules.words)
    for pattern, words in _REASONS:
        if (m := pattern.fullmatch(reason)) is not None:
            return words(m)
    return reason


def sentence(words: Text) -> Text:
    """The engine's words for a refusal as a sentence: in English its first letter made a capital, and a full stop
    after it (their translations are written with the capital)."""
    return Joined((words, "."), "", english=capital(str(words)) + ".")


def refusal(error: MoveError, legal: bool = True) -> Text:
    """A move refused by the rules or the notation, as the player is told: why, and (with ``legal``) the legal
    moves."""
    why = sentence(engine_words(error.words))
    return join([why, tr("Legal moves: {moves}.", moves=", ".join(error.legal))]) if legal and error.legal else why


async def finish(s: State, table: Table, winner: Color | None, reason: str, to: Message | None = None,
                 outcome: Outcome = Outcome.FINISHED) -> None:
    """Record the result, update ratings, and announce it (under the lock)."""
    finished = outcome is Outcome.FINISHED
    result = table.game.type.score_text(winner) if finished else "*"
    pdn = pdn_text(table, result)
    winner_name = None if winner is None else winner.name.lower()
    try:
        changes = await s.store.finish_game(table.id, table.version, winner_name, str(reason), pdn,
                                            rated_game(table, winner) if table.rated and finished else None)
    except MoveConflict:
        await reload(s, table)  # another process moved or ended the game meanwhile
        if to is not None:
            raise Refusal(MOVED_ELSEWHERE) from None
        log.info("game %d changed in the database before it could end here: reloaded", table.id)
        return
    del s.tables[table.channel]
    if table.task and table.task is not asyncio.current_task():
        table.task.cancel()
    if outcome is Outcome.ABORTED:
        parts = [tr("Game aborted: {reason}. It does not count.", reason=reason)]
    elif outcome is Outcome.STOPPED:
        parts = [tr("Bot match stopped.")]
    elif winner is None:
        parts = [draw_words(reason)]
    else:
        parts = [win_words(table.seats[winner].name, winner, reason)]
    if changes:
        parts.append(tr("Ratings: {changes}.", changes=", ".join(
            f"{c.name} {c.after.rating:.0f} ({c.after.rating - c.before.rating:+.0f})" for c in changes)))
    analysable = finished and table.game.moves  # (not a stopped match, which `analyse` alone would not find)
    if analysable:
        parts.append(tr("`analyse` judges every move of it."))
    text = join(parts)
    await s.say(table.channel, text, to=to, pdn=pdn, mentions=tuple(table.players()), replay=table.game,
                game=table.id, controls=Controls(Buttons.ANALYSE, table.id) if analysable else None)


def win_words(name: str, winner: Color, reason: str) -> Text:
    """How a game won ends: "ana (White) wins: resigned." (the web page reads the winner back from it)."""
    return tr("{name} ({colour}) wins: {reason}.", name=name, colour=colour_name(winner), reason=reason)


def draw_words(reason: str) -> Text:
    """How a drawn game ends: "Draw (agreed)."."""
    return tr("Draw ({reason}).", reason=reason)


def ended_words(players: dict[Color, str], winner: Color | None, reason: str, drawn: bool = False,
                record: GameRecord[Any, Any] | None = None) -> Text:
    """How a game stored as ended reads: its winner, or whether it was ``drawn``, and its reason as the database
    keeps it (in the reader's language where the bot knows its words: ``stored_reason``)."""
    said = stored_reason(reason, record)
    if winner is not None:
        return win_words(players[winner], winner, said)
    if drawn:
        return draw_words(said)
    return tr("Game over ({reason}).", reason=said) if reason else tr("Game over.")


def rated_game(table: Table, winner: Color | None) -> RatedGame:
    """The sides of a rated game as it ends (a bot level at its ladder's rating), White first, and White's score."""
    v = table.game.type.name
    sides = tuple(Side(seat.user.id, seat.user.name) if seat.user is not None else Side(fixed=_level(v, seat))
                  for seat in (table.seats[c] for c in Color))
    return RatedGame((sides[0], sides[1]), 0.5 if winner is None else float(winner == Color.WHITE))


def _level(game: str, seat: Seat) -> Rating:
    assert seat.level is not None, "a bot's seat has its level"
    return level_rating(game, seat.level)


def pdn_text(table: Table | LiveGame, result: str | None = None) -> str:
    """The game's record, with its tags (and ``result`` once it has one)."""
    date = time.strftime("%Y.%m.%d", time.gmtime())
    tags = {"Event": f"Draughts bot game {table.id}", "Site": table.channel_name, "Date": date,
            "White": table.seats[Color.WHITE].name, "Black": table.seats[Color.BLACK].name}
    if result:
        tags["Result"] = result
    return table.game.type.record_text(table.game, tags)


UNREADABLE = tr("I could not read the ratings: the database is not answering. Please try again in a moment.")


@contextlib.contextmanager
def _reading_ratings() -> Iterator[None]:
    """A read of the ratings that fails is refused as such (not as a save that failed, the core's answer)."""
    try:
        yield
    except SaveFailed as error:
        log.warning("could not read the ratings: %s", error)
        raise Refusal(UNREADABLE) from None


async def rating(s: State, msg: Message, words: list[str]) -> None:
    user = msg.mentions[0] if msg.mentions else msg.user
    lines = []
    for name in NAMES:
        with _reading_ratings():
            r, played = await s.store.rating(msg.guild, name, user.id)
        if played:
            lines.append(plural("{game}: {rating} ({count} game)", "{game}: {rating} ({count} games)", played,
                                game=game_name(name), rating=str(r)))
    parts = [tr("{name}'s ratings here: {ratings}.", name=user.name, ratings=join(lines, "; ")) if lines else
             tr("{name} has no rated games here yet.", name=user.name)]
    solved = []
    for name in NAMES:
        with _reading_ratings():
            r, tried = await s.store.puzzle_rating(msg.guild, name, user.id)
        if tried:
            solved.append(plural("{game}: {rating} ({count} puzzle)", "{game}: {rating} ({count} puzzles)", tried,
                                 game=game_name(name), rating=str(r)))
    if solved:
        parts.append(tr("Puzzle ratings: {ratings}.", ratings=join(solved, "; ")))
    await s.say(msg.channel, join(parts), to=msg)


async def leaderboard(s: State, msg: Message, words: list[str]) -> None:
    if words and words[0].lower() in ("puzzle", "puzzles"):
        await _puzzle_leaderboard(s, msg, words[1:])
        return
    options = commands.parse_options("leaderboard", words) if words else Options()
    v = options.variant or DEFAULT_VARIANT
    with _reading_ratings():
        rows = await s.store.leaderboard(msg.guild, v)
    if not rows:
        await s.say(msg.channel, tr("No rated {game} games on this server yet.", game=game_name(v)), to=msg)
        return
    lines = [plural("{place}. {name}: {rating} ({count} game)", "{place}. {name}: {rating} ({count} games)", row.games,
                    place=i, name=row.name, rating=str(row.rating)) for i, row in enumerate(rows, 1)]
    await s.say(msg.channel, join([tr("Best {game} players here:", game=game_name(v)), *lines], "\n"), to=msg)


async def _puzzle_leaderboard(s: State, msg: Message, words: list[str]) -> None:
    options = commands.parse_options("leaderboard", words) if words else Options()
    v = options.variant or DEFAULT_VARIANT
    with _reading_ratings():
        rows = await s.store.puzzle_leaderboard(msg.guild, v)
    if not rows:
        await s.say(msg.channel, tr("Nobody has tried {game} puzzles on this server yet.", game=game_name(v)), to=msg)
        return
    lines = [plural("{place}. {name}: {rating} ({count} puzzle)", "{place}. {name}: {rating} ({count} puzzles)",
                    row.games, place=i, name=row.name, rating=str(row.rating)) for i, row in enumerate(rows, 1)]
    await s.say(msg.channel, join([tr("Best {game} puzzle solvers here:", game=game_name(v)), *lines], "\n"), to=msg)
