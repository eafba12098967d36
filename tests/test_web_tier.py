"""The web tier in one test process, on a real PostgreSQL server: a chat process's core owns the games (with its
relay), and a web process (``python -m bot web``'s parts: ``SharedGames`` behind ``Pages``) serves their pages on
its own store. What a page sees and does travels only through the database."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass

import asyncpg
import pytest

from aiohttp.test_utils import TestClient, TestServer

from bot.__main__ import main
from bot.core import Core
from bot.store.exchange import NEWS, Exchange
from bot.store.postgres import PostgresStore
from bot.web import shared
from bot.core.core import OUT_OF_DATE as OUT_OF_DATE_BOARD
from bot.replies import Message
from bot.translation import render
from bot.web.pages import Pages
from bot.web.watchers import WebOrigin
from bot.web.relay import Relay
from bot.web.seats import SeatKeys, load_key
from bot.web.server import make_app
from bot.web.shared import SharedGames, sharing
from chat import ANA, BEN, CONFIG, Chat
from postgres import fresh_database
from test_web import receive


class OwnerChat(Chat):
    """A chat process on PostgreSQL whose games the web tier shows: its replies pass through its relay."""

    def __init__(self, store: PostgresStore, pool):
        super().__init__(store, pool)
        self.relay = Relay(Exchange(store), self.core, "web")
        self.core.connect(self.relay.send_for(self._send, pages=False))


@dataclass
class WebProcess:
    pages: Pages
    client: TestClient
    games: SharedGames


@contextlib.asynccontextmanager
async def owner(url: str, pool) -> AsyncIterator[OwnerChat]:
    chat = OwnerChat(await PostgresStore.connect(url), pool)
    await chat.core.start()
    task = asyncio.create_task(chat.relay.run())
    try:
        async with asyncio.timeout(10):
            await chat.relay.ready.wait()  # its games announced, and its asks heard
        yield chat
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        await chat.core.close()
        await chat.store.close()


@contextlib.asynccontextmanager
async def web_process(url: str, pool) -> AsyncIterator[WebProcess]:
    store = await PostgresStore.connect(url)
    core, games = Core(CONFIG, store, pool), SharedGames(Exchange(store))
    pages = Pages(SeatKeys(await load_key(store, url)), "http://bot.example", core, games)
    client = TestClient(TestServer(make_app(pages)))
    await client.start_server()
    try:
        async with sharing(games, core, pages):
            await games.ready.wait()
            yield WebProcess(pages, client, games)
    finally:
        await client.close()
        await store.close()


async def test_a_page_on_a_web_process_follows_and_plays_a_game_another_process_owns(pool, postgres_server):
    url = await fresh_database(postgres_server)
    async with owner(url, pool) as chat, web_process(url, pool) as web:
        await chat.say(ANA, "new english level 1 time 0.05 white")
        await chat.core.settle()
        await chat.relay.published()
        table = chat.table()
        ws = await web.client.ws_connect(web.pages.game_path(table.id).replace("/g/", "/ws/"))
        first = await receive(ws, "game")
        assert len(first["entries"]) == len(table.game.moves) + 1 == 2  # the bot opened as White
        assert first["status"]["players"]["White"] == "ana"
        dutch = await web.client.ws_connect(web.pages.game_path(table.id).replace("/g/", "/ws/"),
                                            headers={"Accept-Language": "nl"})
        await receive(dutch, "game")

        # a move typed in the chat reaches the page on the other process, and so does the bot's answer
        played = await chat.play_any(ANA)
        update = await receive(ws, "moved")
        assert update["v"] == first["v"] + 1 and played.split("-")[0] in update["move"]["text"]
        answer = await receive(ws, "moved")
        assert answer["v"] == first["v"] + 2 and answer["said"].startswith("I played")
        # what the chat said travels with what it was made from: a page in Dutch reads it in Dutch
        said = next(r.text for r in reversed(chat.replies) if r.text.startswith("I played"))
        await receive(dutch, "moved")
        assert (await receive(dutch, "moved"))["said"] == render(said, "nl") != str(said)
        await dutch.close()

        # the seat's link, made by the owner, seats the page on the web process; its move is played by the owner
        secret = web.pages.seat_path(table.id, table.colour_of(ANA), ANA).split("#seat=")[1]
        await ws.send_json({"type": "seat", "secret": secret})
        assert (await receive(ws, "seat"))["name"] == "ana"
        await ws.send_json({"type": "move", "text": "1-2", "ply": 3})
        assert "Legal moves" in (await receive(ws, "notice"))["text"]  # the owner's refusal, on the page only
        game = chat.table().game
        legal = game.type.write_move(game.position, game.legal_moves()[0], full=True)
        before = len(chat.replies)
        await ws.send_json({"type": "move", "text": legal, "ply": 3})
        update = await receive(ws, "moved")
        assert update["v"] == first["v"] + 3 and update["said"].startswith("ana played")
        assert any(r.text.startswith("ana played") for r in chat.replies[before:])  # the chat shows it too
        await chat.core.settle()
        stored = (await chat.store.active_games())[0].moves
        assert len(stored) == 5 and stored[3] == legal
        # the bot's answer to a draw offered on the page, which no page shows as news, comes back to that page
        await ws.send_json({"type": "command", "name": "draw"})
        assert (await receive(ws, "notice"))["text"].startswith("I decline the draw")
        assert chat.on()
        await ws.close()


async def test_a_game_started_on_the_web_process_is_played_by_a_chat_process(pool, postgres_server):
    url = await fresh_database(postgres_server)
    async with owner(url, pool) as chat, web_process(url, pool) as web:
        async with asyncio.timeout(10):
            while not await web.games.exchange.owners(15):
                await asyncio.sleep(0.05)
        response = await web.client.post("/api/new", json={"kind": "bot", "variant": "english", "level": 1, "colour": "white", "time": 0.05})
        assert response.status == 200, await response.text()
        path = (await response.json())["url"]
        assert "#seat=" in path
        game = int(path.split("/g/")[1].split("-")[0])
        assert chat.core.game_in(next(iter(chat.core.state.tables))) == game  # the chat process plays it
        assert not [r for r in chat.replies if r.channel.startswith("web-")]  # and its chat says nothing of it
        listed = (await (await web.client.get("/api/games")).json())["games"]
        assert [g["path"] for g in listed] == [path.split("#")[0]]


async def test_a_move_for_a_process_that_is_gone_is_refused_on_the_page_and_nothing_is_played(
        pool, postgres_server, monkeypatch):
    monkeypatch.setattr(shared, "ASK_SECONDS", 0.5)
    url = await fresh_database(postgres_server)
    async with web_process(url, pool) as web:
        async with owner(url, pool) as chat:
            await chat.say(ANA, "new english level 1 time 0.05 black")  # Black moves first: ana is to move
            await chat.relay.published()
            table = chat.table()
        # the owner has stopped: the page still opens the game (its latest news) and is told its move went nowhere
        ws = await web.client.ws_connect(web.pages.game_path(table.id).replace("/g/", "/ws/"))
        await receive(ws, "game")
        await ws.send_json({"type": "seat", "secret": web.pages.seat_path(table.id, table.colour_of(ANA), ANA)
                            .split("#seat=")[1]})
        await receive(ws, "seat")
        game = table.game
        await ws.send_json({"type": "move", "text": game.type.write_move(game.position, game.legal_moves()[0],
                                                                          full=True), "ply": 0})
        assert (await receive(ws, "notice"))["text"] == shared.NO_ANSWER
        store = await PostgresStore.connect(url)
        try:
            assert (await store.active_games())[0].moves == []
        finally:
            await store.close()
        await ws.close()


def test_the_web_process_needs_postgresql_and_says_so(monkeypatch, capsys, tmp_path):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("BOT_DATABASE", str(tmp_path / "games.db"))
    assert main(["web"]) == 2
    assert "postgresql://" in capsys.readouterr().err


async def test_the_owner_refuses_a_page_move_made_on_a_board_that_is_out_of_date_and_forgets_lost_games(
        pool, postgres_server):
    url = await fresh_database(postgres_server)
    setup = await PostgresStore.connect(url)
    try:  # the news of a game that ended while its last news could not be published
        await Exchange(setup).publish(999, "web", {"live": {"id": 999}}, [])
    finally:
        await setup.close()
    async with owner(url, pool) as chat, web_process(url, pool) as web:
        await chat.relay.published()
        assert 999 not in [game for game, _ in await web.games.exchange.live_games()]
        await chat.say(ANA, "new english level 1 time 0.05 black")
        table = chat.table()
        game = table.game
        first, second = [game.type.write_move(game.position, m, full=True) for m in game.legal_moves()[:2]]
        await chat.play_any(ANA)
        await chat.core.settle()
        # a page whose copy of the game still shows ply 0 (its news is on the way) sends the move it shows
        said: list[str] = []

        async def notice(text: str) -> None:
            said.append(text)

        await web.games.handle(Message(table.guild, table.channel, ANA, second, channel_name=table.channel_name,
                                       origin=WebOrigin(notice, (table.id, 0))))
        assert said == [OUT_OF_DATE_BOARD]
        assert len(chat.table().game.moves) == 2 and first != second


async def test_a_page_catches_up_with_what_was_played_while_its_process_was_not_listening(pool, postgres_server):
    url = await fresh_database(postgres_server)
    async with owner(url, pool) as chat, web_process(url, pool) as web:
        await chat.say(ANA, "challenge @ben english casual", mentions=(BEN,))
        await chat.say(BEN, "accept")  # two people: nothing else is played after the move below
        await chat.relay.published()
        table = chat.table()
        ws = await web.client.ws_connect(web.pages.game_path(table.id).replace("/g/", "/ws/"))
        await receive(ws, "game")
        # every listening connection is cut (a network blip, a proxy's idle timeout); a move is played meanwhile
        admin = await asyncpg.connect(url)
        try:
            cut = await admin.fetch("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = "
                                    "current_database() AND query LIKE 'LISTEN%'")
        finally:
            await admin.close()
        assert len(cut) == 2  # the owner's and the web process's
        await chat.play_any(ANA if table.colour_of(ANA) == table.game.turn else BEN)
        await chat.relay.published(table.id)
        update = await receive(ws, "update")  # told once the web process listens again
        assert update["from"] == 1 and len(update["entries"]) >= 1


async def test_asks_of_two_web_processes_with_the_same_number_are_each_answered(pool, postgres_server,
                                                                                monkeypatch):
    """Each web process numbers its asks from 1: two pages on two processes offering a draw at once ask under the
    same number, and each sees the bot's answer and nothing after it (not "no answer came")."""
    monkeypatch.setattr(shared, "ASK_SECONDS", 2.0)  # (a lost answer is noticed sooner)
    url = await fresh_database(postgres_server)
    async with owner(url, pool) as chat, web_process(url, pool) as one, web_process(url, pool) as two:
        await chat.say(ANA, "new english level 1 time 0.05 white", channel="c1")
        await chat.say(BEN, "new english level 1 time 0.05 white", channel="c2")
        await chat.core.settle()
        sockets = []
        for web, channel, person in ((one, "c1", ANA), (two, "c2", BEN)):
            table = chat.table(channel)
            await chat.relay.published(table.id)
            ws = await web.client.ws_connect(web.pages.game_path(table.id).replace("/g/", "/ws/"))
            await receive(ws, "game")
            secret = web.pages.seat_path(table.id, table.colour_of(person), person).split("#seat=")[1]
            await ws.send_json({"type": "seat", "secret": secret})
            await receive(ws, "seat")
            sockets.append(ws)
        for ws in sockets:
            await ws.send_json({"type": "command", "name": "draw"})
        for ws in sockets:
            assert (await receive(ws, "notice", timeout=5.0))["text"].startswith("I decline the draw")
        after = await asyncio.gather(*(receive(ws, "notice", timeout=3.0) for ws in sockets), return_exceptions=True)
        assert all(isinstance(then, TimeoutError) for then in after), after
        for ws in sockets:
            await ws.close()


async def test_a_web_process_follows_each_game_on_its_own_so_one_slow_read_holds_up_no_other(pool, postgres_server,
                                                                                            monkeypatch):
    """A game whose events have a gap is read whole from the database; while that read hangs, another game's
    pages still get its moves, and the first game's pages catch up once the database answers."""
    url = await fresh_database(postgres_server)
    async with owner(url, pool) as chat, web_process(url, pool) as web:
        for channel in ("c1", "c2"):
            await chat.say(ANA, "challenge @ben english casual", channel=channel, mentions=(BEN,))
            await chat.say(BEN, "accept", channel=channel)
        held, free = chat.table("c1").id, chat.table("c2").id
        await chat.relay.published()
        pages, firsts = {}, {}
        for game in (held, free):
            pages[game] = await web.client.ws_connect(web.pages.game_path(game).replace("/g/", "/ws/"))
            firsts[game] = await receive(pages[game], "game")
        answer = asyncio.Event()
        reads = web.games.exchange.news

        async def slow(game: int):
            if game == held:
                await answer.wait()
            return await reads(game)

        monkeypatch.setattr(web.games.exchange, "news", slow)
        await chat.play_any(chat.table("c1").to_move.user, "c1")
        await chat.relay.published()
        await chat.relay.exchange.notify(NEWS, {"game": held})  # as after a gap: game c1 is read whole
        await chat.play_any(chat.table("c2").to_move.user, "c2")
        assert (await receive(pages[free], "moved"))["v"] == firsts[free]["v"] + 1  # not held up by c1's read
        await chat.play_any(chat.table("c1").to_move.user, "c1")
        await asyncio.sleep(0.5)
        answer.set()  # the database answers: c1's pages catch up with both its moves
        while (await receive(pages[held], "update"))["status"]["ply"] < 2:
            pass


async def test_a_web_process_reads_a_game_again_when_the_database_did_not_answer(monkeypatch):
    """A game read whole after a gap, whose read the database does not answer, is read again a moment later (no
    event may come to mend it: the person to move may be thinking), and its pages get it."""
    from bot.store import SaveFailed
    from bot.tables import Kind, LiveGame, Seat
    from bot.replies import User
    from engine import Color, game_type

    seats = {Color.WHITE: Seat(User("1", "ana")), Color.BLACK: Seat(User("2", "ben"))}
    before = LiveGame(7, "web", "web-x", "web", Kind.PEOPLE, game_type("english").new_game(), seats, 0.0)
    moved = before.game.copy()
    moved.play(moved.legal_moves()[0])
    now = LiveGame(7, "web", "web-x", "web", Kind.PEOPLE, moved, seats, 0.0, told=2)

    class Store:
        timeout = 1.0

    class Database:
        store = Store()
        rows = [(1, {"live": before.to_json()})]
        failures = 0

        async def news(self, game: int):
            if self.failures:
                self.failures -= 1
                raise SaveFailed("the database is not answering")
            return self.rows[-1]

    database = Database()
    monkeypatch.setattr(shared, "READ_AGAIN_SECONDS", 0.05)
    games = SharedGames(database)  # type: ignore[arg-type]
    told = []
    games.show(lambda event, after: told.append(after), lambda game: True, lambda game: None)
    assert (await games.live_game(7)).game.moves == []
    database.rows.append((2, {"live": now.to_json()}))
    database.failures = 2
    games.heard(shared.NEWS, {"game": 7})  # as after a gap: read whole, which fails twice
    async with asyncio.timeout(5):
        while not told:
            await asyncio.sleep(0.02)
    assert told[-1].game.moves == moved.moves and (await games.live_game(7)).told == 2
    await games.close()
