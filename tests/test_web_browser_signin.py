"""Signing in with Discord on the web page, in a real headless Chromium against the Discord emulator's OAuth2
endpoints (tests/discord_oauth.py): the header's Sign in, Discord's consent, the person's name and Sign out, their
puzzle rating and page under their Discord id; and the attacks OAuth2's ``state`` and PKCE are for, refused: a
forged ``state``, a replayed code, and a ``next`` that leads to another site. Each check reads what the person sees."""

from __future__ import annotations

import asyncio
import socket

import aiohttp
from aiohttp.test_utils import TestServer

from bot.core.puzzles import puzzle_set
from bot.web.server import make_app
from bot.web.signin import REFUSED, SignIn
from discord_emulator import ANA, APP, DiscordEmulator
from discord_oauth import SECRET, OAuth
from engine import game_type
from test_web_browser import Browser, pytestmark, served  # noqa: F401 (fixture, skip)
from test_web_browser_feedback import SIZES, until, visible_text


def header_words(b: Browser) -> str:
    """The header's account words as displayed ("" while a page loads: read in the page, never from an element
    the page may have just replaced, as Sign out's reload does)."""
    return b.js("const a = document.getElementById('account'); return a ? a.innerText.trim() : ''")


def click(b: Browser, element_id: str) -> None:
    from selenium.webdriver.common.by import By

    element = b.driver.find_element(By.ID, element_id)
    assert element.is_displayed() and element.is_enabled(), element_id
    element.click()


def sign_in(b: Browser, base: str) -> None:
    """From the front page: Sign in, then Authorize on Discord's page; back on the page signed in."""
    b.open(base + "/")
    until(b, lambda: header_words(b) == "Sign in", "no Sign in in the header")
    click(b, "sign-in")
    until(b, lambda: "Draughts wants to know who you are" in b.js("return document.body.innerText"),
          "Discord's consent page did not come")
    click(b, "authorize")
    until(b, lambda: header_words(b).startswith("Ana"), "not signed in")


@SIZES
async def test_signing_in_with_discord_makes_the_pages_person_theirs_and_refuses_forgeries(served, phone):
    chat, _, browser = served
    emulator = DiscordEmulator()
    oauth = OAuth(emulator)
    await emulator.start()
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    base = f"http://127.0.0.1:{port}"
    oauth.redirects.add(f"{base}/login/discord/back")
    signing = SignIn(str(APP), SECRET, f"{base}/login/discord/back", oauth.base)
    server = TestServer(make_app(chat.pages, signing=signing), host="127.0.0.1", port=port)
    await server.start_server()
    try:
        b = await browser(phone=phone)
        await asyncio.to_thread(sign_in, b, base)
        assert await asyncio.to_thread(header_words, b) == "Ana\nSign out"
        assert await asyncio.to_thread(b.js, "return location.href") == base + "/"
        assert await asyncio.to_thread(b.js, "return document.cookie") == ""  # the session is HttpOnly
        session = next(c for c in await asyncio.to_thread(b.driver.get_cookies) if c["name"] == "draughts_session")
        assert session["httpOnly"] and session["sameSite"] == "Lax"

        # their puzzle result is theirs: kept under their Discord id, and their page says who they are
        puzzle = next(iter(puzzle_set("english").values()))
        gt = game_type("english")
        start = gt.read_position(puzzle.position)
        wrong = next(gt.write_move(start, m) for m in gt.legal_moves(start)
                     if m != gt.parse_move(start, puzzle.solution[0]))
        await asyncio.to_thread(b.open, f"{base}/puzzle/english/{puzzle.id}")
        await asyncio.to_thread(until, b, lambda: b.js("return typeof puzzle !== 'undefined' && puzzle.data !== null"),
                                "the puzzle did not load")
        await asyncio.to_thread(b.js, f"document.getElementById('move-text').value = '{wrong}'; "
                                      "document.getElementById('typed').requestSubmit()")
        await asyncio.to_thread(until, b, lambda: visible_text(b, "rating").startswith("Your puzzle rating"),
                                "no rating")
        assert (await chat.store.puzzle_rating(chat.pages.guild, "english", ANA["id"]))[1] == 1
        await asyncio.to_thread(b.open, base + "/me")
        await asyncio.to_thread(until, b, lambda: "Signed in with Discord as Ana" in b.js(
            "return document.querySelector('.intro p').textContent"), "the page does not say who")
        assert "English: missed" in await asyncio.to_thread(visible_text, b, "my-puzzles")

        # a forged callback (a state this browser did not start), and the real one replayed: both refused
        callback = f"{base}/login/discord/back?code=stolen&state=forged"
        await asyncio.to_thread(b.open, callback)
        assert await asyncio.to_thread(b.js, "return document.body.innerText") == str(REFUSED)
        other = await browser()
        await asyncio.to_thread(sign_in, other, base)
        replay = oauth.callbacks[-1]  # the real callback, its code and state, opened again in the same browser:
        await asyncio.to_thread(other.open, replay)  # the sign-in's cookie went with its first use
        assert await asyncio.to_thread(other.js, "return document.body.innerText") == str(REFUSED)
        code = replay.split("code=")[1].split("&")[0]
        async with aiohttp.ClientSession() as http:  # and Discord itself refuses a code twice
            async with http.post(f"{oauth.base}/api/oauth2/token", data={
                    "grant_type": "authorization_code", "code": code, "client_id": str(APP),
                    "client_secret": SECRET, "redirect_uri": signing.redirect, "code_verifier": "x"}) as answer:
                assert answer.status == 400 and oauth.refused[-1] == "code used already"
        await asyncio.to_thread(other.open, base + "/")  # still signed in from before: the refusal changed nothing
        await asyncio.to_thread(until, other, lambda: header_words(other).startswith("Ana"), "signed out by a forgery")

        # a sign-in that asks to go on to another site lands on this one
        for elsewhere in ("https://evil.example/x", "//evil.example/x", "/\\evil.example"):
            await asyncio.to_thread(other.open, f"{base}/login?next={elsewhere}")
            await asyncio.to_thread(until, other, lambda: other.js("return !!document.getElementById('authorize')"),
                                    "no consent page")
            await asyncio.to_thread(click, other, "authorize")
            await asyncio.to_thread(until, other, lambda: other.js("return location.host") == f"127.0.0.1:{port}",
                                    "left the site")
            assert await asyncio.to_thread(other.js, "return location.pathname") == "/"

        # Sign out: a guest again
        await asyncio.to_thread(b.open, base + "/")
        await asyncio.to_thread(until, b, lambda: header_words(b).startswith("Ana"), "not signed in")
        await asyncio.to_thread(click, b, "sign-out")
        await asyncio.to_thread(until, b, lambda: header_words(b) == "Sign in", "not signed out")
    finally:
        await server.close()
        await emulator.close()
