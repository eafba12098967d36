"""The web page in its reader's language: chosen from the browser's Accept-Language or the page's chooser, the page's
own words, the server's answers and a game's live updates each in the language of the page that gets them (the
server's answers here; a real Chromium in Dutch below)."""

from __future__ import annotations

import asyncio
import json
import re

from bot.translation import render, tr
from bot.words import colour_name, game_name, game_title
from bot.web.finished import FinishedGames
from bot.web import wording
from chat import ANA
from engine import Color
from test_web import open_page, receive, site, socket_path  # noqa: F401 (fixture)
from test_web_browser import Browser, my_turn, play_by_clicking, pytestmark, served  # noqa: F401 (fixture, skip)
from test_web_browser_page import click_control, confirm, shown_controls


WON = tr("{colour} wins ({reason}).", colour=colour_name(Color.WHITE), reason=tr("{name} resigned", name=ANA.name))
"""The result line of ana's games here, which she resigns as Black."""


def title(page: str) -> str:
    found = re.search(r"<h1>(.*?)</h1>", page)
    assert found is not None
    return found[1]


async def test_the_pages_own_words_follow_the_browsers_language_and_the_readers_choice(site):
    chat, client = site
    english, russian = tr("Play draughts"), render(tr("Play draughts"), "ru")
    assert russian != english
    page = await (await client.get("/", headers={"Accept-Language": "ru-RU,ru;q=0.9,en;q=0.5"})).text()
    assert '<html lang="ru">' in page and title(page) == russian
    assert '<option value="ru" selected>Русский</option>' in page  # the chooser shows the language the page is in
    # the scripts' words travel in the page, translated
    texts = json.loads(re.search(r'<script type="application/json" id="texts">(.*?)</script>', page, re.S)[1])
    assert texts["None right now: start one above."] == render(tr("None right now: start one above."), "ru")
    # a language the bot does not speak, or none: English
    for header in ("ja-JP,ja;q=0.9", ""):
        page = await (await client.get("/", headers={"Accept-Language": header})).text()
        assert '<html lang="en">' in page and title(page) == english
    # the chooser's choice (a cookie) comes before the browser's language
    page = await (await client.get("/puzzles", headers={"Accept-Language": "ru",
                                                         "Cookie": f"{wording.COOKIE}=pt_BR"})).text()
    assert '<html lang="pt-BR">' in page and render(tr("Puzzles"), "pt_BR") in page


async def test_the_servers_answers_and_a_games_updates_come_in_each_pages_language(site):
    chat, client = site
    games = await (await client.get("/api/games", headers={"Accept-Language": "fr"})).json()
    assert games["names"]["international"] == render(game_name("international"), "fr") != "International"
    refused = await client.post("/api/new", json={"kind": "bot", "variant": "english", "colour": "green"},
                                headers={"Accept-Language": "pt-BR"})
    expected = render(tr("The colour is white, black or random."), "pt_BR")
    assert refused.status == 400 and (await refused.json())["error"] == expected != "The colour is white, black or random."

    await chat.say(ANA, "new english level 1 time 0.05", channel="c1")
    table = chat.table("c1")
    dutch_ws = await client.ws_connect(socket_path(chat, table.id), headers={"Accept-Language": "nl"})
    english_ws = await client.ws_connect(socket_path(chat, table.id))
    first = await receive(dutch_ws, "game")
    assert first["board"]["title"] == render(game_title("english"), "nl")
    await receive(english_ws, "game")
    await dutch_ws.send_str("not json")  # refused in the page's own language
    notice = (await receive(dutch_ws, "notice"))["text"]
    assert notice == render(tr("That message is not readable."), "nl") != "That message is not readable."

    await chat.say(ANA, "resign", channel="c1")  # the game's end, as each page is told it
    said = chat.replies[-1].text
    dutch, english = (await receive(dutch_ws, "update"))["status"], (await receive(english_ws, "update"))["status"]
    assert english["result"] == str(said).replace("`", "") and english["winner"] == "White" and not english["drawn"]
    assert dutch["result"] == render(said, "nl").replace("`", "") != english["result"]
    assert dutch["winner"] == "White" and dutch["headline"] == render(WON, "nl")  # the page's own result line
    await dutch_ws.close()
    await english_ws.close()

    # read again from the database (after a restart, or on another process): its words still in the page's language
    chat.pages.finished = FinishedGames(chat.core)  # as a process that did not see it end
    again = await client.ws_connect(socket_path(chat, table.id), headers={"Accept-Language": "nl"})
    stored = (await receive(again, "game"))["status"]
    assert stored["headline"] == dutch["headline"] and stored["winner"] == "White"
    await again.close()


async def test_a_game_played_on_the_page_in_dutch_with_a_chooser_that_changes_it(served):
    chat, base, browser = served
    await chat.say(ANA, "new english level 1 time 0.05", channel="c1")
    table = chat.table("c1")
    colour = table.colour_of(ANA)
    dutch, english = await browser(language="nl"), await browser(language="en-GB")
    await asyncio.to_thread(dutch.open, base + chat.pages.seat_path(table.id, colour, ANA))
    await asyncio.to_thread(english.open, base + chat.pages.game_path(table.id))
    assert await asyncio.to_thread(dutch.js, "return document.documentElement.lang") == "nl"

    def nl(message: str, **values: object) -> str:
        text = render(tr(message, **values), "nl")
        assert text != str(tr(message, **values)), f"{message!r} is not translated"
        return text

    await asyncio.to_thread(dutch.wait, my_turn)
    assert await asyncio.to_thread(dutch.text, "status") == nl(
        "Your move ({colour}): click or drag a piece, or type the move.", colour=render(colour_name(colour), "nl"))
    assert await asyncio.to_thread(shown_controls, dutch) == [nl("Resign"), nl("Offer a draw")]
    assert nl("to move") in await asyncio.to_thread(dutch.text, "players")  # the words the scripts put together
    assert await asyncio.to_thread(dutch.text, "title") == (f"{render(game_title('english'), 'nl')} · "
                                                             f"{nl('game {game}', game=table.id)}")
    await asyncio.to_thread(play_by_clicking, dutch, lambda legal: legal[0])
    await asyncio.to_thread(dutch.wait, lambda s: my_turn(s) and len(s["entries"]) == 3)  # the bot answered
    await asyncio.to_thread(english.wait, lambda s: len(s["entries"]) == 3)
    answer = chat.replies[-1].text
    assert str(answer).startswith("I played")
    assert await asyncio.to_thread(dutch.text, "said") == render(answer, "nl").replace("`", "") != str(answer)
    assert await asyncio.to_thread(english.text, "said") == str(answer).replace("`", "")

    await asyncio.to_thread(click_control, dutch, nl("Resign"))
    await asyncio.to_thread(confirm, dutch)
    await asyncio.to_thread(dutch.wait, lambda s: bool(s["status"]["result"]))
    shown = await asyncio.to_thread(dutch.text, "status")  # the page's result line, in each page's language
    assert shown == render(WON, "nl") and nl("{name} resigned", name="ana") in shown
    await asyncio.to_thread(english.wait, lambda s: bool(s["status"]["result"]))
    assert await asyncio.to_thread(english.text, "status") == str(WON) == "White wins (ana resigned)."
    players = await asyncio.to_thread(dutch.text, "players")
    assert nl("lost") in players and nl("won") in players

    # the chooser: French from now on, on every page, whatever the browser asks for
    await asyncio.to_thread(dutch.open, base + "/")
    assert await asyncio.to_thread(dutch.text, "play-title") == nl("Play me")

    def choose(b: Browser, language: str) -> None:
        from selenium.webdriver.common.by import By
        from selenium.webdriver.support.ui import Select

        Select(b.driver.find_element(By.ID, "language")).select_by_value(language)

    await asyncio.to_thread(choose, dutch, "fr")
    for _ in range(100):
        if await asyncio.to_thread(dutch.js, "return document.documentElement.lang") == "fr":
            break
        await asyncio.sleep(0.05)
    assert await asyncio.to_thread(dutch.text, "play-title") == render(tr("Play me"), "fr")
    await asyncio.to_thread(dutch.open, base + chat.pages.game_path(table.id))
    await asyncio.to_thread(dutch.wait, lambda s: bool(s["status"]["result"]))
    assert await asyncio.to_thread(dutch.text, "status") == render(WON, "fr")
