"""Starting and ending tables: games against the bot, challenges and their answers, bot matches, and the list
of games on a server."""

from __future__ import annotations

from typing import Protocol

from bot import commands
from bot.clocks import UNTIMED, Clocks, TimeControl
from bot.core import flags, history
from bot.core.bot_moves import kick
from bot.core.play import take_back
from bot.core.puzzles import end_for_game
from bot.core.results import finish
from bot.core import play
from bot.core.state import DEFAULT_VARIANT, Refusal, player
from bot.ending import Ending
from bot.events import Answered, Started
from bot.replies import Message, User
from bot.tables import Challenge, ColourChoice, Kind, Seat, Table, seats_json
from bot.words import game_name
from bot.translation import DECIMAL, join, number, plural, tr
from engine import Color, Termination, game_type

DEFAULT_LEVEL = 3
MIN_MOVE_TIME = 0.05


class Needs(play.Needs, Protocol):
    """What opening and closing tables uses of the core's state: what playing a game takes, and the challenges."""

    challenges: dict[str, Challenge]

    def expired(self, challenge: Challenge) -> bool: ...


async def new(s: Needs, msg: Message, words: list[str]) -> None:
    options = commands.parse_options("new", words)
    if options.mentioned:
        await challenge(s, msg, words)
        return
    check_free(s, msg)
    v = options.variant or DEFAULT_VARIANT
    lvl = options.levels[0] if options.levels else DEFAULT_LEVEL
    control = _control(options)
    budget = _budget(s, options.time)
    colour = options.colour.colour() if options.colour else game_type(v).first
    seats = {colour: Seat(user=msg.user), colour.opponent: Seat(level=lvl)}
    await against_bot(s, msg, v, seats, budget, bool(options.rated), control)


async def against_bot(s: Needs, msg: Message, v: str, seats: dict[Color, Seat], budget: float, rated: bool,
                      control: TimeControl) -> None:
    """Open a game of ``v`` between the message's author and the bot, seated as ``seats``, and announce it."""
    table = await open_table(s, msg, Kind.BOT, v, seats, budget, rated, control=control)
    if control.timed:
        opened = (tr("New game, rated, {control}. {title}.", control=control.words(), title=table.title())
                  if table.rated else tr("New game, casual (hints allowed), {control}. {title}.",
                                         control=control.words(), title=table.title()))
    else:
        seconds = number(budget, DECIMAL)
        opened = (tr("New game, rated. {title}. I take {seconds} s a move.", title=table.title(), seconds=seconds)
                  if table.rated else tr("New game, casual (hints allowed). {title}. I take {seconds} s a move.",
                                         title=table.title(), seconds=seconds))
    text = join([opened, table.whose_turn()])
    s.tell(table, Started, text)
    await s.show(table, text, to=msg, told=True)
    flags.watch(s, table)
    kick(s, table)


async def challenge(s: Needs, msg: Message, words: list[str]) -> None:
    options = commands.parse_options("challenge", words)
    if options.levels or options.time is not None:
        raise Refusal(tr("A challenge is between people; to play me, use `new` with a level."))
    control = options.control or UNTIMED
    check_free(s, msg)
    opponent = msg.mentions[0] if msg.mentions else None
    if opponent is not None and opponent.id == msg.user.id:
        raise Refusal(tr("You cannot challenge yourself; `new` plays me."))
    if msg.channel in s.challenges and not s.expired(s.challenges[msg.channel]):
        raise Refusal(tr("A challenge is already waiting for an answer here."))
    v = options.variant or DEFAULT_VARIANT
    rated = True if options.rated is None else options.rated
    await offer(s, msg, Challenge(msg.user, opponent, v, options.colour or ColourChoice.RANDOM, rated, s.clock(), msg,
                                  control))


async def offer(s: Needs, msg: Message, made: Challenge, lead: str = "") -> None:
    """Put the challenge ``made`` to the channel (its challenger has been checked free to play), after ``lead``."""
    opponent, v, rated, control = made.challenged, made.variant, made.rated, made.control
    s.challenges[msg.channel] = made
    game = tr("{game}, {control}", game=game_name(v), control=control.words()) if control.timed else game_name(v)
    values = {"name": msg.user.name, "game": game, "minutes": number(s.config.challenge_expiry / 60, DECIMAL)}
    if opponent is not None:
        text = (tr("{name} challenges {opponent} to a rated game of {game}. {opponent}: `accept` or `decline` (open "
                   "for {minutes} minutes).", opponent=opponent.name, **values) if rated else
                tr("{name} challenges {opponent} to a casual game of {game}. {opponent}: `accept` or `decline` (open "
                   "for {minutes} minutes).", opponent=opponent.name, **values))
    else:
        text = (tr("{name} challenges anyone to a rated game of {game}. Anyone: `accept` or `decline` (open for "
                   "{minutes} minutes).", **values) if rated else
                tr("{name} challenges anyone to a casual game of {game}. Anyone: `accept` or `decline` (open for "
                   "{minutes} minutes).", **values))
    await s.ask(msg.channel, join([lead, text]) if lead else text, msg, (opponent,) if opponent else ())


def check_free(s: Needs, msg: Message, user: User | None = None) -> None:
    """Refuse a new game where one is on (or being opened), or for someone at their limit."""
    if msg.channel in s.opening:
        raise Refusal(tr("A game is being set up in this channel right now."))
    if msg.channel in s.tables:
        table = s.tables[msg.channel]
        raise Refusal(tr("A game is on in this channel ({title}). Finish it, or start yours in another channel or "
                         "thread.", title=table.title()))
    user = user or msg.user
    mine = sum(1 for t in s.tables.values() if t.colour_of(user) is not None)
    mine += sum(1 for c in s.challenges.values() if c.challenger.id == user.id and not s.expired(c))
    if mine >= s.config.games_per_user:
        raise Refusal(tr("{name} already has {open} games or challenges open; the limit is {limit}. Finish or "
                         "resign one first.", name=user.name, open=mine, limit=s.config.games_per_user))


def _control(options: commands.Options) -> TimeControl:
    """The time control a command asked for (untimed if none); the bot's ``time`` a move is for untimed games."""
    control = options.control or UNTIMED
    if control.timed and options.time is not None:
        raise Refusal(tr("With a clock I play by my clock: `time` is for untimed games."))
    return control


def _budget(s: Needs, asked: float | None) -> float:
    if asked is None:
        return s.config.move_time
    if not MIN_MOVE_TIME <= asked <= s.config.max_move_time:
        raise Refusal(tr("The time per move must be between {least} and {most} seconds.",
                         least=number(MIN_MOVE_TIME, DECIMAL), most=number(s.config.max_move_time, DECIMAL)))
    return asked


async def open_table(s: Needs, msg: Message, kind: Kind, variant_name: str, seats: dict[Color, Seat],
                     budget: float, rated: bool, delay: float = 0.0, control: TimeControl = UNTIMED,
                     tournament: int = 0) -> Table:
    """A new game in the message's channel, stored, then put on (its clocks started, if timed). The channel is
    held while the database is written, so a second command meanwhile is refused rather than opening another
    game."""
    game = game_type(variant_name).new_game()
    now = s.clock()
    table = Table(0, msg.guild, msg.channel, msg.channel_name or msg.channel, kind, game, seats, budget,
                  starter=msg.user, control=control, clocks=Clocks.started(control, now) if control.timed else None,
                  rated=rated, delay=delay, last_activity=now, tournament=tournament)
    s.opening.add(msg.channel)
    try:
        await end_for_game(s, msg.channel)
        table.id = await s.store.create_game(
            msg.guild, msg.channel, variant_name, game.type.write_position(game.start), kind.value,
            seats_json(seats), table.settings())
    finally:
        s.opening.discard(msg.channel)
    s.tables.open(table)
    return table


async def accept(s: Needs, msg: Message, words: list[str]) -> None:
    table = s.tables.get(msg.channel)
    if table is not None:
        async with table.lock:
            colour = player(table, msg)
            if await flags.flag(s, table):
                return  # (a time that ran out is not undone by a draw or a takeback accepted)
            if table.draw_offer == colour.opponent:
                await finish(s, table, Ending(None, Termination.AGREED), to=msg)
                return
            if table.takeback_offer == colour.opponent:
                await take_back(s, table, colour.opponent, msg)
                return
        raise Refusal(tr("Nothing is waiting for your answer in this game."))
    offer = s.challenges.get(msg.channel)
    if offer is None or s.expired(offer):
        raise Refusal(tr("There is no challenge to accept here."))
    if offer.challenger.id == msg.user.id:
        raise Refusal(tr("That is your own challenge; someone else has to accept it."))
    if offer.challenged is not None and offer.challenged.id != msg.user.id:
        raise Refusal(tr("That challenge is for {name}.", name=offer.challenged.name))
    check_free(s, msg, offer.challenger)
    check_free(s, msg)
    del s.challenges[msg.channel]
    mine = offer.colour.colour()
    seats = {mine: Seat(user=offer.challenger), mine.opponent: Seat(user=msg.user)}
    table = await open_table(s, offer.origin, Kind.PEOPLE, offer.variant, seats, 0.0, offer.rated,
                              control=offer.control)
    accepted = (tr("{name} accepts. New rated game: {title}.", name=msg.user.name, title=table.title()) if table.rated
                else tr("{name} accepts. New casual game: {title}.", name=msg.user.name, title=table.title()))
    clock = [tr("Clocks: {control}.", control=offer.control.words())] if offer.control.timed else []
    text = join([accepted, *clock, table.whose_turn()])
    s.tell(table, Started, text)
    await s.show(table, text, to=msg, mentions=(offer.challenger,), told=True)
    flags.watch(s, table)


async def decline(s: Needs, msg: Message, words: list[str]) -> None:
    table = s.tables.get(msg.channel)
    if table is not None:
        async with table.lock:
            colour = player(table, msg)
            if table.draw_offer is not None or table.takeback_offer is not None:
                mine = colour in (table.draw_offer, table.takeback_offer)
                said = {(True, True): tr("{name} withdraws the draw offer.", name=msg.user.name),
                        (True, False): tr("{name} declines the draw offer.", name=msg.user.name),
                        (False, True): tr("{name} withdraws the takeback request.", name=msg.user.name),
                        (False, False): tr("{name} declines the takeback request.", name=msg.user.name)}
                what = "draw" if table.draw_offer is not None else "takeback"
                text = said[what == "draw", mine]
                table.draw_offer = table.takeback_offer = None
                s.tell(table, Answered, text, what=what, by=colour)
                await s.say(msg.channel, text, to=msg, told=True)
                return
        raise Refusal(tr("Nothing is waiting for your answer in this game."))
    offer = s.challenges.get(msg.channel)
    if offer is None or s.expired(offer):
        raise Refusal(tr("There is no challenge to decline here."))
    own = offer.challenger.id == msg.user.id
    if not own and offer.challenged is not None and offer.challenged.id != msg.user.id:
        raise Refusal(tr("That challenge is for {name}.", name=offer.challenged.name))
    if not own and offer.challenged is None:
        raise Refusal(tr("That challenge is open to anyone; there is nothing to decline, just leave it."))
    del s.challenges[msg.channel]
    await s.say(msg.channel, tr("{name} withdraws the challenge.", name=msg.user.name) if own else
                tr("{name} declines the challenge.", name=msg.user.name), to=msg)


async def watch(s: Needs, msg: Message, words: list[str]) -> None:
    options = commands.parse_options("watch", words)
    check_free(s, msg)
    matches = sum(1 for t in s.tables.values() if t.guild == msg.guild and t.kind is Kind.MATCH)
    if matches >= s.config.matches_per_server:
        raise Refusal(plural("{count} bot match is running on this server already; the limit is {limit}. `stop` it, "
                             "or wait for it to end.", "{count} bot matches are running on this server already; the "
                             "limit is {limit}. `stop` one, or wait for one to end.", matches,
                             limit=s.config.matches_per_server))
    levels = options.levels + [6] * (2 - len(options.levels))
    control = _control(options)
    # (a timed match moves as its clocks let it; a delay asked for is on the clock of the side to move)
    delay = (0.0 if control.timed else 2.0) if options.delay is None else options.delay
    if not 0 <= delay <= 60:
        raise Refusal(tr("The delay between moves must be between 0 and 60 seconds."))
    first = game_type(options.variant or DEFAULT_VARIANT).first
    seats = {first: Seat(level=levels[0]), first.opponent: Seat(level=levels[1])}
    table = await open_table(s, msg, Kind.MATCH, options.variant or DEFAULT_VARIANT, seats, _budget(s, options.time),
                              False, delay, control)
    if control.timed:
        text = tr("Bot match: {title}, {control}, {delay} s between moves. {name} can `stop` it.",
                  title=table.title(), control=control.words(), delay=number(delay, DECIMAL), name=msg.user.name)
    else:
        text = tr("Bot match: {title}, {seconds} s a move, {delay} s between moves. {name} can `stop` it.",
                  title=table.title(), seconds=number(table.budget, DECIMAL), delay=number(delay, DECIMAL),
                  name=msg.user.name)
    s.tell(table, Started, text)
    await s.show(table, text, to=msg, told=True)
    flags.watch(s, table)
    kick(s, table)


async def stop(s: Needs, msg: Message, words: list[str]) -> None:
    table = s.tables.get(msg.channel)
    if table is None or table.kind is not Kind.MATCH:
        raise Refusal(tr("No bot match is running here."))
    if table.starter is not None and table.starter.id != msg.user.id:
        raise Refusal(tr("Only {name}, who started this match, can stop it.", name=table.starter.name))
    async with table.lock:
        await finish(s, table, Ending(None, Termination.STOPPED), to=msg)


async def listing(s: Needs, msg: Message, words: list[str]) -> None:
    """The `games` command: the games on the message's server; with a mention, that person's last games."""
    if msg.mentions:
        await history.player_games(s, msg)
        return
    here = [t for t in s.tables.values() if t.guild == msg.guild]
    if not here:
        await s.say(msg.channel, tr("No games are being played on this server."), to=msg)
        return
    lines = [tr("#{channel}: {title}, move {number}", channel=t.channel_name, title=t.title(),
                number=len(t.game.moves) // 2 + 1) for t in here]
    await s.say(msg.channel, join([tr("Games on this server:"), *lines], "\n"), to=msg)
