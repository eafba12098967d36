"""The web server's page of the person on this browser (``/me``): the games they played on the page (their guest
id is the page's cookie), each with its clock and how it ended, and their ratings per game and speed."""

from __future__ import annotations

from aiohttp import web

from bot.clocks import TimeControl
from bot.replies import User
from bot.tables import stored_seats
from bot.translation import rendered
from bot.web import wording
from bot.web.site import GUEST_COOKIE, guest_of, html_answer, json_answer, pages_of
from bot.words import game_name


async def _page(request: web.Request) -> web.Response:
    return html_answer(request, "me.html")


async def _mine(request: web.Request) -> web.Response:
    """The guest's games and ratings, in the page's language."""
    pages, guest = pages_of(request), guest_of(request)
    user = f"web:{guest}"
    games = []
    for finished in await pages.core.player_games(pages.guild, user):
        stored = finished.game
        names = {colour: seat.name for colour, seat in stored_seats(stored.seats).items()}
        record = pages.core.record(stored)
        if record is None:
            continue
        games.append({"id": stored.id, "path": pages.game_path(stored.id), "game": game_name(stored.variant),
                      "control": TimeControl.from_json(stored.settings.get("control")).words(),
                      "players": {str(c): name for c, name in names.items()},
                      "result": finished.ending.headline(names, record) if finished.ending else finished.reason})
    ratings = [{"game": game_name(variant), "speed": speed.words(), "rating": str(rating), "games": played}
               for variant, speed, rating, played in await pages.core.player_ratings(pages.guild, user)]
    on = [{"id": live.id, "path": pages.game_path(live.id), "game": game_name(live.game.type.name),
           "control": live.control.words(), "players": {str(c): s.name for c, s in live.seats.items()}}
          for live in await pages.games.live_games(pages.guild) if live.colour_of(User(user, "")) is not None]
    answer = json_answer(request, rendered({"games": games, "on": on, "ratings": ratings},
                                           wording.language(request)))
    answer.set_cookie(GUEST_COOKIE, guest, httponly=True, samesite="Strict", max_age=365 * 86400)
    return answer


def add_routes(app: web.Application) -> None:
    """Route this module's addresses to its handlers."""
    app.router.add_get("/me", _page)
    app.router.add_get("/api/me", _mine)
