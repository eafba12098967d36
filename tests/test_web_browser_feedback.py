"""What a player sees on the game page after what they do, in a real headless Chromium at desktop and phone size
(tests/test_web_browser.py has the browser and the server): the bot's answer to a draw offer, the takebacks left,
a confirmation before resigning or stopping a match, their own finished game from its seat link, the pieces that
must capture, the evaluation, the replay's and the front page's counts, the result line. Each check reads what
is displayed (visible, enabled, its words), not what the page's script knows."""

from __future__ import annotations

import asyncio

import pytest

from chat import ANA, BEN
from engine import Color
from test_web_browser import (MULTI_CAPTURE, Browser, my_turn, play_by_clicking, pytestmark,  # noqa: F401 (skip)
                              served)  # noqa: F401 (fixture)
from test_web_browser_layout import people_game, players
from test_web_browser_page import DRAW, RESIGN, STOP, TAKE_BACK, click_control, shown_controls, wait_controls

SIZES = pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])


def visible_text(b: Browser, element_id: str) -> str:
    """The words an element shows ("" when it is hidden or empty)."""
    from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
    from selenium.webdriver.common.by import By

    try:
        element = b.driver.find_element(By.ID, element_id)
        return element.text if element.is_displayed() else ""
    except (StaleElementReferenceException, NoSuchElementException):  # a page (re)loading: nothing shown yet
        return ""


def until(b: Browser, test, what: str, timeout: float = 15.0) -> None:
    """Wait until ``test()`` is true; fail saying ``what`` was never shown, with the page's panel as it read."""
    import time

    deadline = time.monotonic() + timeout
    while not test():
        if time.monotonic() > deadline:
            raise AssertionError(f"never shown: {what}; the panel read: {b.text('panel')!r}")
        time.sleep(0.05)


async def bot_game(served, phone: bool, channel: str, command: str = "new english level 1 time 0.05"):
    """A game against the bot started in chat by ana, and her seat's page in a browser of that size: (chat, table,
    browser)."""
    chat, base, browser = served
    await chat.say(ANA, command, channel=channel)
    table = chat.table(channel)
    b = await browser(phone=phone)
    await asyncio.to_thread(b.open, base + chat.pages.seat_path(table.id, table.colour_of(ANA), ANA))
    await asyncio.to_thread(b.wait, my_turn)
    return chat, table, b


@SIZES
async def test_the_bots_answer_to_a_draw_offer_shows_on_the_page_of_the_one_who_offered(served, phone):
    chat, table, b = await bot_game(served, phone, "d1")
    watcher = await served[2](phone=phone)
    await asyncio.to_thread(watcher.open, served[1] + chat.pages.game_path(table.id))
    await asyncio.to_thread(watcher.wait, lambda s: len(s["entries"]) == 1)
    await asyncio.to_thread(wait_controls, b, [RESIGN, DRAW])
    await asyncio.to_thread(click_control, b, DRAW)
    await asyncio.to_thread(until, b, lambda: visible_text(b, "notice").startswith("I decline the draw"),
                            "the bot's answer to the draw offer")
    assert chat.on("d1") and table.draw_offer is None  # declined: the game goes on
    assert await asyncio.to_thread(shown_controls, b) == [RESIGN, DRAW]
    assert await asyncio.to_thread(visible_text, watcher, "notice") == ""  # an answer to her, not to watchers


@SIZES
async def test_take_back_is_gone_once_no_takebacks_are_left(served, phone):
    chat, table, b = await bot_game(served, phone, "t1")  # ana plays Black, who moves first in English
    for _ in range(3):  # the takebacks a game against the bot allows (Config.takebacks)
        await asyncio.to_thread(play_by_clicking, b, lambda legal: legal[0])
        await asyncio.to_thread(b.wait, lambda s: my_turn(s) and len(s["entries"]) == 3)  # the bot answered
        await asyncio.to_thread(wait_controls, b, [RESIGN, DRAW, TAKE_BACK])
        await asyncio.to_thread(click_control, b, TAKE_BACK)
        await asyncio.to_thread(b.wait, lambda s: my_turn(s) and len(s["entries"]) == 1)
    await asyncio.to_thread(play_by_clicking, b, lambda legal: legal[0])
    await asyncio.to_thread(b.wait, lambda s: my_turn(s) and len(s["entries"]) == 3)
    await asyncio.to_thread(wait_controls, b, [RESIGN, DRAW])  # a move to take back, but no takeback left
    panel = await asyncio.to_thread(b.text, "panel")
    assert TAKE_BACK not in panel and "used all" not in panel
    assert len(table.game.moves) == 2 and chat.on("t1")


def enabled_controls(b: Browser) -> list[str]:
    """The seat controls a person can click: displayed and enabled."""
    from selenium.webdriver.common.by import By

    return [e.text for e in b.driver.find_elements(By.CSS_SELECTOR, "#seat-controls button")
            if e.is_displayed() and e.is_enabled()]


@SIZES
async def test_resign_and_stop_the_match_ask_again_before_they_act(served, phone):
    chat, table, b = await bot_game(served, phone, "r1")
    await asyncio.to_thread(click_control, b, RESIGN)
    await asyncio.to_thread(until, b, lambda: enabled_controls(b) == ["Yes, resign", "Cancel"], "the confirmation")
    assert await asyncio.to_thread(visible_text, b, "confirm-question") == "Resign this game?"
    await asyncio.sleep(0.3)
    assert chat.on("r1")  # one click resigned nothing
    await asyncio.to_thread(click_control, b, "Cancel")
    await asyncio.to_thread(until, b, lambda: enabled_controls(b) == [RESIGN, DRAW], "the controls again")
    assert await asyncio.to_thread(visible_text, b, "confirm-question") == ""
    await asyncio.to_thread(click_control, b, RESIGN)
    await asyncio.to_thread(b.key, "\ue00c")  # Escape: no, too
    await asyncio.to_thread(until, b, lambda: enabled_controls(b) == [RESIGN, DRAW], "the controls after Escape")
    assert chat.on("r1")
    await asyncio.to_thread(click_control, b, RESIGN)
    await asyncio.to_thread(click_control, b, "Yes, resign")
    await asyncio.to_thread(b.wait, lambda s: bool(s["status"]["result"]))
    await asyncio.to_thread(until, b, lambda: enabled_controls(b) == [], "no controls once over")
    assert not chat.on("r1")

    chat, base, browser = served
    await chat.say(ANA, "watch russian 1 1 delay 3", channel="r2")  # (long enough not to end while asked)
    match = chat.table("r2")
    starter = await browser(phone=phone)
    await asyncio.to_thread(starter.open, base + chat.pages.starter_path(match.id, ANA))
    await asyncio.to_thread(until, starter, lambda: enabled_controls(starter) == [STOP], "Stop the match")
    await asyncio.to_thread(click_control, starter, STOP)
    await asyncio.to_thread(until, starter, lambda: enabled_controls(starter) == ["Yes, stop it", "Cancel"],
                            "the confirmation")
    assert await asyncio.to_thread(visible_text, starter, "confirm-question") == "Stop this match?"
    await asyncio.to_thread(starter.wait, lambda s: len(s["entries"]) >= 3)  # the match plays on meanwhile
    assert chat.on("r2") and await asyncio.to_thread(enabled_controls, starter) == ["Yes, stop it", "Cancel"]
    await asyncio.to_thread(click_control, starter, "Yes, stop it")
    await asyncio.to_thread(starter.wait, lambda s: bool(s["status"]["result"]))
    assert not chat.on("r2")


def black_at_the_bottom(b: Browser) -> bool:
    """Whether the board is drawn from Black's side: the square Black's first man stands on (the top-left corner
    from White's side) is at the bottom."""
    return b.js("const box = (cell) => document.querySelector(`#board rect[data-cell='${cell}']`)"
                ".getBoundingClientRect(); return box('0,0').top > box('7,7').top")


@SIZES
async def test_ones_own_finished_game_from_its_seat_link_shows_from_ones_side_without_an_error(served, phone):
    chat, base, browser = served
    game_id = await people_game(chat, 6, finished=True)  # ana (White) won; ben (Black) resigned
    for user, colour, rows, flipped in ((BEN, "Black", [["ana", "White · won"], ["ben", "Black · lost"]], True),
                                        (ANA, "White", [["ben", "Black · lost"], ["ana", "White · won"]], False)):
        b = await browser(phone=phone)
        await asyncio.to_thread(b.open, base + chat.pages.seat_path(game_id, getattr(Color, colour.upper()), user))
        await asyncio.to_thread(b.wait, lambda s: s["seat"] is not None and bool(s["status"]["result"]))
        await asyncio.sleep(0.3)  # (an error would come with the seat's answer)
        assert await asyncio.to_thread(visible_text, b, "notice") == ""
        assert await asyncio.to_thread(players, b) == rows
        assert await asyncio.to_thread(black_at_the_bottom, b) is flipped
        assert await asyncio.to_thread(shown_controls, b) == []  # nothing to play in a finished game

    # a game these pages saw end: the same
    _, table, _ = await bot_game(served, phone, "f1")
    await chat.say(ANA, "resign", channel="f1")
    later = await browser(phone=phone)
    await asyncio.to_thread(later.open, base + chat.pages.seat_path(table.id, table.colour_of(ANA), ANA))
    await asyncio.to_thread(later.wait, lambda s: s["seat"] is not None and bool(s["status"]["result"]))
    await asyncio.sleep(0.3)
    assert await asyncio.to_thread(visible_text, later, "notice") == ""
    assert await asyncio.to_thread(black_at_the_bottom, later)  # ana played Black

    # a link that is no seat's of the game still says so
    stranger = await browser(phone=phone)
    await asyncio.to_thread(stranger.open, base + chat.pages.game_path(game_id) + "#seat=not-a-secret")
    await asyncio.to_thread(until, stranger, lambda: "not for this game" in visible_text(stranger, "notice"),
                            "the refusal of a wrong seat link")


def lit_cells(b: Browser) -> set[str]:
    """The board's cells whose piece is ringed as one that may move, as displayed."""
    from selenium.webdriver.common.by import By

    return {e.get_attribute("data-cell") for e in b.driver.find_elements(By.CSS_SELECTOR, "#board .movable")
            if e.is_displayed()}


@SIZES
async def test_a_click_on_a_piece_that_cannot_move_lights_the_pieces_that_must_capture(served, phone):
    chat, base, browser = served
    game_id = await chat.store.create_game("g", "m1", "english", MULTI_CAPTURE, "bot",
                                           {"white": {"level": 1}, "black": {"user": [ANA.id, ANA.name]}},
                                           {"budget": 0.05, "rated": False})
    await chat.core.start()
    b = await browser(phone=phone)
    await asyncio.to_thread(b.open, base + chat.pages.seat_path(game_id, Color.BLACK, ANA))
    await asyncio.to_thread(b.wait, my_turn)
    assert await asyncio.to_thread(lit_cells, b) == set()  # nothing lit before it is needed
    await asyncio.to_thread(b.click_cell, [2, 1])  # the man on 9, which could move but for the captures
    await asyncio.to_thread(until, b, lambda: bool(visible_text(b, "notice")), "why the click chose nothing")
    said = await asyncio.to_thread(visible_text, b, "notice")
    assert said == "That piece has no move; the lit pieces' moves come first."
    assert await asyncio.to_thread(lit_cells, b) == {"2,3", "2,5"}  # 10 and 11, which must capture
    await asyncio.to_thread(b.click_cell, [2, 3])  # one of them: its capture's squares, and nothing lit or said
    await asyncio.to_thread(until, b, lambda: not lit_cells(b), "the rings gone")
    assert await asyncio.to_thread(visible_text, b, "notice") == ""
    assert (await asyncio.to_thread(b.page))["clicks"] == [[2, 3]]


@SIZES
async def test_the_bots_evaluation_is_for_white_and_goes_with_a_takeback(served, phone):
    chat, base, browser = served
    game_id = await chat.store.create_game("g", "e1", "english", "W:W30,31,32:B5,6,7,9,10", "bot",
                                           {"white": {"user": [ANA.id, ANA.name]}, "black": {"level": 6}},
                                           {"budget": 0.05, "rated": False})  # the bot (Black) is two men up
    await chat.core.start()
    table = chat.table("e1")
    b = await browser(phone=phone)
    await asyncio.to_thread(b.open, base + chat.pages.seat_path(game_id, Color.WHITE, ANA))
    await asyncio.to_thread(b.wait, my_turn)
    assert "evaluation" not in await asyncio.to_thread(visible_text, b, "status")  # none before the bot's move
    await asyncio.to_thread(play_by_clicking, b, lambda legal: legal[0])
    await asyncio.to_thread(b.wait, lambda s: my_turn(s) and len(s["entries"]) == 3)  # the bot answered
    white = chat.table("e1").evaluation
    assert white is not None and -1000 < white < 0  # good for the bot (Black), not yet a forced win
    score = -white
    shown = await asyncio.to_thread(visible_text, b, "status")
    assert f"Bot's evaluation: -{score / 100:.2f} for White." in shown, shown  # Black is better: below zero
    assert "+" not in shown

    await asyncio.to_thread(click_control, b, TAKE_BACK)
    await asyncio.to_thread(b.wait, lambda s: my_turn(s) and len(s["entries"]) == 1)
    await asyncio.to_thread(until, b, lambda: "evaluation" not in visible_text(b, "status"),
                            "the evaluation gone with the move it was of")
    assert table.id == game_id


@SIZES
async def test_moves_are_counted_as_the_list_numbers_them_and_the_result_line_is_the_pages(served, phone):
    chat, table, b = await bot_game(served, phone, "n1")
    for plies in (3, 5):  # two moves of each side
        await asyncio.to_thread(play_by_clicking, b, lambda legal: legal[0])
        await asyncio.to_thread(b.wait, lambda s: my_turn(s) and len(s["entries"]) == plies)
    lines = (await asyncio.to_thread(b.text, "moves")).splitlines()
    assert [line.split()[0] for line in lines] == ["1.", "2."]

    front = await served[2](phone=phone)
    await asyncio.to_thread(front.open, served[1] + "/")
    await asyncio.to_thread(until, front, lambda: "moves: 2 ·" in front.text("games"), "two moves on the front page")
    listed = await asyncio.to_thread(front.text, "games")
    assert listed.startswith(f"English: ana – {table.seats[Color.WHITE].name}\n"), listed  # who moves first, first
    assert ") (" not in listed  # no name followed by its colour in brackets

    await asyncio.to_thread(b.js, "document.querySelector('#moves button[data-ply=\"3\"]').click()")  # 2. ...
    await asyncio.to_thread(until, b, lambda: visible_text(b, "status").startswith("Looking at"), "the replay")
    assert await asyncio.to_thread(visible_text, b, "status") == "Looking at move 2 of 2; ▶▶ goes to the end."
    await asyncio.to_thread(b.js, "document.querySelector('#moves button[data-ply=\"2\"]').click()")  # 1. ... ...
    await asyncio.to_thread(until, b, lambda: "move 1 of 2" in visible_text(b, "status"), "move 1 of 2")

    await asyncio.to_thread(b.js, "document.getElementById('last').click()")
    await asyncio.to_thread(click_control, b, RESIGN)
    await asyncio.to_thread(click_control, b, "Yes, resign")
    await asyncio.to_thread(b.wait, lambda s: bool(s["status"]["result"]))
    await asyncio.to_thread(until, b, lambda: visible_text(b, "status") == "White wins (ana resigned).",
                            "the page's result line")
    panel = await asyncio.to_thread(b.text, "panel")
    assert "analyse judges" not in panel and "wins:" not in panel  # not the chat's words for it


@SIZES
async def test_the_board_colours_are_named_in_the_pages_words_and_the_arrow_keys_step_on_after_the_menu(served, phone):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    from bot.web.wording import _script_messages

    chat, table, b = await bot_game(served, phone, "k1")
    await asyncio.to_thread(play_by_clicking, b, lambda legal: legal[0])
    await asyncio.to_thread(b.wait, lambda s: my_turn(s) and len(s["entries"]) == 3)
    menu = await asyncio.to_thread(b.driver.find_element, By.ID, "theme")
    names = await asyncio.to_thread(lambda: [o.text for o in Select(menu).options])
    assert names == ["Wood", "High contrast"]
    assert {"Wood", "High contrast"} <= set(_script_messages())  # marked for translation, as the page's words are
    await asyncio.to_thread(menu.click)
    await asyncio.to_thread(Select(menu).select_by_visible_text, "High contrast")
    await asyncio.to_thread(b.wait, lambda s: b.js("return look.theme") == "contrast")
    await asyncio.to_thread(b.key, "\ue012")  # ArrowLeft: back a move, though the menu was used last
    await asyncio.to_thread(until, b, lambda: visible_text(b, "status").startswith("Looking at move 1 of 1"),
                            "a move back with the arrow key")
    await asyncio.to_thread(b.key, "\ue014")  # ArrowRight: and forward again, to the game as it is
    await asyncio.to_thread(b.wait, lambda s: s["view"] == -1)


@SIZES
async def test_numbers_are_written_as_the_pages_language_writes_them(served, phone):
    chat, base, browser = served
    game_id = await chat.store.create_game("g", "x1", "english", "W:W30,31,32:B5,6,7,9,10", "bot",
                                           {"white": {"user": [ANA.id, ANA.name]}, "black": {"level": 6}},
                                           {"budget": 0.05, "rated": False})
    await chat.core.start()
    b = await browser(phone=phone, language="fr")
    await asyncio.to_thread(b.open, base + chat.pages.seat_path(game_id, Color.WHITE, ANA))
    await asyncio.to_thread(b.wait, my_turn)
    assert "0,05" in await asyncio.to_thread(b.text, "players")  # the bot's seconds a move, with a decimal comma
    await asyncio.to_thread(play_by_clicking, b, lambda legal: legal[0])
    await asyncio.to_thread(b.wait, lambda s: my_turn(s) and len(s["entries"]) == 3)
    white = chat.table("x1").evaluation
    assert white is not None and -1000 < white < 0
    score = -white
    status = await asyncio.to_thread(visible_text, b, "status")
    assert f"-{score // 100},{score % 100:02d}" in status and "." not in status.split(":")[-1][:-1], status


@SIZES
async def test_a_puzzles_answer_wraps_between_its_moves_never_inside_one(served, phone):
    from test_web_browser_puzzles import deepest, loaded

    chat, base, browser = served
    puzzle = deepest()
    b = await browser(phone=phone)
    await asyncio.to_thread(b.open, base + f"/puzzle/english/{puzzle.id}")
    await asyncio.to_thread(until, b, lambda: loaded(b), "the puzzle")
    await asyncio.to_thread(b.driver.set_window_size, 360 if phone else 700, 900)  # narrow: the line wraps
    await asyncio.to_thread(b.js, "document.getElementById('solution').click()")
    await asyncio.to_thread(until, b, lambda: "The whole line" in visible_text(b, "status"), "the solution")
    line = chat.core.try_puzzle(puzzle, list(puzzle.solution[::2])).line
    status = await asyncio.to_thread(visible_text, b, "status")
    assert status.endswith(f"The whole line: {line}.") and " ".join(status.split()) == status
    moves = await asyncio.to_thread(b.js, "return [...document.querySelectorAll('#status .line-move')]"
                                          ".map((m) => [m.textContent, m.getClientRects().length])")
    assert " ".join(text for text, _ in moves).endswith(line)  # each move of the answer and of the line
    assert all(rects == 1 for _, rects in moves), moves  # each drawn whole, on one line
    lines = await asyncio.to_thread(b.js, "const s = document.getElementById('status'); "
                                          "return Math.round(s.getBoundingClientRect().height / "
                                          "parseFloat(getComputedStyle(s).lineHeight))")
    assert lines >= 2  # (the line did wrap, between moves)


@SIZES
async def test_the_pages_have_an_icon(served, phone):
    chat, table, b = await bot_game(served, phone, "i1")
    icon = await asyncio.to_thread(b.js, """
        const link = document.querySelector("link[rel=icon]");
        const answer = await fetch(link.href);
        const fallback = await fetch("/favicon.ico");
        return [answer.status, answer.headers.get("Content-Type"), fallback.status, fallback.url, link.href];""")
    assert icon[:2] == [200, "image/svg+xml"] and icon[2] == 200 and icon[3] == icon[4]
    for path in ("/", "/puzzles"):
        await asyncio.to_thread(b.open, served[1] + path)
        assert await asyncio.to_thread(b.js, "return document.querySelector('link[rel=icon]').href.endsWith("
                                             "'/static/favicon.svg')")
    logged = await asyncio.to_thread(b.driver.get_log, "browser")
    assert not [e["message"] for e in logged if "favicon" in e["message"]]  # no 404 for an icon


@SIZES
async def test_a_name_with_brackets_is_not_followed_by_more_brackets_on_the_page(served, phone):
    chat, base, browser = served
    name = "Bot (level 1, beginner)"  # as the bot was named; a person may be too
    game_id = await chat.store.create_game("g", "b1", "english", "B:W21,22,23,24:B9,10,11,12", "people",
                                           {"white": {"user": ["u1", name]}, "black": {"user": [ANA.id, ANA.name]}},
                                           {"budget": 1.0, "rated": False})
    await chat.core.start()
    b = await browser(phone=phone)
    await asyncio.to_thread(b.open, base + chat.pages.game_path(game_id))
    await asyncio.to_thread(b.wait, lambda s: len(s["entries"]) == 1)
    await chat.say(ANA, "9-13", channel="b1")
    await asyncio.to_thread(b.wait, lambda s: len(s["entries"]) == 2)
    status = await asyncio.to_thread(visible_text, b, "status")
    assert status == f"White to move: {name}."
    await asyncio.to_thread(b.open, base + "/")
    await asyncio.to_thread(until, b, lambda: name in b.text("games"), "the game on the front page")
    for text in (await asyncio.to_thread(b.text, "games"), status):
        assert "))" not in text and ") (" not in text, text
