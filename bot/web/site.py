"""What every route of the web server shares: the site's state (``Site``: the pages, the limits' bookkeeping, the
replays drawn), the guard every request passes (this server's name, the database's state, the headers every answer
carries), where a request comes from, and the answers' makers (text, JSON and pages in the reader's language)."""

from __future__ import annotations

import asyncio
import logging
import re
import secrets
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from aiohttp import web

from bot.core import SaveFailed
from bot.replies import User
from bot.translation import render, rendered, tr
from bot.web import wording
from bot.web.pages import Pages

if TYPE_CHECKING:
    from bot.web.signin import SignIn

log = logging.getLogger(__name__)

GUEST_COOKIE = "draughts_guest"
SESSION_COOKIE = "draughts_session"  # a person signed in with Discord (bot.web.signin)
LOGIN_COOKIE = "draughts_login"  # a sign-in under way: its state, PKCE verifier and where to go after
LOOPBACK = ("127.0.0.1", "localhost", "[::1]")
SERVER_NAME = "draughts-bot"  # the Server header: no software or version for anyone to look up
UNREADABLE = tr("The games' database is not answering right now, so this game cannot be shown. Please try again "
                "in a minute.")
REF = r"{ref:[0-9]{1,12}-[\w-]{1,24}}"
NO_GAME = tr("There is no such game.")


@dataclass
class Site:
    """The server's state: the pages, and its limits' and caches' bookkeeping."""

    pages: Pages
    proxies: frozenset[str] = frozenset()
    """The proxies in front of the server, whose X-Forwarded-For is believed."""
    starts: dict[str, list[float]] = field(default_factory=dict)  # address -> when it started games, last minute
    asks: dict[str, list[float]] = field(default_factory=dict)  # address -> when it asked for analyses, last minute
    looks: dict[str, list[float]] = field(default_factory=dict)  # address -> when it read players' games, last minute
    gifs: OrderedDict[tuple[int, str], bytes] = field(default_factory=OrderedDict)  # by game and language
    drawing: asyncio.Semaphore = field(default_factory=lambda: asyncio.Semaphore(1))
    looking: set[str] = field(default_factory=set)  # addresses whose analysis board's look is under way
    spent: dict[str, int] = field(default_factory=dict)  # sign-ins' states used, until they expire (bot.web.signin)
    signins: dict[str, list[float]] = field(default_factory=dict)  # address -> its sign-in answers, last minute
    signin: SignIn | None = None
    """The bot's Discord application, when signing in with Discord is set up."""


SITE: web.AppKey[Site] = web.AppKey("site", Site)


@web.middleware
async def guard(request: web.Request, handler):
    """Refuse requests that name another server (a page elsewhere whose name was pointed at this machine); say
    "try again" while the database does not answer; add the headers every answer carries."""
    if not known_host(request, request.host):
        response = text_answer(request, tr("This server does not serve that address. Set BOT_WEB_URL to the "
                                           "address people use."), 421)
    else:
        try:
            response = await handler(request)
        except SaveFailed as error:
            log.warning("a page could not be read from the database: %s", error)
            response = text_answer(request, UNREADABLE, 503, {"Retry-After": "30"})
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
    and WebSockets reach this server only: the address it was asked for (``guard`` checked it is this server's)
    and the public one links give (a proxy in front may ask by another name than the browser's)."""
    hosts = dict.fromkeys((request.host, urlsplit(request.app[SITE].pages.base_url).netloc))
    sockets = " ".join(f"ws://{host} wss://{host}" for host in hosts if host)
    return {"Content-Security-Policy": f"default-src 'self'; img-src 'self' data:; "
                                       f"connect-src 'self' {sockets}; frame-ancestors 'none'",
            "Cache-Control": "no-cache"}


OTHER_SITE = tr("That request did not come from this site.")
"""The refusal of a request another site made (``same_origin`` says which)."""


def same_origin(request: web.Request) -> bool:
    """Whether a browser request comes from a page of this server (no ``Origin``: not a browser's cross-site
    request, which always carries one)."""
    origin = request.headers.get("Origin")
    if origin is None:
        return True
    host = urlsplit(origin).netloc
    return bool(host) and known_host(request, host)  # "null" (a sandboxed frame, a file) is no site of ours


def text_answer(request: web.Request, text: str, status: int = 200,
                headers: dict[str, str] | None = None) -> web.Response:
    """A plain-text answer in the reader's language."""
    return web.Response(status=status, text=render(text, wording.language(request)), headers=headers)


def json_answer(request: web.Request, data: object, status: int = 200,
                headers: dict[str, str] | None = None) -> web.Response:
    """A JSON answer, its texts in the reader's language."""
    return web.json_response(rendered(data, wording.language(request)), status=status, headers=headers)


def html_answer(request: web.Request, name: str) -> web.Response:
    """A page (``wording.page``'s template ``name``) in the reader's language."""
    language = wording.language(request)
    return web.Response(text=wording.page(name, language), content_type="text/html", charset="utf-8",
                        headers={**html_headers(request), "Content-Language": wording.tag(language)})


def not_found(request: web.Request, text: str) -> web.HTTPNotFound:
    return web.HTTPNotFound(text=render(text, wording.language(request)))


def pages_of(request: web.Request) -> Pages:
    return request.app[SITE].pages


def requested_game(request: web.Request) -> int:
    game = pages_of(request).game_of(request.match_info["ref"])
    if game is None:
        raise not_found(request, NO_GAME)
    return game


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


def guest_of(request: web.Request) -> str:
    """The page's guest id, from its cookie, or a new one (the answer sets the cookie)."""
    guest = request.cookies.get(GUEST_COOKIE, "")
    return guest if re.fullmatch(r"[\w-]{16,32}", guest) else secrets.token_urlsafe(12)


def person_of(request: web.Request, guest: str, guest_name: str = "guest") -> User:
    """The person on the page: signed in with Discord (their id and name, ``bot.web.signin``), else the browser's
    guest ``guest`` (``guest_of``: the answer keeps it with ``keep_guest``), named ``guest_name``."""
    signed = pages_of(request).keys.read_session(request.cookies.get(SESSION_COOKIE, ""), time.time())
    return signed if signed is not None else User(f"web:{guest}", guest_name)


def keep_guest(response: web.StreamResponse, guest: str) -> None:
    """Give the browser its guest id (``guest_of``) for a year, for this site's own requests only."""
    response.set_cookie(GUEST_COOKIE, guest, httponly=True, samesite="Strict", max_age=365 * 86400)


def recent_times(record: dict[str, list[float]], address: str, now: float) -> list[float]:
    """When ``address`` did something counted in ``record`` in the last minute (others' older times forgotten)."""
    recent = [t for t in record.get(address, []) if now - t < 60]
    for other in [a for a, ts in record.items() if not ts or now - ts[-1] >= 60]:
        del record[other]
    return recent
