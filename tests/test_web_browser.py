"""The web page in a real headless Chromium (Debian's chromium and chromium-driver, which ``./run-tests``
installs where it may): a game played by clicking, a second browser watching, seat links, a reload, a stranger,
and the replay. The server runs in the test's event loop; the browsers are driven from threads."""

from __future__ import annotations

import asyncio
import contextlib
import shutil
import time
from collections.abc import Callable

import pytest
import pytest_asyncio
from aiohttp.test_utils import TestServer

from bot.store import SqliteStore
from bot.web.server import make_app
from bot.config import Config
from chat import ANA, CONFIG
from engine.search.searcher import Limits, Searcher
from test_web import WebChat

CHROMIUM = shutil.which("chromium")
DRIVER = shutil.which("chromedriver")
pytestmark = pytest.mark.skipif(
    not (CHROMIUM and DRIVER),
    reason="no chromium and chromedriver here: ./run-tests installs Debian's chromium and chromium-driver when run "
           "as root; otherwise install them to run the browser tests")

# Black (the person) to move in English with a double capture, 10x19x28, and a game left to play after it.
MULTI_CAPTURE = "B:W15,24,30,31,32:B1,2,3,9,10,11"


class Browser:
    """One headless Chromium window (``phone``: as a phone shows pages, 390 x 844 with touch); every call blocks,
    so tests run them in threads."""

    def __init__(self, phone: bool = False, language: str | None = None) -> None:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service

        options = webdriver.ChromeOptions()
        options.binary_location = CHROMIUM
        for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     "--window-size=1000,900"):
            options.add_argument(flag)
        if language is not None:  # the browser's language, which it asks pages in (Accept-Language)
            options.add_argument(f"--lang={language}")
            options.add_experimental_option("prefs", {"intl.accept_languages": language})
        if phone:
            options.add_experimental_option("mobileEmulation", {
                "deviceMetrics": {"width": 390, "height": 844, "pixelRatio": 3.0, "touch": True, "mobile": True}})
        self.phone = phone
        self.driver = webdriver.Chrome(service=Service(DRIVER), options=options)

    def open(self, url: str) -> None:
        self.driver.get(url)

    def js(self, script: str):
        return self.driver.execute_script(script)

    def page(self) -> dict | None:
        """What the page knows of its game (``page`` in game.js)."""
        return self.js("return typeof page === 'undefined' || !page.game ? null : {entries: page.game.entries, status: page.game.status, "
                       "seat: page.seat, clicks: page.clicks, view: page.view}")

    def wait(self, test: Callable[[dict], bool], timeout: float = 15.0) -> dict:
        deadline = time.monotonic() + timeout
        while True:
            state = self.page()
            if state is not None and test(state):
                return state
            if time.monotonic() > deadline:
                shown = state["status"] if state else self.js("return document.body.innerText")
                raise AssertionError(f"the page did not get there; it shows {shown}")
            time.sleep(0.05)

    def click_cell(self, cell: list[int]) -> None:
        """Click (or tap) a board cell as a person does; found again if the page drew the board anew meanwhile (an
        answer that came in between: the person clicks the board they see)."""
        from selenium.common.exceptions import StaleElementReferenceException

        for _ in range(5):
            try:
                return self._click_cell(cell)
            except StaleElementReferenceException:
                time.sleep(0.05)
        self._click_cell(cell)

    def _click_cell(self, cell: list[int]) -> None:
        from selenium.webdriver.common.action_chains import ActionChains
        from selenium.webdriver.common.by import By

        rect = self.driver.find_element(By.CSS_SELECTOR, f'#board rect[data-cell="{cell[0]},{cell[1]}"]')
        if self.phone:  # a finger's tap
            from selenium.webdriver.common.actions.action_builder import ActionBuilder
            from selenium.webdriver.common.actions.interaction import POINTER_TOUCH
            from selenium.webdriver.common.actions.pointer_input import PointerInput

            actions = ActionBuilder(self.driver, mouse=PointerInput(POINTER_TOUCH, "finger"))
            actions.pointer_action.move_to(rect).pointer_down().pointer_up()
            actions.perform()
            return
        ActionChains(self.driver).move_to_element(rect).click().perform()

    def wait_text(self, element_id: str, part: str, timeout: float = 15.0) -> str:
        """The element's text once it shows ``part`` (waiting for it)."""
        deadline = time.monotonic() + timeout
        while part not in (shown := self.text(element_id)):
            if time.monotonic() > deadline:
                raise AssertionError(f"#{element_id} did not show {part!r}; it shows {shown!r}")
            time.sleep(0.05)
        return shown

    def text(self, element_id: str) -> str:
        from selenium.webdriver.common.by import By

        return self.driver.find_element(By.ID, element_id).text

    def key(self, key: str) -> None:
        from selenium.webdriver.common.action_chains import ActionChains

        ActionChains(self.driver).send_keys(key).perform()

    def close(self) -> None:
        self.driver.quit()


@contextlib.asynccontextmanager
async def serving(pool, config: Config = CONFIG):
    """A chat whose core serves the web page on a port of its own: (chat, the page's address, a function that opens
    a browser, closed at the end)."""
    chat = WebChat(SqliteStore(":memory:"), pool, config)
    server = TestServer(make_app(chat.pages), host="127.0.0.1")
    await server.start_server()
    browsers: list[Browser] = []

    async def browser(phone: bool = False, language: str | None = None) -> Browser:
        b = await asyncio.to_thread(Browser, phone, language)
        browsers.append(b)
        return b

    try:
        yield chat, str(server.make_url("")), browser
    finally:
        for b in browsers:
            await asyncio.to_thread(b.close)
        chat.pages.close()
        await server.close()
        await chat.core.close()


@pytest_asyncio.fixture(loop_scope="session")
async def served(pool):
    async with serving(pool) as site:
        yield site


def my_turn(state: dict) -> bool:
    return bool(state["status"]["legal"]) and state["seat"] is not None and not state["status"]["result"]


def play_by_clicking(b: Browser, choose: Callable[[list[dict]], dict]) -> dict:
    """Wait for the seated page's turn, click the chosen move's squares one by one until the page plays it;
    the move."""
    state = b.wait(my_turn)
    move = choose(state["status"]["legal"])
    ply = len(state["entries"])
    for cell in move["path"]:
        b.click_cell(cell)
        if len(b.page()["entries"]) > ply or not b.page()["clicks"]:
            break
    b.wait(lambda s: len(s["entries"]) > ply or bool(s["status"]["result"]))
    return move


async def test_a_whole_game_by_clicking_with_a_multi_capture_watched_live_and_replayed(served):
    chat, base, browser = served
    game_id = await chat.store.create_game("g", "c1", "english", MULTI_CAPTURE, "bot",
                                     {"white": {"level": 1}, "black": {"user": [ANA.id, ANA.name]}},
                                     {"budget": 0.05, "rated": False})
    await chat.core.start()
    table = chat.table()
    player, watcher = await browser(), await browser()
    await asyncio.to_thread(player.open, base + chat.pages.seat_path(game_id, table.colour_of(ANA), ANA))
    await asyncio.to_thread(watcher.open, base + chat.pages.game_path(game_id))
    await asyncio.to_thread(watcher.wait, lambda s: len(s["entries"]) == 1)

    first = await asyncio.to_thread(play_by_clicking, player, lambda legal: max(legal, key=lambda m: len(m["path"])))
    assert first["text"] == "10x19x28"
    seen = await asyncio.to_thread(watcher.wait, lambda s: len(s["entries"]) >= 2)
    assert len(seen["entries"][1]["move"]["captured"]) == 2  # the watcher saw both men taken
    assert table.game.moves[0].captures == (15, 24)
    searcher = Searcher(table.game.type, tt_mb=16)

    def strong(legal: list[dict]) -> dict:  # a player who plays well, so the game ends in a few moves
        here = table.game.position
        best = table.game.type.write_move(here, searcher.search(here, Limits(depth=8)).move, full=True)
        return next(m for m in legal if m["text"] == best)

    for _ in range(60):
        if not chat.on("c1"):
            break
        await asyncio.to_thread(play_by_clicking, player, strong)
    assert not chat.on("c1"), "the game did not end in 60 moves"
    result = chat.replies[-1].text.replace("`", "")  # the chat's words, without its command marks
    end = await asyncio.to_thread(watcher.wait, lambda s: bool(s["status"]["result"]))
    assert end["status"]["result"] == result  # the chat's words; the page shows its own result line
    assert await asyncio.to_thread(watcher.text, "status") == end["status"]["headline"]
    assert end["status"]["headline"].startswith(("Black wins (", "White wins (", "Draw ("))
    assert len(end["entries"]) == len(table.game.moves) + 1  # every move reached the watcher

    # the replay: step back with the arrow key, jump to a move in the list, Home to the start
    await asyncio.to_thread(watcher.key, "\ue012")  # ArrowLeft
    back = await asyncio.to_thread(watcher.wait, lambda s: s["view"] == len(s["entries"]) - 2)
    plies = len(back["entries"]) - 1  # moves counted as the list numbers them: one of each side is one
    looking = f"Looking at move {plies // 2} of {(plies + 1) // 2};"  # (the position before the last move)
    assert looking in await asyncio.to_thread(watcher.text, "status")
    await asyncio.to_thread(watcher.js, "document.querySelector('#moves button[data-ply=\"1\"]').click()")
    await asyncio.to_thread(watcher.wait, lambda s: s["view"] == 1)
    ghosts = await asyncio.to_thread(watcher.js, "return document.querySelectorAll('#board .captured').length")
    assert ghosts == 2  # position 1 shows the two men the double capture took
    await asyncio.to_thread(watcher.key, "\ue011")  # Home
    await asyncio.to_thread(watcher.wait, lambda s: s["view"] == 0)


async def test_a_seat_link_from_the_chat_survives_a_reload_and_a_stranger_cannot_move(served):
    chat, base, browser = served
    await chat.say(ANA, "new russian level 1 time 0.05 white", channel="c2")
    table = chat.table("c2")
    links = [r.text for r in chat.replies if "Seat link for ana" in r.text]
    assert links and f"{chat.pages.game_path(table.id)}#seat=" in links[0]  # the chat gave the link
    player, stranger = await browser(), await browser()
    await asyncio.to_thread(player.open, base + chat.pages.seat_path(table.id, table.colour_of(ANA), ANA))
    await asyncio.to_thread(play_by_clicking, player, lambda legal: legal[0])
    assert len(table.game.moves) >= 1
    await asyncio.to_thread(player.driver.refresh)  # a reload mid-game: the same game, the seat kept
    state = await asyncio.to_thread(player.wait, lambda s: s["seat"] is not None and len(s["entries"]) >= 2)
    assert state["seat"]["name"] == "ana"
    await asyncio.to_thread(play_by_clicking, player, lambda legal: legal[-1])
    await chat.core.settle()
    await asyncio.to_thread(stranger.open, base + chat.pages.game_path(table.id))
    state = await asyncio.to_thread(stranger.wait, lambda s: len(s["entries"]) == len(table.game.moves) + 1)
    assert state["seat"] is None and await asyncio.to_thread(stranger.js, "return $('seat-controls').hidden")
    plies = len(table.game.moves)
    move = state["status"]["legal"][0]
    for cell in move["path"]:
        await asyncio.to_thread(stranger.click_cell, cell)
    await asyncio.sleep(0.5)
    assert len(table.game.moves) == plies  # clicking on a watcher's page moves nothing


async def test_a_newcomer_starts_a_game_and_a_bot_match_from_the_front_page(served):
    chat, base, browser = served
    b = await browser()
    await asyncio.to_thread(b.open, base + "/")

    def start(form: str, fields: dict[str, str]) -> None:
        from selenium.webdriver.common.by import By
        from selenium.webdriver.support.ui import Select

        for _ in range(100):  # the game menus fill in from /api/games
            if b.js(f"return document.querySelector('#{form} select.variants').options.length"):
                break
            time.sleep(0.05)
        for name, value in fields.items():
            element = b.driver.find_element(By.CSS_SELECTOR, f"#{form} [name={name}]")
            if element.tag_name == "select":
                options = [o.get_attribute("value") for o in Select(element).options]
                Select(element).select_by_index(options.index(value))
            else:
                element.clear()
                element.send_keys(value)
        b.driver.find_element(By.CSS_SELECTOR, f"#{form} button[type=submit]").click()

    await asyncio.to_thread(start, "play", {"variant": "brazilian", "level": "1", "colour": "white", "time": "0.1",
                                            "name": "Zoë"})
    state = await asyncio.to_thread(b.wait, lambda s: s["seat"] is not None)
    assert state["seat"]["name"] == "Zoë" and state["seat"]["colour"] == "White"
    await asyncio.to_thread(play_by_clicking, b, lambda legal: legal[0])
    await asyncio.to_thread(b.wait, lambda s: len(s["entries"]) >= 3)  # the bot answered on the page

    await asyncio.to_thread(b.open, base + "/")
    await asyncio.to_thread(start, "match", {"variant": "tablut", "level1": "1", "level2": "1", "delay": "0.1"})
    await asyncio.to_thread(b.wait, lambda s: len(s["entries"]) >= 4)  # the match plays on, live
    assert b.page()["status"]["kind"] == "match"
    await asyncio.to_thread(b.js, "document.querySelector('#seat-controls button[data-command=stop]').click()")
    await asyncio.to_thread(b.js, "document.getElementById('confirm-yes').click()")  # asked again: yes
    await asyncio.to_thread(b.wait, lambda s: bool(s["status"]["result"]))


async def test_on_a_phone_the_board_fits_the_screen_and_moves_by_taps(served):
    chat, base, browser = served
    await chat.say(ANA, "new international level 1 time 0.05 white", channel="c3")
    table = chat.table("c3")
    phone = await browser(phone=True)
    await asyncio.to_thread(phone.open, base + chat.pages.seat_path(table.id, table.colour_of(ANA), ANA))
    await asyncio.to_thread(phone.wait, my_turn)
    width, scroll, board = await asyncio.to_thread(phone.js, "return [window.innerWidth, "
                                                   "document.documentElement.scrollWidth, "
                                                   "document.querySelector('#board svg').getBoundingClientRect().width]")
    assert width == 390 and scroll <= width and 300 <= board <= width  # the 10x10 board fills the width, no sideways scroll
    await asyncio.to_thread(play_by_clicking, phone, lambda legal: legal[0])
    assert len(table.game.moves) >= 1
