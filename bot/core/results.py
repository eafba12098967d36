"""Results and ratings: ending a game (recorded, rated, announced with its PDN), and the rating commands."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Iterator
from typing import Protocol

from bot import commands
from bot.clocks import Speed
from bot.commands import Options
from bot.core.replay import reload
from bot.core.puzzles import DRAUGHTS as PUZZLE_GAMES
from bot.core.registry import Registry
from bot.core.state import Answers, DEFAULT_VARIANT, Keeps, MOVED_ELSEWHERE, Refusal, capital
from bot.ratings import RatedGame, Rating, Side, level_rating
from bot.ending import Ending
from bot.page_guilds import is_page_guild, page_guilds
from bot.events import Ended
from bot.replies import Buttons, Controls, Message
from bot.tables import Kind, LiveGame, Seat, Table
from bot.words import engine_words, game_name
from bot.translation import Joined, Text, join, plural, tr
from bot.store import MoveConflict, SaveFailed
from engine import NAMES, Color, MoveError, Termination

log = logging.getLogger(__name__)
SPEEDS = {speed.value for speed in Speed}


class Needs(Answers, Keeps, Protocol):
    """What ending a game, and the rating commands, use of the core's state."""

    tables: Registry


async def finish_by_rules(s: Needs, table: Table) -> bool:
    """End the game if the rules say it is over (under the lock); True if it ended."""
    result = table.game.result()
    if result is None:
        return False
    await finish(s, table, Ending(result.winner, result.termination))
    return not s.tables.is_on(table)  # it stays on if another process had moved it meanwhile (and it was reloaded)


def sentence(words: Text) -> Text:
    """The engine's words for a refusal as a sentence: in English its first letter made a capital, and a full stop
    after it (their translations are written with the capital)."""
    return Joined((words, "."), "", english=capital(str(words)) + ".")


def refusal(error: MoveError, legal: bool = True) -> Text:
    """A move refused by the rules or the notation, as the player is told: why, and (with ``legal``) the legal
    moves."""
    why = sentence(engine_words(error.words))
    return join([why, tr("Legal moves: {moves}.", moves=", ".join(error.legal))]) if legal and error.legal else why


async def finish(s: Needs, table: Table, ending: Ending, to: Message | None = None) -> None:
    """Record the result, update ratings, and announce it (under the lock)."""
    winner = ending.winner
    pdn = pdn_text(table, table.game.type.score_text(winner) if ending.counts else "*")
    names = table.names()
    said = ending.said(names, table.game)
    if table.tournament and ending.termination is Termination.NEVER_MOVED:  # (its tournament counts it lost)
        said = tr("{name} never made a first move: the game is lost for the tournament.",
                  name=names[table.game.turn])
    try:
        changes = await s.store.finish_game(table.id, table.version, ending, str(ending.reason(names, table.game)),
                                            pdn, rated_game(table, winner) if table.rated and ending.counts else None)
    except MoveConflict:
        await reload(s, table)  # another process moved or ended the game meanwhile
        if to is not None:
            raise Refusal(MOVED_ELSEWHERE) from None
        log.info("game %d changed in the database before it could end here: reloaded", table.id)
        return
    s.tables.close(table)
    for task in (table.task, table.flag):
        if task and task is not asyncio.current_task():
            task.cancel()
    parts = [said]
    if changes:
        parts.append(tr("Ratings: {changes}.", changes=", ".join(
            f"{c.name} {c.after.rating:.0f} ({c.after.rating - c.before.rating:+.0f})" for c in changes)))
    analysable = ending.counts and table.game.moves  # (not a stopped match, which `analyse` alone would not find)
    if analysable:
        parts.append(tr("`analyse` judges every move of it."))
    text = join(parts)
    s.tell(table, Ended, text, ending=ending, pdn=pdn)
    await s.say(table.channel, text, to=to, pdn=pdn, mentions=tuple(table.players()), replay=table.game,
                game=table.id, controls=Controls(Buttons.ANALYSE if table.kind is Kind.MATCH else Buttons.ENDED,
                                                 table.id) if analysable else None,
                told=True)


def rated_game(table: Table, winner: Color | None) -> RatedGame:
    """The sides of a rated game as it ends (a bot level at its ladder's rating), White first, and White's score."""
    v = table.game.type.name
    sides = tuple(Side(seat.user.id, seat.user.name) if seat.user is not None else Side(fixed=_level(v, seat))
                  for seat in (table.seats[c] for c in Color))
    return RatedGame((sides[0], sides[1]), 0.5 if winner is None else float(winner == Color.WHITE),
                     table.control.speed.value)


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


async def rating(s: Needs, msg: Message, words: list[str]) -> None:
    user = msg.mentions[0] if msg.mentions else msg.user
    asked = [Speed(word.lower()) for word in words if word.lower() in SPEEDS]
    with _reading_ratings():
        lines = _game_lines(await ratings_of(s, msg.guild, user.id, asked or list(Speed)))
        solved = [plural("{game}: {rating} ({count} puzzle)", "{game}: {rating} ({count} puzzles)", tried,
                         game=game_name(name), rating=str(r))
                  for name, (r, tried) in (await puzzle_ratings_of(s, msg.guild, user.id)).items()]
    parts = [tr("{name}'s ratings here: {ratings}.", name=user.name, ratings=join(lines, "; ")) if lines else
             tr("{name} has no rated games here yet.", name=user.name)]
    if solved:
        parts.append(tr("Puzzle ratings: {ratings}.", ratings=join(solved, "; ")))
    if not is_page_guild(msg.guild):  # signed in with Discord there, a person's page games are theirs here too
        try:
            on_page = await _page_ratings(s, user.id)
        except Refusal:  # (the server's own ratings were read: the page's are left out, not the whole answer)
            on_page = []
        if on_page:
            parts.append(tr("On the web page: {ratings}.", ratings=join(on_page, "; ")))
    await s.say(msg.channel, join(parts), to=msg)


async def _page_ratings(s: Needs, user: str) -> list[Text]:
    """A person's ratings from the web page's games and puzzles (where they signed in with Discord), in words."""
    lines: list[Text] = []
    for guild in page_guilds(s.config.shard_count):
        with _reading_ratings():
            lines += _game_lines(await ratings_of(s, guild, user, list(Speed)))
            lines += [plural("{game} puzzles: {rating} ({count} puzzle)", "{game} puzzles: {rating} ({count} puzzles)",
                             tried, game=game_name(name), rating=str(r))
                      for name, (r, tried) in (await puzzle_ratings_of(s, guild, user)).items()]
    return lines


def _game_lines(found: list[tuple[str, Speed, Rating, int]]) -> list[Text]:
    """``ratings_of``'s ratings, each as the `rating` command writes it."""
    return [plural("{game}, {speed}: {rating} ({count} game)", "{game}, {speed}: {rating} ({count} games)", played,
                   game=game_name(name), speed=speed.words(), rating=str(r)) for name, speed, r, played in found]


async def puzzle_ratings_of(s: Keeps, guild: str, user: str) -> dict[str, tuple[Rating, int]]:
    """``user``'s puzzle rating on ``guild`` in each game they tried puzzles of, and how many puzzles it counts."""
    found = {name: await s.store.puzzle_rating(guild, name, user) for name in PUZZLE_GAMES}
    return {name: rated for name, rated in found.items() if rated[1]}


async def ratings_of(s: Keeps, guild: str, user: str, speeds: list[Speed]) -> list[tuple[str, Speed, Rating, int]]:
    """``user``'s ratings on ``guild`` at ``speeds``: (variant, speed, rating, rated games) for each they played."""
    kept = await s.store.ratings(guild, user)
    return [(variant, speed, *kept[variant, speed.value]) for variant in NAMES for speed in speeds
            if (variant, speed.value) in kept and kept[variant, speed.value][1]]


async def leaderboard(s: Needs, msg: Message, words: list[str]) -> None:
    if words and words[0].lower() in ("puzzle", "puzzles"):
        await _puzzle_leaderboard(s, msg, words[1:])
        return
    options = commands.parse_options("leaderboard", words) if words else Options()
    v = options.variant or DEFAULT_VARIANT
    speed = options.control.speed if options.control else Speed.CORRESPONDENCE
    with _reading_ratings():
        rows = await s.store.leaderboard(msg.guild, v, speed=speed.value)
    if not rows:
        await s.say(msg.channel, tr("No rated {game} games at {speed} on this server yet.", game=game_name(v),
                                    speed=speed.words()), to=msg)
        return
    lines = [plural("{place}. {name}: {rating} ({count} game)", "{place}. {name}: {rating} ({count} games)", row.games,
                    place=i, name=row.name, rating=str(row.rating)) for i, row in enumerate(rows, 1)]
    await s.say(msg.channel, join([tr("Best {game} players at {speed} here:", game=game_name(v), speed=speed.words()),
                                   *lines], "\n"), to=msg)


async def _puzzle_leaderboard(s: Needs, msg: Message, words: list[str]) -> None:
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
