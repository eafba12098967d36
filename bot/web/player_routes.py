"""The web server's pages of a player: ``/me``, the person on this browser (their guest id is the page's cookie),
and ``/p/REF``, a chat's player, whose link the chat gives with their games (``REF`` names their server and id,
with a key: the page lists their games' watching addresses). Each lists the games played on that server (on, and
finished with their clocks and ends) and the player's ratings per game and speed."""

from __future__ import annotations

from aiohttp import web

from bot.clocks import TimeControl
from bot.replies import User
from bot.tables import stored_seats
from bot.translation import rendered
from bot.web import wording
from bot.web.pages import Pages
from bot.web.site import GUEST_COOKIE, NO_GAME, guest_of, html_answer, json_answer, not_found, pages_of
from bot.words import game_name


async def _page(request: web.Request) -> web.Response:
    if "ref" in request.match_info and _player(request) is None:
        raise not_found(request, NO_GAME)
    return html_answer(request, "me.html")


def _player(request: web.Request) -> tuple[str, str] | None:
    return pages_of(request).keys.read_player(request.match_info["ref"])


async def _mine(request: web.Request) -> web.Response:
    """The guest's games and ratings, in the page's language."""
    pages, guest = pages_of(request), guest_of(request)
    answer = json_answer(request, rendered(await _games_of(pages, pages.guild, f"web:{guest}"),
                                           wording.language(request)))
    answer.set_cookie(GUEST_COOKIE, guest, httponly=True, samesite="Strict", max_age=365 * 86400)
    return answer


async def _theirs(request: web.Request) -> web.Response:
    """A chat player's games and ratings on their server."""
    player = _player(request)
    if player is None:
        raise not_found(request, NO_GAME)
    return json_answer(request, rendered(await _games_of(pages_of(request), *player), wording.language(request)))


async def _games_of(pages: Pages, guild: str, user: str) -> dict:
    """A player's games on ``guild`` (on, and finished: number, page, game, clock, players, end), ratings, and
    name (as their latest game has it; None without one)."""
    games, name = [], None
    for finished in await pages.core.player_games(guild, user):
        stored = finished.game
        seats = stored_seats(stored.seats)
        names = {colour: seat.name for colour, seat in seats.items()}
        name = name or next((s.user.name for s in seats.values() if s.user is not None and s.user.id == user), None)
        record = pages.core.record(stored)
        if record is None:
            continue
        games.append({"id": stored.id, "path": pages.game_path(stored.id), "game": game_name(stored.variant),
                      "control": TimeControl.from_json(stored.settings.get("control")).words(),
                      "players": {str(c): name for c, name in names.items()},
                      "result": finished.ending.headline(names, record) if finished.ending else finished.reason})
    ratings = [{"game": game_name(variant), "speed": speed.words(), "rating": str(rating), "games": played}
               for variant, speed, rating, played in await pages.core.player_ratings(guild, user)]
    on = [{"id": live.id, "path": pages.game_path(live.id), "game": game_name(live.game.type.name),
           "control": live.control.words(), "players": {str(c): s.name for c, s in live.seats.items()}}
          for live in await pages.games.live_games(guild) if live.colour_of(User(user, "")) is not None]
    return {"games": games, "on": on, "ratings": ratings, "name": name}


def add_routes(app: web.Application) -> None:
    """Route this module's addresses to its handlers."""
    app.router.add_get("/me", _page)
    app.router.add_get("/api/me", _mine)
    app.router.add_get("/p/{ref}", _page)
    app.router.add_get("/api/p/{ref}", _theirs)
