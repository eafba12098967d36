"""Take the screenshots of the web page shown in the README: ``.venv/bin/python docs/web_screenshots.py``.

Needs Debian's chromium and chromium-driver (``./run-tests`` installs them as root). It serves three games
in memory (English, International and Tablut, each a few moves in, the same every time), opens each seated
player's page in headless Chromium, picks a piece so its moves are lit, and saves ``docs/web-*.png``.
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
from bot.store import SqliteStore
from bot.tables import User
from bot.web.hub import Hub
from bot.web.seats import SeatKeys
from bot.web.server import make_app
from engine import Color
from engine.games import GAMES

HERE = Path(__file__).resolve().parent
SHOTS = (("english", "wood", 14), ("international", "contrast", 16), ("tablut", "wood", 10))
ANA, BEN = User("1", "ana"), User("2", "ben")


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
    hub = Hub(SeatKeys(b"screenshots" * 3), "http://localhost")
    core = Core(Config(database=":memory:"), store, NoSearch(), hub.send_for(None))  # type: ignore[arg-type]
    hub.attach(core)
    ids = {name: await stored_game(store, name, plies) for name, _, plies in SHOTS}
    await core.start()
    server = TestServer(make_app(hub), host="127.0.0.1")
    await server.start_server()
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1100,780", "--hide-scrollbars"):
        options.add_argument(flag)
    browser = await asyncio.to_thread(webdriver.Chrome, service=Service(driver_path), options=options)
    try:
        for name, theme, _ in SHOTS:
            table = core.table(f"shot-{name}")
            assert table is not None
            mover = table.seats[table.game.turn].user
            assert mover is not None
            url = str(server.make_url(hub.seat_path(ids[name], table.game.turn, mover)))
            await asyncio.to_thread(browser.get, str(server.make_url("/")))
            await asyncio.to_thread(browser.execute_script, f"localStorage.setItem('theme', '{theme}')")
            await asyncio.to_thread(browser.get, url)
            await asyncio.to_thread(_pick_a_piece, browser)
            path = HERE / f"web-{name}-{theme}.png"
            await asyncio.to_thread(browser.save_screenshot, str(path))
            print(f"wrote {path}")
    finally:
        await asyncio.to_thread(browser.quit)
        hub.close()
        await server.close()
    return 0


def _pick_a_piece(browser) -> None:
    """Wait for the seat, then press the piece of the mover's last legal move, so that its moves are lit."""
    for _ in range(100):
        if browser.execute_script("return page.game && page.seat && page.game.status.legal.length > 0"):
            break
        time.sleep(0.05)
    browser.execute_script("const m = page.game.status.legal[page.game.status.legal.length - 1]; choose(m.path[0]);")
    time.sleep(0.2)


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
