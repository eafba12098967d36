"""A player's games (`games @ana`, and a player's page on the web): the last ones they played on the server to a
result, each with its clock and how it ended."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from bot.clocks import TimeControl
from bot.core.replay import replayed_record
from bot.core.state import Answers, Keeps
from bot.replies import Message
from bot.store import FinishedGame, Store
from bot.tables import Seat, stored_seats
from bot.translation import Text, join, tr
from bot.words import colour_name, game_name
from engine import Color, GameRecord

SHOWN = 10  # games listed in chat


class Needs(Answers, Keeps, Protocol):
    """What listing a player's games uses of the core's state."""


@dataclass(frozen=True)
class Played:
    """A finished game as a list of a player's games shows it."""

    finished: FinishedGame
    record: GameRecord[Any, Any]

    @property
    def id(self) -> int:
        return self.finished.game.id

    @property
    def seats(self) -> dict[Color, Seat]:
        return stored_seats(self.finished.game.seats)

    @property
    def names(self) -> dict[Color, str]:
        return {colour: seat.name for colour, seat in self.seats.items()}

    @property
    def control(self) -> TimeControl:
        return TimeControl.from_json(self.finished.game.settings.get("control"))

    def result(self, headline: bool = False) -> Text:
        """How it ended, as the chat says it, or as a page says it beside the players' names (``headline``)."""
        ending = self.finished.ending
        if ending is None:
            return tr("Game over ({reason}).", reason=self.finished.reason)
        return ending.headline(self.names, self.record) if headline else ending.said(self.names, self.record)


async def played(store: Store, guild: str, user: str, limit: int) -> list[Played]:
    """``user``'s last ``limit`` games on ``guild`` played to a result, the latest to end first (one whose moves no
    longer read is left out, and logged)."""
    found = []
    for game in await store.player_games(guild, user, limit):
        finished = await store.finished_game(game)
        record = replayed_record(finished.game) if finished is not None else None
        if finished is not None and record is not None:
            found.append(Played(finished, record))
    return found


async def player_games(s: Needs, msg: Message) -> None:
    """The mentioned person's last games here, the latest first: number, game, clock, players, and how it ended."""
    user = msg.mentions[0]
    lines = []
    for game in await played(s.store, msg.guild, user.id, SHOWN):
        players = [tr("{name} ({colour})", name=game.names[c], colour=colour_name(c)) for c in (Color.WHITE, Color.BLACK)]
        lines.append(tr("#{number} {game}, {control}, {white} vs {black}: {result}", number=game.id,
                        game=game_name(game.finished.game.variant), control=game.control.words(),
                        white=players[0], black=players[1], result=game.result()))
    if not lines:
        await s.say(msg.channel, tr("{name} has no finished games here yet.", name=user.name), to=msg)
        return
    await s.say(msg.channel, join([tr("{name}'s last games here (`analyse NUMBER` judges one, `rematch NUMBER` plays "
                                      "it again):", name=user.name), *lines], "\n"), to=msg,
                player=(msg.guild, user.id))
