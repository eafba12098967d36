"""The web server (aiohttp): the front page, a page per game, its WebSocket, and the game's PDN and GIF.

Routes (``REF`` is a game's id and its watching key, ``12-AbCd...``: ids count up, keys cannot be guessed):
- ``/``: the games on, and forms to play the bot or start a bot match;
- ``/g/REF``: a game's page, to watch it live, replay it, and play it from a seat link (``#seat=...``);
- ``/ws/REF``: the page's WebSocket (JSON both ways; see ``bot.web.pages``);
- ``/g/REF.pdn`` and ``/g/REF.gif``: the record and the animated replay;
- ``/api/games`` and ``/api/new``: the front page's list and its forms;
- ``/favicon.ico``: the pages' icon (``/static/favicon.svg``);
- ``/api/analysis/REF``: a finished game's analysis (GET: how far it is, and the analysis once done; POST: ask for
  it, as the player whose seat secret the body carries, ``{"seat": ...}``, else as the page's guest);
- ``/puzzles``: the games that have puzzles, each with a link to its daily puzzle and to a random one;
- ``/puzzle/VARIANT/ID``: a shipped puzzle's page, to solve it by clicking (``ID``: its id; ``daily``: the day's
  puzzle, the servers' daily post; ``random``: a redirect to any one);
- ``/api/puzzles``, ``/api/puzzle/VARIANT/ID`` (GET: the puzzle's start; POST ``{"moves": [...]}``: the solver's
  moves so far, checked by the core: right, with the defender's reply, solved, or wrong, with the answer) and
  ``/api/puzzle/VARIANT/ID/solution``: the puzzle page's questions. The page is sent the solution only once the
  puzzle is over; nothing is stored (people on the page are anonymous, and puzzles there are not rated).

Watching needs the page's address; moving needs the seat's secret, sent by the page over the WebSocket (it stays
in the link's fragment, which browsers never send to a server). Requests must name this server (``Host``: the
address in BOT_WEB_URL, or this machine's loopback names), WebSocket upgrades and form posts from other sites are
refused (their ``Origin`` must be this server), each connection may send small messages at a limited rate, and
new games from the page are limited per address and in all. While the database does not answer, what needs it (a
finished game's page) is answered 503, "try again".
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import secrets
import sys
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from aiohttp import WSMsgType, web, web_response
from aiohttp.http_exceptions import HttpProcessingError

from bot.present import replay_gif
from bot.core import Refusal, SaveFailed, refusal
from bot.replies import User
from bot.tables import LiveGame
from bot.words import game_name, game_title
from bot.translation import join, render, rendered, tr
from bot.web import forms, views, wording
from bot.web.pages import COMMANDS, Pages, Watcher
from engine import NAMES, MoveError
from engine.puzzles.puzzle import Puzzle

log = logging.getLogger(__name__)

MESSAGE_LIMIT = 1024  # bytes of one WebSocket message from a page
RATE = 5.0  # messages a second a page may send, on average
BURST = 20  # ... and at once
TOO_FAST = 50  # messages refused for speed in a row before the connection is closed
NEW_GAMES_PER_MINUTE = 6  # games one address may start from the page
WEB_GAMES_LIMIT = 100  # games started from the page that may be on at once
GIFS_KEPT = 32  # finished games' replays kept drawn
ANALYSES_PER_MINUTE = 10  # analyses one address may ask for from the page (the core allows one at a time each)
GUEST_COOKIE = "draughts_guest"
LOOPBACK = ("127.0.0.1", "localhost", "[::1]")
SERVER_NAME = "draughts-bot"  # the Server header: no software or version for anyone to look up
UNREADABLE = tr("The games' database is not answering right now, so this game cannot be shown. Please try again "
                "in a minute.")
_REF = r"{ref:[0-9]{1,12}-[\w-]{1,24}}"
_PUZZLE = r"{variant:[^/]{1,20}}/{puzzle:[^/]{1,40}}"
NO_PUZZLE = tr("There is no such puzzle.")
NO_GAME = tr("There is no such game.")
PUZZLE_MOVES = 64  # moves a puzzle's answer may hold (the longest solutions have a handful)
NO_PLY = tr("That move was not played: a move from the page says which position it was made at, as a whole "
            "number.")
BAD_ANSWER = tr("A puzzle's answer is the list of the solver's moves so far, such as {example}.",
                example='{"moves": ["11-15"]}')


@dataclass
class Site:
    """The server's state: the pages, and its limits' and caches' bookkeeping."""

    pages: Pages
    proxies: frozenset[str] = frozenset()
    """The proxies in front of the server, whose X-Forwarded-For is believed."""
    starts: dict[str, list[float]] = field(default_factory=dict)  # address -> when it started games, last minute
    asks: dict[str, list[float]] = field(default_factory=dict)  # address -> when it asked for analyses, last minute
    gifs: OrderedDict[tuple[int, str], bytes] = field(default_factory=OrderedDict)  # by game and language
    drawing: asyncio.Semaphore = field(default_factory=lambda: asyncio.Semaphore(1))


SITE: web.AppKey[Site] = web.AppKey("site", Site)


def make_app(pages: Pages, proxies: frozenset[str] = frozenset()) -> web.Application:
    """The web page's server; ``proxies``: the addresses of the proxies in front of it (``client``)."""
    app = web.Application(client_max_size=4096, middlewares=[_guard])
    app[SITE] = Site(pages, proxies)
    # Every answer names this bot, not aiohttp's version: the header's default is aiohttp's module setting, the
    # one place that also reaches the answers aiohttp makes before the app sees a request (a malformed one's 400).
    web_response.SERVER_SOFTWARE = SERVER_NAME
    app.router.add_get("/", _front)
    app.router.add_get(f"/g/{_REF}", _page)
    app.router.add_get(f"/g/{_REF}.pdn", _pdn)
    app.router.add_get(f"/g/{_REF}.gif", _gif)
    app.router.add_get(f"/ws/{_REF}", _socket)
    app.router.add_get("/api/games", _games)
    app.router.add_post("/api/new", _new)
    app.router.add_get(f"/api/analysis/{_REF}", _analysis)
    app.router.add_post(f"/api/analysis/{_REF}", _ask_analysis)
    app.router.add_get("/puzzles", _puzzles_page)
    app.router.add_get(f"/puzzle/{_PUZZLE}", _puzzle_page)
    app.router.add_get("/api/puzzles", _puzzle_list)
    app.router.add_get(f"/api/puzzle/{_PUZZLE}", _puzzle_start)
    app.router.add_post(f"/api/puzzle/{_PUZZLE}", _puzzle_try)
    app.router.add_get(f"/api/puzzle/{_PUZZLE}/solution", _puzzle_solution)
    app.router.add_get("/favicon.ico", _favicon)
    app.router.add_static("/static/", wording.STATIC)
    return app


@web.middleware
async def _guard(request: web.Request, handler):
    """Refuse requests that name another server (a page elsewhere whose name was pointed at this machine); say
    "try again" while the database does not answer; add the headers every answer carries."""
    if not known_host(request, request.host):
        response = _text(request, tr("This server does not serve that address. Set BOT_WEB_URL to the address "
                                     "people use."), 421)
    elif request.app[SITE].pages.core is None:
        response = _text(request, tr("The bot is starting: try again in a moment."), 503)
    else:
        try:
            response = await handler(request)
        except SaveFailed as error:
            log.warning("a page could not be read from the database: %s", error)
            response = _text(request, UNREADABLE, 503, {"Retry-After": "30"})
    response.headers.setdefault("Vary", "Accept-Language, Cookie")  # the words are in the reader's language
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("Referrer-Policy", "no-referrer")
    return response


def known_host(request: web.Request, host: str) -> bool:
    """Whether ``host`` (host:port) is this server: the address links give, or a loopback name on its port (or
    alone on port 80). An empty or missing name is none of them."""
    if not host:
        return False
    if host == urlsplit(request.app[SITE].pages.base_url).netloc:
        return True
    sockname = request.transport.get_extra_info("sockname") if request.transport is not None else None
    port = sockname[1] if sockname else None
    return any(host == f"{name}:{port}" or (port == 80 and host == name) for name in LOOPBACK)


def html_headers(request: web.Request) -> dict[str, str]:
    """A page's headers: its Content-Security-Policy lets scripts, styles and images come from this server only,
    and WebSockets reach this server only: the address it was asked for (``_guard`` checked it is this server's)
    and the public one links give (a proxy in front may ask by another name than the browser's)."""
    hosts = dict.fromkeys((request.host, urlsplit(request.app[SITE].pages.base_url).netloc))
    sockets = " ".join(f"ws://{host} wss://{host}" for host in hosts if host)
    return {"Content-Security-Policy": f"default-src 'self'; img-src 'self' data:; "
                                       f"connect-src 'self' {sockets}; frame-ancestors 'none'",
            "Cache-Control": "no-cache"}


def same_origin(request: web.Request) -> bool:
    """Whether a browser request comes from a page of this server (no ``Origin``: not a browser's cross-site
    request, which always carries one)."""
    origin = request.headers.get("Origin")
    if origin is None:
        return True
    host = urlsplit(origin).netloc
    return bool(host) and known_host(request, host)  # "null" (a sandboxed frame, a file) is no site of ours


def _text(request: web.Request, text: str, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    """A plain-text answer in the reader's language."""
    return web.Response(status=status, text=render(text, wording.language(request)), headers=headers)


def _json(request: web.Request, data: object, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    """A JSON answer, its texts in the reader's language."""
    return web.json_response(rendered(data, wording.language(request)), status=status, headers=headers)


def _html(request: web.Request, name: str) -> web.Response:
    """A page (``wording.page``'s template ``name``) in the reader's language."""
    language = wording.language(request)
    return web.Response(text=wording.page(name, language), content_type="text/html", charset="utf-8",
                        headers={**html_headers(request), "Content-Language": wording.tag(language)})


def _not_found(request: web.Request, text: str) -> web.HTTPNotFound:
    return web.HTTPNotFound(text=render(text, wording.language(request)))


def _pages(request: web.Request) -> Pages:
    return request.app[SITE].pages


def _game(request: web.Request) -> int:
    game = _pages(request).game_of(request.match_info["ref"])
    if game is None:
        raise _not_found(request, NO_GAME)
    return game


async def _favicon(request: web.Request) -> web.Response:
    """The icon a browser asks for by itself, without a page that names it (a PDN or an answer opened alone): the
    pages' own, which they name in their head."""
    raise web.HTTPMovedPermanently("/static/favicon.svg")


async def _front(request: web.Request) -> web.Response:
    return _html(request, "index.html")


async def _page(request: web.Request) -> web.StreamResponse:
    await _found(request)
    return _html(request, "game.html")


async def _found(request: web.Request) -> LiveGame | views.Finished:
    found = await _pages(request).find(_game(request))
    if found is None:
        raise _not_found(request, NO_GAME)
    return found


async def _pdn(request: web.Request) -> web.Response:
    found = await _found(request)
    text = found.pdn if isinstance(found, views.Finished) else _pages(request).pdn(found)
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
    return _json(request, {"games": await _pages(request).listing(), "variants": list(NAMES),
                           "names": {name: game_name(name) for name in NAMES}})


async def _new(request: web.Request) -> web.Response:
    """Start a game against the bot (``kind`` 'bot') or a bot match ('match') from the front page's form."""
    if not same_origin(request):
        return _json(request, {"error": tr("Games are started from this site's own page.")}, status=403)
    site = request.app[SITE]
    now = time.monotonic()
    address = client(request)
    recent = _recent(site.starts, address, now)
    if len(recent) >= NEW_GAMES_PER_MINUTE:
        return _json(request, {"error": tr("That is many new games at once: wait a minute.")}, status=429)
    if await site.pages.web_games() >= WEB_GAMES_LIMIT:
        return _json(request, {"error": tr("Too many games are on from this page right now: try again later.")},
                                 status=503)
    try:
        form = json.loads(await request.text())
    except (ValueError, RecursionError):  # not JSON, not UTF-8, or nested too deep to read
        return _json(request, {"error": forms.UNREADABLE}, status=400)
    try:
        command, name = forms.command(form), forms.name(form)
    except forms.FormError as error:
        return _json(request, {"error": error.args[0]}, status=400)
    guest = _guest(request)
    user = User(f"web:{guest}", name)
    pages = site.pages
    game_id, notes = await pages.start(user, command)
    if game_id is None:
        response = _json(request, {"error": join(notes) if notes else tr("The game did not start.")}, status=400)
    else:
        site.starts[address] = recent + [now]
        found = await pages.find(game_id)
        seat = next((c for c, s in found.seats.items() if s.user == user), None) if isinstance(found, LiveGame) else None
        url = pages.seat_path(game_id, seat, user) if seat is not None else pages.starter_path(game_id, user)
        response = _json(request, {"game": game_id, "url": url})
    response.set_cookie(GUEST_COOKIE, guest, httponly=True, samesite="Strict", max_age=365 * 86400)
    return response


def client(request: web.Request) -> str:
    """The address a request came from: the connection's, or, from a proxy of ``Site.proxies``, the last address
    before the proxies in its X-Forwarded-For (the earlier ones are the client's to write)."""
    remote = request.remote or "?"
    proxies = request.app[SITE].proxies
    if remote in proxies:
        for hop in reversed(request.headers.get("X-Forwarded-For", "").split(",")):
            if hop.strip() and hop.strip() not in proxies:
                return hop.strip()[:64]
    return remote


def _guest(request: web.Request) -> str:
    """The page's guest id, from its cookie, or a new one (the answer sets the cookie)."""
    guest = request.cookies.get(GUEST_COOKIE, "")
    return guest if re.fullmatch(r"[\w-]{16,32}", guest) else secrets.token_urlsafe(12)


def _recent(record: dict[str, list[float]], address: str, now: float) -> list[float]:
    """When ``address`` did something counted in ``record`` in the last minute (others' older times forgotten)."""
    recent = [t for t in record.get(address, []) if now - t < 60]
    for other in [a for a, ts in record.items() if not ts or now - ts[-1] >= 60]:
        del record[other]
    return recent


async def _analysis(request: web.Request) -> web.Response:
    """How far a finished game's analysis is, and the analysis once done (``views.analysis``)."""
    return await _analysis_answer(request, _pages(request).analysis(_game(request)))


async def _ask_analysis(request: web.Request) -> web.Response:
    """Ask for a finished game's analysis from its page: as the player whose seat secret the body carries
    (``{"seat": ...}``), else as a guest of the page's address (one analysis at a time each, as a person in chat:
    a cookie, which a client may drop or choose, would let one address fill the queue)."""
    if not same_origin(request):
        return _json(request, {"error": tr("Analyses are asked for from this site's own page.")}, status=403)
    game = _game(request)
    site = request.app[SITE]
    now, address = time.monotonic(), client(request)
    recent = _recent(site.asks, address, now)
    if len(recent) >= ANALYSES_PER_MINUTE:
        return _json(request, {"error": tr("That is many analyses at once: wait a minute.")}, status=429)
    site.asks[address] = recent + [now]
    try:
        body = json.loads(await request.text() or "{}")
    except (ValueError, RecursionError):
        return _json(request, {"error": forms.UNREADABLE}, status=400)
    secret = body.get("seat") if isinstance(body, dict) else None
    return await _analysis_answer(request, site.pages.ask_analysis(
        game, secret[:64] if isinstance(secret, str) else "", User(f"web:{address}", tr("a guest on the web page"))))


async def _analysis_answer(request: web.Request, asking) -> web.Response:
    """The JSON answer of an analysis request: a refusal (409) and a database that does not answer (503) in words
    the page shows."""
    try:
        shown = await asking
    except Refusal as refusal:
        return _json(request, {"error": refusal.args[0]}, status=409)
    except SaveFailed as error:
        log.warning("an analysis could not be read from the database: %s", error)
        return _json(request, {"error": tr("The games' database is not answering right now. Please try again in "
                                              "a minute.")}, status=503, headers={"Retry-After": "30"})
    if shown is None:
        return _json(request, {"error": NO_GAME}, status=404)
    return _json(request, shown, headers={"Cache-Control": "no-store"})


async def _socket(request: web.Request) -> web.StreamResponse:
    if not same_origin(request):
        return _text(request, tr("This game's page is only served from its own site."), 403)
    pages = _pages(request)
    try:
        watcher = await pages.join(_game(request), wording.language(request))
    except SaveFailed as error:
        log.warning("a page's socket could not read its game from the database: %s", error)
        return await _refuse_socket(request, UNREADABLE)
    if watcher is None:
        return _text(request, NO_GAME, 404)
    ws = web.WebSocketResponse(max_msg_size=MESSAGE_LIMIT, heartbeat=30)
    try:
        await ws.prepare(request)
    except Exception:
        pages.leave(watcher)
        raise
    writer = asyncio.create_task(_write(ws, watcher))
    code, why = 1000, b""
    try:
        code, why = await _read(ws, watcher, pages)
    finally:
        pages.leave(watcher)
        watcher.finish()
        await writer
        await ws.close(code=code, message=why)
    return ws


async def _refuse_socket(request: web.Request, why: str) -> web.WebSocketResponse:
    """Open the page's socket only to say ``why`` and close it as "try again later": the page shows the words and
    reconnects by itself."""
    ws = web.WebSocketResponse()
    await ws.prepare(request)
    await ws.send_str(json.dumps({"type": "notice", "text": render(why, wording.language(request))}))
    await ws.close(code=1013, message=b"try again later")
    return ws


async def _write(ws: web.WebSocketResponse, watcher: Watcher) -> None:
    while (text := await watcher.queue.get()) is not None:
        try:
            await ws.send_str(text)
        except (ConnectionError, RuntimeError):
            return
    if watcher.dropped:  # too slow (or the server is closing): the page reconnects and gets the whole game
        await ws.close(code=1013, message=b"fell behind")


async def _read(ws: web.WebSocketResponse, watcher: Watcher, pages: Pages) -> tuple[int, bytes]:
    """Act on the page's messages until it goes; the close code and reason to end with."""
    tokens, last, refused, warned = float(BURST), time.monotonic(), 0, False
    async for message in ws:
        if message.type != WSMsgType.TEXT:
            if message.type == WSMsgType.ERROR:
                break
            continue
        now = time.monotonic()
        tokens = min(BURST, tokens + (now - last) * RATE)
        last = now
        if tokens < 1:
            refused += 1
            if refused >= TOO_FAST:
                return 1008, b"too many messages"
            if not warned:
                await watcher.notice(tr("Slow down: that was too many messages at once, so I skipped some."))
                warned = True
            continue
        tokens -= 1
        refused, warned = 0, False
        try:
            data = json.loads(message.data)
            kind = data["type"]
        except (ValueError, TypeError, KeyError, RecursionError):
            await watcher.notice(tr("That message is not readable."))
            continue
        try:
            await _act(pages, watcher, kind, data)
        except SaveFailed as error:
            log.warning("a page's message could not be answered from the database: %s", error)
            await watcher.notice(UNREADABLE)
    return 1000, b""


async def _act(pages: Pages, watcher: Watcher, kind: object, data: dict) -> None:
    if kind == "seat":
        if not await pages.take_seat(watcher, str(data.get("secret", ""))[:64]):
            await watcher.notice(tr("That seat link is not for this game: you can watch it."))
    elif kind == "move":
        text, ply = str(data.get("text", ""))[:200], data.get("ply")
        if type(ply) is not int:  # (not None, a text or a float; nor True, which Python counts as an int)
            await watcher.notice(NO_PLY)
        else:
            await pages.move(watcher, text, ply)
    elif kind == "command" and data.get("name") in COMMANDS:
        await pages.command(watcher, str(data["name"]))
    else:
        await watcher.notice(tr("That message is not one the page sends."))


# puzzles


def _find_puzzle(request: web.Request, daily: bool = True) -> Puzzle | None:
    """The puzzle a puzzle route names (``daily``: also the day's puzzle, by that word), or None."""
    core = _pages(request).core
    assert core is not None
    variant, ref = request.match_info["variant"], request.match_info["puzzle"]
    if variant not in core.puzzle_variants():
        return None
    if ref == "daily":
        return core.daily_puzzle(variant) if daily else None
    return core.puzzle(variant, ref)


async def _puzzles_page(request: web.Request) -> web.Response:
    return _html(request, "puzzles.html")


async def _puzzle_page(request: web.Request) -> web.StreamResponse:
    """A puzzle's page; ``random`` sends the browser on to any one of the game's puzzles."""
    pages = _pages(request)
    assert pages.core is not None
    variant = request.match_info["variant"]
    if request.match_info["puzzle"] == "random":
        found = pages.core.random_puzzle(variant)
        if found is None:
            raise _not_found(request, NO_PUZZLE)
        raise web.HTTPFound(pages.puzzle_path(variant, found.id), headers={"Cache-Control": "no-store"})
    if _find_puzzle(request) is None:
        raise _not_found(request, NO_PUZZLE)
    return _html(request, "puzzle.html")


async def _puzzle_list(request: web.Request) -> web.Response:
    """The games that have puzzles: each one's name, title, how many, and its daily and random puzzle's pages."""
    pages = _pages(request)
    assert pages.core is not None
    return _json(request, {"variants": [
        {"name": variant, "title": game_title(variant), "count": count,
         "daily": pages.puzzle_path(variant, "daily"), "random": pages.puzzle_path(variant, "random")}
        for variant, count in pages.core.puzzle_variants().items()]})


async def _puzzle_start(request: web.Request) -> web.Response:
    """A puzzle as its page starts (``views.puzzle``): no solution."""
    found = _find_puzzle(request)
    if found is None:
        return _json(request, {"error": NO_PUZZLE}, status=404)
    daily = request.match_info["puzzle"] == "daily"
    return _json(request, views.puzzle(found, _pages(request).puzzle_path(found.variant, found.id), daily),
                             headers={"Cache-Control": "no-store"})


async def _puzzle_try(request: web.Request) -> web.Response:
    """The solver's moves so far (``{"moves": [...]}``), checked by the core: right (with the defender's reply),
    solved or wrong (with the answer and the line); a move that is not legal is refused, and changes nothing."""
    pages = _pages(request)
    assert pages.core is not None
    found = _find_puzzle(request, daily=False)  # by its id: a daily page keeps its puzzle after midnight
    if found is None:
        return _json(request, {"error": NO_PUZZLE}, status=404)
    try:
        body = json.loads(await request.text())
    except (ValueError, RecursionError):
        return _json(request, {"error": BAD_ANSWER}, status=400)
    moves = body.get("moves") if isinstance(body, dict) else None
    if (not isinstance(moves, list) or not 0 < len(moves) <= PUZZLE_MOVES
            or not all(isinstance(m, str) and 0 < len(m) <= 100 for m in moves)):
        return _json(request, {"error": BAD_ANSWER}, status=400)
    try:
        step = pages.core.try_puzzle(found, moves)
    except MoveError as error:
        return _json(request, {"error": join([refusal(error, legal=False),
                                              tr("That move is not legal here, so nothing changed.")])}, status=400)
    return _json(request, views.puzzle_step(found, len(moves), step.verdict, step.reply, step.right, step.line),
                             headers={"Cache-Control": "no-store"})


async def _puzzle_solution(request: web.Request) -> web.Response:
    """A puzzle's solution, for its page's Show the solution button."""
    pages = _pages(request)
    assert pages.core is not None
    found = _find_puzzle(request, daily=False)
    if found is None:
        return _json(request, {"error": NO_PUZZLE}, status=404)
    line = pages.core.try_puzzle(found, list(found.solution[::2])).line  # the whole line, as the core writes it
    return _json(request, views.puzzle_step(found, 0, "shown", None, None, line))


class _RequestLog(logging.LoggerAdapter):
    """aiohttp's server log, where a request that is not HTTP (anyone may send one, as often as they like) is a
    line at INFO, without a traceback; the server's own faults keep theirs, at ERROR."""

    def exception(self, msg, *args, exc_info=True, **kwargs) -> None:  # type: ignore[override]
        error = exc_info if isinstance(exc_info, BaseException) else sys.exc_info()[1]
        if isinstance(error, HttpProcessingError):
            reason = (error.message or type(error).__name__).strip().splitlines()[0].rstrip(":")[:100]
            self.info(f"{msg}: refused as a malformed request (%s)", *args, reason)
            return
        super().exception(msg, *args, exc_info=exc_info, **kwargs)


async def serve(pages: Pages, host: str, port: int, proxies: frozenset[str] = frozenset()) -> web.AppRunner:
    """Start the server; the caller cleans the returned runner up."""
    runner = web.AppRunner(make_app(pages, proxies), access_log=None,
                           logger=_RequestLog(logging.getLogger("aiohttp.server"), {}))
    await runner.setup()
    await web.TCPSite(runner, host, port).start()
    return runner
