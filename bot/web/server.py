"""The web server (aiohttp): the front page, a page per game, its WebSocket, and the game's PDN and GIF.

Routes:
- ``/``: the games on, and forms to play the bot or start a bot match;
- ``/g/{id}``: a game's page, to watch it live, replay it, and play it from a seat link (``#seat=...``);
- ``/ws/{id}``: the page's WebSocket (JSON both ways; see ``bot.web.hub``);
- ``/g/{id}.pdn`` and ``/g/{id}.gif``: the record and the animated replay;
- ``/api/games`` and ``/api/new``: the front page's list and its forms.

Watching needs nothing; moving needs the seat's secret, sent by the page over the WebSocket (it stays in the
link's fragment, which browsers never send to a server). WebSocket upgrades and form posts from other sites are
refused (their ``Origin`` must be this server), and each connection may send small messages at a limited rate.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import secrets
import time
from pathlib import Path
from urllib.parse import urlsplit

from aiohttp import WSMsgType, web

from bot.present import replay_gif
from bot.core.results import pdn_text
from bot.tables import Table, User
from bot.web import views
from bot.web.hub import COMMANDS, Hub, Watcher
from engine import NAMES

log = logging.getLogger(__name__)

STATIC = Path(__file__).with_name("static")
MESSAGE_LIMIT = 1024  # bytes of one WebSocket message from a page
RATE = 5.0  # messages a second a page may send, on average
BURST = 20  # ... and at once
TOO_FAST = 50  # messages refused for speed before the connection is closed
GUEST_COOKIE = "draughts_guest"
_NAME = re.compile(r"^[\w .'-]{1,24}$")

HUB: web.AppKey[Hub] = web.AppKey("hub", Hub)


def make_app(hub: Hub) -> web.Application:
    app = web.Application(client_max_size=4096, middlewares=[_headers])
    app[HUB] = hub
    app.router.add_get("/", _front)
    app.router.add_get(r"/g/{id:\d+}", _page)
    app.router.add_get(r"/g/{id:\d+}.pdn", _pdn)
    app.router.add_get(r"/g/{id:\d+}.gif", _gif)
    app.router.add_get(r"/ws/{id:\d+}", _socket)
    app.router.add_get("/api/games", _games)
    app.router.add_post("/api/new", _new)
    app.router.add_static("/static/", STATIC)
    return app


@web.middleware
async def _headers(request: web.Request, handler):
    response = await handler(request)
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("Referrer-Policy", "no-referrer")
    if response.content_type == "text/html":
        response.headers.setdefault("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; "
                                    "connect-src 'self' ws: wss:; frame-ancestors 'none'")
    return response


def same_origin(request: web.Request) -> bool:
    """Whether a browser request comes from a page of this server (no ``Origin``: not a browser's cross-site
    request, which always carries one)."""
    origin = request.headers.get("Origin")
    if origin is None:
        return True
    return urlsplit(origin).netloc == request.host


async def _front(request: web.Request) -> web.FileResponse:
    return web.FileResponse(STATIC / "index.html")


async def _page(request: web.Request) -> web.StreamResponse:
    if request.app[HUB].find(int(request.match_info["id"])) is None:
        return web.Response(status=404, text="There is no such game (or it ended long ago).")
    return web.FileResponse(STATIC / "game.html")


def _found(request: web.Request) -> Table | views.Finished:
    found = request.app[HUB].find(int(request.match_info["id"]))
    if found is None:
        raise web.HTTPNotFound(text="There is no such game (or it ended long ago).")
    return found


async def _pdn(request: web.Request) -> web.Response:
    found = _found(request)
    text = found.pdn if isinstance(found, views.Finished) else pdn_text(found)
    return web.Response(text=text, content_type="text/plain", charset="utf-8",
                        headers={"Content-Disposition": f'attachment; filename="game-{found.id}.pdn"'})


async def _gif(request: web.Request) -> web.Response:
    found = _found(request)
    game_id, record = found.id, found.record if isinstance(found, views.Finished) else found.game
    data = await asyncio.to_thread(replay_gif, record)
    return web.Response(body=data, content_type="image/gif",
                        headers={"Content-Disposition": f'attachment; filename="game-{game_id}.gif"'})


async def _games(request: web.Request) -> web.Response:
    return web.json_response({"games": request.app[HUB].listing(), "variants": list(NAMES)})


async def _new(request: web.Request) -> web.Response:
    """Start a game against the bot (``kind`` 'bot') or a bot match ('match') from the front page's form."""
    if not same_origin(request):
        return web.json_response({"error": "Games are started from this site's own page."}, status=403)
    try:
        form = await request.json()
        command = _command(form)
    except (ValueError, TypeError, KeyError) as error:
        return web.json_response({"error": str(error) or "That form is not readable."}, status=400)
    guest = request.cookies.get(GUEST_COOKIE, "")
    if not re.fullmatch(r"[\w-]{16,32}", guest):
        guest = secrets.token_urlsafe(12)
    name = str(form.get("name") or "Guest").strip()
    if not _NAME.match(name):
        return web.json_response({"error": "A name is 1 to 24 letters, digits, spaces, dots or dashes."}, status=400)
    user = User(f"web:{guest}", name)
    hub = request.app[HUB]
    game_id, notes = await hub.start(user, command)
    if game_id is None:
        response = web.json_response({"error": " ".join(notes) or "The game did not start."}, status=400)
    else:
        found = hub.find(game_id)
        seat = next((c for c, s in found.seats.items() if s.user == user), None) if isinstance(found, Table) else None
        url = hub.seat_path(game_id, seat, user) if seat is not None else f"/g/{game_id}"
        response = web.json_response({"game": game_id, "url": url})
    response.set_cookie(GUEST_COOKIE, guest, httponly=True, samesite="Strict", max_age=365 * 86400)
    return response


def _command(form: dict) -> str:
    """The chat command a front-page form asks for (its words checked here, read by the core as typed)."""
    variant = str(form.get("variant", ""))
    if variant not in NAMES:
        raise ValueError(f"There is no game {variant[:20]!r}.")
    if form.get("kind") == "match":
        levels = [int(x) for x in form.get("levels", [3, 3])][:2]
        delay = float(form.get("delay", 1))
        return f"watch {variant} {' '.join(map(str, levels))} delay {delay:g}"
    level = int(form.get("level", 3))
    colour = str(form.get("colour", "white"))
    if colour not in ("white", "black", "random"):
        raise ValueError("The colour is white, black or random.")
    seconds = float(form.get("time", 1))
    return f"new {variant} level {level} {colour} time {seconds:g}"


async def _socket(request: web.Request) -> web.StreamResponse:
    if not same_origin(request):
        return web.Response(status=403, text="This game's page is only served from its own site.")
    hub = request.app[HUB]
    watcher = hub.join(int(request.match_info["id"]))
    if watcher is None:
        return web.Response(status=404, text="There is no such game.")
    ws = web.WebSocketResponse(max_msg_size=MESSAGE_LIMIT, heartbeat=30)
    try:
        await ws.prepare(request)
    except Exception:
        hub.leave(watcher)
        raise
    writer = asyncio.create_task(_write(ws, watcher))
    code, why = 1000, b""
    try:
        code, why = await _read(ws, watcher, hub)
    finally:
        hub.leave(watcher)
        watcher.finish()
        await writer
        await ws.close(code=code, message=why)
    return ws


async def _write(ws: web.WebSocketResponse, watcher: Watcher) -> None:
    while (text := await watcher.queue.get()) is not None:
        try:
            await ws.send_str(text)
        except (ConnectionError, RuntimeError):
            return


async def _read(ws: web.WebSocketResponse, watcher: Watcher, hub: Hub) -> tuple[int, bytes]:
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
                await watcher.notice("Slow down: that was too many messages at once, so I skipped some.")
                warned = True
            continue
        tokens -= 1
        warned = False
        try:
            data = json.loads(message.data)
            kind = data["type"]
        except (ValueError, TypeError, KeyError):
            await watcher.notice("That message is not readable.")
            continue
        await _act(hub, watcher, kind, data)
    return 1000, b""


async def _act(hub: Hub, watcher: Watcher, kind: object, data: dict) -> None:
    if kind == "seat":
        if not hub.take_seat(watcher, str(data.get("secret", ""))[:64]):
            await watcher.notice("That seat link is not for this game, or the game is over: you can watch it.")
    elif kind == "move":
        text, ply = str(data.get("text", ""))[:200], data.get("ply")
        await hub.act(watcher, text, ply if isinstance(ply, int) else None)
    elif kind == "command" and data.get("name") in COMMANDS:
        await hub.act(watcher, str(data["name"]))
    else:
        await watcher.notice("That message is not one the page sends.")


async def serve(hub: Hub, host: str, port: int) -> web.AppRunner:
    """Start the server; the caller cleans the returned runner up."""
    runner = web.AppRunner(make_app(hub), access_log=None)
    await runner.setup()
    await web.TCPSite(runner, host, port).start()
    return runner
