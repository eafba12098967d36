"""Take the screenshots of the web page shown in the README: ``.venv/bin/python docs/web_screenshots.py``.

Needs Debian's chromium and chromium-driver (``./run-tests`` installs them as root). It serves three games
in memory (English, International and Tablut, each a few moves in, the same every time), opens each seated
player's page in headless Chromium, picks a piece so its moves are lit, and saves ``docs/web-*.png``. Then
a finished English game, analysed (a beginner against level 3, the same every time), shown at its costliest
move with the better move's arrow (``docs/web-analysis.png``), the front page (``docs/web-front.png``), the
analysis board at that game's costliest position (``docs/web-analysis-board.png``), and, at a phone's size
(390 x 844) in Dutch and French: the English game's page (``docs/web-phone-game-nl.png``), a puzzle just after a
wrong move was taken back (``docs/web-phone-puzzle-fr.png``) and the analysis board
(``docs/web-phone-analysis-board-nl.png``).
"""

from __future__ import annotations

import asyncio
import shutil
import sys
import time
from pathlib import Path

from aiohttp.test_utils import TestServer

from bot.config import Config
from bot.core import Core
from bot.pool import SearchPool
from bot.store import SqliteStore
from bot.replies import Message, User
from bot.web.pages import Pages
from bot.web.seats import SeatKeys
from bot.web.server import make_app
from engine import Color
from engine.games import GAMES
from engine.search import Searcher
from engine.search.levels import choose_move, level
from bot.core.puzzles import puzzle_set

HERE = Path(__file__).resolve().parent
PUZZLE = min(puzzle_set("english"))  # the puzzle shot on a phone (the first by id: the same every time)
SHOTS = (("english", "wood", 14), ("international", "contrast", 16), ("tablut", "wood", 10))
ANA, BEN = User("1", "ana"), User("2", "ben")
CAT, DAN = User("3", "cat"), User("4", "dan")  # the analysed game's players (ana and ben have three games on)


class NoSearch:
    """The pool a core needs; these games are between two people, so nothing is searched."""


async def stored_game(store: SqliteStore, name: str, plies: int) -> int:
    """A game between ana and ben, ``plies`` moves in (each side's middle legal move), in ``store``."""
    game_type = GAMES[name]
    record = game_type.new_game()
    first = game_type.first
    seats = {first.name.lower(): {"user": [ANA.id, ANA.name]}, first.opponent.name.lower(): {"user": [BEN.id, BEN.name]}}
    game_id = await store.create_game("web", f"shot-{name}", name, game_type.write_position(record.position), "people",
                                seats, {"budget": 1.0, "rated": False})
    for ply in range(plies):
        legal = record.legal_moves()
        move = legal[len(legal) // 2]
        await store.add_move(game_id, ply, ply, game_type.write_move(record.position, move, full=True))
        record.play(move)
    return game_id


async def main() -> int:
    chromium, driver_path = shutil.which("chromium"), shutil.which("chromedriver")
    if not (chromium and driver_path):
        print("needs chromium and chromedriver (Debian: apt-get install chromium chromium-driver)", file=sys.stderr)
        return 1
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    store = SqliteStore(":memory:")
    pool = SearchPool(workers=1, tt_mb=16)
    await asyncio.to_thread(pool.start)
    core = Core(Config(database=":memory:"), store, pool)
    pages = Pages(SeatKeys(b"screenshots" * 3), "http://localhost", core)
    core.connect(pages.send_for(None))
    ids = {name: await stored_game(store, name, plies) for name, _, plies in SHOTS}
    await core.start()
    analysed = await analysed_game(core)
    costliest = await costliest_ply(core, analysed)
    server = TestServer(make_app(pages), host="127.0.0.1")
    await server.start_server()
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1100,780", "--hide-scrollbars"):
        options.add_argument(flag)
    browser = await asyncio.to_thread(webdriver.Chrome, service=Service(driver_path), options=options)
    try:
        for name, theme, _ in SHOTS:
            table = core.live(f"shot-{name}")
            assert table is not None
            mover = table.seats[table.game.turn].user
            assert mover is not None
            url = str(server.make_url(pages.seat_path(ids[name], table.game.turn, mover)))
            await asyncio.to_thread(browser.get, str(server.make_url("/")))
            await asyncio.to_thread(browser.execute_script, f"localStorage.setItem('theme', '{theme}')")
            await asyncio.to_thread(browser.get, url)
            await asyncio.to_thread(_pick_a_piece, browser)
            path = HERE / f"web-{name}-{theme}.png"
            await asyncio.to_thread(browser.save_screenshot, str(path))
            print(f"wrote {path}")
        await asyncio.to_thread(browser.get, str(server.make_url(pages.game_path(analysed))))
        await asyncio.to_thread(_at_the_costliest_move, browser)
        await asyncio.to_thread(browser.save_screenshot, str(HERE / "web-analysis.png"))
        print(f"wrote {HERE / 'web-analysis.png'}")
        await asyncio.to_thread(browser.get, str(server.make_url("/")))
        time.sleep(0.5)
        await asyncio.to_thread(browser.save_screenshot, str(HERE / "web-front.png"))
        print(f"wrote {HERE / 'web-front.png'}")
        board = str(server.make_url(f"/analysis/g/{pages.game_path(analysed).split('/')[-1]}?ply={costliest}"))
        await asyncio.to_thread(_shoot, browser, board, "web-analysis-board.png", _looked_at)
        phone = await asyncio.to_thread(_phone, chromium, driver_path)
        try:
            english = core.live("shot-english")
            assert english is not None and english.seats[english.game.turn].user is not None
            game = pages.seat_path(ids["english"], english.game.turn, english.seats[english.game.turn].user)
            await asyncio.to_thread(_in_language, phone, str(server.make_url("/")), "nl")
            await asyncio.to_thread(_shoot, phone, str(server.make_url(game)), "web-phone-game-nl.png", _seated)
            await asyncio.to_thread(_in_language, phone, str(server.make_url("/")), "fr")
            puzzle = str(server.make_url(pages.puzzle_path("english", PUZZLE)))
            await asyncio.to_thread(_shoot, phone, puzzle, "web-phone-puzzle-fr.png", _missed_once)
            await asyncio.to_thread(_in_language, phone, str(server.make_url("/")), "nl")
            await asyncio.to_thread(_shoot, phone, board, "web-phone-analysis-board-nl.png", _looked_at)
        finally:
            await asyncio.to_thread(phone.quit)
    finally:
        await asyncio.to_thread(browser.quit)
        pages.close()
        await server.close()
        await core.close()
        pool.close()
    return 0


async def analysed_game(core: Core) -> int:
    """A finished English game of a beginner (level 1, White) against level 3 (reproducible), analysed; its id."""
    import random

    await core.handle(Message("web", "shot-analysed", CAT, "challenge casual", (DAN,)))
    await core.handle(Message("web", "shot-analysed", DAN, "accept"))
    table = core.live("shot-analysed")
    assert table is not None
    game_id = table.id
    searcher, rng = Searcher(table.game.type, tt_mb=8), random.Random(7)
    while (table := core.live("shot-analysed")) is not None and len(table.game.moves) < 70:
        game = table.game
        strength = level(1 if game.turn == Color.WHITE else 3)
        move = choose_move(searcher, game.position, strength, 1.0, game.history(), rng, reproducible=True).move
        mover = table.seats[game.turn].user
        assert mover is not None
        await core.handle(Message("web", "shot-analysed", mover, game.type.write_move(game.position, move, full=True)))
    if core.live("shot-analysed") is not None:
        await core.handle(Message("web", "shot-analysed", CAT, "resign"))
    await core.ask_analysis(game_id, "web", CAT)
    await core.settle()
    return game_id


def _phone(chromium: str, driver_path: str):
    """A headless Chromium as a phone shows pages (390 x 844, touch)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars"):
        options.add_argument(flag)
    options.add_experimental_option("mobileEmulation", {
        "deviceMetrics": {"width": 390, "height": 844, "pixelRatio": 2.0, "touch": True, "mobile": True}})
    return webdriver.Chrome(service=Service(driver_path), options=options)


def _in_language(browser, front: str, language: str) -> None:
    """The pages in ``language`` from now on, as the header's chooser sets it (its cookie)."""
    browser.get(front)
    browser.execute_script(f"document.cookie = 'draughts_language={language}; path=/'")


def _shoot(browser, url: str, name: str, ready) -> None:
    browser.get(url)
    ready(browser)
    time.sleep(0.5)  # (a move's slide, the bar's height)
    browser.save_screenshot(str(HERE / name))
    print(f"wrote {HERE / name}")


def _until(browser, script: str, tries: int = 400) -> None:
    for _ in range(tries):
        if browser.execute_script(script):
            return
        time.sleep(0.05)
    raise RuntimeError(f"the page never got there: {script}")


def _seated(browser) -> None:
    _until(browser, "return page.game && page.seat && page.game.status.legal.length > 0")


def _looked_at(browser) -> None:
    _until(browser, "return typeof lab !== 'undefined' && lab.data !== null && positionKey(shown()) in lab.looks")


def _missed_once(browser) -> None:
    """A wrong first move, shown and taken back: the puzzle as one tries it again, the rating's change said."""
    found = puzzle_set("english")[PUZZLE]
    kind = GAMES["english"]
    start = kind.read_position(found.position)
    answer = kind.write_move(start, kind.parse_move(start, found.solution[0]), full=True)
    _until(browser, "return puzzle.data !== null && puzzle.legal.length > 1")
    browser.execute_script(f"play(puzzle.legal.find((m) => m.text !== {answer!r}));")
    _until(browser, "return !puzzle.waiting && document.getElementById('status').className === 'wrong' "
                    "&& puzzle.entries.length === 1")


async def costliest_ply(core: Core, game_id: int) -> int:
    """The position before the analysed game's costliest judged move (its better move is the board's arrow)."""
    found = (await core.analysis(game_id, "web")).analysis
    assert found is not None, "the game was not analysed"
    return found.costliest(1)[0].ply


def _at_the_costliest_move(browser) -> None:
    """Wait for the graph, go to the costliest judged move's dot, then one back: the better move's arrow shows."""
    for _ in range(200):
        if browser.execute_script("return document.querySelector('#analysis-graph circle.point') !== null"):
            break
        time.sleep(0.05)
    ply = browser.execute_script(
        "const a = analysis.state.analysis; let worst = null;"
        "for (const m of a.moves) if (m.judgement && (!worst || m.loss > worst.loss)) worst = m;"
        "return worst.ply;")
    browser.find_element("css selector", f"#analysis-graph circle.point[data-ply='{ply}']").click()
    time.sleep(0.2)
    browser.find_element("css selector", "#back").click()
    browser.execute_script("window.scrollTo(0, 0)")  # (the graph's dot is under the board: the page scrolled)
    time.sleep(0.3)


def _pick_a_piece(browser) -> None:
    """Wait for the seat, then press the piece of the mover's last legal move, so that its moves are lit."""
    for _ in range(100):
        if browser.execute_script("return page.game && page.seat && page.game.status.legal.length > 0"):
            break
        time.sleep(0.05)
    cell = browser.execute_script("const m = page.game.status.legal[page.game.status.legal.length - 1]; "
                                  "return m.path[0];")
    from selenium.webdriver.common.action_chains import ActionChains

    rect = browser.find_element("css selector", f'#board rect[data-cell="{cell[0]},{cell[1]}"]')
    ActionChains(browser).move_to_element(rect).click().perform()  # as a person clicks it
    time.sleep(0.2)


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
