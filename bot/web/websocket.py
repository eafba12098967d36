"""A game page's WebSocket: watching a game live, and playing it or acting in it from a seat (JSON both ways; see
``bot.web.pages``), each connection's messages small and at a limited rate."""

from __future__ import annotations

import asyncio
import json
import logging
import time

from aiohttp import WSMsgType, web

from bot.core import SaveFailed
from bot.translation import render, tr
from bot.web import wording
from bot.web.pages import COMMANDS, Pages
from bot.web.watchers import Watcher
from bot.web.site import NO_GAME, REF, UNREADABLE, pages_of, requested_game, same_origin, text_answer

log = logging.getLogger(__name__)

MESSAGE_LIMIT = 1024  # bytes of one WebSocket message from a page
RATE = 5.0  # messages a second a page may send, on average
BURST = 20  # ... and at once
TOO_FAST = 50  # messages refused for speed in a row before the connection is closed
NO_PLY = tr("That move was not played: a move from the page says which position it was made at, as a whole "
            "number.")


async def _socket(request: web.Request) -> web.StreamResponse:
    if not same_origin(request):
        return text_answer(request, tr("This game's page is only served from its own site."), 403)
    pages = pages_of(request)
    try:
        watcher = await pages.join(requested_game(request), wording.language(request))
    except SaveFailed as error:
        log.warning("a page's socket could not read its game from the database: %s", error)
        return await _refuse_socket(request, UNREADABLE)
    if watcher is None:
        return text_answer(request, NO_GAME, 404)
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
    elif kind == "state":  # the page found a gap in its updates' versions
        await pages.resend(watcher)
    else:
        await watcher.notice(tr("That message is not one the page sends."))


def add_routes(app: web.Application) -> None:
    """Route this module's addresses to its handlers."""
    app.router.add_get(f"/ws/{REF}", _socket)
