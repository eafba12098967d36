"""The finished games the pages show: those seen ending here (kept for their replay pages, the latest
``FINISHED_KEPT``), and those read from the database, with their people and server."""

from __future__ import annotations

from collections import OrderedDict

from bot.core import Core, Refusal, still_on
from bot.replies import User
from bot.tables import Kind, LiveGame, Seat, stored_seats
from bot.translation import tr
from bot.web import views
from bot.web.seats import SeatKeys
from engine import Color

FINISHED_KEPT = 200  # finished games kept for their replay pages


def people_of(seats: dict[Color, Seat]) -> dict[Color, User]:
    """The players who are people, by colour."""
    return {colour: seat.user for colour, seat in seats.items() if seat.user is not None}


class FinishedGames:
    """The finished games of one process's pages."""

    def __init__(self, core: Core):
        self.core = core
        self._kept: OrderedDict[int, views.Finished] = OrderedDict()

    def get(self, game_id: int) -> views.Finished | None:
        """The finished game kept here with this id, or None."""
        return self._kept.get(game_id)

    async def stored(self, game_id: int) -> views.Finished | None:
        """A finished game from the database (one that ended before this process started, or long ago)."""
        stored = await self.core.finished(game_id)
        if stored is None:
            return None
        game = stored.game
        record = self.core.record(game)
        if record is None:
            return None
        seats = stored_seats(game.seats)
        players = {colour: seat.name for colour, seat in seats.items()}
        ending = stored.ending
        if ending is not None:
            words = ending.said(players, record)
        else:  # an old version's words for an end the migration did not know: as they were written
            words = tr("Game over ({reason}).", reason=stored.reason) if stored.reason else tr("Game over.")
        starter = game.settings.get("starter")
        finished = views.Finished(game_id, record, players, Kind(game.kind), words, stored.pdn, guild=game.guild,
                                  people=people_of(seats), starter=User(*starter) if starter else None, ending=ending)
        self.keep(finished)
        return finished

    def keep(self, finished: views.Finished) -> None:
        self._kept[finished.id] = finished
        while len(self._kept) > FINISHED_KEPT:
            self._kept.popitem(last=False)

    async def analysis(self, found: LiveGame | views.Finished) -> dict:
        """How far the analysis of a finished game is, and the analysis once done, as its page shows it; ``Refusal``
        for a game still on."""
        finished = _analysable(found)
        return views.analysis(await self.core.analysis(finished.id, finished.guild), finished.record)

    async def ask_analysis(self, found: LiveGame | views.Finished, keys: SeatKeys, secret: str, guest: User) -> dict:
        """Start the analysis of a finished game: as the player whose seat ``secret`` is (``keys``), else as
        ``guest``; ``Refusal`` for a game still on, and as `analyse` is refused in chat."""
        finished = _analysable(found)
        asker = next((user for colour, user in finished.people.items()
                      if secret and keys.check(finished.id, colour, user.id, secret)), guest)
        return views.analysis(await self.core.ask_analysis(finished.id, finished.guild, asker), finished.record)


def _analysable(found: LiveGame | views.Finished) -> views.Finished:
    """The finished game; a game still on is refused, in the core's words."""
    if isinstance(found, views.Finished):
        return found
    raise Refusal(still_on(found.id))
