"""The bot core under things going wrong: restarts, dead workers, races, hostile input, a full disk."""

import asyncio
import os
import signal

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from bot.commands import HELP
from bot.core.core import COMMANDS
from bot.pool import SearchPool
from bot.core.core import SAVE_FAILED
from bot.store import SaveFailed, SqliteStore, StoreError
from bot.worker import Job
from chat import ANA, BEN, EVE, Chat, config
from engine import Color
from engine.search import History

ENGLISH_START = "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"


async def test_a_restart_in_the_middle_of_a_game_restores_it_and_the_bot_moves(tmp_path, pool):
    path = str(tmp_path / "bot.sqlite3")
    first = Chat(SqliteStore(path), pool)
    await first.say(ANA, "new english white level 2")  # English: Black (the bot) moves first
    await first.core.settle()
    await first.play_any(ANA)
    moves = list(first.table().game.moves)
    await first.core.close()  # the bot's answer is lost with the process
    await first.store.close()

    second = Chat(SqliteStore(path), pool)
    restored = await second.core.start()
    assert [t.id for t in restored] == [1]
    table = second.table()
    assert table.game.moves[:len(moves)] == moves and table.seats[Color.WHITE].user == ANA
    await second.core.settle()
    assert len(table.game.moves) == len(moves) + 1 and second.replies[-1].text.startswith("I played")
    await second.play_any(ANA)  # the game goes on
    assert len((await second.store.active_games())[0].moves) == len(moves) + 2


async def test_a_worker_killed_in_the_middle_of_a_search_still_gives_the_move():
    own = SearchPool(workers=1, queue_limit=5, tt_mb=8)
    await asyncio.to_thread(own.start)
    try:
        chat = Chat(SqliteStore(":memory:"), own, config(move_time=2.0))
        await chat.say(ANA, "new english level 6 time 2")
        await chat.play_any(ANA)
        await asyncio.sleep(0.5)  # the bot is searching now
        for pid in own.pids():
            os.kill(pid, signal.SIGKILL)
        await asyncio.wait_for(chat.core.settle(), 30)
        assert own.restarts == 1
        assert len(chat.table().game.moves) == 2 and chat.replies[-1].text.startswith("I played")
        await chat.play_any(ANA)
        await chat.core.settle()
        assert len(chat.table().game.moves) == 4
    finally:
        own.close()


async def test_a_search_process_killed_while_idle_is_replaced_before_the_next_move_needs_it():
    own = SearchPool(workers=1, queue_limit=5, tt_mb=8)
    await asyncio.to_thread(own.start)
    try:
        [idle] = own.pids()
        os.kill(idle, signal.SIGKILL)
        for _ in range(300):
            if own.restarts == 1 and own.ready:
                break
            await asyncio.sleep(0.1)
        assert own.restarts == 1 and own.ready  # replaced and warmed up with no move asking for it
        [replacement] = own.pids()
        answer = await own.think("c", Job("english", ENGLISH_START, History(), 1, 0.05))
        assert answer.pid == replacement and own.restarts == 1  # the move did not wait for a new process
    finally:
        own.close()


async def test_two_moves_for_the_same_game_at_once_apply_exactly_one(pool):
    chat = Chat(SqliteStore(":memory:"), pool)
    await chat.say(ANA, "challenge @ben english black", mentions=(BEN,))
    await chat.say(BEN, "accept")
    table = chat.table()
    first, second = [m for m in table.game.legal_moves()[:2]]
    start = len(chat.replies)
    texts = [f"{m.start}-{m.end}" for m in (first, second)]
    await asyncio.gather(chat.say(ANA, texts[0]), chat.say(ANA, texts[1]))
    assert len(table.game.moves) == 1
    replies = chat.replies[start:]
    assert sum(not r.private for r in replies) == 1 and sum(r.private for r in replies) == 1
    assert [m for m in (await chat.store.active_games())[0].moves] == [texts[0]]


async def test_a_database_refusing_a_write_means_no_move_and_a_message(pool):
    chat = Chat(SqliteStore(":memory:"), pool)
    await chat.say(ANA, "challenge @ben english black", mentions=(BEN,))
    await chat.say(BEN, "accept")
    table = chat.table()
    chat.store.db.execute("PRAGMA query_only = ON")  # every write now fails
    replies = await chat.say(ANA, "11-15")
    assert len(replies) == 1 and replies[0].private and "could not save" in replies[0].text
    assert table.game.moves == [] and replies[0].board is None
    chat.store.db.execute("PRAGMA query_only = OFF")
    replies = await chat.say(ANA, "11-15")
    assert not replies[0].private and len(table.game.moves) == 1


async def test_a_database_refusing_the_end_of_a_game_keeps_it_going(pool):
    chat = Chat(SqliteStore(":memory:"), pool)
    await chat.say(ANA, "challenge @ben english black", mentions=(BEN,))
    await chat.say(BEN, "accept")
    chat.store.db.execute("PRAGMA query_only = ON")
    replies = await chat.say(BEN, "resign")
    assert replies[0].private and "could not save" in replies[0].text and chat.on("c1")
    chat.store.db.execute("PRAGMA query_only = OFF")
    assert await chat.store.leaderboard("g", "english") == [] and (await chat.store.active_games())[0].id == 1
    await chat.say(BEN, "resign")
    assert "ana (Black) wins" in chat.replies[-1].text and len(await chat.store.leaderboard("g", "english")) == 2


async def test_a_database_refusing_the_bots_move_keeps_the_game_and_the_move_found(pool):
    chat = Chat(SqliteStore(":memory:"), pool)
    await chat.say(ANA, "new english level 1")
    await chat.say(ANA, "11-15")
    chat.store.db.execute("PRAGMA query_only = ON")  # before the bot's answer comes back
    for _ in range(600):  # up to 30 s
        if any("could not save my move" in t for t in chat.texts()):
            break
        await asyncio.sleep(0.05)
    else:
        raise AssertionError(f"the bot never said it could not save its move: {chat.texts()}")
    assert len(chat.table().game.moves) == 1
    chat.store.db.execute("PRAGMA query_only = OFF")
    await chat.core.settle()  # the bot tries the write again by itself, with the move it found
    assert len(chat.table().game.moves) == 2 and chat.replies[-1].text.startswith("Saved at last. I played")
    assert len((await chat.store.active_games())[0].moves) == 2


class AnswerLost(SqliteStore):
    """A database that keeps the next ``lose`` moves but whose answers to them are lost (a timeout after the
    commit): the bot hears that the write failed."""

    lose = 0

    async def add_move(self, game: int, version: int, ply: int, move: str, clocks: list[float] | None = None) -> int:
        new = await super().add_move(game, version, ply, move, clocks)
        if self.lose:
            self.lose -= 1
            raise SaveFailed("the database did not answer within 5 s")
        return new


async def test_a_bot_move_kept_though_the_answer_was_lost_is_announced_when_the_retry_finds_it(pool):
    chat = Chat(AnswerLost(":memory:"), pool)
    await chat.say(ANA, "new english level 1")
    await chat.say(ANA, "11-15")
    chat.store.lose = 1  # before the bot's answer comes back
    await chat.core.settle()  # the retry finds the move in the database: it was kept
    assert sum("could not save my move" in t for t in chat.texts()) == 1
    assert chat.replies[-1].text.startswith("Saved at last. I played") and "your move" in chat.replies[-1].text
    assert len(chat.table().game.moves) == 2 == len((await chat.store.active_games())[0].moves)
    await chat.play_any(ANA)  # and the game goes on
    await chat.core.settle()
    assert len(chat.table().game.moves) == 4


async def test_a_move_kept_though_the_answer_was_lost_is_played_when_typed_again(pool):
    chat = Chat(AnswerLost(":memory:"), pool)
    await chat.say(ANA, "new english level 1")
    chat.store.lose = 1
    [refused] = await chat.say(ANA, "11-15")
    assert refused.text == SAVE_FAILED and chat.table().game.moves == []
    [played] = await chat.say(ANA, "11-15")  # typed again: it was kept the first time, and is played once
    assert played.text.startswith("ana played 11-15") and not played.private
    await chat.core.settle()
    assert len(chat.table().game.moves) == 2 == len((await chat.store.active_games())[0].moves)


async def test_a_bot_whose_games_cannot_be_read_at_start_says_so(pool):
    class Unreadable(SqliteStore):
        async def active_games(self):
            raise SaveFailed("the database did not answer within 5 s")

    chat = Chat(Unreadable(":memory:"), pool)
    with pytest.raises(StoreError, match="cannot read the unfinished games: the database did not answer"):
        await chat.core.start()


HOSTILE = st.one_of(
    st.text(max_size=400),
    st.sampled_from(["@everyone 11-15", "**11-15**", "<@123> resign", "`9-14`", "11-15" * 80, "\u202e51-11",
                     "１１-１５", "x" * 5000, "11x18x25x32x41", "0-0", "99-100", "c3-d4", "draw decline accept"]),
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=HOSTILE, who=st.sampled_from(["stranger", "waiting player"]))
def test_hostile_input_gets_an_error_and_changes_nothing(pool, text, who):
    async def check():
        chat = Chat(SqliteStore(":memory:"), pool)
        await chat.say(ANA, "challenge @ben english black", mentions=(BEN,))
        await chat.say(BEN, "accept")
        await chat.play_any(ANA)
        table = chat.table()
        before = (list(table.game.moves), table.draw_offer, table.takeback_offer, list(chat.core.state.tables))
        user = EVE if who == "stranger" else ANA
        replies = await chat.say(user, text)
        after = (list(table.game.moves), table.draw_offer, table.takeback_offer, list(chat.core.state.tables))
        first = text.split()[0].lower().lstrip("/!") if text.split() else ""
        assert after == before or (user == ANA and first in ("draw", "takeback", "resign") and len(text) <= 300)
        if first in HELP and first not in ("new", "challenge", "watch", "accept", "stop") and len(text) <= 300:
            return  # a command a player or an onlooker may give
        assert len(replies) == 1 and replies[0].private
        assert "@everyone" not in replies[0].text
        await chat.core.close()

    asyncio.run(check())


async def test_a_busy_pool_refuses_a_move_against_the_bot_and_changes_nothing(pool):
    chat = Chat(SqliteStore(":memory:"), pool)
    await chat.say(ANA, "new english level 1")
    pool.queue_limit, saved = 0, pool.queue_limit
    pool._running, running = pool.workers, pool._running  # every process busy
    try:
        replies = await chat.say(ANA, "11-15")
    finally:
        pool.queue_limit, pool._running = saved, running
    assert replies[0].private and "many games" in replies[0].text and chat.table().game.moves == []


async def test_limits_refuse_with_a_reason(pool):
    chat = Chat(SqliteStore(":memory:"), pool, config(games_per_user=2, matches_per_server=1, input_limit=50))
    await chat.say(ANA, "new", channel="a")
    await chat.say(ANA, "new", channel="b")
    refused = await chat.say(ANA, "new", channel="c")
    assert "limit is 2" in refused[0].text and not chat.on("c")
    busy = await chat.say(BEN, "new", channel="a")
    assert "A game is on in this channel" in busy[0].text
    await chat.say(BEN, "watch delay 10", channel="d")
    refused = await chat.say(BEN, "watch", channel="e")
    assert "limit is 1" in refused[0].text and not chat.on("e")
    long = await chat.say(ANA, "11-15 " * 20, channel="a")
    assert "at most 50" in long[0].text
    await chat.core.close()


@pytest.mark.parametrize("text, expected", [
    ("new checkers level 9", "1 (beginner) to 6"), ("new chess", "don't understand"), ("new english time 99", "between"),
    ("watch english 1 2 3", "too many levels"), ("new english level x", "takes a number"),
    ("challenge level 3", "between people"), ("frobnicate", "don't know"), ("new chess", "understand"),
])
async def test_bad_commands_are_explained(pool, text, expected):
    chat = Chat(SqliteStore(":memory:"), pool)
    replies = await chat.say(ANA, text)
    assert replies[0].private and expected.lower() in replies[0].text.lower() and not chat.core.state.tables


@pytest.mark.parametrize("text", ["help @everyone", "new time @here", "watch english english @everyone",
                                  "new <@&123456789012345678>", "help ```py", "@everyone", "new **bold**", "x_y_z_"])
async def test_what_a_person_typed_comes_back_inert(pool, text):
    chat = Chat(SqliteStore(":memory:"), pool)
    [reply] = await chat.say(ANA, text)
    assert reply.private and not chat.core.state.tables
    for live in ("@everyone", "@here", "<@", "```", "**", "_y_"):  # no ping, no mention, no formatting
        assert live not in reply.text, reply.text
    assert "\\u" not in reply.text  # the words as typed, not a repr of them


def test_names_are_cleaned_and_typed_words_made_inert():
    from bot.user_text import inert, neutral, plain

    assert neutral("_Ana_ <@1> @here\u202e") == "_Ana_ <\u2060@\u20601> @\u2060here"  # a name, kept as plain text
    assert neutral("x" * 40, 32) == "x" * 31 + "…"
    assert inert("# _Ana_ <@1>") == "\\# \\_Ana\\_ <\u2060@\u20601\\>"  # words repeated in a reply
    assert inert("- Ben") == "\\- Ben" and inert("1. Eve") == "1\\. Eve"
    for typed in ("# _Ana_ *b* `c` ~~d~~ ||e|| [f](g) \\h", "- Ben", "1. Eve"):
        assert plain(inert(typed)) == typed  # and the terminal shows them exactly as typed


def test_every_command_has_help_and_a_handler():
    assert set(HELP) - {"move"} == set(COMMANDS) - {"analyze"}
    assert "`analyze`" in HELP["analyse"][1]  # the other spelling, named in the help of the first
