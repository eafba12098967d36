"""The web server's game routes: the front page and its games and forms, a game's page, its PDN and its GIF, and a
finished game's analysis."""

from __future__ import annotations

import asyncio
import json
import logging
import time

from aiohttp import web

from bot.core import Refusal, SaveFailed
from bot.present import replay_gif
from bot.replies import User
from bot.tables import LiveGame, stored_seats
from bot.translation import join, tr
from bot.web import forms, views, wording
from bot.web.finished import people_of
from bot.page_guilds import is_page_guild
from bot.web.rematches import rematch_command
from bot.web.site import (NO_GAME, REF, SITE, client, guest_of, html_answer, json_answer, keep_guest, not_found,
                          pages_of, person_of, recent_times, requested_game, same_origin)
from bot.words import game_name
from engine import NAMES

log = logging.getLogger(__name__)

NEW_GAMES_PER_MINUTE = 6  # games one address may start from the page
WEB_GAMES_LIMIT = 100  # games started from the page that may be on at once
GIFS_KEPT = 32  # finished games' replays kept drawn
ANALYSES_PER_MINUTE = 10  # analyses one address may ask for from the page (the core allows one at a time each)


async def _front(request: web.Request) -> web.Response:
    return html_answer(request, "index.html")


async def _page(request: web.Request) -> web.StreamResponse:
    await _found(request)
    return html_answer(request, "game.html")


async def _found(request: web.Request) -> LiveGame | views.Finished:
    found = await pages_of(request).find(requested_game(request))
    if found is None:
        raise not_found(request, NO_GAME)
    return found


async def _pdn(request: web.Request) -> web.Response:
    found = await _found(request)
    text = found.pdn if isinstance(found, views.Finished) else pages_of(request).pdn(found)
    return web.Response(text=text, content_type="text/plain", charset="utf-8",
                        headers={"Content-Disposition": f'attachment; filename="game-{found.id}.pdn"'})


async def _gif(request: web.Request) -> web.Response:
    """The replay as a GIF: drawn one at a time, and kept for finished games (which no longer change)."""
    found = await _found(request)
    site = request.app[SITE]
    language = wording.language(request)  # the caption's
    data = site.gifs.get((found.id, language)) if isinstance(found, views.Finished) else None
    if data is None:
        async with site.drawing:
            record = found.record if isinstance(found, views.Finished) else found.game  # a copy: the game plays on
            data = await asyncio.to_thread(replay_gif, record, language)
        if isinstance(found, views.Finished):
            site.gifs[(found.id, language)] = data
            while len(site.gifs) > GIFS_KEPT:
                site.gifs.popitem(last=False)
    return web.Response(body=data, content_type="image/gif",
                        headers={"Content-Disposition": f'attachment; filename="game-{found.id}.gif"'})


async def _games(request: web.Request) -> web.Response:
    return json_answer(request, {"games": await pages_of(request).listing(), "variants": list(NAMES),
                                 "names": {name: game_name(name) for name in NAMES}})


async def _refused_start(request: web.Request) -> web.Response | None:
    """Why the page may not start a game now (asked from another site, too many from this address in a minute, too
    many on), as the answer; None if it may."""
    if not same_origin(request):
        return json_answer(request, {"error": tr("Games are started from this site's own page.")}, status=403)
    site = request.app[SITE]
    if len(recent_times(site.starts, client(request), time.monotonic())) >= NEW_GAMES_PER_MINUTE:
        return json_answer(request, {"error": tr("That is many new games at once: wait a minute.")}, status=429)
    if await site.pages.web_games() >= WEB_GAMES_LIMIT:
        busy = tr("Too many games are on from this page right now: try again later.")
        return json_answer(request, {"error": busy}, status=503)
    return None


def _count_start(request: web.Request) -> None:
    """Count a game started (or tried) from this address, for the limit a minute."""
    site, now, address = request.app[SITE], time.monotonic(), client(request)
    site.starts[address] = recent_times(site.starts, address, now) + [now]


async def _new(request: web.Request) -> web.Response:
    """Start a game against the bot (``kind`` 'bot') or a bot match ('match') from the front page's form."""
    refused = await _refused_start(request)
    if refused is not None:
        return refused
    site = request.app[SITE]
    try:
        form = json.loads(await request.text())
    except (ValueError, RecursionError):  # not JSON, not UTF-8, or nested too deep to read
        return json_answer(request, {"error": forms.UNREADABLE}, status=400)
    try:
        command, name = forms.command(form), forms.name(form)
    except forms.FormError as error:
        return json_answer(request, {"error": error.args[0]}, status=400)
    guest = guest_of(request)
    user = person_of(request, guest, name)  # signed in with Discord: their id and Discord name
    pages = site.pages
    game_id, notes = await pages.start(user, command)
    if game_id is None:
        response = json_answer(request, {"error": join(notes) if notes else tr("The game did not start.")}, status=400)
    else:
        _count_start(request)
        found = await pages.find(game_id)
        seats = found.seats.items() if isinstance(found, LiveGame) else ()
        seat = next((c for c, s in seats if s.user == user), None)
        url = pages.seat_path(game_id, seat, user) if seat is not None else pages.starter_path(game_id, user)
        response = json_answer(request, {"game": game_id, "url": url})
    keep_guest(response, guest)
    return response


async def _rematch(request: web.Request) -> web.Response:
    """A finished game against the bot played again on the page, colours swapped, for the player whose seat secret
    the body carries (``{"seat": ...}``): the new game's seat link; as a new game from the form, counted alike."""
    refused = await _refused_start(request)
    if refused is not None:
        return refused
    site, game = request.app[SITE], requested_game(request)
    _count_start(request)  # (whether it starts or not: each try reads a game)
    try:
        body = json.loads(await request.text() or "{}")
        finished = await site.pages.core.finished(game)
    except (ValueError, RecursionError):
        return json_answer(request, {"error": forms.UNREADABLE}, status=400)
    except SaveFailed as error:
        log.warning("a finished game could not be read for its rematch: %s", error)
        return json_answer(request, {"error": tr("The games' database is not answering right now. Please try again "
                                                 "in a minute.")}, status=503, headers={"Retry-After": "30"})
    secret = body.get("seat") if isinstance(body, dict) else None
    people = people_of(stored_seats(finished.game.seats)) if finished is not None else {}
    seat = next(((c, u) for c, u in people.items() if isinstance(secret, str) and
                 site.pages.keys.check(game, c, u.id, secret[:64])), None)
    ours = finished is not None and is_page_guild(finished.game.guild)  # (a chat's game is played again there)
    command = rematch_command(finished.game, seat[0]) if ours and finished is not None and seat is not None else None
    if command is None or seat is None:
        return json_answer(request, {"error": tr("Only the player of a finished game against the bot, from their "
                                                 "seat link, can play it again here.")}, status=403)
    colour, user = seat
    game_id, notes = await site.pages.start(user, command)
    if game_id is None:
        return json_answer(request, {"error": join(notes) if notes else tr("The game did not start.")}, status=400)
    return json_answer(request, {"game": game_id, "url": site.pages.seat_path(game_id, colour.opponent, user)})


async def _analysis(request: web.Request) -> web.Response:
    """How far a finished game's analysis is, and the analysis once done (``views.analysis``)."""
    return await _analysis_answer(request, pages_of(request).analysis(requested_game(request)))


async def _ask_analysis(request: web.Request) -> web.Response:
    """Ask for a finished game's analysis from its page: as the player whose seat secret the body carries
    (``{"seat": ...}``), else as a guest of the page's address (one analysis at a time each, as a person in chat:
    a cookie, which a client may drop or choose, would let one address fill the queue)."""
    if not same_origin(request):
        return json_answer(request, {"error": tr("Analyses are asked for from this site's own page.")}, status=403)
    game = requested_game(request)
    site = request.app[SITE]
    now, address = time.monotonic(), client(request)
    recent = recent_times(site.asks, address, now)
    if len(recent) >= ANALYSES_PER_MINUTE:
        return json_answer(request, {"error": tr("That is many analyses at once: wait a minute.")}, status=429)
    site.asks[address] = recent + [now]
    try:
        body = json.loads(await request.text() or "{}")
    except (ValueError, RecursionError):
        return json_answer(request, {"error": forms.UNREADABLE}, status=400)
    secret = body.get("seat") if isinstance(body, dict) else None
    return await _analysis_answer(request, site.pages.ask_analysis(
        game, secret[:64] if isinstance(secret, str) else "", User(f"web:{address}", tr("a guest on the web page"))))


async def _analysis_answer(request: web.Request, asking) -> web.Response:
    """The JSON answer of an analysis request: a refusal (409) and a database that does not answer (503) in words
    the page shows."""
    try:
        shown = await asking
    except Refusal as refusal:
        return json_answer(request, {"error": refusal.args[0]}, status=409)
    except SaveFailed as error:
        log.warning("an analysis could not be read from the database: %s", error)
        return json_answer(request, {"error": tr("The games' database is not answering right now. Please try again "
                                                 "in a minute.")}, status=503, headers={"Retry-After": "30"})
    if shown is None:
        return json_answer(request, {"error": NO_GAME}, status=404)
    return json_answer(request, shown, headers={"Cache-Control": "no-store"})


def add_routes(app: web.Application) -> None:
    """Route this module's addresses to its handlers."""
    app.router.add_get("/", _front)
    app.router.add_get(f"/g/{REF}", _page)
    app.router.add_get(f"/g/{REF}.pdn", _pdn)
    app.router.add_get(f"/g/{REF}.gif", _gif)
    app.router.add_get("/api/games", _games)
    app.router.add_post("/api/new", _new)
    app.router.add_post(f"/api/rematch/{REF}", _rematch)
    app.router.add_get(f"/api/analysis/{REF}", _analysis)
    app.router.add_post(f"/api/analysis/{REF}", _ask_analysis)
