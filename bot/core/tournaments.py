"""`tournament`: a server's administrators make an arena, a Swiss event or a round robin in a channel; anyone
joins, pauses or withdraws; everyone sees its players and standings. ``bot.core.tournament_runs`` runs them."""

from __future__ import annotations

import datetime
import re
from dataclasses import replace

from bot import commands
from bot.clocks import TimeControl
from bot.commands import CommandError, whole_number
from bot.core import tournament_runs
from bot.core import flags
from bot.core.replay import reload
from bot.core.state import MOVED_ELSEWHERE, Refusal, player
from bot.core.tournament_runs import Needs, here
from bot.tournament.words import describe, scheduled, standings_table, title
from bot.ratings import level_rating
from bot.replies import Message
from bot.store import MoveConflict, SaveFailed
from bot.tables import Seat
from bot.tournament.event import BOT, Entrant, Format, Standing, Status, Tournament, parent_channel
from bot.translation import join, plural, tr

FORMATS = {"arena": Format.ARENA, "swiss": Format.SWISS, "roundrobin": Format.ROUND_ROBIN,
           "round-robin": Format.ROUND_ROBIN, "robin": Format.ROUND_ROBIN}
DEFAULT_CONTROL = TimeControl(3, 2)
DEFAULT_ROUNDS = 5
DEFAULT_MINUTES = 60
STARTS_IN = 5 * 60.0  # seconds from making a tournament to its start, unless told
MAX_ROUNDS = 15
MINUTES = (5, 720)  # an arena's shortest and longest
ROUND_ROBIN_PLAYERS = 12  # the most a round robin takes
_AT = re.compile(r"([01]?[0-9]|2[0-3]):([0-5][0-9])")


async def command(s: Needs, msg: Message, words: list[str]) -> None:
    """`tournament ...`: make one (`arena`, `swiss`, `roundrobin`), or `join`, `pause`, `withdraw`, `bot LEVEL`,
    `start`, `cancel`; alone, the channel's tournament and its standings."""
    sub = words[0].lower() if words else ""
    if sub in FORMATS:
        await _create(s, msg, FORMATS[sub], words[1:])
    elif sub in ("join", "pause", "withdraw"):
        await _standing(s, msg, sub)
    elif sub == "bot":
        await _bot(s, msg, words[1:])
    elif sub in ("start", "cancel"):
        await _manage(s, msg, sub)
    elif sub in ("", "standings"):
        t = here(s, msg)
        await s.say(msg.channel, describe(t, s.clock()), to=msg,
                    standings=standings_table(t, tr("now")) if t.players else None, tournament=t.id)
    else:
        raise CommandError(f"I don't understand {sub!r} in `tournament`. Usage: `{commands.HELP['tournament'][0]}`")


async def _create(s: Needs, msg: Message, form: Format, words: list[str]) -> None:
    if not msg.manager:
        raise Refusal(tr("Only the server's administrators (Manage Server) make tournaments."))
    if any(t.channel == parent_channel(msg.channel) and t.guild == msg.guild for t in s.tournaments.values()):
        raise Refusal(tr("A tournament is already on in this channel: `tournament` shows it."))
    now = s.clock()
    rest, rounds, minutes, starts = _schedule(words, now)
    options = commands.parse_options("tournament", rest)
    if options.levels or options.colour or options.mentioned or options.time is not None:
        raise CommandError(f"`tournament` takes a game, a clock, rounds or minutes, a start and rated or casual. "
                           f"Usage: `{commands.HELP['tournament'][0]}`")
    control = options.control or DEFAULT_CONTROL
    if not control.timed or (form is Format.ARENA and control.correspondence):
        raise Refusal(tr("A tournament is played on the clock: give a time control such as 3+2 (an arena's must "
                         "be real time, not days)."))
    rounds = rounds or DEFAULT_ROUNDS
    minutes = minutes or DEFAULT_MINUTES
    if form is Format.SWISS and not 1 <= rounds <= MAX_ROUNDS:
        raise Refusal(tr("A Swiss event has from 1 to {most} rounds.", most=MAX_ROUNDS))
    if form is Format.ARENA and not MINUTES[0] <= minutes <= MINUTES[1]:
        raise Refusal(tr("An arena lasts from {least} to {most} minutes.", least=MINUTES[0], most=MINUTES[1]))
    made = Tournament(0, msg.guild, parent_channel(msg.channel), form, options.variant or "english", control,
                      True if options.rated is None else options.rated, starts, rounds, minutes if form is
                      Format.ARENA else 0.0, creator=msg.user.id)
    made = replace(made, id=await s.store.create_tournament(made))
    s.tournaments[made.id] = made
    await s.say(msg.channel, join([title(made) + ".", tr("It starts in {minutes} min; anyone may `tournament join` "
                                                       "to play.", minutes=round((starts - now) / 60))]), to=msg,
                scheduled=scheduled(made, "scheduled"), tournament=made.id)


def _schedule(words: list[str], now: float) -> tuple[list[str], int, float, float]:
    """The words left after a tournament's rounds ("5 rounds"), length ("60 minutes") and start ("at 18:00" UTC,
    "in 10 minutes"), with those three (0 where not said) and the start as a time."""
    rest, rounds, minutes, starts = [], 0, 0.0, now + STARTS_IN
    i = 0
    while i < len(words):
        word, following = words[i].lower(), words[i + 1].lower() if i + 1 < len(words) else ""
        if word == "at" and _AT.fullmatch(following):
            hour, minute = map(int, following.split(":"))
            day = datetime.datetime.fromtimestamp(now, datetime.timezone.utc)
            at = day.replace(hour=hour, minute=minute, second=0, microsecond=0)
            starts = (at if at.timestamp() > now else at + datetime.timedelta(days=1)).timestamp()
            i += 2
        elif word == "in" and i + 2 < len(words) and whole_number(following) is not None and \
                words[i + 2].lower() in ("minute", "minutes", "min"):
            starts = now + 60.0 * (whole_number(following) or 0)
            i += 3
        elif whole_number(word) is not None and following in ("round", "rounds"):
            rounds = whole_number(word) or 0
            i += 2
        elif whole_number(word) is not None and following in ("minute", "minutes", "min"):
            minutes = float(whole_number(word) or 0)
            i += 2
        else:
            rest.append(words[i])
            i += 1
    return rest, rounds, minutes, starts


async def _standing(s: Needs, msg: Message, what: str) -> None:
    """`tournament join`, `pause` or `withdraw` for the message's author."""
    t = here(s, msg)
    entrant = t.entrant(msg.user.id)
    if what == "join":
        if entrant is None and (t.format is Format.ROUND_ROBIN and t.status is not Status.SCHEDULED):
            raise Refusal(tr("A round robin takes its players before it starts."))
        if entrant is None and t.format is Format.ROUND_ROBIN and len(t.players) >= ROUND_ROBIN_PLAYERS:
            raise Refusal(tr("This round robin is full ({count} players).", count=ROUND_ROBIN_PLAYERS))
        if entrant is not None and entrant.standing is Standing.IN:
            raise Refusal(tr("You are in this tournament already."))
        rating, _ = await s.store.rating(t.guild, t.variant, msg.user.id, t.control.speed.value)
        entrant = entrant or Entrant(msg.user.id, msg.user.name, s.clock(), rating=rating.rating)
        await _put(s, t, replace(entrant, name=msg.user.name, standing=Standing.IN, back=t.round))
        await _joined(s, msg, t, msg.user.name)
        return
    if entrant is None or entrant.standing is Standing.OUT:
        raise Refusal(tr("You are not playing in this tournament."))
    standing = Standing.PAUSED if what == "pause" else Standing.OUT
    if standing is Standing.PAUSED and t.format is Format.ROUND_ROBIN:
        raise Refusal(tr("A round robin cannot be paused: `tournament withdraw` leaves it."))
    await _put(s, t, replace(entrant, standing=standing))
    said = (tr("{name} pauses: not paired until `tournament join` again. A game on goes on.", name=msg.user.name)
            if standing is Standing.PAUSED else
            tr("{name} withdraws from the tournament; the games played still count.", name=msg.user.name))
    await s.say(msg.channel, said, to=msg)


async def _bot(s: Needs, msg: Message, words: list[str]) -> None:
    """`tournament bot LEVEL`: the bot joins at a level (administrators only)."""
    if not msg.manager:
        raise Refusal(tr("Only the server's administrators (Manage Server) add the bot to a tournament."))
    level = whole_number(words[0]) if words else None
    if level is None or not 1 <= level <= 6:
        raise Refusal(tr("Give the bot's level, from 1 to 6: `tournament bot 4`."))
    t = here(s, msg)
    if t.format is Format.ROUND_ROBIN and t.status is not Status.SCHEDULED:
        raise Refusal(tr("A round robin takes its players before it starts."))
    if t.entrant(f"{BOT}{level}") is not None:
        raise Refusal(tr("The bot at level {level} is in this tournament already.", level=level))
    entrant = Entrant(f"{BOT}{level}", str(Seat(level=level).name), s.clock(),
                      rating=level_rating(t.variant, level).rating)
    await _put(s, t, entrant)
    await _joined(s, msg, t, entrant.name)


async def _joined(s: Needs, msg: Message, t: Tournament, name: str) -> None:
    count = len(s.tournaments[t.id].players)
    await s.say(msg.channel, plural("{name} joins {title} ({count} player).", "{name} joins {title} ({count} players).",
                                    count, name=name, title=title(t)), to=msg)


async def _put(s: Needs, t: Tournament, entrant: Entrant) -> None:
    """Store a player's entry, and keep it in the tournament this process runs."""
    await s.store.put_entrant(t.id, entrant)
    now = s.tournaments.get(t.id, t)
    others = [e for e in now.players if e.id != entrant.id]
    s.tournaments[t.id] = replace(now.with_players(sorted([*others, entrant], key=lambda e: (e.joined, e.id))),
                                  version=now.version + 1)  # (as the database stepped it)


async def _manage(s: Needs, msg: Message, what: str) -> None:
    """`tournament start` (now) or `tournament cancel`: administrators only."""
    if not msg.manager:
        raise Refusal(tr("Only the server's administrators (Manage Server) start or cancel a tournament."))
    t = await s.store.tournament(here(s, msg).id) or here(s, msg)  # (as it is now: it is written by its version)
    if what == "start":
        if t.status is not Status.SCHEDULED:
            raise Refusal(tr("This tournament has started already."))
        if len(t.seeding()) < 2:
            raise Refusal(tr("A tournament starts with two players in at least: `tournament join`."))
        await tournament_runs.start(s, replace(t, starts=s.clock()), to=msg)
        return
    if not await s.store.advance_tournament(t, Status.CANCELLED, t.round):
        raise Refusal(tr("The tournament changed meanwhile: try again."))
    s.tournaments.pop(t.id, None)
    await s.say(msg.channel, tr("{title} is cancelled. Games on go on, but count for it no more.", title=title(t)),
                to=msg, scheduled=scheduled(t, "canceled"))


async def berserk(s: Needs, msg: Message, words: list[str]) -> None:
    """`berserk`: in an arena's game, before one's first move, half one's clock (and no increment) for one more
    point if one wins."""
    table = s.table(msg)
    colour = player(table, msg)
    t = s.tournaments.get(table.tournament)
    if t is None or t.format is not Format.ARENA:
        raise Refusal(tr("Berserk is for games of an arena on now."))
    async with table.lock:
        if msg.user.id in table.berserk:
            raise Refusal(tr("You have gone berserk already."))
        if table.has_moved(colour) or table.clocks is None or not s.tables.is_on(table):
            raise Refusal(tr("Too late: berserk is chosen before your first move."))
        before = (table.berserk, table.clocks)
        table.berserk, table.clocks = table.berserk | {msg.user.id}, table.clocks.berserk(colour, table.control)
        try:  # (no move is removed: the game's settings are saved with its version stepped)
            table.version = await s.store.remove_moves(table.id, table.version, len(table.game.moves),
                                                       table.settings())
        except MoveConflict:
            table.berserk, table.clocks = before
            await reload(s, table)
            raise Refusal(MOVED_ELSEWHERE) from None
        except SaveFailed:
            table.berserk, table.clocks = before
            raise
        flags.watch(s, table)  # its deadline came nearer
    await s.show(table, tr("{name} goes berserk: half the clock and no increment, for one more point with a win.",
                           name=msg.user.name), to=msg)
