"""Running tournaments: at its start the first pairings, each game started in its room with the players
called, each round (an arena: each wave of free players) paired when the last one is over, and the winners at
the end. Every step is read again from the database first (the results come from the games) and written with
compare-and-set, so a restart, or another process, carries a tournament on where it was without pairing a round
twice or starting a game twice.

A person plays their tournament game by typing in the tournament's channel: their messages there go to their
game's room (``routed``)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Sequence
from dataclasses import replace
from typing import Protocol

from bot.core import flags, lobby
from bot.core.bot_moves import kick
from bot.core.lobby import open_table
from bot.core.state import Plays, Refusal
from bot.tournament.words import room_label, scheduled, standings_table, standings_text, title
from bot.ending import Ending
from bot.events import Started
from bot.replies import Message, User
from bot.store import MoveConflict, SaveFailed
from bot.tables import Kind, Seat, Table
from bot.tournament.event import Format, Pairing, Standing, Status, Tournament, parent_channel, room_of
from bot.translation import join, plural, tr
from engine import Color, Termination

log = logging.getLogger(__name__)

class Needs(lobby.Needs, Protocol):
    """What the tournaments use of the core's state: what opening games takes, and the tournaments on."""

    tournaments: dict[int, Tournament]


def here(s: Needs, msg: Message) -> Tournament:
    """The tournament of the message's channel (scheduled or running; a game's room counts as its channel)."""
    channel = parent_channel(msg.channel)
    found = [t for t in s.tournaments.values() if t.channel == channel and t.guild == msg.guild]
    if not found:
        raise Refusal(tr("No tournament is on in this channel. Its administrators make one: `tournament swiss`, "
                         "`tournament arena` or `tournament roundrobin` (`help tournament`)."))
    return found[0]


def routed(s: Needs, msg: Message) -> Message:
    """``msg`` sent to its author's tournament game, when they typed it in that tournament's channel (where no
    game of its own is on)."""
    room = room_for(s, msg.channel, msg.user)
    return msg if room is None else replace(msg, channel=room, channel_name=s.tables[room].channel_name)


def held(s: Needs, msg: Message) -> bool:
    """Whether the message's channel is a tournament's (scheduled or running) or one of its games' rooms."""
    return room_of(msg.channel) is not None or any(
        t.channel == msg.channel and t.guild == msg.guild for t in s.tournaments.values())


def room_for(s: Plays, channel: str, user: User) -> str | None:
    """The room of ``user``'s tournament game under ``channel``, unless they play the channel's own game."""
    own = s.tables.get(channel)
    if own is not None and own.colour_of(user) is not None:
        return None
    prefix = channel + "~"
    return next((table.channel for table in s.tables.values() if table.tournament
                 and table.channel.startswith(prefix) and table.colour_of(user) is not None), None)


async def load(s: Needs, owns) -> None:
    """Bring back the tournaments scheduled or running on the servers this process serves."""
    for tid in await s.store.live_tournaments():
        t = await s.store.tournament(tid)
        if t is not None and owns(t.guild):
            s.tournaments[tid] = t


async def tick(s: Needs) -> None:
    """Move every tournament on: start those due, start their paired games, pair the next round or wave, end
    those over."""
    for tid in list(s.tournaments):
        try:
            await step(s, tid)
        except SaveFailed as error:  # the database is down: the next tick tries again
            log.warning("tournament %d could not move on: %s", tid, error)
        except Exception:  # one tournament's trouble is not the others'
            log.exception("tournament %d could not move on", tid)


async def step(s: Needs, tid: int) -> None:
    """One tournament moved on as far as it can now."""
    t = await s.store.tournament(tid)
    if t is None or t.status in (Status.FINISHED, Status.CANCELLED):
        s.tournaments.pop(tid, None)
        return
    s.tournaments[tid] = t
    now = s.clock()
    if t.status is Status.SCHEDULED:
        if now >= t.starts:
            await start(s, t)
        return
    await _play_paired(s, t)
    for player in absent_players(t):
        entrant = t.entrant(player)
        assert entrant is not None
        paused = t.format is Format.ARENA
        await s.store.put_entrant(t.id, replace(entrant, standing=Standing.PAUSED if paused else Standing.OUT))
        await s.say(t.channel, tr("{name} never moved in their game: paused until `tournament join` again.",
                                  name=entrant.name) if paused else
                    tr("{name} never moved in their game, and is withdrawn from the tournament.", name=entrant.name))
        t = await s.store.tournament(tid) or t
    if t.format is Format.ARENA:
        if now < t.ends:
            await _pair(s, t, await _paired(t), announce=False)
        elif not t.playing():
            await _finish(s, t)
    elif t.round_over():
        pairs = await _paired(t)
        if pairs:
            await _pair(s, t, pairs, announce=True)
        else:
            await _finish(s, t)


async def start(s: Needs, t: Tournament, to: Message | None = None) -> None:
    """Start ``t``: its first pairings, or its cancelling when fewer than two are in."""
    if len(t.seeding()) < 2:
        if await s.store.advance_tournament(t, Status.CANCELLED, 0):
            s.tournaments.pop(t.id, None)
            await s.say(t.channel, tr("{title} is cancelled: fewer than two players joined.", title=title(t)), to=to,
                        scheduled=scheduled(t, "canceled"))
        return
    t = replace(t, starts=s.clock())  # (an arena's length counts from now)
    pairs = await _paired(t)
    await _pair(s, t, pairs, announce=t.format is not Format.ARENA,
                lead=join([title(t) + ".", tr("It starts now!")]), to=to)


async def _paired(t: Tournament) -> list[tuple[str, str | None]]:
    """The next round's (or an arena's wave's) pairings, worked out in a thread: a matching over a hundred
    players takes a tenth of a second, which the event loop need not wait for."""
    if t.format is Format.ARENA:
        return list(await asyncio.to_thread(t.arena_wave))
    return await asyncio.to_thread(t.next_round)


async def _pair(s: Needs, t: Tournament, pairs: Sequence[tuple[str, str | None]], announce: bool, lead: str = "",
                to: Message | None = None) -> None:
    """Write the next round's (or wave's) pairings, then say ``lead`` and start their games. Nothing if another
    process wrote first: it starts them."""
    if not pairs:
        if t.status is Status.SCHEDULED and await s.store.advance_tournament(t, Status.RUNNING, t.round) and lead:
            await s.say(t.channel, lead, to=to, scheduled=scheduled(t, "active"))
        return
    number = t.round + 1
    made = [Pairing(number, board, white, black) for board, (white, black) in enumerate(pairs, 1)]
    if not await s.store.advance_tournament(t, Status.RUNNING, number, made):
        return
    fresh = await s.store.tournament(t.id)
    if fresh is None:
        return
    s.tournaments[t.id] = fresh
    if lead:
        await s.say(t.channel, lead, to=to, scheduled=scheduled(t, "active"))
    if announce:
        table = standings_table(fresh, tr("after round {round}", round=t.round)) if t.round else None
        await s.say(t.channel, _round_text(fresh, made), mentions=tuple(_people(fresh, made)), standings=table,
                    tournament=t.id)
    await _play_paired(s, fresh)


def _round_text(t: Tournament, made: list[Pairing]):
    names = {e.id: e.name for e in t.players}
    lines = [tr("Board {board}: {white} (White) vs {black} (Black)", board=p.board, white=names[p.white],
                black=names[p.black]) if p.black is not None else
             (tr("{name} has a bye (1 point).", name=names[p.white]) if t.format is Format.SWISS else
              tr("{name} has the round off.", name=names[p.white])) for p in made]
    lead = (tr("Round {round} of {rounds}:", round=t.round, rounds=t.rounds) if t.format is Format.SWISS else
            tr("Round {round}:", round=t.round))
    return join([lead, *lines, tr("Play by typing your moves here.")], "\n")


def _people(t: Tournament, pairings: list[Pairing]) -> list[User]:
    names = {e.id: e.name for e in t.players}
    return [User(p, names[p]) for pairing in pairings for p in pairing.players()
            if t.entrant(p) is not None and t.entrant(p).level is None]  # type: ignore[union-attr]


async def _play_paired(s: Needs, t: Tournament) -> None:
    """Start the game of each pairing of the current round (or wave) that has none yet; a game on in its room
    that is not linked to it yet (its link could not be written, or the process stopped in between) is taken
    up."""
    for pairing in t.pairings:
        if (pairing.round == t.round or (t.format is Format.ARENA and not pairing.ended)) and pairing.game is None \
                and not pairing.bye and t.room(pairing) not in s.opening:
            table = s.tables.get(t.room(pairing))
            if table is None:
                await _play(s, t, pairing)
            elif table.tournament == t.id:
                await _take_up(s, t, pairing, table)


async def _play(s: Needs, t: Tournament, pairing: Pairing) -> None:
    """Start a pairing's game in its room, and call its players to it."""
    assert pairing.black is not None
    seats = {Color.WHITE: _seat(t, pairing.white), Color.BLACK: _seat(t, pairing.black)}
    bots = sum(seat.is_bot for seat in seats.values())
    kind = Kind.MATCH if bots == 2 else Kind.BOT if bots == 1 else Kind.PEOPLE
    room = t.room(pairing)
    label = str(room_label(room))
    msg = Message(t.guild, room, User(f"tournament:{t.id}", label), "", channel_name=label)
    table = await open_table(s, msg, kind, t.variant, seats, s.config.move_time, t.rated, control=t.control,
                             tournament=t.id)
    await _take_up(s, t, pairing, table)


async def _take_up(s: Needs, t: Tournament, pairing: Pairing, table: Table) -> None:
    """Link ``table``'s game to ``pairing`` (once: ``SaveFailed`` leaves it to the next tick), then call its
    players; a game another process linked first is stopped."""
    async with table.lock:
        if not s.tables.is_on(table):
            return
        if not await s.store.link_game(t.id, pairing, table.id):
            s.tables.close(table)
            with contextlib.suppress(MoveConflict):  # (moved meanwhile: stopped all the same)
                await s.store.finish_game(table.id, table.version, Ending(None, Termination.STOPPED), "stopped", "")
            return
    text = join([table.title() + ".", table.whose_turn()])  # (front ends name the board: its room's label)
    s.tell(table, Started, text)
    await s.show(table, text, mentions=tuple(table.players()), told=True)
    flags.watch(s, table)
    kick(s, table)


def _seat(t: Tournament, player: str) -> Seat:
    entrant = t.entrant(player)
    assert entrant is not None, "a pairing's players are the tournament's"
    return Seat(level=entrant.level) if entrant.level is not None else Seat(user=User(entrant.id, entrant.name))


async def _finish(s: Needs, t: Tournament) -> None:
    """End ``t`` and announce its winners."""
    if not await s.store.advance_tournament(t, Status.FINISHED, t.round):
        return
    s.tournaments.pop(t.id, None)
    names = {e.id: e.name for e in t.players}
    podium = [names.get(p, p) for p, _ in t.standings()[:3]]
    said = plural("{title} is over. The winner: {names}.", "{title} is over. On the podium: {names}.", len(podium),
                  title=title(t), names=", ".join(podium))
    final = replace(t, status=Status.FINISHED)
    await s.say(t.channel, join([said, standings_text(final)], "\n"),
                standings=standings_table(final, tr("final standings")), tournament=t.id,
                scheduled=scheduled(final, "completed"))


def absent_players(t: Tournament) -> list[str]:
    """Players still in who lost their last game by never moving in it: they are paused (an arena) or withdrawn
    (a Swiss event, a round robin), as lidraughts does, so as not to hold up the next round."""
    last: dict[str, Pairing] = {}
    for pairing in t.pairings:
        for player in pairing.players():
            last[player] = pairing
    return [p for p, pairing in last.items() if pairing.absent == p and (e := t.entrant(p)) is not None
            and e.standing is Standing.IN and pairing.round > e.back]
