"""Signing in with Discord: OAuth2's authorization code flow with ``state`` and PKCE (RFC 7636), and a session kept in
a signed cookie.

``/login?next=PATH`` sends the browser to Discord's consent page with a fresh ``state`` and a PKCE challenge; both,
with where to go afterwards, are kept in a short-lived login cookie (HttpOnly, SameSite=Lax, signed), so that any
process of the bot can finish the sign-in. Discord sends the browser back to ``/login/discord/back`` with a code:
the ``state`` must be the login cookie's (else a forged or foreign callback, refused), the cookie is spent at once
(and the ``state`` is kept as used until it expires: a replayed callback is refused, even with the cookie kept;
Discord refuses a code used twice too; an address may bring ``SIGN_INS_PER_MINUTE`` answers a minute), and the code
is traded, with the PKCE verifier and the client secret, for a token that reads who signed in (``identify`` only).
The session cookie then names them: their Discord id and name, signed with the server's key, for 30 days (HttpOnly,
SameSite=Lax, Secure on https). ``next`` is followed only to a path of this site, never to another site.

Signed in, the person's web games, puzzle ratings and history are kept under their Discord id (``site.person_of``);
without signing in, the page works as before, as the browser's guest. ``/logout`` (a POST from this site) ends the
session. ``/api/account`` tells the pages' header which to show.
"""

from __future__ import annotations

import base64
import hashlib
import json
import logging
import secrets
import time
from dataclasses import dataclass
from urllib.parse import urlencode, urlsplit

import aiohttp
from aiohttp import web

from bot.replies import User
from bot.translation import tr
from bot.web.site import (LOGIN_COOKIE, OTHER_SITE, SESSION_COOKIE, SITE, client, json_answer, pages_of, person_of,
                          recent_times, same_origin, text_answer)

log = logging.getLogger(__name__)

LOGIN_SECONDS = 600
"""How long a sign-in may take, from the click to Discord's answer."""
SIGN_INS_PER_MINUTE = 10
"""Answers from Discord one address may bring in a minute (each one costs a call to Discord)."""
SESSION_DAYS = 30
TIMEOUT = 10.0
"""Seconds each call to Discord may take."""
REFUSED = tr("That sign-in was refused: it did not start in this browser, was used already, or took too long. "
             "Sign in again from the page.")
DISCORD_DOWN = tr("Discord did not answer the sign-in. Please try again in a minute.")


@dataclass(frozen=True)
class SignIn:
    """The bot's Discord application, as the operator set it (``DISCORD_CLIENT_ID``, ``DISCORD_CLIENT_SECRET``), and
    where Discord's OAuth2 endpoints are (``DISCORD_OAUTH_URL``: Discord's own, or the test emulator's)."""

    client_id: str
    client_secret: str
    redirect: str
    """Where Discord sends the browser back: this site's ``/login/discord/back``, as registered with Discord."""
    base: str = "https://discord.com"

    def __repr__(self) -> str:  # (never the secret, in a log or a traceback)
        return f"SignIn(client_id={self.client_id!r}, redirect={self.redirect!r}, base={self.base!r})"


def local_path(path: str) -> str:
    """``path`` if it is a path of this site, else ``/``: never another site (``//evil.example``, a scheme, a
    backslash that browsers read as a slash, or a control character)."""
    parts = urlsplit(path)
    if (not path.startswith("/") or path.startswith(("//", "/\\")) or parts.scheme or parts.netloc
            or any(ord(c) < 32 or c == "\\" for c in path) or len(path) > 500):
        return "/"
    return path


def _secure(request: web.Request) -> bool:
    """Whether the cookies are for https only: the request's, or the page's public address's (behind a proxy that
    ends TLS, the request the bot sees is plain http)."""
    return request.secure or pages_of(request).base_url.startswith("https://")


def _challenge(verifier: str) -> str:
    return base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).decode().rstrip("=")


async def _login(request: web.Request) -> web.Response:
    site = request.app[SITE]
    if site.signin is None:
        return text_answer(request, tr("Signing in with Discord is not set up on this bot."), status=404)
    state, verifier = secrets.token_urlsafe(24), secrets.token_urlsafe(48)
    going = local_path(request.query.get("next", "/"))
    keys = pages_of(request).keys
    cookie = keys.sign(json.dumps([state, verifier, going, int(time.time()) + LOGIN_SECONDS]))
    query = urlencode({"response_type": "code", "client_id": site.signin.client_id, "scope": "identify",
                       "state": state, "redirect_uri": site.signin.redirect, "prompt": "consent",
                       "code_challenge": _challenge(verifier), "code_challenge_method": "S256"})
    response = web.HTTPFound(f"{site.signin.base}/oauth2/authorize?{query}", headers={"Cache-Control": "no-store"})
    response.set_cookie(LOGIN_COOKIE, cookie, max_age=LOGIN_SECONDS, path="/login", httponly=True, samesite="Lax",
                        secure=_secure(request))
    raise response


async def _back(request: web.Request) -> web.Response:
    """Discord's answer: the code traded for who signed in, if the ``state`` is this browser's sign-in's."""
    site = request.app[SITE]
    if site.signin is None:
        return text_answer(request, tr("Signing in with Discord is not set up on this bot."), status=404)
    keys = pages_of(request).keys
    kept = keys.unsign(request.cookies.get(LOGIN_COOKIE, ""))
    try:
        state, verifier, going, until = json.loads(kept) if kept else (None, None, "/", 0)
    except (ValueError, TypeError):
        state, verifier, going, until = None, None, "/", 0
    given, now = request.query.get("state", ""), time.time()
    site.spent = {kept_state: at for kept_state, at in site.spent.items() if at > now}  # (those expired forgotten)
    recent = recent_times(site.signins, client(request), now)
    if len(recent) >= SIGN_INS_PER_MINUTE:
        return text_answer(request, tr("That is many sign-ins at once: wait a minute."), status=429)
    site.signins[client(request)] = recent + [now]
    if (state is None or until < now or not secrets.compare_digest(given.encode(), str(state).encode())
            or "code" not in request.query or state in site.spent):
        answer = text_answer(request, REFUSED if "error" not in request.query else
                             tr("The sign-in was cancelled on Discord. You can go on as a guest."), status=400)
        answer.del_cookie(LOGIN_COOKIE, path="/login")
        return answer
    site.spent[str(state)] = until  # used once, here too: not only the browser's cookie is spent
    try:
        person = await _who(site.signin, request.query["code"][:200], str(verifier))
    except (aiohttp.ClientError, TimeoutError, ValueError, KeyError, PermissionError) as error:
        log.warning("a Discord sign-in failed: %s", type(error).__name__)
        refused = isinstance(error, PermissionError)
        answer = text_answer(request, REFUSED if refused else DISCORD_DOWN, status=400 if refused else 502)
        answer.del_cookie(LOGIN_COOKIE, path="/login")
        return answer
    response = web.HTTPFound(local_path(str(going)), headers={"Cache-Control": "no-store"})
    response.del_cookie(LOGIN_COOKIE, path="/login")
    response.set_cookie(SESSION_COOKIE, keys.session(person, int(time.time()) + SESSION_DAYS * 86400),
                        max_age=SESSION_DAYS * 86400, httponly=True, samesite="Lax", secure=_secure(request))
    log.info("a person signed in with Discord")
    raise response


async def _who(signin: SignIn, code: str, verifier: str) -> User:
    """The Discord user the ``code`` is for: traded for a token (with the PKCE ``verifier``), which reads them."""
    timeout = aiohttp.ClientTimeout(total=TIMEOUT)
    async with aiohttp.ClientSession(timeout=timeout) as http:
        form = {"grant_type": "authorization_code", "code": code, "redirect_uri": signin.redirect,
                "code_verifier": verifier, "client_id": signin.client_id, "client_secret": signin.client_secret}
        async with http.post(f"{signin.base}/api/oauth2/token", data=form) as answer:
            if answer.status in (400, 401):  # a code used already, or not for this verifier: not Discord's fault
                raise PermissionError("Discord refused the code")
            answer.raise_for_status()
            token = (await answer.json())["access_token"]
        async with http.get(f"{signin.base}/api/users/@me", headers={"Authorization": f"Bearer {token}"}) as answer:
            answer.raise_for_status()
            me = await answer.json()
    return User(str(int(me["id"])), str(me.get("global_name") or me["username"])[:32])


async def _logout(request: web.Request) -> web.Response:
    if not same_origin(request):
        return text_answer(request, OTHER_SITE, status=403)
    response = json_answer(request, {"ok": True})
    response.del_cookie(SESSION_COOKIE)
    return response


async def _account(request: web.Request) -> web.Response:
    """Whether signing in is offered, and who is signed in (None: the browser's guest)."""
    person = person_of(request, "")
    signed = None if person.id.startswith("web:") else person.name
    return json_answer(request, {"signin": request.app[SITE].signin is not None, "name": signed},
                       headers={"Cache-Control": "no-store"})


def add_routes(app: web.Application) -> None:
    """Route this module's addresses to its handlers."""
    app.router.add_get("/login", _login)
    app.router.add_get("/login/discord/back", _back)
    app.router.add_post("/logout", _logout)
    app.router.add_get("/api/account", _account)
