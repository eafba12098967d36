"""The bot while its PostgreSQL server is frozen (every process stopped with SIGSTOP, as a hung machine leaves it)
or shut down: each store call gives up within a few seconds with a clear answer, nothing changes, what needs no
database keeps working, and a bot move found meanwhile is kept and played once the database is back. These tests
use a server of their own, as they freeze and stop it."""

from __future__ import annotations

import asyncio
import contextlib
import time

import pytest

from bot.core import bot_moves
from bot.core.core import SAVE_FAILED
from bot.store import SaveFailed
from bot.store.postgres import TIMEOUT, PostgresStore
from chat import ANA, BEN, Chat
from postgres import freeze, fresh_database, restart, start_server, stop, thaw


@pytest.fixture(scope="module")
def server():
    """A PostgreSQL server for this module alone, and its URL."""
    handle, url = start_server()
    yield handle, url
    thaw(handle)
    handle.cleanup()


@contextlib.asynccontextmanager
async def casual(pool, url: str):
    """A game between two people in a fresh database at ``url``: the chat, and the person to move."""
    chat = Chat(await PostgresStore.connect(await fresh_database(url)), pool)
    try:
        await chat.say(ANA, "challenge @ben english casual", mentions=(BEN,))
        await chat.say(BEN, "accept")
        table = chat.table()
        yield chat, ANA if table.colour_of(ANA) == table.game.turn else BEN
    finally:
        await chat.core.close()
        await chat.store.close()


async def test_a_move_typed_while_the_database_is_frozen_is_refused_within_seconds_and_help_still_answers(
        pool, server, caplog):
    handle, url = server
    async with casual(pool, url) as (chat, mover):
        await _frozen_move(chat, mover, handle)
    # an outage is logged in a line per message, not as a fault with a traceback
    assert [r for r in caplog.records if r.name.startswith("bot") and "did not answer" in r.getMessage()]
    assert not [r for r in caplog.records if r.name.startswith("bot") and r.exc_info]


async def _frozen_move(chat: Chat, mover, handle) -> None:
    game = chat.table().game
    move = game.type.write_move(game.position, game.legal_moves()[0])
    freeze(handle)
    try:
        started = time.monotonic()
        typed = asyncio.create_task(chat.say(mover, move))
        await asyncio.sleep(0.2)
        # meanwhile, commands that need no database answer at once, and the board shows no move that is not kept
        asked = time.monotonic()
        assert "commands" in (await chat.say(BEN, "help"))[0].text.lower()
        board = (await chat.say(BEN, "board"))[0]
        assert time.monotonic() - asked < 1.0
        assert board.board is not None and board.board.last_move is None
        done, _ = await asyncio.wait({typed}, timeout=TIMEOUT + 5)  # waits without cancelling: a hang shows here
        assert typed in done, "the move was still waiting on the frozen database"
        assert time.monotonic() - started < TIMEOUT + 2
        assert [r.text for r in typed.result() if r.to and r.to.text == move] == [SAVE_FAILED]
        assert chat.table().game.moves == []
    finally:
        thaw(handle)
    # the database answers again: the same move goes through, and it is kept
    assert not (await chat.say(mover, move))[0].private
    assert len((await chat.store.active_games())[0].moves) == 1


async def test_ratings_that_cannot_be_read_are_answered_as_such(pool, server):
    handle, url = server
    async with casual(pool, url) as (chat, _):
        stop(handle)
        try:
            for command in ("rating", "leaderboard"):
                [reply] = await chat.say(ANA, command)
                assert reply.private and "could not read the ratings" in reply.text
                assert "save" not in reply.text
        finally:
            restart(handle)


class CountingPool:
    """The search pool, counting searches; after the first search it runs ``after_first`` (stops the database)."""

    def __init__(self, pool, after_first):
        self.pool, self.after_first, self.searches = pool, after_first, 0

    def __getattr__(self, name):
        return getattr(self.pool, name)

    async def think(self, channel, job):
        answer = await self.pool.think(channel, job)
        self.searches += 1
        if self.searches == 1:
            await asyncio.to_thread(self.after_first)
        return answer


async def test_a_bot_move_the_database_cannot_take_is_announced_once_kept_and_played_when_it_is_back(
        pool, server, monkeypatch):
    handle, url = server
    monkeypatch.setattr(bot_moves, "LAST_RETRY", 2.0)  # pauses of 1, 2, 2, ... s, to keep the test short
    chat = Chat(await PostgresStore.connect(await fresh_database(url)), pool)
    searching = CountingPool(pool, lambda: stop(handle))
    chat.core.state.pool = searching
    try:
        await chat.say(ANA, "new english level 1 time 0.05 white")  # the bot (black) moves first; the database stops
        for _ in range(4):  # 8 s of an outage, the clock ticking as it does
            await asyncio.sleep(2.0)
            await chat.core.tick()
        told = [t for t in chat.texts() if "could not save" in t]
        assert len(told) == 1 and "keep trying" in told[0]
        assert searching.searches == 1  # the move found is kept: no search again
        assert chat.table().game.moves == []  # and not played while it is not saved
        [early] = await chat.say(ANA, "22-18")
        assert early.private and "not your turn: my move is found, but the database is not taking it" in \
            early.text.lower()
        restart(handle)
        deadline = time.monotonic() + 15
        while not any(t.startswith("Saved at last. I played") for t in chat.texts()):
            assert time.monotonic() < deadline, chat.texts()
            await asyncio.sleep(0.2)
        assert searching.searches == 1
        assert len(chat.table().game.moves) == 1
        assert (await chat.store.active_games())[0].moves == [chat.table().game.type.write_move(
            chat.table().game.positions[0], chat.table().game.moves[0], full=True)]
        assert sum("could not save" in t for t in chat.texts()) == 1
        assert "your move" in chat.texts()[-1]
    finally:
        restart(handle)  # does nothing if it runs
        await chat.core.close()
        await chat.store.close()


async def test_the_drivers_reconnecting_to_a_stopped_server_is_logged_in_one_line(server, caplog):
    handle, url = server
    store = await PostgresStore.connect(await fresh_database(url))
    stop(handle)
    try:
        with pytest.raises(SaveFailed):
            await store.game(1)  # the pool's connection is lost; it tries to make its one connection again
        deadline = time.monotonic() + 15
        while not (tries := [r for r in caplog.records if r.name == "asyncpg.pool"]):
            assert time.monotonic() < deadline, "the pool never tried to reconnect"
            await asyncio.sleep(0.1)
        assert all(r.exc_info is None and "Error" in r.getMessage() for r in tries)
    finally:
        restart(handle)
        await store.close()


async def test_the_store_closes_within_seconds_while_the_database_is_frozen(server):
    handle, url = server
    store = await PostgresStore.connect(await fresh_database(url))
    await asyncio.gather(*(store.game(1) for _ in range(3)))  # a few connections open in the pool
    freeze(handle)
    try:
        started = time.monotonic()
        closing = asyncio.create_task(store.close())
        done, _ = await asyncio.wait({closing}, timeout=TIMEOUT + 5)
        assert closing in done and closing.exception() is None, "closing waited on the frozen server"
        assert time.monotonic() - started < TIMEOUT + 2
    finally:
        thaw(handle)
