"""A player's games (`games @ana`): the last ones they played on the server to a result, each with its clock and
how it ended, as the chat read them when they ended."""

from __future__ import annotations

from typing import Protocol

from bot.clocks import TimeControl
from bot.core.replay import replayed_record
from bot.core.state import Answers, Keeps
from bot.replies import Message
from bot.tables import stored_seats
from bot.translation import join, tr
from bot.words import colour_name, game_name
from engine import Color

SHOWN = 10  # games listed


class Needs(Answers, Keeps, Protocol):
    """What listing a player's games uses of the core's state."""


async def player_games(s: Needs, msg: Message) -> None:
    """The mentioned person's last games here, the latest first: number, game, clock, players, and how it ended."""
    user = msg.mentions[0]
    lines = []
    for game in await s.store.player_games(msg.guild, user.id, SHOWN):
        finished = await s.store.finished_game(game)
        record = replayed_record(finished.game) if finished is not None else None
        if finished is None or record is None:
            continue
        names = {colour: seat.name for colour, seat in stored_seats(finished.game.seats).items()}
        ending = finished.ending.said(names, record) if finished.ending is not None else finished.reason
        players = [tr("{name} ({colour})", name=names[c], colour=colour_name(c)) for c in (Color.WHITE, Color.BLACK)]
        lines.append(tr("#{number} {game}, {control}, {white} vs {black}: {result}", number=game,
                        game=game_name(finished.game.variant),
                        control=TimeControl.from_json(finished.game.settings.get("control")).words(),
                        white=players[0], black=players[1], result=ending))
    if not lines:
        await s.say(msg.channel, tr("{name} has no finished games here yet.", name=user.name), to=msg)
        return
    await s.say(msg.channel, join([tr("{name}'s last games here (`analyse NUMBER` judges one, `rematch NUMBER` plays "
                                      "it again):", name=user.name), *lines], "\n"), to=msg,
                player=(msg.guild, user.id))
