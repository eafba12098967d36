"""Games against the clock, through the core: a side whose time runs out loses, each move's time is taken from
its mover's clock with the increment added, the clocks come back after a restart and go back with a takeback, and
a correspondence player is reminded before their time runs out."""

from __future__ import annotations

import pytest

from bot.clocks import Clocks, TimeControl, think_time
from bot.store import SaveFailed, SqliteStore
from chat import ANA, BEN, EVE, Chat
from engine import Color, Termination


async def blitz(chat: Chat, control: str = "blitz") -> None:
    """Ana challenges Ben to a game of English with ``control``; she plays Black, who moves first there."""
    await chat.say(ANA, f"challenge @ben english black {control}", mentions=(BEN,))
    await chat.say(BEN, "accept")


async def opening(chat: Chat) -> None:
    """Ana and Ben each make a first move, and Ana a second: Ben, who has moved, is to move (a side that never
    moved and runs out aborts the game instead of losing it)."""
    for player in (ANA, BEN, ANA):
        await chat.play_any(player)


@pytest.fixture
def chat(pool):
    return Chat(SqliteStore(":memory:"), pool)


async def test_a_move_is_taken_from_its_movers_clock_with_the_increment_added(chat):
    await blitz(chat)
    table = chat.table()
    assert "3+2 (blitz)" in chat.texts()[-1] and table.control == TimeControl(3, 2)
    chat.clock.now += 10
    await chat.play_any(ANA)
    assert (table.clocks.black, table.clocks.white) == (172, 180)  # ten seconds used, two given back
    chat.clock.now += 30
    await chat.play_any(BEN)
    assert (table.clocks.black, table.clocks.white) == (172, 152)
    stored = await chat.store.game(table.id)
    assert [Clocks.from_json(c).white for c in stored.clocks] == [180, 152]  # every move kept with both clocks


async def test_the_side_whose_time_runs_out_loses_and_a_late_move_is_not_played(chat):
    await blitz(chat, "1+0")
    table = chat.table()
    await opening(chat)
    chat.clock.now += 61  # Ben thinks too long
    await chat.core.tick()
    assert not chat.on()
    assert "ana (Black) wins: ben ran out of time." in chat.texts()[-1]
    finished = await chat.store.finished_game(table.id)
    assert finished.ending.termination is Termination.TIME_OUT and finished.ending.winner is Color.BLACK

    await blitz(chat, "1+0")  # again; this time Ben moves after his time ran out, before anyone noticed
    await opening(chat)
    chat.clock.now += 61
    game = chat.table().game
    await chat.say(BEN, game.type.write_move(game.position, game.legal_moves()[0]))
    assert not chat.on() and len(game.moves) == 3 and "ben ran out of time" in chat.texts()[-1]


async def test_an_untimed_game_has_no_clock_and_the_idle_rule_still_ends_it(chat):
    await chat.say(ANA, "challenge @ben english black", mentions=(BEN,))
    await chat.say(BEN, "accept")
    assert chat.table().clocks is None
    for player in (ANA, BEN, ANA):
        await chat.play_any(player)
    chat.clock.now += 10 ** 6
    await chat.core.tick()
    assert "abandoned" in chat.texts()[-1]


async def test_a_timed_game_is_ended_by_its_clock_not_the_idle_rule(chat):
    await blitz(chat, "2 days")
    await chat.play_any(ANA)
    chat.clock.now += 36 * 3600  # longer than the idle rule allows, within Ben's two days
    await chat.core.tick()
    assert chat.on()


async def test_a_correspondence_player_is_reminded_once_before_their_time_runs_out(chat, pool):
    await blitz(chat, "1 day")
    await opening(chat)
    chat.clock.now += 11 * 3600
    await chat.core.tick()
    assert not [r for r in chat.replies if r.direct]
    chat.clock.now += 2 * 3600  # half his day is gone
    await chat.core.tick()
    await chat.core.tick()
    reminders = [r for r in chat.replies if r.direct]
    assert len(reminders) == 1 and reminders[0].mentions == (BEN,) and "11:00:00 left" in reminders[0].text
    await chat.core.close()  # a restart does not remind him again of the same move
    again = Chat(chat.store, pool)
    again.clock.now = chat.clock.now + 60
    await again.core.start()
    await again.core.tick()
    assert not [r for r in again.replies if r.direct]
    chat = again
    chat.clock.now += 12 * 3600
    await chat.core.tick()
    assert not chat.on() and "ben ran out of time" in chat.texts()[-1]


async def test_a_takeback_puts_the_clocks_back_as_they_were_after_the_move_before(chat):
    await blitz(chat)
    table = chat.table()
    chat.clock.now += 10
    await chat.play_any(ANA)
    chat.clock.now += 20
    await chat.play_any(BEN)
    chat.clock.now += 30
    await chat.say(BEN, "takeback")  # his last move goes, and the clocks with it
    await chat.say(ANA, "accept")
    assert len(table.game.moves) == 1 and table.game.turn is Color.WHITE
    assert (table.clocks.black, table.clocks.white, table.clocks.since) == (172, 180, chat.clock.now)


async def test_a_restart_gives_back_the_clocks_as_they_were_and_charges_nobody_for_the_time_away(pool, tmp_path):
    store = SqliteStore(str(tmp_path / "bot.sqlite3"))
    chat = Chat(store, pool)
    await blitz(chat)
    chat.clock.now += 10
    await chat.play_any(ANA)
    game_id = chat.table().id
    await chat.core.close()

    again = Chat(store, pool)  # a new process on the same database, an hour later
    again.clock.now = chat.clock.now + 3600
    await again.core.start()
    table = again.table()
    assert table.id == game_id and table.game.turn is Color.WHITE
    assert (table.clocks.black, table.clocks.white, table.clocks.since) == (172, 180, again.clock.now)
    await again.core.close()


async def test_a_time_control_is_read_where_the_games_options_are_and_a_bad_one_says_why(chat):
    replies = await chat.say(ANA, "new english 3+999")
    assert replies[0].private and "3+2" in replies[0].text and not chat.on()
    replies = await chat.say(ANA, "new english 3+2 time 2")
    assert replies[0].private and "clock" in replies[0].text and not chat.on()
    await chat.say(ANA, "new english 5+3 level 1")
    assert chat.table().control == TimeControl(5, 3) and "5+3 (blitz)" in chat.texts()[-1]


def test_the_bot_spends_a_share_of_its_clock_more_when_critical_and_never_all_of_it():
    assert think_time(60, 1, 0, False) < think_time(60, 1, 0, True) < 60 / 5 + 1
    left = 60.0
    for move in range(200):  # a long game at 1+1, each move's search and its overhead taken from the clock
        left += 1 - think_time(left, 1, move, move % 7 == 0) - 0.1
        assert left > 0.5, move


async def test_a_clock_that_runs_out_ends_the_game_by_itself_without_waiting_for_the_tick(chat):
    import asyncio
    import time

    from bot.core import flags

    await blitz(chat)
    await opening(chat)
    table = chat.table()
    chat.core.state.clock = time.time  # this test's clock is the real one
    async with table.lock:
        table.clocks = Clocks(black=100.0, white=0.3, since=time.time())  # Ben (White) has a third of a second
        flags.watch(chat.core.state, table)
    await asyncio.sleep(0.2)
    assert chat.on()
    await asyncio.sleep(0.4)
    assert not chat.on() and "ben ran out of time" in chat.texts()[-1]


async def test_ratings_are_kept_per_speed_and_rating_and_leaderboard_take_one(chat):
    await blitz(chat, "3+2")  # rated, as challenges are by default
    await opening(chat)
    chat.clock.now += 200
    await chat.core.tick()  # Ben loses on time
    mine = (await chat.say(ANA, "rating"))[0].text
    assert "English, blitz: 1" in mine and "correspondence" not in mine
    assert "English, blitz" in (await chat.say(ANA, "rating blitz"))[0].text
    assert "no rated games" in (await chat.say(ANA, "rating bullet"))[0].text
    best = (await chat.say(ANA, "leaderboard english blitz"))[0].text
    assert best.startswith("Best English players at blitz here:") and best.index("ana") < best.index("ben")
    assert "No rated English games at correspondence" in (await chat.say(ANA, "leaderboard english"))[0].text


async def test_a_rematch_swaps_colours_and_keeps_the_clock_against_the_bot_and_between_people(chat):
    assert "No game has ended" in (await chat.say(ANA, "rematch"))[0].text
    await chat.say(ANA, "new english black 5+3 level 1")
    await chat.play_any(ANA)  # (a game with no move is no game to play again)
    await chat.core.settle()
    await chat.say(ANA, "resign")
    await chat.say(ANA, "rematch")
    table = chat.table()
    assert table.seats[Color.WHITE].user == ANA and table.seats[Color.BLACK].level == 1  # colours swapped
    assert table.control == TimeControl(5, 3) and "5+3 (blitz)" in chat.texts()[-1]
    await chat.core.settle()
    await chat.say(ANA, "resign")

    await blitz(chat)  # Ana Black, Ben White, 3+2, rated
    await chat.play_any(ANA)
    await chat.say(BEN, "resign")
    refused = await chat.say(EVE, "rematch")
    assert refused[0].private and "Only a player" in refused[0].text
    asked = await chat.say(BEN, "rematch")
    assert "Rematch, colours swapped." in asked[0].text and asked[0].mentions == (ANA,)
    await chat.say(ANA, "accept")
    table = chat.table()
    assert table.seats[Color.BLACK].user == BEN and table.seats[Color.WHITE].user == ANA
    assert table.control == TimeControl(3, 2) and table.rated


async def test_a_players_last_games_are_listed_with_their_clock_and_end(chat):
    assert "ben has no finished games here yet." in (await chat.say(ANA, "games @ben", mentions=(BEN,)))[0].text
    await blitz(chat)
    await chat.play_any(ANA)
    await chat.say(BEN, "resign")
    await chat.say(ANA, "new english 5+3 level 1")
    await chat.play_any(ANA)
    await chat.core.settle()
    await chat.say(ANA, "resign")
    listed = (await chat.say(BEN, "games @ana", mentions=(ANA,)))[0].text
    lines = listed.splitlines()
    assert lines[0].startswith("ana's last games here") and len(lines) == 3
    assert "5+3 (blitz)" in lines[1] and "ana resigned" in lines[1]  # the latest first
    assert "3+2 (blitz), ben (White) vs ana (Black): ana (Black) wins: ben resigned." in lines[2]
    assert "ben resigned" in (await chat.say(ANA, "games @ben", mentions=(BEN,)))[0].text


async def test_a_side_that_never_moves_in_time_aborts_the_game_and_a_late_takeback_or_draw_loses(chat):
    await blitz(chat, "1+0")  # rated
    chat.clock.now += 61  # Ana (Black, to move first) never moves
    await chat.core.tick()
    assert not chat.on() and "Game aborted: ana never made a first move. It does not count." in chat.texts()[-1]
    assert "no rated games" in (await chat.say(ANA, "rating"))[0].text

    await blitz(chat, "1+0")
    await chat.play_any(ANA)
    await chat.play_any(BEN)
    await chat.say(BEN, "draw")  # Ben offers a draw; Ana's time runs out before she accepts it
    chat.clock.now += 61
    await chat.say(ANA, "accept")
    assert not chat.on() and "ben (White) wins: ana ran out of time." in chat.texts()[-1]

    await blitz(chat, "1+0")
    await chat.play_any(ANA)
    await chat.play_any(BEN)
    chat.clock.now += 61  # Ana's time runs out; a takeback would bring back earlier clocks
    await chat.say(BEN, "takeback")
    assert not chat.on() and "ana ran out of time" in chat.texts()[-1]


async def test_a_correspondence_deadline_stays_a_date_through_a_restart(pool, tmp_path):
    store = SqliteStore(str(tmp_path / "bot.sqlite3"))
    chat = Chat(store, pool)
    await blitz(chat, "1 day")
    await opening(chat)
    deadline = chat.table().clocks.deadline(Color.WHITE)
    await chat.core.close()
    again = Chat(store, pool)  # restarted half a day later
    again.clock.now = chat.clock.now + 12 * 3600
    await again.core.start()
    assert again.table().clocks.deadline(Color.WHITE) == deadline  # not a new day from the restart
    again.clock.now = deadline + 1
    await again.core.tick()
    assert not again.on() and "ben ran out of time" in again.texts()[-1]


def test_a_bot_move_that_waited_in_the_queue_past_its_due_time_searches_only_briefly():
    import time

    from bot.worker import Job, think
    from engine import game_type

    record = game_type("english").new_game()
    position = record.type.write_position(record.position)
    think(Job("english", position, record.history(), 6, 0.1))  # the searcher's first use sets it up
    on_time = think(Job("english", position, record.history(), 6, 0.3, due=time.time() + 10))
    late = think(Job("english", position, record.history(), 6, 3.0, due=time.time() - 1))
    # Measured in work, not seconds (this machine is shared): the late job is given a fiftieth of a second against
    # the on-time job's 0.3 s (the due time only shortens a search), and still answers with a move.
    assert late.move and late.nodes * 4 < on_time.nodes and late.depth < on_time.depth, (late, on_time)


async def test_a_reminder_kept_before_a_takeback_does_not_silence_the_next_one_after_a_restart(chat, pool):
    await blitz(chat, "1 day")
    await opening(chat)
    chat.clock.now += 13 * 3600
    await chat.core.tick()  # Ben is reminded of his move
    await chat.say(BEN, "takeback")
    await chat.say(ANA, "accept")
    for player in (BEN, ANA):  # back at the same ply, with new moves
        await chat.play_any(player)
    await chat.core.close()
    again = Chat(chat.store, pool)
    again.clock.now = chat.clock.now + 60
    await again.core.start()
    again.clock.now += 13 * 3600
    await again.core.tick()
    assert [r for r in again.replies if r.direct]  # reminded of this new move


async def test_a_reminder_whose_writes_answer_was_lost_leaves_the_next_move_playable(chat):
    await blitz(chat, "1 day")
    await opening(chat)
    written = chat.store.remove_moves

    async def lost(*args, **kwargs):
        await written(*args, **kwargs)
        raise SaveFailed("the answer was lost on the way")

    chat.store.remove_moves = lost
    chat.clock.now += 13 * 3600
    await chat.core.tick()
    chat.store.remove_moves = written
    assert len([r for r in chat.replies if r.direct]) == 1
    replies = await chat.say(BEN, chat.table().game.type.write_move(
        chat.table().game.position, chat.table().game.legal_moves()[0], full=True))
    assert not replies[0].private and len(chat.table().game.moves) == 4, replies[0].text
