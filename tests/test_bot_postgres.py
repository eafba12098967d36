"""The bot core on a real PostgreSQL server: games kept and brought back, and two processes that both hold one
game (say, during a shard's hand-over) never both move it."""

from __future__ import annotations

import asyncio

from bot.core.state import MOVED_ELSEWHERE
from bot.store.postgres import PostgresStore
from engine import Termination
from chat import ANA, BEN, Chat
from postgres import fresh_database


async def test_a_game_on_postgresql_survives_a_restart(pool, postgres_server):
    url = await fresh_database(postgres_server)
    first = Chat(await PostgresStore.connect(url), pool)
    await first.say(ANA, "new english level 1 time 0.05")
    played = [await first.play_any(ANA)]
    await first.core.settle()
    played.append(await first.play_any(ANA))
    await first.core.settle()
    moves = list(first.table().game.moves)
    await first.core.close()
    await first.store.close()

    second = Chat(await PostgresStore.connect(url), pool)
    try:
        restored = await second.core.start()
        assert [t.channel for t in restored] == ["c1"] and second.table().game.moves == moves
        await second.say(ANA, "resign")
        assert "wins" in second.replies[-1].text
        assert await second.store.active_games() == []
        ended = await second.store.finished_game(restored[0].id)
        assert ended.reason == "ana resigned" and ended.ending.termination is Termination.RESIGNED
    finally:
        await second.core.close()
        await second.store.close()


async def test_two_processes_holding_one_game_apply_exactly_one_of_two_racing_moves(pool, postgres_server):
    url = await fresh_database(postgres_server)
    setup = Chat(await PostgresStore.connect(url), pool)
    await setup.say(ANA, "challenge @ben english casual", mentions=(BEN,))
    await setup.say(BEN, "accept")
    await setup.core.close()
    await setup.store.close()
    one, two = Chat(await PostgresStore.connect(url), pool), Chat(await PostgresStore.connect(url), pool)
    try:
        await one.core.start()
        await two.core.start()
        table = one.table()
        mover = ANA if table.colour_of(ANA) == table.game.turn else BEN
        game = one.table().game
        first, second = [game.type.write_move(game.position, m, full=True) for m in game.legal_moves()[:2]]
        await asyncio.gather(one.say(mover, first), two.say(mover, second))
        answers = [one.replies[-1].text, two.replies[-1].text]
        assert sum(MOVED_ELSEWHERE in a for a in answers) == 1  # exactly one process was told it lost
        stored = (await one.store.active_games())[0].moves
        assert len(stored) == 1 and stored[0] in (first, second)
        # the loser reloaded the game: both processes now hold the move that was kept
        assert one.table().game.moves == two.table().game.moves and len(one.table().game.moves) == 1
    finally:
        for chat in (one, two):
            await chat.core.close()
            await chat.store.close()


def test_migrate_brings_a_new_postgresql_database_to_the_schema(postgres_server):
    import os
    import subprocess
    import sys

    url = asyncio.run(fresh_database(postgres_server))
    done = subprocess.run([sys.executable, "-m", "bot", "migrate"], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "BOT_DATABASE": url, "BOT_WEB": "true"})  # no BOT_WEB_SECRET needed
    assert done.returncode == 0, done.stderr
    assert "PostgreSQL" in done.stdout and "up to date" in done.stdout and url not in done.stdout + done.stderr


async def test_processes_on_one_postgresql_database_share_the_seat_links_key_without_a_setting(postgres_server):
    from bot.web.seats import load_key

    url = await fresh_database(postgres_server)
    stores = [await PostgresStore.connect(url) for _ in range(3)]
    try:  # three processes starting at once: each gets the key the first one stored
        keys = await asyncio.gather(*(load_key(store, url) for store in stores))
        assert len(set(keys)) == 1 and len(keys[0]) == 32
    finally:
        for store in stores:
            await store.close()


async def test_a_process_that_cannot_read_the_seat_links_key_refuses_to_start_and_says_why(postgres_server):
    import pytest

    from bot.store import StoreError
    from bot.web.seats import load_key

    url = await fresh_database(postgres_server)
    store = await PostgresStore.connect(url)
    try:
        await store.pool.execute("DROP TABLE shared_keys")  # a database the key cannot be read from
        with pytest.raises(StoreError, match="cannot read the seat links' key from the database.*BOT_WEB_SECRET"):
            await load_key(store, url)
        assert await load_key(store, url, "set by the operator")  # the setting needs no database
    finally:
        await store.close()


async def test_two_rated_games_of_one_player_ending_at_once_on_two_processes_both_count(pool, postgres_server):
    from bot.ratings import Rating, level_rating, update

    url = await fresh_database(postgres_server)
    one, two = Chat(await PostgresStore.connect(url), pool), Chat(await PostgresStore.connect(url), pool)
    try:
        for chat, channel in ((one, "c1"), (two, "c2")):  # ana plays the bot on each process, rated
            await chat.say(ANA, "new english level 1 white rated", channel=channel)
            await chat.core.settle()  # the bot opens
            await chat.play_any(ANA, channel)
            await chat.core.settle()
        await asyncio.gather(one.say(ANA, "resign", channel="c1"), two.say(ANA, "resign", channel="c2"))
        level = level_rating("english", 1)
        after_both = update(update(Rating(), [(level, 0.0)]), [(level, 0.0)])
        rating, games = await one.store.rating("g", "english", ANA.id)
        assert games == 2 and abs(rating.rating - after_both.rating) < 0.01, (rating, after_both)
        said = [one.replies[-1].text, two.replies[-1].text]
        assert all("Ratings: ana" in text for text in said) and f"ana {after_both.rating:.0f}" in " ".join(said)
    finally:
        for chat in (one, two):
            await chat.core.close()
            await chat.store.close()


async def test_the_same_puzzle_ending_at_once_in_two_servers_on_two_processes_counts_both_attempts(postgres_server):
    from bot.ratings import RatedPuzzle, Rating, update
    from bot.store import Attempt, ServedPuzzle

    url = await fresh_database(postgres_server)
    one, two = await PostgresStore.connect(url), await PostgresStore.connect(url)
    try:  # the day's puzzle, solved in two servers at the same moment, each on its own process
        served = [await store.start_puzzle(ServedPuzzle(0, guild, "c1", "english", "p1", "daily", "W:W21:B1",
                                                        ("21-17",), "1", "ana", 0.0, day="2026-01-01"))
                  for store, guild in ((one, "g"), (two, "h"))]
        first = Rating(1400, 250, 0.06)
        solvers = (("1", "ana"), ("2", "ben"))
        await asyncio.gather(*(store.end_puzzle(number, "solved", [Attempt(user, name, True)],
                                                RatedPuzzle(((user, name),), True, first))
                               for store, number, (user, name) in zip((one, two), served, solvers)))
        after_both = update(update(first, [(Rating(), 0.0)]), [(Rating(), 0.0)])
        strength, attempts = (await one.puzzle_strengths("english"))["p1"]
        assert attempts == 2 and abs(strength.rating - after_both.rating) < 0.01, (strength, after_both)
    finally:
        for store in (one, two):
            await store.close()
