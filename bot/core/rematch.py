"""A rematch: a finished game played again, colours swapped, with the same clock: against the bot at once (at the
same level), between people as a challenge to the other player, who accepts or declines it."""

from __future__ import annotations

from bot.clocks import TimeControl
from bot.commands import whole_number
from bot.core.lobby import Needs, against_bot, check_free, offer
from bot.core.state import Refusal
from bot.replies import Message
from bot.tables import Challenge, ColourChoice, Kind, Seat, stored_seats
from bot.translation import tr
from engine import Color

NOTHING = tr("No game has ended in this channel to play again.")


async def rematch(s: Needs, msg: Message, words: list[str]) -> None:
    """`rematch [game]`: the channel's last finished game (or game NUMBER, which ended here) again."""
    check_free(s, msg)
    game = whole_number(words[0]) if words else await s.store.last_finished(msg.guild, msg.channel)
    finished = await s.store.finished_game(game) if game is not None else None
    if finished is None or finished.game.channel != msg.channel or finished.game.guild != msg.guild:
        raise Refusal(NOTHING)
    stored = finished.game
    seats = stored_seats(stored.seats)
    mine = next((c for c, seat in seats.items() if seat.user is not None and seat.user.id == msg.user.id), None)
    if mine is None or stored.kind == Kind.MATCH.value:
        raise Refusal(tr("Only a player of that game can ask for a rematch.") if stored.kind != Kind.MATCH.value
                      else tr("A bot match is played again with `watch`."))
    settings, colour = stored.settings, mine.opponent  # (colours swapped)
    control = TimeControl.from_json(settings.get("control"))
    if stored.kind == Kind.BOT.value:
        seats = {colour: Seat(user=msg.user), mine: Seat(level=seats[mine.opponent].level)}
        await against_bot(s, msg, stored.variant, seats, settings["budget"], settings["rated"], control)
        return
    opponent = seats[mine.opponent].user
    assert opponent is not None
    if msg.channel in s.challenges and not s.expired(s.challenges[msg.channel]):
        raise Refusal(tr("A challenge is already waiting for an answer here."))
    choice = ColourChoice.WHITE if colour is Color.WHITE else ColourChoice.BLACK
    await offer(s, msg, Challenge(msg.user, opponent, stored.variant, choice, settings["rated"], s.clock(), msg,
                                  control), lead=tr("Rematch, colours swapped."))
