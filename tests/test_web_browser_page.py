"""What the game page shows, in a real headless Chromium (tests/test_web_browser.py has the browser and the
server), as the browser draws it: what is displayed, not what the markup says."""

from __future__ import annotations

import asyncio
import re
import socket
import time

from aiohttp.test_utils import TestServer

from bot.store import SaveFailed
from bot.replies import User
from bot.tables import LiveGame
from engine import Color
from bot.web import views
from bot.web.server import make_app
from chat import ANA, BEN
from engine.games import GAMES
from test_web_browser import Browser, my_turn, play_by_clicking, pytestmark, served  # noqa: F401 (fixture, skip)

# the seat's controls, as their buttons read
RESIGN, DRAW, TAKE_BACK, ACCEPT, DECLINE, STOP = ("Resign", "Offer a draw", "Take back", "Accept", "Decline",
                                                  "Stop the match")


def shown_controls(b: Browser) -> list[str]:
    """The seat controls that the page displays."""
    from selenium.webdriver.common.by import By

    return [e.text for e in b.driver.find_elements(By.CSS_SELECTOR, "#seat-controls button") if e.is_displayed()]


def wait_controls(b: Browser, expected: list[str], timeout: float = 15.0) -> None:
    b.wait(lambda s: shown_controls(b) == expected, timeout)


def click_control(b: Browser, text: str) -> None:
    from selenium.webdriver.common.by import By

    next(e for e in b.driver.find_elements(By.CSS_SELECTOR, "#seat-controls button")
         if e.text == text and e.is_displayed()).click()


def confirm(b: Browser) -> None:
    """Click the button that confirms Resign or Stop the match, once the page asks again."""
    from selenium.webdriver.common.by import By

    b.wait(lambda s: b.driver.find_element(By.ID, "confirm-yes").is_displayed())
    b.driver.find_element(By.ID, "confirm-yes").click()


async def test_watchers_finished_games_and_bot_matches_show_only_the_controls_that_can_be_used(served):
    chat, base, browser = served
    await chat.say(ANA, "new english level 1 time 0.05", channel="c1")
    table = chat.table("c1")
    player, watcher = await browser(), await browser()
    await asyncio.to_thread(player.open, base + chat.pages.seat_path(table.id, table.colour_of(ANA), ANA))
    await asyncio.to_thread(watcher.open, base + chat.pages.game_path(table.id))
    await asyncio.to_thread(player.wait, my_turn)
    await asyncio.to_thread(wait_controls, player, [RESIGN, DRAW])  # nothing of hers to take back yet
    await asyncio.to_thread(wait_controls, watcher, [])
    await asyncio.to_thread(play_by_clicking, player, lambda legal: legal[0])
    await asyncio.to_thread(player.wait, lambda s: my_turn(s) and len(s["entries"]) == 3)  # the bot answered
    await asyncio.to_thread(wait_controls, player, [RESIGN, DRAW, TAKE_BACK])
    await asyncio.to_thread(click_control, player, RESIGN)
    await asyncio.to_thread(confirm, player)
    await asyncio.to_thread(player.wait, lambda s: bool(s["status"]["result"]))
    await asyncio.to_thread(wait_controls, player, [])  # a finished game has none
    assert not chat.on("c1")

    await chat.say(ANA, "watch russian 1 1 delay 1", channel="c2")  # (not over before Stop is asked again)
    match = chat.table("c2")
    starter, spectator = await browser(), await browser()
    await asyncio.to_thread(starter.open, base + chat.pages.starter_path(match.id, ANA))
    await asyncio.to_thread(spectator.open, base + chat.pages.game_path(match.id))
    await asyncio.to_thread(starter.wait, lambda s: s["seat"] is not None and len(s["entries"]) >= 2)
    await asyncio.to_thread(wait_controls, starter, [STOP])
    await asyncio.to_thread(wait_controls, spectator, [])
    await asyncio.to_thread(click_control, starter, STOP)
    await asyncio.to_thread(confirm, starter)
    await asyncio.to_thread(starter.wait, lambda s: bool(s["status"]["result"]))
    await asyncio.to_thread(wait_controls, starter, [])


async def test_accept_and_decline_show_only_to_the_one_an_offer_waits_for(served):
    chat, base, browser = served
    await chat.say(ANA, "challenge @ben english black casual", channel="c3", mentions=(BEN,))
    await chat.say(BEN, "accept", channel="c3")
    table = chat.table("c3")
    ana, ben = await browser(), await browser()
    await asyncio.to_thread(ana.open, base + chat.pages.seat_path(table.id, table.colour_of(ANA), ANA))
    await asyncio.to_thread(ben.open, base + chat.pages.seat_path(table.id, table.colour_of(BEN), BEN))
    await asyncio.to_thread(wait_controls, ben, [RESIGN, DRAW])
    await asyncio.to_thread(play_by_clicking, ana, lambda legal: legal[0])  # ana (Black) moves first
    await asyncio.to_thread(wait_controls, ana, [RESIGN, DRAW, TAKE_BACK])

    await asyncio.to_thread(click_control, ana, DRAW)
    await asyncio.to_thread(wait_controls, ben, [RESIGN, ACCEPT, DECLINE])
    await asyncio.to_thread(wait_controls, ana, [RESIGN])  # her offer waits for ben, and nothing else may be asked
    await asyncio.to_thread(click_control, ben, DECLINE)
    await asyncio.to_thread(wait_controls, ben, [RESIGN, DRAW])  # declined: nothing waits any more
    await asyncio.to_thread(wait_controls, ana, [RESIGN, DRAW, TAKE_BACK])
    assert table.draw_offer is None and chat.on("c3")

    await asyncio.to_thread(click_control, ana, TAKE_BACK)
    await asyncio.to_thread(wait_controls, ben, [RESIGN, DRAW, ACCEPT, DECLINE])
    await asyncio.to_thread(click_control, ben, ACCEPT)
    await asyncio.to_thread(ana.wait, lambda s: len(s["entries"]) == 1)  # her move taken back
    await asyncio.to_thread(wait_controls, ana, [RESIGN, DRAW])
    await asyncio.to_thread(wait_controls, ben, [RESIGN, DRAW])


async def test_a_click_while_the_bot_is_away_is_said_not_sent_and_the_notice_goes_when_it_is_back(served):
    chat, _, browser = served
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = TestServer(make_app(chat.pages), host="127.0.0.1", port=port)
    await server.start_server()
    await chat.say(ANA, "new english level 1 time 0.05", channel="c4")
    table = chat.table("c4")
    player = await browser()
    await asyncio.to_thread(player.open, str(server.make_url(chat.pages.seat_path(table.id, table.colour_of(ANA), ANA))))
    state = await asyncio.to_thread(player.wait, my_turn)
    chat.pages.close()  # the bot goes away, as ./run-bot stops: its pages' sockets closed, then its server
    await server.close()
    await asyncio.to_thread(player.wait, lambda s: player.text("connection") == "reconnecting…")
    for cell in state["status"]["legal"][0]["path"]:
        await asyncio.to_thread(player.click_cell, cell)
    assert "not sent" in await asyncio.to_thread(player.text, "notice")
    server = TestServer(make_app(chat.pages), host="127.0.0.1", port=port)  # back, at the same address
    await server.start_server()
    try:
        await asyncio.to_thread(player.wait, lambda s: player.text("connection") == "live" and s["seat"] is not None)
        notice = await asyncio.to_thread(player.text, "notice")
        assert "not sent" in notice and "Not connected" not in notice and "Reconnecting" not in notice
        assert table.game.moves == []  # nothing was played behind the player's back
        await asyncio.to_thread(play_by_clicking, player, lambda legal: legal[0])  # and the page plays on
        assert await asyncio.to_thread(player.text, "notice") == ""
    finally:
        chat.pages.close()
        await server.close()


async def test_a_long_games_moves_read_one_numbered_line_a_move_pair_with_nothing_run_together(served):
    chat, base, browser = served
    game_type = GAMES["international"]
    record = game_type.new_game()
    game_id = await chat.store.create_game("g", "c5", "international", game_type.write_position(record.position),
                                           "people", {"white": {"user": [ANA.id, ANA.name]},
                                                      "black": {"user": [BEN.id, BEN.name]}},
                                           {"budget": 1.0, "rated": False})
    for ply in range(70):  # each side's middle move: captures, some long, and 35 numbered lines
        legal = record.legal_moves()
        move = legal[len(legal) // 2]
        await chat.store.add_move(game_id, ply, ply, game_type.write_move(record.position, move, full=True))
        record.play(move)
    await chat.core.start()
    watcher = await browser()
    await asyncio.to_thread(watcher.open, base + chat.pages.game_path(game_id))
    state = await asyncio.to_thread(watcher.wait, lambda s: len(s["entries"]) == 71)
    texts = [entry["move"]["text"] for entry in state["entries"][1:]]
    lines = (await asyncio.to_thread(watcher.text, "moves")).splitlines()
    assert lines == [f"{n + 1}. {texts[2 * n]} {texts[2 * n + 1]}" for n in range(35)]
    layout = await asyncio.to_thread(watcher.js, """
        const list = document.getElementById('moves');
        const boxes = [...list.querySelectorAll('li > *')].map((e) => {
          const r = e.getBoundingClientRect(); return [r.left, r.right, r.top, r.bottom, e.textContent]; });
        return {overflow: list.scrollWidth - list.clientWidth, boxes};""")
    assert layout["overflow"] <= 0  # no sideways scrolling, no column cut off
    boxes = layout["boxes"]
    for i, a in enumerate(boxes):  # no two pieces of text overlap or touch
        for b in boxes[i + 1:]:
            apart = a[1] + 2 <= b[0] or b[1] + 2 <= a[0] or a[3] <= b[2] or b[3] <= a[2]
            assert apart, (a, b)
    assert all(re.fullmatch(r"\d+\.", box[4]) for box in boxes[::3])


def until(b: Browser, script: str, timeout: float = 15.0) -> None:
    """Wait until ``script`` returns something true in the page."""
    deadline = time.monotonic() + timeout
    while not b.js(script):
        assert time.monotonic() < deadline, f"the page never got to: {script}"
        time.sleep(0.05)


async def test_the_front_page_says_why_a_game_did_not_start_when_the_answer_is_not_json(served):
    chat, base, browser = served
    b = await browser()
    await asyncio.to_thread(b.open, base + "/")
    await asyncio.to_thread(until, b, "return document.querySelector('#play select.variants').options.length > 0")
    start = chat.pages.start

    async def down(*args):  # the database stops answering: the server says so in plain words, not JSON
        raise SaveFailed("the database is down")
    chat.pages.start = down
    try:
        await asyncio.to_thread(b.js, "document.querySelector('#play button[type=submit]').click()")
        await asyncio.to_thread(until, b, "return document.getElementById('error').textContent.length > 0")
        shown = await asyncio.to_thread(b.js, "return document.getElementById('error').innerText")
        assert "database is not answering" in shown
    finally:
        chat.pages.start = start


def _same_order(entry: dict) -> dict:
    return {**entry, "pieces": sorted(entry["pieces"])}


async def test_moves_sent_alone_make_the_same_positions_on_the_page_as_the_game_whole(served):
    """A move reaches a page alone (``views.moved``), and the page makes the position after it: followed through a
    bot match of every game, the page's positions, moves and turns are the server's, captures and crowned men too."""
    chat, base, browser = served
    b = await browser()
    captures = crowned = 0
    for n, variant in enumerate(sorted(GAMES)):
        await chat.say(ANA, f"watch {variant} 1 1 delay 0.05 time 0.05", channel=f"m{n}")
        match = chat.table(f"m{n}")
        await asyncio.to_thread(b.open, base + chat.pages.game_path(match.id))
        opened = await asyncio.to_thread(b.wait, lambda s: True)
        state = await asyncio.to_thread(b.wait, lambda s: len(s["entries"]) > 60 or bool(s["status"]["result"]), 60)
        assert len(state["entries"]) > len(opened["entries"]) + 10, variant  # moves that came one by one
        found = await chat.pages.find(match.id)
        record = found.game if isinstance(found, LiveGame) else found.record
        expected = [views.entry(record, ply) for ply in range(len(state["entries"]))]
        assert [_same_order(e) for e in state["entries"]] == [_same_order(e) for e in expected], variant
        if not state["status"]["result"]:
            status = state["status"]
            assert status["turn"] == expected[-1]["turn"] and status["ply"] == len(expected) - 1, variant
            assert status["to_move"] == status["players"][status["turn"]] and status["said"], variant
            await chat.say(ANA, "stop", channel=f"m{n}")
        for before, after in zip(expected, expected[1:]):
            path = after["move"]["path"]
            captures += bool(after["move"]["captured"])
            crowned += ({tuple(p[:2]): p[2] for p in before["pieces"]}[tuple(path[0])]
                        != {tuple(p[:2]): p[2] for p in after["pieces"]}[tuple(path[-1])])
    assert captures and crowned  # (what the page makes itself was tried)


async def test_a_timed_games_clocks_tick_on_the_page_turn_red_and_its_loss_on_time_shows_there(served):
    import time as clock

    chat, base, browser = served
    chat.core.state.clock = clock.time  # this game's clocks run on the real time
    b = await browser()  # (started before the game: Ana's clock runs from its start)
    await chat.say(ANA, "challenge @ben english black 0.25+0", mentions=(BEN,))
    await chat.say(BEN, "accept")
    table = chat.table()
    await asyncio.to_thread(b.open, base + chat.pages.seat_path(table.id, table.colour_of(ANA), ANA))
    await asyncio.to_thread(play_by_clicking, b, lambda legal: legal[0])  # Ana moves,
    await chat.play_any(BEN)  # Ben too (a side that never moved and runs out aborts the game),
    await asyncio.to_thread(play_by_clicking, b, lambda legal: legal[0])  # and Ana again: Ben's clock runs

    def shown_clock(colour: str) -> tuple[str, str, str]:
        from selenium.webdriver.common.by import By

        el = b.driver.find_element(By.CSS_SELECTOR, f'.player .clock[data-colour="{colour}"]')
        return el.text, el.get_attribute("class"), el.value_of_css_property("background-color")

    first, black = await asyncio.to_thread(shown_clock, "White"), await asyncio.to_thread(shown_clock, "Black")
    await asyncio.sleep(1.2)
    later, classes, _ = await asyncio.to_thread(shown_clock, "White")
    assert later < first[0] and "running" in classes  # Ben's clock ticks ("0:13" after "0:14")
    assert await asyncio.to_thread(shown_clock, "Black") == black and "running" not in black[1]  # Ana's stands
    await asyncio.sleep(5)
    text, classes, colour = await asyncio.to_thread(shown_clock, "White")
    assert text.startswith("0:0") and "low" in classes and colour == "rgba(192, 57, 43, 1)"  # red under ten seconds
    state = await asyncio.to_thread(b.wait, lambda s: bool(s["status"]["result"]), 20)
    assert "ran out of time" in state["status"]["headline"]
    assert "ran out of time" in await asyncio.to_thread(b.text, "connection")


async def test_a_finished_game_offers_a_new_game_and_its_player_a_rematch_colours_swapped(served):
    chat, base, browser = served
    guest = User("web:guest", "ana")  # a game started on the page (a chat's game is played again in its chat)
    game, _ = await chat.pages.start(guest, "new english level 1 black 5+3")
    assert game is not None
    table = await chat.pages.find(game)
    player, watcher = await browser(), await browser()
    await asyncio.to_thread(player.open, base + chat.pages.seat_path(table.id, Color.BLACK, guest))
    await asyncio.to_thread(watcher.open, base + chat.pages.game_path(table.id))
    await asyncio.to_thread(play_by_clicking, player, lambda legal: legal[0])
    await asyncio.to_thread(player.wait, my_turn)
    assert not await asyncio.to_thread(shown, player, "after-game")  # (while the game is on)
    await asyncio.to_thread(click_control, player, RESIGN)
    await asyncio.to_thread(confirm, player)
    await asyncio.to_thread(player.wait, lambda s: bool(s["status"]["result"]))
    await asyncio.to_thread(watcher.wait, lambda s: bool(s["status"]["result"]))
    assert await asyncio.to_thread(shown, watcher, "new-game") and not await asyncio.to_thread(shown, watcher, "rematch")
    assert await asyncio.to_thread(shown, player, "rematch")
    await asyncio.to_thread(lambda: player.driver.find_element("id", "rematch").click())
    state = await asyncio.to_thread(player.wait, lambda s: s["seat"] is not None and len(s["entries"]) >= 1
                                    and s["status"]["control"] == "5+3" and not s["status"]["result"])
    assert state["seat"]["colour"] == "White" and state["status"]["players"]["White"] == "ana"  # colours swapped
    assert int(player.driver.current_url.split("/g/")[1].split("-")[0]) != table.id  # a new game's page


def shown(b: Browser, element_id: str) -> bool:
    return b.driver.find_element("id", element_id).is_displayed()


async def test_my_games_shows_the_games_started_on_this_browser_and_not_anothers(served):
    chat, base, browser = served
    mine, other = await browser(), await browser()
    for b in (mine, other):
        await asyncio.to_thread(b.open, base + "/me")
        await asyncio.to_thread(b.wait_text, "my-live", "No game on.")
    await asyncio.to_thread(mine.open, base + "/")
    url = await asyncio.to_thread(mine.js, (
        "return fetch('/api/new', {method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify("
        "{kind: 'bot', variant: 'english', level: 1, colour: 'black', control: '3+2', name: 'Zoë'})})"
        ".then(r => r.json()).then(d => d.url)"))
    await asyncio.to_thread(mine.open, base + "/me")
    shown = await asyncio.to_thread(mine.wait_text, "my-live", "3+2 (blitz): Bot level 1 (White) vs Zoë (Black)")
    game = url.split("/g/")[1].split("-")[0]
    assert shown.startswith(f"#{game} English") and url.split("#")[0] in await asyncio.to_thread(
        mine.js, "return document.querySelector('#my-live a').href")
    await asyncio.to_thread(other.open, base + "/me")
    assert await asyncio.to_thread(other.wait_text, "my-live", "No game on.")
    await chat.core.settle()


async def test_a_chat_players_page_shows_their_name_games_and_ratings(served):
    chat, base, browser = served
    await chat.say(ANA, "challenge @ben english black blitz", mentions=(BEN,))
    await chat.say(BEN, "accept")
    await chat.play_any(ANA)
    await chat.say(BEN, "resign")
    b = await browser()
    await asyncio.to_thread(b.open, base + f"/p/{chat.pages.keys.player_ref('g', ANA.id)}")
    games = await asyncio.to_thread(b.wait_text, "my-games", "Black wins (ben resigned).")
    assert "3+2 (blitz): ben (White) vs ana (Black)" in games
    assert await asyncio.to_thread(b.wait_text, "my-ratings", "English, blitz: ")
    assert not await asyncio.to_thread(shown, b, "on-card")  # (games on, maybe in private channels: not here)
    assert await asyncio.to_thread(lambda: b.driver.find_element("css selector", "h1").text) == "ana's games"


async def test_a_tournaments_page_shows_its_standings_and_its_games_and_follows_them(served):
    from selenium.webdriver.common.by import By

    chat, base, browser = served
    await chat.say(ANA, "tournament swiss english 3+2 2 rounds casual", manager=True, channel="c9")
    for person in (ANA, BEN):
        await chat.say(person, "tournament join", channel="c9")
    await chat.say(ANA, "tournament start", manager=True, channel="c9")
    [t] = chat.core.state.tournaments.values()
    b = await browser()
    await asyncio.to_thread(b.open, base + f"/t/{chat.pages.keys.tournament_ref(t.id)}")
    await asyncio.to_thread(b.wait_text, "title", "English Swiss of 2 rounds")
    on = await asyncio.to_thread(b.wait_text, "on", "Round 1, board 1:")
    assert "ana" in on and "ben" in on
    heads = await asyncio.to_thread(lambda: [h.text for h in b.driver.find_elements(By.CSS_SELECTOR, "#standings th")
                                             if h.is_displayed()])
    assert heads == ["#", "Player", "Points", "Buchholz", "Sonneborn-Berger"]  # a Swiss event's; not an arena's
    rows = await asyncio.to_thread(lambda: [r.text for r in b.driver.find_elements(By.CSS_SELECTOR, "#standings tbody tr")])
    assert len(rows) == 2 and all(r.split()[-3] == "0" for r in rows)
    game = next(table for table in chat.core.state.tables.values() if table.tournament)
    await chat.say(game.to_move.user, "resign", channel="c9")
    done = await asyncio.to_thread(b.wait_text, "done", "Round 1, board 1:", 20.0)  # the page looks again itself
    assert done.endswith(("1-0", "0-1"))
    assert await asyncio.to_thread(b.wait_text, "on", "No game on.", 20.0)
    await chat.core.settle()
