"""How the pages are laid out and what their header says, in a real headless Chromium (tests/test_web_browser.py
has the browser and the server): the game page's panel beside the board on a wide window and under it on a
narrow one, a finished game's header, and the front page's forms, as the browser draws them."""

from __future__ import annotations

import asyncio
import re

from chat import ANA, BEN
from bot.ending import Ending
from engine import Color, Termination
from engine.games import GAMES
from test_web_browser import Browser, my_turn, pytestmark, served  # noqa: F401 (fixture, skip)
from test_web_browser_page import RESIGN, click_control, confirm, until, wait_controls

# Every text the header's connection word has had since the page began, recorded by a script the browser runs
# before the page's own (the page's policy allows only its own scripts; this one comes through the driver).
RECORD_CONNECTION = """
window.connectionTexts = [];
document.addEventListener("DOMContentLoaded", () => {
  const el = document.getElementById("connection");
  if (!el) return;
  window.connectionTexts.push(el.textContent);
  new MutationObserver(() => window.connectionTexts.push(el.textContent))
    .observe(el, {childList: true, characterData: true, subtree: true});
});"""


def header(b: Browser) -> str:
    """The header bar as it reads."""
    from selenium.webdriver.common.by import By

    return b.driver.find_element(By.CSS_SELECTOR, "header").text


def says_live(text: str) -> bool:
    return re.search(r"\blive\b", text, re.IGNORECASE) is not None


def box(b: Browser, selector: str) -> dict:
    """Where an element is drawn, in CSS pixels of the window."""
    return b.js(f"const r = document.querySelector({selector!r}).getBoundingClientRect(); "
                "return {left: r.left, right: r.right, top: r.top, bottom: r.bottom, width: r.width, height: r.height}")


def displayed(b: Browser, selector: str) -> bool:
    from selenium.webdriver.common.by import By

    return all(e.is_displayed() for e in b.driver.find_elements(By.CSS_SELECTOR, selector)) and bool(
        b.driver.find_elements(By.CSS_SELECTOR, selector))


def players(b: Browser) -> list[list[str]]:
    """The players' rows as they read, top first (beside the board, or above and below it): [name, side]."""
    return b.js("return [...document.querySelectorAll('.player')].map((row) => "
                "[row.querySelector('.name').innerText, row.querySelector('.side').innerText])")


async def people_game(chat, moves: int, finished: bool = False) -> int:
    """A game between ana (White) and ben (Black) in the database with ``moves`` moves played; ben resigned it
    when ``finished``."""
    game_type = GAMES["english"]
    record = game_type.new_game()
    game_id = await chat.store.create_game("g", f"c{moves}{finished}", "english",
                                           game_type.write_position(record.position), "people",
                                           {"white": {"user": [ANA.id, ANA.name]},
                                            "black": {"user": [BEN.id, BEN.name]}},
                                           {"budget": 1.0, "rated": False})
    for ply in range(moves):
        move = record.legal_moves()[0]
        await chat.store.add_move(game_id, ply, ply, game_type.write_move(record.position, move, full=True))
        record.play(move)
    if finished:
        await chat.store.finish_game(game_id, moves, Ending(Color.WHITE, Termination.RESIGNED), "ben resigned",
                                     game_type.record_text(record, {}))
    return game_id


async def test_a_finished_game_says_so_with_its_result_in_the_header_and_never_live(served):
    chat, base, browser = served
    await chat.say(ANA, "new english level 1 time 0.05", channel="c1")
    table = chat.table("c1")
    player = await browser()
    await asyncio.to_thread(player.open, base + chat.pages.seat_path(table.id, table.colour_of(ANA), ANA))
    await asyncio.to_thread(player.wait, lambda s: my_turn(s) and says_live(header(player)))  # on: live
    await asyncio.to_thread(wait_controls, player, [RESIGN, "Offer a draw"])
    await asyncio.to_thread(click_control, player, RESIGN)
    await asyncio.to_thread(confirm, player)
    end = await asyncio.to_thread(player.wait, lambda s: bool(s["status"]["result"]))
    result = end["status"]["result"]
    await asyncio.to_thread(player.wait, lambda s: "Finished" in header(player))
    shown = await asyncio.to_thread(header, player)
    headline = end["status"]["headline"]
    assert headline == "White wins (ana resigned)."  # the page's words: the names are in the players' rows
    assert not says_live(shown) and f"Finished: {headline}" in shown, shown
    assert await asyncio.to_thread(player.text, "status") == headline
    assert "to move" not in await asyncio.to_thread(player.text, "players")

    # a game that ended before this server knew it, replayed from the database: finished from the first look
    game_id = await people_game(chat, 6, finished=True)
    replay = await browser()
    await asyncio.to_thread(replay.driver.execute_cdp_cmd, "Page.addScriptToEvaluateOnNewDocument",
                            {"source": RECORD_CONNECTION})
    await asyncio.to_thread(replay.open, base + chat.pages.game_path(game_id))
    state = await asyncio.to_thread(replay.wait, lambda s: len(s["entries"]) == 7)
    assert state["status"]["result"] == "ana (White) wins: ben resigned."
    await asyncio.to_thread(replay.wait, lambda s: "Finished" in header(replay))
    shown = await asyncio.to_thread(header, replay)
    assert "Finished: White wins (ben resigned)." in shown and not says_live(shown), shown
    texts = await asyncio.to_thread(replay.js, "return window.connectionTexts")
    assert texts and not any(says_live(t) for t in texts), texts  # not even for a moment while it loaded
    assert await asyncio.to_thread(players, replay) == [["ben", "Black · lost"], ["ana", "White · won"]]


async def test_the_panel_is_beside_the_board_on_a_wide_window_and_below_it_on_a_narrow_one(served):
    from selenium.webdriver.common.by import By

    chat, base, browser = served
    game_id = await people_game(chat, 8)
    await chat.core.start()
    wide, narrow = await browser(), await browser()
    await asyncio.to_thread(narrow.driver.set_window_size, 500, 900)
    for b in (wide, narrow):
        await asyncio.to_thread(b.open, base + chat.pages.game_path(game_id))
        await asyncio.to_thread(b.wait, lambda s: len(s["entries"]) == 9)

    def beside() -> None:
        board, panel = box(wide, "#board svg"), box(wide, "#panel")
        assert panel["left"] >= board["right"]  # beside the board, to its right
        assert panel["top"] < board["bottom"] and board["top"] < panel["bottom"]  # level with it
        assert board["width"] >= 500  # the board keeps most of the window
        assert wide.js("return document.documentElement.scrollWidth <= window.innerWidth")
        for selector in ("#players", "#status", "#moves", "#first", "#back", "#forward", "#last", "#flip", "#pdn",
                         "#gif", "#theme"):
            assert displayed(wide, selector), selector
            inside = box(wide, selector)
            assert panel["left"] <= inside["left"] and inside["right"] <= panel["right"] + 0.5, selector
            assert inside["bottom"] <= board["bottom"] + 1, selector  # the panel no taller than the board
        # the players as the board has them, top first (Black's men start at the top in English), and who moves
        assert players(wide) == [["ben", "Black · to move"], ["ana", "White"]]
        wide.driver.find_element(By.ID, "flip").click()
        assert players(wide) == [["ana", "White"], ["ben", "Black · to move"]]

        # each move has its element (data-ply) with a place for a judgement mark after the move's text
        move = '#moves [data-ply="4"]'
        assert displayed(wide, move) and panel["left"] <= box(wide, move)["left"]
        assert wide.js(f"return document.querySelector('{move} .judgement').textContent") == ""
        wide.js("page.judgements[4] = '??'; render();")
        text = wide.driver.find_element(By.CSS_SELECTOR, move).text
        assert text.endswith("??") and len(text) > 2
        mark, written = box(wide, f"{move} .judgement"), box(wide, f"{move} .text")
        assert mark["left"] >= written["right"] - 0.5 and abs(mark["top"] - written["top"]) < 4  # after it, in line

        # the analysis has a place in the panel under the move list, hidden until there is one
        assert not wide.driver.find_element(By.ID, "analysis").is_displayed()
        assert wide.js("const a = document.getElementById('analysis'); "
                       "return document.getElementById('panel').contains(a) && !!(document.getElementById('moves')"
                       ".compareDocumentPosition(a) & Node.DOCUMENT_POSITION_FOLLOWING)")
        wide.js("const a = document.getElementById('analysis'); a.hidden = false; "
                "a.appendChild(document.createElement('div')).textContent = 'a graph';")
        assert displayed(wide, "#analysis")
        analysis, moves = box(wide, "#analysis"), box(wide, "#moves")
        assert analysis["top"] >= moves["bottom"] and analysis["left"] >= board["right"]

    def below() -> None:
        board, panel = box(narrow, "#board svg"), box(narrow, "#panel")
        assert panel["top"] >= board["bottom"]  # under the board
        assert narrow.js("return window.innerWidth") <= 500
        assert board["width"] >= 400 and narrow.js("return document.documentElement.scrollWidth <= window.innerWidth")
        # the player at the top of the board above it, the other below it, as on lidraughts
        top, bottom = box(narrow, "#top-player .player"), box(narrow, "#bottom-player .player")
        assert top["bottom"] <= board["top"] and bottom["top"] >= board["bottom"] and bottom["bottom"] <= panel["top"]
        assert players(narrow) == [["ben", "Black · to move"], ["ana", "White"]]
        narrow.js("window.scrollTo(0, document.body.scrollHeight)")
        for selector in ("#moves", "#first", "#last", '#moves [data-ply="8"]', "#pdn"):
            assert displayed(narrow, selector), selector
            assert board["left"] <= box(narrow, selector)["left"] < board["right"], selector

    await asyncio.to_thread(beside)
    await asyncio.to_thread(below)


async def test_the_front_pages_forms_are_cards_with_labelled_fields_and_a_primary_button(served):
    from selenium.webdriver.common.by import By

    _, base, browser = served
    wide, phone = await browser(), await browser(phone=True)
    for b in (wide, phone):
        await asyncio.to_thread(b.open, base + "/")
        await asyncio.to_thread(until, b, "return document.querySelector('#match select.variants').options.length > 0")

    def styled(b: Browser) -> None:
        for form in ("play", "match"):
            button = b.driver.find_element(By.CSS_SELECTOR, f"#{form} button[type=submit]")
            assert button.is_displayed() and button.text.startswith("Start")
            background = button.value_of_css_property("background-color")
            # not the browser's grey button nor a transparent one, and its words readable on it
            assert background not in ("rgba(0, 0, 0, 0)", "rgb(239, 239, 239)", "rgb(240, 240, 240)"), background
            assert button.value_of_css_property("color") != background
            form_box, button_box = box(b, f"#{form}"), box(b, f"#{form} button[type=submit]")
            assert button_box["width"] >= form_box["width"] - 1  # across the whole form
            for field in b.driver.find_elements(By.CSS_SELECTOR, f"#{form} select, #{form} input"):
                name = field.get_attribute("name")
                assert field.is_displayed(), name
                assert field.size["height"] >= 36, name  # big enough for a finger
                # its label's words (a fieldset's legend), written above it
                words, words_top, field_top = b.js(
                    f"const f = document.querySelector('#{form} [name={name}]'); "
                    "const l = f.closest('fieldset') ? f.closest('fieldset').querySelector('legend') "
                    ": f.closest('label'); const t = document.createRange(); t.selectNodeContents(l); "
                    "return [l.innerText.split('\\n')[0].trim(), t.getClientRects()[0].top, "
                    "f.getBoundingClientRect().top]")
                assert words and words_top < field_top, (name, words, words_top, field_top)
        assert b.js("return document.documentElement.scrollWidth <= window.innerWidth")

    for b in (wide, phone):
        await asyncio.to_thread(styled, b)
    play, match = await asyncio.to_thread(box, wide, "#play"), await asyncio.to_thread(box, wide, "#match")
    assert match["left"] >= play["right"] and abs(match["top"] - play["top"]) < 2  # side by side
    play, match = await asyncio.to_thread(box, phone, "#play"), await asyncio.to_thread(box, phone, "#match")
    assert match["top"] >= play["bottom"]  # one above the other on a phone
