"""The web server's pages of a player: ``/me``, the person on this browser (their guest id is the page's cookie),
and ``/p/REF``, a chat's player, whose link the chat gives with their games (``REF`` names their server and id,
with a key). ``/me`` lists the games played on the page (on, and finished with their clocks and ends); a chat
player's page lists their finished games only (a game on in a private channel is not shown to whoever has the
link); both give the player's ratings per game and speed, the tournaments they played in, and their puzzle
ratings and the puzzles they tried, the latest first."""

from __future__ import annotations

import logging
import time

from aiohttp import web

from bot.core import SaveFailed
from bot.replies import User
from bot.translation import rendered, tr
from bot.tournament.words import title
from bot.web import wording
from bot.web.pages import Pages
from bot.web.site import (NO_GAME, SITE, client, guest_of, html_answer, keep_guest, person_of, json_answer, not_found,
                          pages_of, recent_times)
from bot.words import game_name

log = logging.getLogger(__name__)

LOOKS_PER_MINUTE = 30  # players' pages one address may read (each reads many games from the database)


async def _page(request: web.Request) -> web.Response:
    if "ref" in request.match_info and _player(request) is None:
        raise not_found(request, NO_GAME)
    return html_answer(request, "me.html")


def _player(request: web.Request) -> tuple[str, str] | None:
    return pages_of(request).keys.read_player(request.match_info["ref"][:200])


async def _mine(request: web.Request) -> web.Response:
    """The games, ratings and puzzles of the person on this browser (signed in, or its guest), in the page's
    language."""
    guest = guest_of(request)
    answer = await _answer(request, pages_of(request).guild, person_of(request, guest).id, live=True)
    keep_guest(answer, guest)
    return answer


async def _theirs(request: web.Request) -> web.Response:
    """A chat player's finished games and ratings on their server."""
    player = _player(request)
    if player is None:
        raise not_found(request, NO_GAME)
    return await _answer(request, *player, live=False)


async def _answer(request: web.Request, guild: str, user: str, live: bool) -> web.Response:
    """The JSON answer with a player's games: refused in words when asked too often or when the database does not
    answer."""
    site, now, address = request.app[SITE], time.monotonic(), client(request)
    recent = recent_times(site.looks, address, now)
    if len(recent) >= LOOKS_PER_MINUTE:
        return json_answer(request, {"error": tr("That is many pages at once: wait a minute.")}, status=429)
    site.looks[address] = recent + [now]
    try:
        found = await _games_of(site.pages, guild, user, live)
    except SaveFailed as error:
        log.warning("a player's games could not be read from the database: %s", error)
        return json_answer(request, {"error": tr("The games' database is not answering right now. Please try again "
                                                 "in a minute.")}, status=503, headers={"Retry-After": "30"})
    return json_answer(request, rendered(found, wording.language(request)), headers={"Cache-Control": "no-store"})


async def _games_of(pages: Pages, guild: str, user: str, live: bool) -> dict:
    """A player's games on ``guild`` (on, if ``live``, and finished: number, page, game, clock, players, end),
    ratings, and name (as their games have it; None without one)."""
    games, name = [], None
    for game in await pages.core.player_games(guild, user):
        name = name or next((s.user.name for s in game.seats.values() if s.user is not None and s.user.id == user),
                            None)
        games.append({"id": game.id, "path": pages.game_path(game.id), "game": game_name(game.finished.game.variant),
                      "control": game.control.words(), "players": {str(c): n for c, n in game.names.items()},
                      "result": game.result(headline=True)})
    ratings = [{"game": game_name(variant), "speed": speed.words(), "rating": str(rating), "games": played}
               for variant, speed, rating, played in await pages.core.player_ratings(guild, user)]
    on = [{"id": game.id, "path": pages.game_path(game.id), "game": game_name(game.game.type.name),
           "control": game.control.words(), "players": {str(c): s.name for c, s in game.seats.items()}}
          for game in (await pages.games.live_games(guild) if live else [])
          if game.colour_of(User(user, "")) is not None]
    events = [{"title": title(t), "path": f"/t/{pages.keys.tournament_ref(t.id)}"}  # (a tournament on may be in
              for t in await pages.core.player_tournaments(guild, user) if t.over]  # a private channel: not here)
    puzzles = {"ratings": [{"game": game_name(variant), "rating": str(rating), "puzzles": tried}
                           for variant, (rating, tried) in (await pages.core.puzzle_ratings(guild, user)).items()],
               "history": [{"game": game_name(t.variant), "path": pages.puzzle_path(t.variant, t.puzzle),
                            "solved": t.solved, "rating": None if t.rating is None else round(t.rating)}
                           for t in await pages.core.puzzle_history(guild, user)]}
    return {"games": games, "on": on, "ratings": ratings, "name": name, "events": events, "puzzles": puzzles}


def add_routes(app: web.Application) -> None:
    """Route this module's addresses to its handlers."""
    app.router.add_get("/me", _page)
    app.router.add_get("/api/me", _mine)
    app.router.add_get("/p/{ref}", _page)
    app.router.add_get("/api/p/{ref}", _theirs)
