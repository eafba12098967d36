"""The daily puzzle: chosen by a server's administrators, posted by the clock at its hour once a day (also across a
restart), the same puzzle everywhere that day, waiting while a game is on, and who solved it kept."""

from __future__ import annotations

from bot.core.daily import day_of, puzzle_of_the_day
from bot.store import SqliteStore
from chat import ANA, BEN, Chat, Clock, config
from engine import game_type

HOUR = 3600.0
MIDNIGHT = Clock().now - Clock().now % (24 * HOUR)  # the test clock's first day, at 00:00 UTC


def at(chat: Chat, day: int, hour: int, minute: int = 0) -> None:
    """Set the chat's clock to ``hour``:``minute`` UTC of the ``day``-th day after the test clock's first."""
    chat.clock.now = MIDNIGHT + day * 24 * HOUR + hour * HOUR + minute * 60


def solve_text(puzzle) -> list[str]:
    """The solver's moves of ``puzzle`` as players type them."""
    gt = game_type(puzzle.variant)
    here, typed = gt.read_position(puzzle.position), []
    for ply, text in enumerate(puzzle.solution):
        move = gt.parse_move(here, text)
        if ply % 2 == 0:
            typed.append(gt.write_move(here, move))
        here = gt.make(here, move)
    return typed


async def test_only_an_administrator_sets_the_daily_puzzle(pool):
    chat = Chat(SqliteStore(":memory:"), pool)
    assert "No daily puzzle is set" in (await chat.say(ANA, "daily"))[0].text
    refused = await chat.say(ANA, "daily here hour 14")
    assert refused[0].private and "Manage Server" in refused[0].text
    assert not await chat.store.dailies()
    [done] = await chat.say(ANA, "daily here hour 14 checkers", manager=True)
    assert "every day at 14:00 UTC" in done.text
    assert [(d.channel, d.hour, d.variant) for d in await chat.store.dailies()] == [("c1", 14, "english")]
    wrong = await chat.say(ANA, "daily here hour 25", manager=True)
    assert wrong[0].private and "0 to 23" in wrong[0].text
    await chat.say(ANA, "daily off", manager=True)
    assert not await chat.store.dailies()


async def test_the_daily_puzzle_is_posted_at_its_hour_once_and_keeps_who_solved_it(pool, tmp_path):
    path = str(tmp_path / "bot.sqlite3")
    chat = Chat(SqliteStore(path), pool)
    await chat.core.start()
    await chat.say(ANA, "daily here hour 14", manager=True)
    at(chat, 1, 13, 59)
    await chat.core.tick()
    assert not chat.core.state.puzzles
    at(chat, 1, 14)
    await chat.core.tick()
    day = day_of(chat.clock.now)[0]
    posted = chat.replies[-1]
    puzzle = puzzle_of_the_day("english", day)
    assert posted.text.startswith(f"Daily puzzle for {day} (English") and posted.board is not None
    assert chat.core.state.puzzles["c1"].served.puzzle == puzzle.id
    await chat.core.tick()
    assert chat.replies[-1] is posted  # once a day
    for typed in solve_text(puzzle):
        await chat.say(BEN, typed)
    assert "solved by ben!" in chat.replies[-1].text
    assert "Today's was solved by ben." in (await chat.say(ANA, "daily"))[0].text
    await chat.store.close()

    again = Chat(SqliteStore(path), pool)  # a restart later that day posts nothing new
    await again.core.start()
    at(again, 1, 20)
    await again.core.tick()
    assert not again.replies
    at(again, 2, 14, 5)  # the next day's comes at its hour, with that day's puzzle
    await again.core.tick()
    assert again.replies[-1].text.startswith(f"Daily puzzle for {day_of(again.clock.now)[0]}")
    assert again.core.state.puzzles["c1"].served.puzzle == puzzle_of_the_day("english", day_of(again.clock.now)[0]).id
    await again.store.close()


async def test_every_server_gets_the_same_daily_puzzle_once_a_day(pool):
    here, there = Chat(SqliteStore(":memory:"), pool), Chat(SqliteStore(":memory:"), pool)
    for chat, hour in ((here, 6), (there, 20)):
        await chat.core.start()
        await chat.say(ANA, f"daily here hour {hour}", manager=True)
        at(chat, 3, 21)
        await chat.core.tick()
    assert here.core.state.puzzles["c1"].served.puzzle == there.core.state.puzzles["c1"].served.puzzle
    await here.say(ANA, "solution")
    await here.say(ANA, "daily off", manager=True)
    await here.say(ANA, "daily here hour 6", manager=True)  # set again the same day: that day's was posted
    await here.core.tick()
    assert not here.core.state.puzzles
    at(here, 4, 6)
    await here.core.tick()
    assert here.core.state.puzzles["c1"].served.day == day_of(here.clock.now)[0]


async def test_the_daily_puzzle_waits_for_a_game_in_its_channel(pool):
    chat = Chat(SqliteStore(":memory:"), pool, config(move_time=0.05))
    await chat.core.start()
    await chat.say(ANA, "daily here hour 9", manager=True)
    at(chat, 1, 10)
    await chat.say(BEN, "new english level 1")
    await chat.core.tick()
    assert not chat.core.state.puzzles
    await chat.core.settle()
    await chat.say(BEN, "resign")
    await chat.core.tick()
    assert chat.replies[-1].text.startswith("Daily puzzle for")
    await chat.core.close()
