"""The board as a player reads it and handles it, in a real headless Chromium at desktop and phone size
(tests/test_web_browser.py has the browser and the server): where the square numbers are written (a setting), kings
with their crowns, a piece that follows the pointer while it is dragged, a move typed as in chat, moves that slide
in with a sound when it is on, and a phone's compact header with the opponent above the board and oneself below.
Each check reads what is displayed, not what the page's script knows."""

from __future__ import annotations

import asyncio

from chat import ANA
from engine import Color, game_type
from test_web_browser import Browser, my_turn, play_by_clicking, pytestmark, served  # noqa: F401 (fixture, skip)
from test_web_browser_feedback import SIZES, bot_game, until, visible_text
from test_web_browser_layout import box, players

# Before the page's own scripts (the driver's, which the page's policy lets through): every sound the page starts
# and every piece it slides, recorded, since neither can be seen in a still picture.
RECORD_MOTION = """
window.sounds = 0;
window.slides = [];
const oscillator = AudioContext.prototype.createOscillator;
AudioContext.prototype.createOscillator = function () { window.sounds += 1; return oscillator.call(this); };
const animate = Element.prototype.animate;
Element.prototype.animate = function (...args) {
  window.slides.push(this.getAttribute("data-cell"));
  return animate.apply(this, args);
};"""


def numbers(b: Browser) -> list[tuple[str, bool]]:
    """The square numbers the board shows: each one's text and whether it is written on a square (not the frame)."""
    return b.js("""
        const board = document.querySelector('#board svg'), cells = [...board.querySelectorAll('rect[data-cell]')];
        const boxes = cells.map((c) => c.getBoundingClientRect());
        const left = Math.min(...boxes.map((r) => r.left)), right = Math.max(...boxes.map((r) => r.right));
        const top = Math.min(...boxes.map((r) => r.top)), bottom = Math.max(...boxes.map((r) => r.bottom));
        return [...board.querySelectorAll('text')].filter((t) => /^[0-9]+$/.test(t.textContent)).map((t) => {
          const r = t.getBoundingClientRect(), x = (r.left + r.right) / 2, y = (r.top + r.bottom) / 2;
          return [t.textContent, left < x && x < right && top < y && y < bottom];
        });""")


def choose(b: Browser, select_id: str, words: str) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    menu = b.driver.find_element(By.ID, select_id)
    assert menu.is_displayed()
    Select(menu).select_by_visible_text(words)


@SIZES
async def test_square_numbers_are_on_the_frame_until_the_reader_puts_them_on_the_squares_or_away(served, phone):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    chat, table, b = await bot_game(served, phone, f"n{phone}", "new international level 1 time 0.05 white")
    on_frame = await asyncio.to_thread(numbers, b)
    # the top and bottom rows' numbers above and below them, and each row's number at either edge: 5 and 46 twice
    assert sorted((text for text, _ in on_frame), key=int) == sorted(
        "1 2 3 4 5 46 47 48 49 50 6 16 26 36 46 5 15 25 35 45".split(), key=int)
    assert not any(inside for _, inside in on_frame)
    menu = await asyncio.to_thread(b.driver.find_element, By.ID, "numbers")
    assert await asyncio.to_thread(lambda: [o.text for o in Select(menu).options]) == [
        "On the frame", "On every square", "None"]
    await asyncio.to_thread(choose, b, "numbers", "On every square")
    shown = await asyncio.to_thread(numbers, b)
    assert sorted(int(text) for text, _ in shown) == list(range(1, 51)) and all(inside for _, inside in shown)
    await asyncio.to_thread(b.driver.refresh)  # kept in the browser: the next page starts with it
    await asyncio.to_thread(b.wait, my_turn)
    assert len(await asyncio.to_thread(numbers, b)) == 50
    await asyncio.to_thread(choose, b, "numbers", "None")
    assert await asyncio.to_thread(numbers, b) == []
    await asyncio.to_thread(choose, b, "numbers", "On the frame")

    # a Russian board has its letters and digits on the frame, and no numbers to place
    _, _, russian = await bot_game(served, phone, f"r{phone}", "new russian level 1 time 0.05 white")
    assert await asyncio.to_thread(numbers, russian) == [[str(n), False] for n in range(8, 0, -1) for _ in (0, 1)]
    assert not await asyncio.to_thread(lambda: russian.driver.find_element(By.ID, "numbers").is_displayed())


async def test_kings_wear_a_crown_and_men_do_not(served):
    chat, base, browser = served
    game_id = await chat.store.create_game("g", "k9", "english", "B:WK30,31:BK5,9", "bot",
                                           {"white": {"level": 1}, "black": {"user": [ANA.id, ANA.name]}},
                                           {"budget": 0.05, "rated": False})
    await chat.core.start()
    b = await browser()
    await asyncio.to_thread(b.open, base + chat.pages.seat_path(game_id, Color.BLACK, ANA))
    await asyncio.to_thread(b.wait, my_turn)
    crowns = await asyncio.to_thread(b.js, """
        return [...document.querySelectorAll('#board g.piece')].map((g) => {
          const crown = g.querySelector('.crown'), r = crown && crown.getBoundingClientRect();
          return [g.dataset.piece, Boolean(crown && r.width > 10 && r.height > 10), crown && crown.getAttribute('fill')];
        }).sort();""")
    # the crowns in the colours the board images give them (renders.themes: gold on White, pale gold on Black)
    assert crowns == [["B", True, "#f0c440"], ["W", True, "#b07a10"], ["b", False, None], ["w", False, None]]


def drag(b: Browser, start: list[int], end: list[int]) -> dict:
    """Press on ``start``'s square, move halfway to ``end``'s, and let go on ``end``: where the held piece's centre
    was when the pointer was halfway, and where the pointer was then (window pixels)."""
    from selenium.webdriver.common.actions.action_builder import ActionBuilder
    from selenium.webdriver.common.actions.interaction import POINTER_TOUCH
    from selenium.webdriver.common.actions.pointer_input import PointerInput

    def centre(cell: list[int]) -> tuple[int, int]:
        r = box(b, f'#board rect[data-cell="{cell[0]},{cell[1]}"]')
        return round(r["left"] + r["width"] / 2), round(r["top"] + r["height"] / 2)

    (x1, y1), (x2, y2) = centre(start), centre(end)
    mid = ((x1 + x2) // 2, (y1 + y2) // 2)
    # after the page's own listener has moved the piece: where it is drawn, at each move of the pointer
    b.js("""window.held = []; document.addEventListener('pointermove', (e) => {
              const g = document.querySelector('#board g.piece.dragged'); if (!g) return;
              const r = g.getBoundingClientRect();
              window.held.push([e.clientX, e.clientY, (r.left + r.right) / 2, (r.top + r.bottom) / 2]); });""")
    builder = ActionBuilder(b.driver, mouse=PointerInput(POINTER_TOUCH, "finger")) if b.phone else ActionBuilder(
        b.driver)
    builder.pointer_action.move_to_location(x1, y1).pointer_down().move_to_location(*mid).pause(0.2) \
        .move_to_location(x2, y2).pointer_up()
    builder.perform()
    at_mid = [h for h in b.js("return window.held") if abs(h[0] - mid[0]) < 2 and abs(h[1] - mid[1]) < 2]
    return {"held": at_mid[0][2:] if at_mid else None, "pointer": mid}


@SIZES
async def test_a_dragged_piece_follows_the_pointer_and_plays_where_it_is_dropped(served, phone):
    chat, table, b = await bot_game(served, phone, f"d{phone}")
    state = await asyncio.to_thread(b.wait, my_turn)
    move = next(m for m in state["status"]["legal"] if len(m["path"]) == 2)
    seen = await asyncio.to_thread(drag, b, *move["path"])
    assert seen["held"] is not None, "no piece was held"
    (hx, hy), (px, py) = seen["held"], seen["pointer"]
    assert abs(hx - px) < 6 and abs(hy - py) < 6  # the piece under the pointer, not on its square
    await asyncio.to_thread(b.wait, lambda s: len(s["entries"]) >= 2)
    assert table.game.type.write_move(table.game.positions[0], table.game.moves[0]) == move["text"]

    # put back on its own square: nothing is played, and the piece stays chosen for a click on where it goes
    state = await asyncio.to_thread(b.wait, lambda s: my_turn(s) and len(s["entries"]) == 3)
    start = state["status"]["legal"][0]["path"][0]
    await asyncio.to_thread(drag, b, start, start)
    assert len(table.game.moves) == 2 and (await asyncio.to_thread(b.page))["clicks"] == [start]
    assert await asyncio.to_thread(b.js, "return document.querySelectorAll('#board .dragged').length") == 0


@SIZES
async def test_a_move_typed_as_in_chat_is_played_and_a_wrong_one_is_explained(served, phone):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    chat, table, b = await bot_game(served, phone, f"t{phone}")
    state = await asyncio.to_thread(b.wait, my_turn)
    field = await asyncio.to_thread(b.driver.find_element, By.ID, "move-text")
    assert await asyncio.to_thread(field.is_displayed)
    example = state["status"]["legal"][0]["text"]
    assert await asyncio.to_thread(field.get_attribute, "placeholder") == f"Type a move, as {example}"

    await asyncio.to_thread(field.send_keys, "12-99" + Keys.ENTER)  # no such square: said, and nothing played
    await asyncio.to_thread(until, b, lambda: bool(visible_text(b, "notice")), "why the move was refused")
    assert "There is no square 99" in await asyncio.to_thread(visible_text, b, "notice")
    assert table.game.moves == [] and my_turn(await asyncio.to_thread(b.page))

    move = state["status"]["legal"][-1]["text"]
    await asyncio.to_thread(field.send_keys, move + Keys.ENTER)
    await asyncio.to_thread(b.wait, lambda s: len(s["entries"]) >= 2)
    assert table.game.type.write_move(table.game.positions[0], table.game.moves[0]) == move
    assert await asyncio.to_thread(field.get_attribute, "value") == ""


async def test_moves_slide_in_and_sound_only_once_the_sound_is_on(served):
    from selenium.webdriver.common.by import By

    chat, base, browser = served
    await chat.say(ANA, "new english level 1 time 0.05", channel="s1")
    table = chat.table("s1")
    b = await browser()
    await asyncio.to_thread(b.driver.execute_cdp_cmd, "Page.addScriptToEvaluateOnNewDocument", {"source": RECORD_MOTION})
    await asyncio.to_thread(b.open, base + chat.pages.seat_path(table.id, table.colour_of(ANA), ANA))
    state = await asyncio.to_thread(b.wait, my_turn)
    sound = await asyncio.to_thread(b.driver.find_element, By.ID, "sound")
    assert await asyncio.to_thread(sound.is_displayed) and not await asyncio.to_thread(sound.is_selected)
    count = len(state["entries"])
    await asyncio.to_thread(play_by_clicking, b, lambda legal: legal[0])
    state = await asyncio.to_thread(b.wait, lambda s: my_turn(s) and len(s["entries"]) == count + 2)
    landed = [",".join(map(str, e["move"]["path"][-1])) for e in state["entries"][count:]]
    assert await asyncio.to_thread(b.js, "return window.slides") == landed  # my move, then the bot's, slid in
    assert await asyncio.to_thread(b.js, "return window.sounds") == 0  # off until the reader turns it on

    await asyncio.to_thread(sound.click)
    await asyncio.to_thread(play_by_clicking, b, lambda legal: legal[0])
    await asyncio.to_thread(b.wait, lambda s: my_turn(s) and len(s["entries"]) == count + 4)
    assert await asyncio.to_thread(b.js, "return window.sounds") == 2


async def test_on_a_phone_the_header_is_one_line_and_the_opponent_is_above_the_board_and_the_player_below(served):
    chat, table, b = await bot_game(served, True, "p9", "new international level 1 time 0.05 white")
    header, board = await asyncio.to_thread(box, b, "header"), await asyncio.to_thread(box, b, "#board svg")
    assert header["height"] <= 48, header
    top, bottom = await asyncio.to_thread(box, b, "#top-player"), await asyncio.to_thread(box, b, "#bottom-player")
    assert top["top"] >= header["bottom"] and top["bottom"] <= board["top"] <= top["bottom"] + 12
    assert board["bottom"] <= bottom["top"] <= board["bottom"] + 12 and bottom["bottom"] <= 844  # all in sight
    names = await asyncio.to_thread(players, b)
    bot = (await asyncio.to_thread(b.page))["status"]["players"]["Black"]
    assert [name for name, _ in names] == [bot, "ana"] and bot != "ana"
    assert names[1][1] == "White · to move"
    assert await asyncio.to_thread(b.js, "return document.documentElement.scrollWidth <= window.innerWidth")


def engine_says(b: Browser) -> str:
    return visible_text(b, "score")


def looked_at_shown(b: Browser) -> bool:
    """Whether the engine's look at the position shown has come."""
    return bool(b.js("return lab.data !== null && positionKey(shown()) in lab.looks"))


def type_move(b: Browser, text: str) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    field = b.driver.find_element(By.ID, "move-text")
    assert field.is_displayed()
    field.send_keys(text + Keys.ENTER)


@SIZES
async def test_the_analysis_board_opens_a_games_position_and_looks_at_every_move_tried(served, phone):
    chat, table, b = await bot_game(served, phone, f"a{phone}")
    await asyncio.to_thread(play_by_clicking, b, lambda legal: legal[0])
    await asyncio.to_thread(b.wait, lambda s: my_turn(s) and len(s["entries"]) == 3)
    assert await asyncio.to_thread(visible_text, b, "board-link") == "Analysis board"
    await asyncio.to_thread(b.js, "document.getElementById('board-link').scrollIntoView()")
    await asyncio.to_thread(lambda: b.driver.find_element("id", "board-link").click())
    await asyncio.to_thread(until, b, lambda: b.js("return typeof lab !== 'undefined' && lab.data !== null")
                            and looked_at_shown(b), "the analysis board did not open with the engine's look")
    played = await asyncio.to_thread(b.js, "return [...document.querySelectorAll('#moves button.move')]"
                                           ".map((m) => m.textContent)")
    gt = game_type("english")
    assert played == [gt.write_move(p, m) for p, m in zip(table.game.positions, table.game.moves)][:2]
    assert await asyncio.to_thread(visible_text, b, "status") == "Black to move."
    said = await asyncio.to_thread(engine_says, b)
    assert said.endswith("for White") or said.startswith("A forced win"), said
    assert (await asyncio.to_thread(visible_text, b, "best-line")).startswith("Best line: ")
    assert await asyncio.to_thread(b.js, "return document.querySelectorAll('#better-arrow').length") == 1
    bar = await asyncio.to_thread(box, b, "#eval-bar")
    assert bar["width"] > 5 and bar["height"] > 200  # beside the board, as tall as it
    assert await asyncio.to_thread(b.js, "return document.documentElement.scrollWidth <= window.innerWidth")

    # a move tried: played, and looked at in turn; back a move and another tried instead: the line is replaced
    legal = await asyncio.to_thread(b.js, "return lab.data.legal.map((m) => m.text)")
    await asyncio.to_thread(type_move, b, legal[0])
    await asyncio.to_thread(until, b, lambda: b.js("return lab.data.entries.length") == 4 and looked_at_shown(b),
                            "the tried move was not played and looked at")
    await asyncio.to_thread(b.js, "document.getElementById('first').click()")  # the start: another first move
    await asyncio.to_thread(until, b, lambda: b.js("return lab.data.legalAt(shown()).length") > 1, "no moves here")
    other = next(m for m in await asyncio.to_thread(b.js, "return lab.data.legalAt(0).map((m) => m.text)")
                 if m != played[0])
    await asyncio.to_thread(type_move, b, other)
    await asyncio.to_thread(until, b, lambda: b.js("return lab.data.moves") == [other] and looked_at_shown(b),
                            "the other move did not replace the line")

    # a FEN loaded: White's two kings against a man, White's by far
    await asyncio.to_thread(b.js, "const f = document.getElementById('fen'); f.value = 'B:WK18,K22,27:B3'; "
                                  "document.getElementById('fen-form').requestSubmit()")
    await asyncio.to_thread(until, b, lambda: b.js("return lab.data.fen") == "B:WK18,K22,27:B3" and looked_at_shown(b),
                            "the FEN did not load")
    said = await asyncio.to_thread(engine_says, b)
    assert said.startswith("+") or said == "A forced win for White.", said
    chances = await asyncio.to_thread(b.js, "return lab.looks[positionKey(shown())].chances")
    await asyncio.sleep(0.5)  # (the bar's height moves in 0.3 s)
    white, bar = await asyncio.to_thread(box, b, "#eval-white"), await asyncio.to_thread(box, b, "#eval-bar")
    assert chances > 0 and abs(white["height"] / bar["height"] - (1 + chances) / 2) < 0.02  # more of it White's
    assert white["bottom"] == bar["bottom"]  # White's share from the bottom, White's side of the board
    await asyncio.to_thread(b.js, "const f = document.getElementById('fen'); f.value = 'nonsense'; "
                                  "document.getElementById('fen-form').requestSubmit()")
    await asyncio.to_thread(until, b, lambda: "not a position of this variant" in visible_text(b, "notice"), "no refusal")
    assert await asyncio.to_thread(b.js, "return lab.data.fen") == "B:WK18,K22,27:B3"  # nothing changed


async def test_a_position_set_up_by_hand_loads_on_the_analysis_board(served):
    chat, base, browser = served
    b = await browser()
    await asyncio.to_thread(b.open, base + "/analysis?variant=english")
    await asyncio.to_thread(until, b, lambda: b.js("return typeof lab !== 'undefined' && lab.data !== null"), "no board")
    await asyncio.to_thread(b.js, "document.getElementById('edit').click()")
    assert await asyncio.to_thread(visible_text, b, "setup-done") == "Done"
    await asyncio.to_thread(b.js, "document.getElementById('setup-clear').click(); "
                                  "document.querySelector('input[name=brush][value=W]').click()")
    await asyncio.to_thread(b.click_cell, [7, 0])  # a White king on 29
    await asyncio.to_thread(b.js, "document.querySelector('input[name=brush][value=b]').click()")
    await asyncio.to_thread(b.click_cell, [0, 1])  # a Black man on 1
    assert await asyncio.to_thread(b.js, "return document.querySelectorAll('#board g.piece').length") == 2
    await asyncio.to_thread(b.js, "document.getElementById('setup-turn').value = 'Black'; "
                                  "document.getElementById('setup-done').click()")
    await asyncio.to_thread(until, b, lambda: b.js("return lab.editing === null && lab.data.fen") == "B:WK29:B1",
                            "the position set up did not load")
    assert await asyncio.to_thread(b.js, "return document.getElementById('fen').value") == "B:WK29:B1"
    assert "start=B%3AWK29%3AB1" in await asyncio.to_thread(b.js, "return location.search")  # a link gives it again
    # White to move at the start, in a game Black begins: its first move numbered as records write it
    await asyncio.to_thread(b.js, "const f = document.getElementById('fen'); f.value = 'W:WK29:B1'; "
                                  "document.getElementById('fen-form').requestSubmit()")
    await asyncio.to_thread(until, b, lambda: b.js("return lab.data.fen") == "W:WK29:B1", "the FEN did not load")
    await asyncio.to_thread(type_move, b, "29-25")
    await asyncio.to_thread(until, b, lambda: b.js("return lab.data.moves.length") == 1, "the move was not played")
    assert await asyncio.to_thread(b.text, "moves") == "1. … 29-25"


async def test_stepping_through_a_long_game_keeps_the_move_shown_in_the_list_in_sight(served):
    from test_web_browser_layout import people_game

    chat, base, browser = served
    game_id = await people_game(chat, 40)
    await chat.core.start()
    b = await browser()
    await asyncio.to_thread(b.open, base + chat.pages.game_path(game_id))
    await asyncio.to_thread(b.wait, lambda s: len(s["entries"]) == 41)

    def in_sight(ply: int) -> bool:
        return b.js(f"""const list = document.getElementById('moves').getBoundingClientRect();
                       const move = document.querySelector('#moves [data-ply="{ply}"]').getBoundingClientRect();
                       return move.top >= list.top - 1 && move.bottom <= list.bottom + 1""")

    assert await asyncio.to_thread(in_sight, 40)  # following the game: the latest move
    await asyncio.to_thread(b.key, "\ue011")  # Home, then a move forward at a time: each one in sight
    for ply in (1, 2, 3):
        await asyncio.to_thread(b.key, "\ue014")
        await asyncio.to_thread(b.wait, lambda s, ply=ply: s["view"] == ply)
        assert await asyncio.to_thread(in_sight, ply), ply
    assert not await asyncio.to_thread(in_sight, 40)  # (the list is shorter than the game)
    assert await asyncio.to_thread(b.js, "return window.scrollY") == 0  # the list scrolled, not the page
