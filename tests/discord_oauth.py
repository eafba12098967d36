"""Discord's OAuth2 endpoints, served beside the Discord emulator (``tests/discord_emulator.py``) for signing in on
the web page: the consent page (``/oauth2/authorize``), the token exchange (``/api/oauth2/token``) and who the token
is for (``/api/users/@me``).

What Discord does, copied on purpose (https://discord.com/developers/docs/topics/oauth2): the authorize URL's
``client_id`` must be the application's and its ``redirect_uri`` one registered with it (else an error page, and
no redirect at all); ``state`` goes back unchanged; a code is good once, for a few minutes, for the same
``redirect_uri``; with PKCE, the token request's ``code_verifier`` must hash to the authorize URL's
``code_challenge`` (S256); a refused grant is a 400 ``{"error": "invalid_grant"}``. The person "signed in to
Discord" in the browser is ``signed_in`` (Ana unless a test says otherwise); the consent page's Authorize button
sends the browser back with a code.
"""

from __future__ import annotations

import base64
import hashlib
import html
import secrets
import time
from dataclasses import dataclass
from urllib.parse import urlencode

from aiohttp import web

from discord_emulator import ANA, APP, DiscordEmulator

SECRET = "emulated-client-secret"
CODE_SECONDS = 600


@dataclass
class Grant:
    person: dict
    redirect: str
    challenge: str
    given: float
    used: bool = False


class OAuth:
    """The OAuth2 endpoints of ``emulator`` (added to its app before it starts)."""

    def __init__(self, emulator: DiscordEmulator) -> None:
        self.emulator = emulator
        self.redirects: set[str] = set()
        """The redirect URIs registered with the application."""
        self.signed_in: dict = ANA
        self.grants: dict[str, Grant] = {}
        self.tokens: dict[str, dict] = {}
        self.refused: list[str] = []
        """Why each refused token request was refused."""
        self.callbacks: list[str] = []
        """Every address the consent page sent a browser back to, with its code and state."""
        emulator.app.router.add_get("/oauth2/authorize", self._authorize)
        emulator.app.router.add_get("/oauth2/authorize/yes", self._yes)
        emulator.app.router.add_post("/api/oauth2/token", self._token)
        emulator.app.router.add_get("/api/users/@me", self._me)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.emulator.port}"

    async def _authorize(self, request: web.Request) -> web.Response:
        q = request.query
        if q.get("client_id") != str(APP) or q.get("redirect_uri") not in self.redirects:
            return web.Response(status=400, text="Invalid OAuth2 redirect_uri")
        if q.get("response_type") != "code" or q.get("code_challenge_method") != "S256" or not q.get("code_challenge"):
            return web.Response(status=400, text="Invalid OAuth2 request")
        consent = urlencode({k: q[k] for k in ("redirect_uri", "state", "code_challenge") if k in q})
        page = (f"<!doctype html><title>Discord</title><h1>Draughts wants to know who you are</h1>"
                f"<p>Signed in as {html.escape(self.signed_in['global_name'])}</p>"
                f'<a id="authorize" href="/oauth2/authorize/yes?{html.escape(consent)}">Authorize</a>')
        return web.Response(text=page, content_type="text/html")

    async def _yes(self, request: web.Request) -> web.Response:
        q = request.query
        if q.get("redirect_uri") not in self.redirects:
            return web.Response(status=400, text="Invalid OAuth2 redirect_uri")
        code = secrets.token_urlsafe(16)
        self.grants[code] = Grant(self.signed_in, q["redirect_uri"], q.get("code_challenge", ""), time.time())
        back = q["redirect_uri"] + "?" + urlencode({"code": code, **({"state": q["state"]} if "state" in q else {})})
        self.callbacks.append(back)
        raise web.HTTPFound(back)

    def _refuse(self, why: str) -> web.Response:
        self.refused.append(why)
        return web.json_response({"error": "invalid_grant", "error_description": why}, status=400)

    async def _token(self, request: web.Request) -> web.Response:
        form = await request.post()
        if form.get("client_id") != str(APP) or form.get("client_secret") != SECRET:
            return web.json_response({"error": "invalid_client"}, status=401)
        grant = self.grants.get(str(form.get("code", "")))
        if form.get("grant_type") != "authorization_code" or grant is None:
            return self._refuse("unknown code")
        if grant.used:
            return self._refuse("code used already")
        grant.used = True
        if time.time() - grant.given > CODE_SECONDS or form.get("redirect_uri") != grant.redirect:
            return self._refuse("code expired or for another redirect_uri")
        digest = hashlib.sha256(str(form.get("code_verifier", "")).encode()).digest()
        if base64.urlsafe_b64encode(digest).decode().rstrip("=") != grant.challenge:
            return self._refuse("code_verifier does not match the code_challenge")
        token = secrets.token_urlsafe(24)
        self.tokens[token] = grant.person
        return web.json_response({"access_token": token, "token_type": "Bearer", "expires_in": 604800,
                                  "refresh_token": secrets.token_urlsafe(24), "scope": "identify"})

    async def _me(self, request: web.Request) -> web.Response:
        kind, _, token = request.headers.get("Authorization", "").partition(" ")
        person = self.tokens.get(token) if kind == "Bearer" else None
        if person is None:
            return web.json_response({"message": "401: Unauthorized", "code": 0}, status=401)
        return web.json_response(person)
