"""The web page against hostile pages, forms and requests, and against a database that does not answer (no
browser here; tests/test_web.py has the protocol as the page uses it)."""

from __future__ import annotations

import asyncio
import logging
import random

import pytest
from aiohttp import WSMsgType
from aiohttp.test_utils import TestClient, TestServer

from bot.store import SaveFailed, SqliteStore, open_store
from bot.web import views
from bot.translation import render
from bot.web.server import make_app, serve
from bot.web.websocket import NO_PLY
from chat import ANA
from engine.games import GAMES
from test_web import WebChat, open_page, receive, site, socket_path  # noqa: F401 (site: the fixture)

PYTHON_WORDS = ("invalid literal", "attribute", "int()", "float", "NoneType", "Traceback", "object", "base 10")


async def raw_request(port: int, request: bytes) -> int:
    """Send ``request`` as it is to the server on ``port``: the answer's status."""
    return int((await raw_head(port, request))[0].split()[1])


async def raw_head(port: int, request: bytes) -> list[str]:
    """Send ``request`` as it is to the server on ``port``: the answer's status line and headers."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write(request)
        await writer.drain()
        async with asyncio.timeout(10):
            head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1")
        return head.rstrip().split("\r\n")
    finally:
        writer.close()


def errors_logged(caplog) -> list[logging.LogRecord]:
    """What was logged as a fault of this server: records at WARNING and above, and any with a traceback."""
    return [r for r in caplog.records if r.levelno >= logging.WARNING or r.exc_info]


# a seat's page sends moves only


async def test_a_seats_page_cannot_send_chat_commands_as_moves(site):
    chat, client = site
    await chat.say(ANA, "new english level 1 time 0.05")
    table = chat.table()
    ws, _ = await open_page(chat, client, seated=True)
    before = len(chat.replies)
    for text in ("pdn", "resign", "help", "board", "draw", "takeback", "new russian", "11-15 resign", "games"):
        await ws.send_json({"type": "move", "text": text, "ply": 0})
        assert "not a move" in (await receive(ws, "notice"))["text"], text
    await asyncio.sleep(0.2)
    assert len(chat.replies) == before  # nothing reached the chat
    assert chat.on("c1") and table.game.moves == []  # not resigned, nothing played
    legal = table.game.type.write_move(table.game.position, table.game.legal_moves()[0], full=True)
    await ws.send_json({"type": "move", "text": legal, "ply": 0})  # a move still moves
    assert (await receive(ws, "moved"))["move"]["text"] in legal
    await ws.close()


async def test_a_move_without_a_whole_number_for_its_position_is_refused_and_changes_nothing(site):
    chat, client = site
    await chat.say(ANA, "new english level 1 time 0.05")
    table = chat.table()
    ws, game = await open_page(chat, client, seated=True)
    legal = game["status"]["legal"][0]["text"]
    before = len(chat.replies)
    for ply in (None, "0", "2", 0.0, False, True, [0], {"ply": 0}):
        await ws.send_json({"type": "move", "text": legal, "ply": ply})
        assert (await receive(ws, "notice"))["text"] == render(NO_PLY, "en"), ply
    await ws.send_json({"type": "move", "text": legal})  # no ply at all
    assert (await receive(ws, "notice"))["text"] == render(NO_PLY, "en")
    await asyncio.sleep(0.2)
    assert table.game.moves == [] and len(chat.replies) == before  # nothing played, nothing reached the chat
    await ws.send_json({"type": "move", "text": legal, "ply": 0})  # with its position, the move is played
    assert (await receive(ws, "moved"))["move"]["text"] in legal
    await ws.close()


def test_every_move_the_page_offers_passes_the_servers_check_and_reads_back_as_itself():
    """The board sends the texts ``views.legal`` gave it; the server passes on only texts that are moves."""
    rng = random.Random(30)
    for game_type in GAMES.values():  # a random game of each, captures and crowned pieces' moves among them
        record = game_type.new_game()
        while record.result() is None and len(record.moves) < 100:
            legal = record.legal_moves()
            for move, offered in zip(legal, views.legal(game_type, record.position)):
                assert game_type.is_move_text(offered["text"]), (game_type.name, offered["text"])
                assert game_type.parse_move(record.position, offered["text"]) == move
            record.play(rng.choice(legal))


# the front page's form


@pytest.mark.parametrize("body", [
    "[1,2]", '"str"', "null", "5", "{not json", "[" * 2000 + "]" * 2000,
    '{"kind": "bot", "variant": "english", "level": Infinity}',
    '{"kind": "bot", "variant": "english", "level": NaN}',
    '{"kind": "bot", "variant": "english", "level": "3 time 9"}',
    '{"kind": "bot", "variant": "english", "level": 2.5}',
    '{"kind": "bot", "variant": "english", "level": true}',
    '{"kind": "bot", "variant": "english", "time": "1 level 6"}',
    '{"kind": "bot", "variant": "english", "time": -Infinity}',
    '{"kind": "bot", "variant": "english", "time": -1}',
    '{"kind": "bot", "variant": "english", "time": null}',
    '{"kind": "bot", "variant": "english", "colour": ["white"]}',
    '{"kind": "match", "variant": "english", "levels": [Infinity, 3]}',
    '{"kind": "match", "variant": "english", "levels": 3}',
    '{"kind": "match", "variant": "english", "levels": [3]}',
    '{"kind": "match", "variant": "english", "delay": "fast"}',
    '{"kind": "match", "variant": "english", "delay": 1e400}',
    '{"kind": "bot", "variant": "english", "level": 1' + "0" * 400 + '}',
    '{"kind": "match", "variant": "english", "levels": [3, ' + "9" * 400 + ']}',
    '{"kind": "chess", "variant": "english"}',
    '{"kind": "bot", "variant": ["english"]}',
])
async def test_a_bad_form_gets_a_400_that_a_person_can_read_and_nothing_is_logged_as_a_fault(site, caplog, body):
    chat, client = site
    caplog.set_level(logging.INFO)
    response = await client.post("/api/new", data=body, headers={"Content-Type": "application/json"})
    assert response.status == 400, await response.text()
    error = (await response.json())["error"]
    assert error.endswith(".") and not any(word in error for word in PYTHON_WORDS), error
    assert not errors_logged(caplog)
    assert await chat.pages.web_games() == 0


async def test_a_bad_form_says_which_field_is_wrong(site):
    chat, client = site

    async def error(form: dict) -> str:
        response = await client.post("/api/new", json={"kind": "bot", "variant": "english", **form})
        assert response.status == 400
        return (await response.json())["error"]

    assert "level" in await error({"level": "3 time 9"})
    assert "seconds" in await error({"time": "1 level 6"})
    assert "levels" in await error({"kind": "match", "levels": [7, 3]})
    assert "between moves" in await error({"kind": "match", "delay": "fast"})
    assert "The time per move must be between" in await error({"time": 0.001})  # the core's own words on range


# requests that name no server


async def test_an_empty_host_header_is_refused(site):
    chat, client = site
    await chat.say(ANA, "new english level 1 time 0.05")
    path = chat.pages.game_path(chat.table().id)
    for host in (b"", b" "):
        status = await raw_request(client.port, b"GET " + path.encode() + b" HTTP/1.1\r\nHost:" + host +
                                      b"\r\nConnection: close\r\n\r\n")
        assert status == 421
    status = await raw_request(client.port, f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{client.port}\r\n"
                                               "Connection: close\r\n\r\n".encode())
    assert status == 200


# what every answer says about this server


async def test_pages_let_websockets_reach_this_server_only(site):
    chat, client = site
    await chat.say(ANA, "new english level 1 time 0.05")
    page = await client.get(chat.pages.game_path(chat.table().id))
    policy = dict(part.strip().split(" ", 1) for part in page.headers["Content-Security-Policy"].split(";"))
    host = f"127.0.0.1:{client.port}"  # asked for by this name, as a proxy in front of the bot may ask
    public = "bot.example"  # and the address links give, which the browser's socket goes to
    assert set(policy["connect-src"].split()) == {"'self'", f"ws://{host}", f"wss://{host}", f"ws://{public}",
                                                  f"wss://{public}"}
    front = await client.get("/")
    assert front.headers["Content-Security-Policy"] == page.headers["Content-Security-Policy"]


async def test_answers_do_not_name_the_servers_software(site):
    chat, client = site
    await chat.say(ANA, "new english level 1 time 0.05")
    path = chat.pages.game_path(chat.table().id)
    ws = await client.ws_connect(socket_path(chat, chat.table().id))
    answers = [ws._response, await client.get(path), await client.get("/"), await client.get("/static/game.js"),
               await client.get("/api/games"), await client.get("/nowhere"),
               await client.get(path, headers={"Host": "rebound.example"})]
    await ws.close()
    for answer in answers:
        named = answer.headers.get("Server", "").lower()
        assert "aiohttp" not in named and "python" not in named, (answer.url, named)


async def test_a_malformed_request_is_answered_400_and_logged_without_a_traceback(pool, caplog):
    chat = WebChat(SqliteStore(":memory:"), pool)
    runner = await serve(chat.pages, "127.0.0.1", 0)  # the server as ./run-bot starts it
    try:
        port = runner.addresses[0][1]
        caplog.set_level(logging.DEBUG, logger="aiohttp")
        for request in (b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nno colon here\r\n\r\n",
                        b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: lots\r\n\r\n",
                        b"GET /\x01 HTTP/1.1\r\n\r\n",
                        b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX: " + b"a" * 20000 + b"\r\n\r\n"):
            status, *headers = await raw_head(port, request)
            assert int(status.split()[1]) in (400, 431), request[:40]
            named = [h for h in headers if h.lower().startswith("server:")]
            assert named == ["Server: draughts-bot"], named  # not aiohttp's version, even before the app
        await asyncio.sleep(0.1)
        assert not errors_logged(caplog), [r.getMessage() for r in errors_logged(caplog)]
        assert any("malformed" in r.getMessage() for r in caplog.records)  # said once, at INFO
    finally:
        await runner.cleanup()
        await chat.core.close()


# a database that does not answer


class DownStore:
    """A store whose database stops answering when ``down`` is set: every call raises ``SaveFailed``, as the
    store does when its server is stopped or does not answer in time."""

    def __init__(self, store):
        self.store = store
        self.down = False

    def __getattr__(self, name):
        method = getattr(self.store, name)

        async def call(*args, **kwargs):
            if self.down:
                raise SaveFailed("connection refused")
            return await method(*args, **kwargs)
        return call


async def finished_then_restarted(chat: WebChat, pool, store) -> tuple[WebChat, int]:
    """A game of ana's against the bot played and resigned in ``chat``; then a new process on ``store`` (the same
    database), which has nothing of it in memory."""
    await chat.say(ANA, "new english level 1 time 0.05")
    game_id = chat.table().id
    await chat.play_any(ANA)
    await chat.core.settle()
    await chat.say(ANA, "resign")
    assert not chat.on()
    return WebChat(store, pool), game_id


async def check_pages_say_try_again(restarted: WebChat, client: TestClient, game_id: int, caplog) -> None:
    path = restarted.pages.game_path(game_id)
    for address in (path, path + ".pdn", path + ".gif"):
        response = await client.get(address)
        assert response.status == 503, address
        assert "try again" in (await response.text()).lower()
    ws = await client.ws_connect(socket_path(restarted, game_id))
    notice = await receive(ws, "notice")
    assert "try again" in notice["text"].lower()
    async with asyncio.timeout(10):
        while (await ws.receive()).type == WSMsgType.TEXT:
            pass
    assert ws.close_code == 1013  # "try again later": the page reconnects by itself
    assert not [r for r in caplog.records if r.exc_info and r.name.startswith(("aiohttp", "bot"))]


async def test_a_finished_games_page_says_to_try_again_while_the_database_is_down(pool, caplog):
    store = SqliteStore(":memory:")
    chat = WebChat(store, pool)
    down = DownStore(store)
    restarted, game_id = await finished_then_restarted(chat, pool, down)
    client = TestClient(TestServer(make_app(restarted.pages)))
    await client.start_server()
    try:
        down.down = True
        await check_pages_say_try_again(restarted, client, game_id, caplog)
        down.down = False  # back: the page is there again
        assert (await client.get(restarted.pages.game_path(game_id))).status == 200
        ws = await client.ws_connect(socket_path(restarted, game_id))
        assert len((await receive(ws, "game"))["entries"]) == 3
        await ws.close()
    finally:
        await client.close()
        await restarted.core.close()
        await chat.core.close()


async def test_a_finished_games_page_says_to_try_again_while_postgresql_is_stopped(pool, caplog):
    from postgres import fresh_database, start_server

    server, url = start_server()  # a server of this test's own, as it is stopped (the shared one never is)
    try:
        database = await fresh_database(url)
        stores = [await open_store(database), await open_store(database)]  # two processes' connections
        chat = WebChat(stores[0], pool)
        restarted, game_id = await finished_then_restarted(chat, pool, stores[1])
        client = TestClient(TestServer(make_app(restarted.pages)))
        await client.start_server()
        try:
            server.cleanup()  # PostgreSQL stops
            await check_pages_say_try_again(restarted, client, game_id, caplog)
        finally:
            await client.close()
            for process in (restarted, chat):
                await process.core.close()
                await process.store.close()
    finally:
        server.cleanup()
