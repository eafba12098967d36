"""The web page's server and its WebSocket, against a real bot core and search process (no browser here)."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator

import pytest
import pytest_asyncio
from aiohttp import WSMsgType
from aiohttp.test_utils import TestClient, TestServer

from bot.config import Config
from bot.core import Core
from bot.store import SqliteStore, open_store
from bot.web import views
from bot.page_guilds import CHANNEL_PREFIX
from bot.web.pages import OUT_OF_DATE, Pages
from bot.web.seats import SeatKeys, load_key
from bot.web.server import make_app
from bot.web.websocket import MESSAGE_LIMIT
from chat import ANA, BEN, CONFIG, EVE, Chat
from engine import Color
from engine.games import GAMES


class WebChat(Chat):
    """A chat whose core's replies pass through a web pages, as ``./run-bot`` wires them."""

    def __init__(self, store: Store, pool, config: Config = CONFIG):
        super().__init__(store, pool, config)
        self.pages = Pages(SeatKeys(b"k" * 32), "http://bot.example", self.core, local_chat=True)
        self.core.connect(self.pages.send_for(self._send))


@contextlib.asynccontextmanager
async def web_site(pool, config: Config = CONFIG) -> AsyncIterator[tuple[WebChat, TestClient]]:
    """A chat whose core serves the web page, and a client of that page; closed again at the end."""
    chat = WebChat(SqliteStore(":memory:"), pool, config)
    client = TestClient(TestServer(make_app(chat.pages)))
    await client.start_server()
    try:
        yield chat, client
    finally:
        chat.pages.close()
        await client.close()
        await chat.core.close()


@pytest_asyncio.fixture(loop_scope="session")
async def site(pool):
    async with web_site(pool) as served:
        yield served


async def receive(ws, kind: str, timeout: float = 10.0) -> dict:
    """The next message of type ``kind`` from the page's socket (others are skipped)."""
    async with asyncio.timeout(timeout):
        while True:
            message = await ws.receive()
            assert message.type == WSMsgType.TEXT, message
            data = json.loads(message.data)
            if data["type"] == kind:
                return data


async def whole(ws) -> dict:
    """The game whole, as the page asks for it again (after a gap in its updates' versions)."""
    await ws.send_json({"type": "state"})
    return await receive(ws, "game")


def socket_path(chat: WebChat, game: int) -> str:
    return chat.pages.game_path(game).replace("/g/", "/ws/")


def seat_secret(chat: WebChat, user=ANA, channel: str = "c1") -> str:
    table = chat.table(channel)
    colour = table.colour_of(user)
    return chat.pages.seat_path(table.id, colour, user).split("#seat=")[1]


async def open_page(chat: WebChat, client: TestClient, seated: bool = False):
    """A page on the game in "c1", seated with ana's link if ``seated``: (its socket, the game it was first sent,
    with the seat the server gave it under "seat")."""
    ws = await client.ws_connect(socket_path(chat, chat.table().id))
    game = await receive(ws, "game")
    if seated:
        await ws.send_json({"type": "seat", "secret": seat_secret(chat)})
        game["seat"] = await receive(ws, "seat")
    return ws, game


async def test_a_page_follows_a_game_played_in_chat_move_by_move(site):
    chat, client = site
    await chat.say(ANA, "new english level 1 time 0.05")
    ws, first = await open_page(chat, client, seated=True)
    assert first["board"]["size"] == 8 and len(first["entries"]) == 1
    assert len(first["entries"][0]["pieces"]) == 24
    assert first["status"]["players"] == {"White": str(chat.table().seats[Color.WHITE].name), "Black": "ana"}
    played = await chat.play_any(ANA)
    update = await receive(ws, "moved")  # the move alone: the page makes the position after it
    assert update["v"] == first["v"] + 1 and update["move"]["path"]
    assert played.split("-")[0] in update["move"]["text"]
    reply = await receive(ws, "moved")  # the bot's answer arrives by itself
    assert reply["v"] == first["v"] + 2 and reply["said"].startswith("I played")
    assert reply["legal"]  # (to the page seated as the side to move)
    again = await whole(ws)
    assert len(again["entries"]) == 3 and again["status"]["turn"] == "Black" and again["status"]["legal"]
    assert again["entries"][1]["move"]["path"] == update["move"]["path"]
    await ws.close()


async def test_a_move_is_sent_whole_only_to_the_page_of_the_player_to_move(site):
    chat, client = site
    await chat.say(ANA, "new english level 1 time 0.05")
    seated, _ = await open_page(chat, client, seated=True)
    watching, _ = await open_page(chat, client)
    await chat.play_any(ANA)
    mine, theirs = await receive(seated, "moved"), await receive(watching, "moved")
    assert "legal" not in mine and "legal" not in theirs  # the bot is to move
    mine, theirs = await receive(seated, "moved"), await receive(watching, "moved")
    assert mine["legal"] and "legal" not in theirs and {**mine, "legal": None} == {**theirs, "legal": None}
    await seated.close()
    watching, _ = await open_page(chat, client)
    await watching.send_json({"type": "seat", "secret": seat_secret(chat)})
    assert (await receive(watching, "seat"))["legal"] == (await whole(watching))["status"]["legal"] != []
    await watching.close()


async def test_a_seat_link_moves_for_its_player_and_the_chat_shows_the_move(site):
    chat, client = site
    await chat.say(ANA, "new english level 1 time 0.05")
    table = chat.table()
    ws, game = await open_page(chat, client, seated=True)
    assert game["seat"]["colour"] == "Black"
    move = game["status"]["legal"][0]
    await ws.send_json({"type": "move", "text": move["text"], "ply": 0})
    update = await receive(ws, "moved")
    assert update["move"]["path"] == move["path"]
    assert len(table.game.moves) >= 1
    said = [r for r in chat.replies if r.text.startswith("ana played")]
    assert said and said[0].board is not None and not said[0].private  # the chat saw the move made on the page
    await ws.close()


async def test_a_page_without_the_seat_secret_cannot_move(site):
    chat, client = site
    await chat.say(ANA, "new english level 1 time 0.05")
    table = chat.table()
    ws, game = await open_page(chat, client)
    text = game["status"]["legal"][0]["text"]
    await ws.send_json({"type": "move", "text": text, "ply": 0})
    assert "only watches" in (await receive(ws, "notice"))["text"]
    await ws.send_json({"type": "seat", "secret": seat_secret(chat)[:-2] + "xx"})
    assert "not for this game" in (await receive(ws, "notice"))["text"]
    # another game's seat secret does not open this one
    await chat.say(BEN, "new russian level 1 time 0.05", channel="c2")
    await ws.send_json({"type": "seat", "secret": seat_secret(chat, BEN, "c2")})
    assert "not for this game" in (await receive(ws, "notice"))["text"]
    await ws.send_json({"type": "move", "text": text, "ply": 0})
    await receive(ws, "notice")
    assert table.game.moves == []
    await ws.close()


async def test_bad_moves_from_a_page_are_answered_on_that_page_and_change_nothing(site):
    chat, client = site
    await chat.say(ANA, "new english level 1 time 0.05")
    table = chat.table()
    ws, _ = await open_page(chat, client, seated=True)
    before = len(chat.replies)
    await ws.send_json({"type": "move", "text": "11-19", "ply": 0})
    notice = await receive(ws, "notice")
    assert "Legal moves" in notice["text"]
    await ws.send_json({"type": "move", "text": "9-13", "ply": 3})
    assert (await receive(ws, "notice"))["text"] == OUT_OF_DATE
    await ws.send_json({"type": "dance"})
    assert "not one the page sends" in (await receive(ws, "notice"))["text"]
    await ws.send_str("{not json")
    assert "not readable" in (await receive(ws, "notice"))["text"]
    assert table.game.moves == [] and len(chat.replies) == before  # nothing reached the chat, nothing changed
    await ws.close()


async def test_sockets_from_other_sites_oversized_messages_and_floods_are_refused(site):
    chat, client = site
    await chat.say(ANA, "new english level 1 time 0.05")
    game_id = chat.table().id
    response = await client.get(socket_path(chat, game_id), headers={
        "Origin": "http://evil.example", "Connection": "Upgrade", "Upgrade": "websocket",
        "Sec-WebSocket-Version": "13", "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ=="})
    assert response.status == 403
    ws, _ = await open_page(chat, client)
    await ws.send_str("x" * (MESSAGE_LIMIT + 1))
    closed = await ws.receive()
    assert closed.type in (WSMsgType.CLOSE, WSMsgType.CLOSED, WSMsgType.CLOSING) and ws.close_code == 1009
    flood, _ = await open_page(chat, client)
    for _ in range(120):
        await flood.send_json({"type": "seat", "secret": "guess"})
    notices = []
    async with asyncio.timeout(10):
        while (message := await flood.receive()).type == WSMsgType.TEXT:
            notices.append(json.loads(message.data)["text"])
    assert flood.close_code == 1008
    assert sum("Slow down" in text for text in notices) == 1
    assert chat.table().game.moves == []


async def test_a_game_started_on_the_page_stays_off_the_chat_and_is_played_from_the_link(site):
    chat, client = site
    response = await client.post("/api/new", json={"kind": "bot", "variant": "international", "level": 1,
                                                    "colour": "white", "time": 0.05, "name": "Zoë"})
    data = await response.json()
    assert response.status == 200, data
    path, secret = data["url"].split("#seat=")
    ws = await client.ws_connect(path.replace("/g/", "/ws/"))
    game = await receive(ws, "game")
    assert game["board"]["size"] == 10 and game["status"]["players"]["White"] == "Zoë"
    await ws.send_json({"type": "seat", "secret": secret})
    await receive(ws, "seat")
    await ws.send_json({"type": "move", "text": game["status"]["legal"][0]["text"], "ply": 0})
    assert (await receive(ws, "moved"))["v"] == game["v"] + 1
    assert (await receive(ws, "moved"))["said"].startswith("I played")
    assert not [r for r in chat.replies if r.channel.startswith(CHANNEL_PREFIX)]  # the chat heard nothing of it
    refused = await client.post("/api/new", json={"kind": "bot", "variant": "chess"})
    assert refused.status == 400 and "no game" in (await refused.json())["error"]
    cross = await client.post("/api/new", json={"kind": "bot", "variant": "english"},
                              headers={"Origin": "http://evil.example"})
    assert cross.status == 403
    await ws.close()


async def test_a_finished_game_is_replayed_whole_with_its_record(site):
    chat, client = site
    await chat.say(ANA, "new english level 1 time 0.05")
    game_id = chat.table().id
    await chat.play_any(ANA)
    await chat.core.settle()
    ws, _ = await open_page(chat, client, seated=True)
    await ws.send_json({"type": "command", "name": "resign"})
    end = await receive(ws, "update")
    assert "wins" in end["status"]["result"] and not chat.on("c1")
    later = await client.ws_connect(socket_path(chat, game_id))
    replay = await receive(later, "game")
    assert len(replay["entries"]) == 3 and replay["status"]["result"] == end["status"]["result"]
    pdn = await (await client.get(chat.pages.game_path(game_id) + ".pdn")).text()
    assert '[Black "ana"]' in pdn and '[Result "1-0"]' in pdn
    gif = await client.get(chat.pages.game_path(game_id) + ".gif")
    assert gif.status == 200 and (await gif.read()).startswith(b"GIF8")
    assert (await client.get("/g/999")).status == 404
    assert (await client.get(chat.pages.game_path(999))).status == 404
    await ws.close()
    await later.close()


async def test_a_takeback_rewinds_every_page(site):
    chat, client = site
    await chat.say(ANA, "new english level 1 time 0.05")
    ws, _ = await open_page(chat, client)
    await chat.play_any(ANA)
    await chat.core.settle()
    await receive(ws, "moved")
    await receive(ws, "moved")
    await chat.say(ANA, "takeback")
    rewound = await receive(ws, "update")
    assert rewound["from"] == 1 and rewound["entries"] == [] and rewound["status"]["ply"] == 0
    await ws.close()


async def test_a_page_needs_its_watching_key_and_this_servers_name(site):
    chat, client = site
    await chat.say(ANA, "new english level 1 time 0.05")
    game_id = chat.table().id
    path = chat.pages.game_path(game_id)
    page = await client.get(path)
    assert page.status == 200 and "default-src 'self'" in page.headers["Content-Security-Policy"]
    assert (await client.get(f"/g/{game_id}-{'A' * 12}")).status == 404  # ids count up; keys cannot be guessed
    assert (await client.get(path.replace("/g/", "/ws/")[:-1] + "x")).status == 404
    key = path.split("-", 1)[1]
    arabic = str(game_id).translate(str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩"))
    assert chat.pages.game_of(f"{arabic}-{key}") is None  # numbers are read one way: ASCII digits
    assert chat.pages.game_of(f"{game_id}-{key}") == game_id
    assert (await client.get(path, headers={"Host": "rebound.example"})).status == 421
    listed = (await (await client.get("/api/games")).json())["games"]
    assert [g["path"] for g in listed] == [path]  # this chat is local: its games are listed


async def test_new_games_from_the_page_are_limited_per_address(site):
    chat, client = site
    statuses = []
    for _ in range(8):
        client.session.cookie_jar.clear()  # a new guest each time: the limit is the address's, not the cookie's
        response = await client.post("/api/new", json={"kind": "bot", "variant": "english", "level": 1,
                                                        "colour": "black", "time": 0.05})
        statuses.append(response.status)
    assert statuses == [200] * 6 + [429] * 2
    await chat.core.settle()


async def test_a_bot_match_started_on_the_page_is_stopped_from_its_starters_link(site):
    chat, client = site
    response = await client.post("/api/new", json={"kind": "match", "variant": "russian", "levels": [1, 2],
                                                    "delay": 0.2})
    data = await response.json()
    path, secret = data["url"].split("#seat=")
    ws = await client.ws_connect(path.replace("/g/", "/ws/"))
    game = await receive(ws, "game")
    assert game["status"]["kind"] == "match" and not game["status"]["legal"]
    await ws.send_json({"type": "seat", "secret": secret})
    assert (await receive(ws, "seat"))["starter"] is True
    await ws.send_json({"type": "command", "name": "resign"})  # a starter is no player
    assert "only watches" in (await receive(ws, "notice"))["text"]
    await ws.send_json({"type": "command", "name": "stop"})
    while not (await receive(ws, "update"))["status"]["result"]:
        pass
    assert await chat.pages.web_games() == 0
    await ws.close()


async def test_a_finished_game_is_still_there_after_a_restart(site, pool):
    chat, client = site
    await chat.say(ANA, "new english level 1 time 0.05")
    game_id = chat.table().id
    await chat.play_any(ANA)
    await chat.core.settle()
    live = await client.ws_connect(socket_path(chat, game_id))
    await receive(live, "game")
    await chat.say(ANA, "resign")
    while not (ended := await receive(live, "update"))["status"]["result"]:
        pass
    await live.close()
    restarted = WebChat(chat.store, pool)  # a new process on the same database: nothing in memory
    later = TestClient(TestServer(make_app(restarted.pages)))
    await later.start_server()
    try:
        ws = await later.ws_connect(socket_path(restarted, game_id))
        replay = await receive(ws, "game")
        assert len(replay["entries"]) == 3 and replay["status"]["headline"] == "White wins (ana resigned)."
        for key in ("headline", "winner", "drawn"):  # the same, read live or from the database
            assert replay["status"][key] == ended["status"][key], key
        assert replay["status"]["result"].endswith("(White) wins: ana resigned.")  # the chat's words, from the database
        assert '[Result "1-0"]' in await (await later.get(restarted.pages.game_path(game_id) + ".pdn")).text()
        await ws.close()
    finally:
        await later.close()
        await restarted.core.close()


def test_every_game_has_a_board_for_the_page():
    for game_type in GAMES.values():
        board = views.layout(game_type)
        record = game_type.new_game()
        move = record.legal_moves()[0]
        record.play(move)
        entry = views.entry(record, 1)
        assert entry["move"]["path"][0] == list(game_type.cell(move.start))
        cells = {(r, c) for r, c, _ in entry["pieces"]}
        assert all(0 <= r < board["size"] and 0 <= c < board["size"] for r, c in cells)
    assert set(views.themes()) == {"wood", "contrast"}


def test_a_capture_shows_what_it_took():
    game_type = GAMES["english"]
    record = game_type.new_game("B:W18:B14")
    record.play(record.legal_moves()[0])
    entry = views.entry(record, 1)
    assert entry["move"]["captured"] == [[*game_type.cell(18), "w"]]
    assert entry["move"]["path"] == [list(game_type.cell(14)), list(game_type.cell(23))]


def test_seat_secrets_depend_on_game_colour_and_player():
    keys = SeatKeys(b"a" * 32)
    secret = keys.secret(5, Color.WHITE, "1")
    assert keys.check(5, Color.WHITE, "1", secret)
    assert not keys.check(6, Color.WHITE, "1", secret)
    assert not keys.check(5, Color.BLACK, "1", secret)
    assert not keys.check(5, Color.WHITE, "2", secret)
    assert not keys.check(5, Color.WHITE, "1", "ünïcode")  # any text is refused, not an error
    assert keys.check_watch(5, keys.watch_key(5)) and not keys.check_watch(6, keys.watch_key(5))


async def test_the_seat_links_key_is_made_once_and_kept_in_the_database(tmp_path):
    database = str(tmp_path / "bot.sqlite3")
    store = await open_store(database)
    first = await load_key(store, database)
    await store.close()
    store = await open_store(database)  # a restart: the links given before still work
    try:
        assert await load_key(store, database) == first and len(first) == 32
        assert await load_key(store, database, "configured") != first  # BOT_WEB_SECRET overrides it
        assert not list(tmp_path.glob("*.web-key"))  # nothing beside the database any more
    finally:
        await store.close()


async def test_an_older_bots_key_file_is_taken_into_the_database_so_its_seat_links_keep_working(tmp_path):
    database = str(tmp_path / "bot.sqlite3")
    (tmp_path / "bot.sqlite3.web-key").write_bytes(b"o" * 32)  # what the bot kept before the key moved
    store = await open_store(database)
    try:
        assert await load_key(store, database) == b"o" * 32
    finally:
        await store.close()


def test_run_bot_serves_the_page_beside_the_terminal_chat(tmp_path):
    """What ``./run-bot`` starts: the terminal chat prints the page's address and a game's links, and the page
    answers there while the chat runs."""
    import os
    import socket
    import subprocess
    import sys
    import urllib.request

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {**os.environ, "BOT_WEB": "true", "BOT_WEB_PORT": str(port), "BOT_DATABASE": str(tmp_path / "bot.sqlite3"),
           "BOT_WORKERS": "1", "BOT_IMAGE_DIR": str(tmp_path / "boards")}
    env.pop("DISCORD_TOKEN", None)
    bot = subprocess.Popen([sys.executable, "-m", "bot", "--terminal"], cwd=tmp_path, env=env, text=True,
                           stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        assert bot.stdin is not None and bot.stdout is not None
        bot.stdin.write("new english level 1 time 0.05\n")
        bot.stdin.flush()
        lines = []
        while not any(line.startswith("Seat link for you (Black)") for line in lines):
            line = bot.stdout.readline()
            assert line, "the bot ended before it gave the game's links:\n" + "".join(lines)
            lines.append(line)
        assert f"Web page: http://127.0.0.1:{port}/" in "".join(lines)
        watch = next(line for line in lines if line.startswith("Watch live:")).split()[-1]
        with urllib.request.urlopen(watch, timeout=10) as page:
            assert page.status == 200 and b"game.js" in page.read()
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/games", timeout=10) as listing:
            assert b"English" in listing.read()
    finally:
        bot.stdin.close()
        bot.wait(timeout=60)


async def test_a_games_events_read_back_from_json_and_rebuild_the_game_as_the_core_has_it(pool):
    """What a game's followers are told (it started, moves, an offer declined, a takeback, the end) reads back the
    same from JSON, as another process gets it (a move's words, which it does not carry, made again there the same,
    a bot's with its evaluation too); the versions follow one another, and the events, applied in order, make the
    game as the core has it after each one."""
    from bot.events import Ended, applied, event_from_json

    chat = Chat(SqliteStore(":memory:"), pool)
    told = []
    chat.core.follow(lambda event: told.append((event, chat.core.live("c1"))))
    await chat.say(ANA, "challenge @ben english casual", mentions=(BEN,))
    await chat.say(BEN, "accept")
    for _ in range(3):
        await chat.play_any(chat.table().to_move.user)
    await chat.say(chat.table().to_move.user, "draw")
    await chat.say(chat.table().to_move.user, "decline")
    mover = chat.table().seats[chat.table().game.turn.opponent].user  # the player who moved last
    await chat.say(mover, "takeback")
    await chat.say(chat.table().to_move.user, "accept")
    await chat.say(ANA, "resign")
    assert [type(event).__name__ for event, _ in told] == [
        "Started", "Moved", "Moved", "Moved", "Offered", "Answered", "Offered", "TakenBack", "Ended"]
    assert [event.version for event, _ in told] == list(range(1, len(told) + 1))
    people = len(told)
    await chat.say(ANA, "new english level 1 time 0.05")
    await chat.play_any(ANA)
    await chat.core.settle()
    assert [type(event).__name__ for event, _ in told[people:]] == ["Started", "Moved", "Moved"]
    assert str(told[-1][0].said).startswith("I played") and "evaluation" in str(told[-1][0].said)
    known = None
    for event, live in told:
        back, after = applied(event_from_json(json.loads(json.dumps(event.to_json())), known), known)
        assert (type(back), back.game, back.version, str(back.said)) == (type(event), event.game, event.version,
                                                                         str(event.said))
        if isinstance(back, Ended):
            assert live is None and back.ending == event.ending and back.pdn == event.pdn
            assert "Result" in back.pdn
            continue
        known = after
        assert known is not None and live is not None and known.game.moves == live.game.moves and known.told == live.told == event.version
        assert (known.draw_offer, known.takeback_offer, known.evaluation, known.seats) == (
            live.draw_offer, live.takeback_offer, live.evaluation, live.seats)
    await chat.core.close()


def test_behind_a_trusted_proxy_each_visitor_is_counted_by_their_own_address(pool):
    from aiohttp.test_utils import make_mocked_request

    from bot.web.site import client

    core = Core(CONFIG, SqliteStore(":memory:"), pool)
    app = make_app(Pages(SeatKeys(b"k" * 32), "http://bot.example", core), proxies=frozenset({"10.0.0.2", "10.0.0.3"}))

    def address(remote: str, forwarded: str | None) -> str:
        headers = {"X-Forwarded-For": forwarded} if forwarded is not None else {}
        return client(make_mocked_request("POST", "/api/new", headers=headers, app=app).clone(remote=remote))

    assert address("10.0.0.2", "203.0.113.7") == "203.0.113.7"
    assert address("10.0.0.2", "198.51.100.1, 203.0.113.7, 10.0.0.3") == "203.0.113.7"  # the first hop is the client's
    assert address("10.0.0.2", None) == "10.0.0.2"
    assert address("192.0.2.9", "203.0.113.7") == "192.0.2.9"  # anyone else's header is not believed


def test_the_pages_colour_menu_names_every_theme_the_boards_have():
    """The menu's names are marked in the page's script (so pybabel finds them); each theme of the images has one."""
    import re
    from pathlib import Path

    from renders.themes import THEMES

    script = (Path(__file__).resolve().parent.parent / "bot/web/static/board.js").read_text()
    [names] = re.findall(r"const THEME_NAMES = \{(.*?)\};", script)
    assert set(re.findall(r"(\w+): \(\) => tr\(", names)) == set(THEMES)


async def test_a_game_from_the_page_may_have_a_clock_and_its_page_is_sent_both(site):
    chat, client = site
    response = await client.post("/api/new", json={"kind": "bot", "variant": "english", "level": 1,
                                                    "colour": "black", "control": "3+2", "name": "Zoë"})
    data = await response.json()
    assert response.status == 200, data
    ws = await client.ws_connect(data["url"].split("#")[0].replace("/g/", "/ws/"))
    game = await receive(ws, "game")
    assert game["status"]["control"] == "3+2" and game["status"]["clocks"] == {"White": 180, "Black": 180}
    assert game["status"]["seconds"] is None  # (against a clock the bot plays by its clock)
    refused = await client.post("/api/new", json={"kind": "bot", "variant": "english", "control": "1 day"})
    assert refused.status == 400 and "3+2" in (await refused.json())["error"]  # the page's clocks only
    page = await (await client.get("/")).text()
    assert '<option value="3+2">3+2 (blitz)</option>' in page and '<option value="untimed">untimed</option>' in page
    await ws.close()


async def test_a_rematch_from_the_page_needs_the_players_seat_and_one_of_the_pages_games_against_the_bot(site):
    chat, client = site
    await chat.say(ANA, "new english level 1 black 3+2 rated")  # a chat's game: played again in its chat
    chat_game, chat_secret = chat.table().id, seat_secret(chat)
    await chat.say(ANA, "resign")
    chat_ref = chat.pages.game_path(chat_game).split("/g/")[1]
    assert (await client.post(f"/api/rematch/{chat_ref}", json={"seat": chat_secret})).status == 403

    started = await client.post("/api/new", json={"kind": "bot", "variant": "english", "level": 1,
                                                   "colour": "black", "control": "3+2", "name": "Zoë"})
    path, secret = (await started.json())["url"].split("#seat=")
    ws = await client.ws_connect(path.replace("/g/", "/ws/"))
    await receive(ws, "game")
    await ws.send_json({"type": "seat", "secret": secret})
    assert (await receive(ws, "seat"))["rematch"] is True  # (so the page offers it once the game is over)
    await ws.send_json({"type": "command", "name": "resign"})
    while not (await receive(ws, "update"))["status"]["result"]:
        pass
    ref = path.split("/g/")[1]
    stranger = await client.post(f"/api/rematch/{ref}", json={"seat": "not the secret"})
    assert stranger.status == 403 and "seat link" in (await stranger.json())["error"]
    answer = await client.post(f"/api/rematch/{ref}", json={"seat": secret})
    data = await answer.json()
    assert answer.status == 200, data
    again = await chat.pages.find(data["game"])
    zoe = again.seats[Color.WHITE].user
    assert zoe is not None and zoe.name == "Zoë" and str(again.control) == "3+2" and again.kind.value == "bot"
    assert data["url"] == chat.pages.seat_path(data["game"], Color.WHITE, zoe)  # colours swapped
    await ws.close()
    await chat.core.settle()


async def test_my_games_page_lists_the_guests_games_on_and_finished_and_their_ratings(site):
    chat, client = site
    assert (await (await client.get("/api/me")).json()) == {"games": [], "on": [], "ratings": [], "name": None,
                                                            "events": [], "puzzles": {"ratings": [], "history": []}}
    started = await client.post("/api/new", json={"kind": "bot", "variant": "english", "level": 1,
                                                   "colour": "black", "control": "3+2", "name": "Zoë"})
    path, secret = (await started.json())["url"].split("#seat=")
    mine = await (await client.get("/api/me")).json()
    assert [g["path"] for g in mine["on"]] == [path] and mine["on"][0]["control"] == "3+2 (blitz)"
    ws = await client.ws_connect(path.replace("/g/", "/ws/"))
    await receive(ws, "game")
    await ws.send_json({"type": "seat", "secret": secret})
    await receive(ws, "seat")
    await ws.send_json({"type": "move", "text": (await whole(ws))["status"]["legal"][0]["text"], "ply": 0})
    await receive(ws, "moved")
    await chat.core.settle()
    await ws.send_json({"type": "command", "name": "resign"})
    while not (await receive(ws, "update"))["status"]["result"]:
        pass
    mine = await (await client.get("/api/me")).json()
    assert mine["on"] == [] and [g["path"] for g in mine["games"]] == [path]
    assert mine["games"][0]["result"] == "White wins (Zoë resigned)." and mine["games"][0]["players"]["Black"] == "Zoë"
    client.session.cookie_jar.clear()  # another browser: nothing of Zoë's
    assert (await (await client.get("/api/me")).json())["games"] == []
    page = await client.get("/me")
    assert page.status == 200 and "My games" in await page.text()
    await ws.close()


async def test_a_chat_players_page_lists_their_games_behind_a_key_and_the_chat_links_it(site):
    chat, client = site
    await chat.say(ANA, "challenge @ben english black 3+2", mentions=(BEN,))
    await chat.say(BEN, "accept")
    game = chat.table().id
    await chat.play_any(ANA)
    await chat.say(BEN, "resign")
    replies = await chat.say(EVE, "games @ana", mentions=(ANA,))
    ref = chat.pages.keys.player_ref("g", ANA.id)
    assert replies[-1].text == f"Their games on the web page: http://bot.example/p/{ref}"  # (the terminal's chat)
    theirs = await (await client.get(f"/api/p/{ref}")).json()
    assert theirs["name"] == "ana" and [g["id"] for g in theirs["games"]] == [game]
    assert theirs["games"][0]["result"] == "Black wins (ben resigned)." and theirs["games"][0]["control"] == "3+2 (blitz)"
    assert [(r["game"], r["speed"]) for r in theirs["ratings"]] == [("English", "blitz")]
    assert (await client.get(f"/p/{ref}")).status == 200
    for wrong in (ref[:-1] + ("A" if ref[-1] != "A" else "B"), chat.pages.keys.player_ref("other", ANA.id)[:-2] + ref[-2:],
                  "nothing"):
        assert (await client.get(f"/api/p/{wrong}")).status == 404 and (await client.get(f"/p/{wrong}")).status == 404


async def test_a_players_page_says_so_when_the_database_does_not_answer(site, monkeypatch):
    from bot.store import SaveFailed

    chat, client = site

    async def down(*args, **kwargs):
        raise SaveFailed("the database did not answer within 5 s")

    monkeypatch.setattr(chat.core, "player_games", down)
    answer = await client.get("/api/me")
    assert answer.status == 503 and "not answering" in (await answer.json())["error"]
    ref = chat.pages.keys.player_ref("g", ANA.id)
    assert (await client.get(f"/api/p/{ref}")).status == 503


async def test_a_tournaments_page_shows_its_standings_and_games_behind_a_key_and_the_chat_links_it(site):
    chat, client = site
    await chat.say(ANA, "tournament swiss english 3+2 2 rounds casual", manager=True)
    for person in (ANA, BEN, EVE):
        await chat.say(person, "tournament join")
    await chat.say(ANA, "tournament start", manager=True)
    [t] = chat.core.state.tournaments.values()
    ref = chat.pages.keys.tournament_ref(t.id)
    assert f"The tournament's page: http://bot.example/t/{ref}" in [r.text for r in chat.replies]
    shown = await (await client.get(f"/api/t/{ref}")).json()
    assert shown["title"] == "Tournament #1: English Swiss of 2 rounds, 3+2 (blitz), unrated"
    assert shown["status"].startswith("Under way: round 1.") and len(shown["standings"]) == 3
    [on] = shown["on"]  # three players: one game, and a bye
    game = next(table for table in chat.core.state.tables.values() if table.tournament)
    assert on["path"] == chat.pages.game_path(game.id) and (on["round"], on["board"]) == (1, 1)
    await chat.say(game.to_move.user, "resign")
    shown = await (await client.get(f"/api/t/{ref}")).json()
    assert shown["on"] == [] and shown["done"][0]["result"] in ("1-0", "0-1")
    assert (await client.get(f"/t/{ref}")).status == 200
    for wrong in (f"{t.id}-nothing", ref[:-1] + ("A" if ref[-1] != "A" else "B"), "x", "\u00b2-x"):
        assert (await client.get(f"/api/t/{wrong}")).status == 404 and (await client.get(f"/t/{wrong}")).status == 404
    page = f"/api/p/{chat.pages.keys.player_ref('g', BEN.id)}"
    assert (await (await client.get(page)).json())["events"] == []  # (on, it may be in a private channel)
    await chat.say(ANA, "tournament cancel", manager=True)
    theirs = await (await client.get(page)).json()
    assert theirs["events"] == [{"title": shown["title"], "path": f"/t/{ref}"}]  # over: on the player's page
