"""Every PDN the bot writes (the chat's `pdn`, the end of a game, the stored record, the page's download) reads
back with the tags it was given, whatever the players are called."""

from __future__ import annotations

import pytest_asyncio
from aiohttp.test_utils import TestClient, TestServer

from bot.core import Core
from bot.store import SqliteStore
from bot.tables import User
from bot.user_text import neutral
from bot.web.hub import Hub
from bot.web.seats import SeatKeys
from bot.web.server import make_app
from chat import CONFIG, Chat
from engine.records import read_tags

# Display names as Discord hands them over, cleaned as the Discord front end cleans them: each tries to end its
# tag and write tags of its own (a result ahead of the real one).
MALLORY = User("66", neutral('x"] [Result "1-0"] [Evil "'))
TRUDY = User("67", neutral('\\"] [Result "0-1"] [White "me\\'))


class WebChat(Chat):
    """A chat whose replies also pass through a web hub, as ``./run-bot`` wires them, so the page serves the PDN."""

    def __init__(self, store: SqliteStore, pool):
        super().__init__(store, pool)
        self.hub = Hub(SeatKeys(b"k" * 32), "http://bot.example", local_chat=True)
        self.core = Core(CONFIG, store, pool, self.hub.send_for(self._send), clock=self.clock)
        self.hub.attach(self.core)


@pytest_asyncio.fixture(loop_scope="session")
async def site(pool):
    chat = WebChat(SqliteStore(":memory:"), pool)
    client = TestClient(TestServer(make_app(chat.hub)))
    await client.start_server()
    yield chat, client
    chat.hub.close()
    await client.close()
    await chat.core.close()


async def test_hostile_names_read_back_from_every_pdn_the_bot_writes(site):
    chat, client = site
    assert '"' in MALLORY.name and "\\" in TRUDY.name  # the cleaning of names leaves quotes and backslashes
    await chat.say(MALLORY, "challenge @trudy english white casual", mentions=(TRUDY,))
    await chat.say(TRUDY, "accept")
    game_id = chat.table().id
    await chat.play_any(TRUDY)  # Black moves first in English
    await chat.play_any(MALLORY)
    players = {"White": MALLORY.name, "Black": TRUDY.name}

    def check(pdn: str, result: str) -> None:
        tags = read_tags(pdn)
        assert {name: tags.get(name) for name in ("White", "Black", "Result")} == players | {"Result": result}
        assert set(tags) == {"GameType", "Event", "Site", "Date", "White", "Black", "Result"}, pdn

    check((await chat.say(TRUDY, "pdn"))[0].pdn, "*")
    check(await (await client.get(chat.hub.game_path(game_id) + ".pdn")).text(), "*")
    await chat.say(TRUDY, "resign")
    assert not chat.on()
    check(chat.replies[-1].pdn, "1-0")  # the end of the game, as the chat posts it (and Discord's file)
    check((await chat.store.finished_game(game_id)).pdn, "1-0")
    check(await (await client.get(chat.hub.game_path(game_id) + ".pdn")).text(), "1-0")
