"""Signing in with Discord, through the server alone (tests/test_web_browser_signin.py has the whole flow in a
browser): where ``next`` may lead, the session cookie's signature and age, the settings, a bot without sign-in,
and Discord not answering, said in words with nothing changed."""

from __future__ import annotations

import logging
import socket
from urllib.parse import parse_qs, urlsplit

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.config import ConfigError, load
from bot.replies import User
from bot.web.seats import SeatKeys
from bot.web.server import make_app
from bot.web.signin import DISCORD_DOWN, REFUSED, SignIn, local_path
from test_web import site  # noqa: F401 (the fixture)


@pytest.mark.parametrize("asked, followed", [
    ("/me", "/me"), ("/puzzle/english/random?theme=shot", "/puzzle/english/random?theme=shot"), ("", "/"),
    ("https://evil.example/", "/"), ("//evil.example", "/"), ("/\\evil.example", "/"), ("/\\/evil.example", "/"),
    ("javascript:alert(1)", "/"), ("/ok\r\nSet-Cookie: x", "/"), ("evil.example", "/"), ("/" + "a" * 600, "/")])
def test_next_leads_only_to_a_path_of_this_site(asked, followed):
    assert local_path(asked) == followed


def test_a_session_cookie_holds_only_while_it_is_signed_and_young():
    keys, other = SeatKeys(b"k" * 32), SeatKeys(b"o" * 32)
    ana = User("100000000000000001", "Ana (the best)\nreally")
    cookie = keys.session(ana, 2_000)
    assert keys.read_session(cookie, 1_000) == ana
    assert keys.read_session(cookie, 2_000) is None  # too old
    assert other.read_session(cookie, 1_000) is None  # another bot's key
    body, _, digest = cookie.partition(".")
    assert keys.read_session(body[:-4] + "QUFB." + digest, 1_000) is None  # its body changed: the signature fails
    assert keys.read_session(keys.sign("web:guest\n9999999999\nEve"), 1_000) is None  # not a Discord id
    assert keys.read_session("", 1_000) is None and keys.read_session("x.y", 1_000) is None
    assert keys.unsign(keys.sign("any text")) == "any text" and keys.unsign("any text") is None


def test_sign_in_needs_both_the_id_and_the_secret_and_never_shows_the_secret():
    with pytest.raises(ConfigError, match="both DISCORD_CLIENT_ID and DISCORD_CLIENT_SECRET"):
        load({"DISCORD_CLIENT_ID": "123"}, dotenv=None)
    with pytest.raises(ConfigError, match="DISCORD_OAUTH_URL"):
        load({"DISCORD_OAUTH_URL": "discord.com"}, dotenv=None)
    config = load({"DISCORD_CLIENT_ID": "123", "DISCORD_CLIENT_SECRET": "hush-hush"}, dotenv=None)
    signing = SignIn(config.discord_client_id, config.discord_client_secret, "http://x/login/discord/back")
    assert "hush-hush" not in repr(config) and "hush-hush" not in repr(signing)


async def test_a_bot_without_sign_in_says_so_and_its_pages_offer_none(site):
    chat, client = site
    for path in ("/login", "/login/discord/back?code=a&state=b"):
        response = await client.get(path, allow_redirects=False)
        assert response.status == 404 and await response.text() == "Signing in with Discord is not set up on this bot."
    assert await (await client.get("/api/account")).json() == {"signin": False, "name": None}


async def test_discord_not_answering_is_said_and_leaves_the_person_a_guest(site, caplog):
    chat, _ = site
    with socket.socket() as probe:  # a port nothing listens on: Discord down
        probe.bind(("127.0.0.1", 0))
        down = f"http://127.0.0.1:{probe.getsockname()[1]}"
    signing = SignIn("123", "hush-hush", "http://127.0.0.1/login/discord/back", down)
    client = TestClient(TestServer(make_app(chat.pages, signing=signing)))
    await client.start_server()
    try:
        going = await client.get("/login?next=/me", allow_redirects=False)
        assert going.status == 302 and going.headers["Location"].startswith(f"{down}/oauth2/authorize?")
        asked = parse_qs(urlsplit(going.headers["Location"]).query)
        assert asked["code_challenge_method"] == ["S256"] and len(asked["code_challenge"][0]) == 43
        assert asked["scope"] == ["identify"] and asked["redirect_uri"] == [signing.redirect]
        with caplog.at_level(logging.INFO):
            back = await client.get(f"/login/discord/back?code=abc&state={asked['state'][0]}", allow_redirects=False)
        assert back.status == 502 and await back.text() == str(DISCORD_DOWN)
        # the same answer again, its login cookie kept by hand: refused here, without asking Discord again
        kept = going.cookies["draughts_login"].value
        again = await client.get(f"/login/discord/back?code=abc&state={asked['state'][0]}", allow_redirects=False,
                                 headers={"Cookie": f"draughts_login={kept}"})
        assert again.status == 400 and await again.text() == str(REFUSED)
        assert "hush-hush" not in caplog.text and "abc" not in caplog.text
        assert await (await client.get("/api/account")).json() == {"signin": True, "name": None}
    finally:
        await client.close()
