"""Tournaments on Discord, end to end through the emulator: made and joined in a channel, each board played in
a thread of its own (or, where the bot may not make threads, in the channel itself, each message headed with its
board), and the winners posted in the channel."""

from __future__ import annotations

import random
import time

import pytest_asyncio

from bot.replies import User
from bot.store import SqliteStore
from bot.tournament import swiss
from discord_emulator import ANA, BEN, BOT, EVE, DiscordEmulator, text_of, user
from discord_harness import pointed_at, running
from engine import format_move
from test_discord import nothing_goes_wrong_quietly, until  # noqa: F401  (the fixture)
from test_tournament_pairing import check_swiss

MENTION = f"<@{BOT['id']}>"
DAN = user(100_000_000_000_000_077, "dan")
PEOPLE = (ANA, BEN, EVE, DAN)


@pytest_asyncio.fixture(loop_scope="session")
async def emulator():
    emu = DiscordEmulator()
    emu.people[int(DAN["id"])] = DAN
    await emu.start()
    with pointed_at(emu):
        yield emu
    await emu.close()


@pytest_asyncio.fixture(loop_scope="session")
async def store(tmp_path):
    s = SqliteStore(str(tmp_path / "bot.sqlite3"))
    yield s
    await s.close()


async def one_round_swiss(emulator: DiscordEmulator, channel: int) -> None:
    """Ana (the server's owner) makes a one-round Swiss event in ``channel``; four people join; she starts it."""
    await emulator.say(ANA, channel, f"{MENTION} tournament swiss english 1+0 1 rounds casual")
    for person in PEOPLE:
        await emulator.say(person, channel, f"{MENTION} tournament join")
    await emulator.say(ANA, channel, f"{MENTION} tournament start")
    await emulator.wait_for(lambda m: "Round 1 of 1:" in text_of(m), what="the pairings")


def room_of_person(bot, person: dict):
    return next(t for t in bot.core.state.tables.values() if t.tournament and any(
        s.user is not None and s.user.id == person["id"] for s in t.seats.values()))


async def test_each_board_is_played_in_a_thread_of_its_own_and_the_winners_are_posted(emulator, store, pool):
    games = emulator.channel("games")
    async with running(emulator, store, pool) as bot:
        await one_round_swiss(emulator, games)
        await until(lambda: len([c for c in emulator.channels.values() if c["type"] == 11]) == 2)
        threads = {c["name"]: int(c["id"]) for c in emulator.channels.values() if c["type"] == 11}
        assert sorted(threads) == ["Tournament #1, round 1, board 1", "Tournament #1, round 1, board 2"]
        assert all(emulator.channels[t]["parent_id"] == str(games) for t in threads.values())
        board = await emulator.wait_for(lambda m: int(m["channel_id"]) in threads.values() and "your move" in
                                        text_of(m), what="a board in its thread")
        thread = int(board["channel_id"])
        table = bot.core.state.tables[bot.delivery.rooms.room(None, thread)]
        mover = next(p for p in PEOPLE if p["id"] == table.to_move.user.id)
        mistake = await emulator.say(mover, thread, "9-18")  # a mistake is answered in its thread, to its writer
        note = await emulator.wait_for(lambda m: "Legal moves" in text_of(m), what="the answer to a mistake")
        assert int(note["channel_id"]) == thread and str(note["message_reference"]["message_id"]) == mistake["id"]
        since = len(emulator.posts)
        await emulator.say(mover, thread, f"{MENTION} resign")  # typed in the board's thread
        await emulator.wait_for(lambda m: int(m["channel_id"]) == thread and "resigned" in text_of(m), since)
        other = next(t for t in bot.core.state.tables.values() if t.tournament)
        person = next(p for p in PEOPLE if p["id"] == other.to_move.user.id)
        await emulator.say(person, games, f"{MENTION} resign")  # typed in the tournament's channel: to their game
        await emulator.wait_for(lambda m: "resigned" in text_of(m) and int(m["channel_id"]) != thread, since)
        await bot.core.tick()
        over = await emulator.wait_for(lambda m: "is over" in text_of(m), what="the winners")
        assert int(over["channel_id"]) == games and "Standings:" in text_of(over)
        png = over["_files"]["standings-1.png"]  # the standings as an image too
        assert png.startswith(b"\x89PNG") and over["embeds"][0]["image"]["url"] == "attachment://standings-1.png"
        await until(lambda: [e["status"] for e in emulator.events] == [3])  # its server event is over too


async def test_where_threads_are_not_allowed_the_boards_are_played_in_the_channel_headed_with_their_board(
        emulator, store, pool):
    hall = emulator.add_channel("no-threads", denied=1 << 35)  # no Create Public Threads
    async with running(emulator, store, pool) as bot:
        await one_round_swiss(emulator, hall)
        first = await emulator.wait_for(lambda m: "Tournament #1, round 1, board 1:" in text_of(m), what="board 1")
        assert int(first["channel_id"]) == hall and not [c for c in emulator.channels.values() if c["type"] == 11]
        table = room_of_person(bot, ANA)
        game = table.game
        mover = next(p for p in PEOPLE if p["id"] == table.to_move.user.id)
        since = len(emulator.posts)
        await emulator.say(mover, hall, format_move(game.position, game.legal_moves()[0]))  # a move, typed alone
        played = await emulator.wait_for(lambda m: "played" in text_of(m), since, what="the move")
        assert text_of(played).startswith(f"Tournament #1, round 1, board {table.channel[-1]}:")


async def test_slash_commands_make_join_and_start_a_tournament_and_show_its_standings(emulator, store, pool):
    games = emulator.channel("games")
    async with running(emulator, store, pool) as bot:
        assert {c["name"] for c in emulator.commands} == {"draughts", "tournament"}
        made = await emulator.answer(await emulator.slash(ANA, games, "swiss", group="tournament", variant="russian",
                                                          clock="5+3", rounds=3, starts_in=30))
        assert "Tournament #1: Russian Swiss of 3 rounds, 5+3 (blitz), rated" in text_of(made)
        assert "starts in 30 min" in text_of(made)
        await until(lambda: len(emulator.events) == 1)  # listed among the server's events too
        [event] = emulator.events
        assert event["name"].startswith("Tournament #1: Russian Swiss") and event["entity_type"] == 3
        assert event["entity_metadata"]["location"] == "#games" and "tournament join" in event["description"]
        refused = await emulator.answer(await emulator.slash(BEN, games, "cancel", group="tournament"))
        assert "administrators" in text_of(refused)
        for person in (BEN, EVE):
            joined = await emulator.answer(await emulator.slash(person, games, "join", group="tournament"))
            assert "joins" in text_of(joined)
        await emulator.answer(await emulator.slash(ANA, games, "bot", group="tournament", level=3))
        shown = await emulator.answer(await emulator.slash(EVE, games, "standings", group="tournament"))
        assert "Standings:" in text_of(shown) and "Bot level 3" in text_of(shown)
        await emulator.answer(await emulator.slash(ANA, games, "start", group="tournament"))
        await emulator.wait_for(lambda m: "Round 1 of 3:" in text_of(m), what="the pairings")
        [t] = bot.core.state.tournaments.values()
        assert (t.variant, str(t.control), t.rounds, len(t.players)) == ("russian", "5+3", 3, 3)
        await until(lambda: event["status"] == 2)  # its server event is under way too
        await emulator.answer(await emulator.slash(ANA, games, "cancel", group="tournament"))
        await until(lambda: event["status"] == 3)  # (Discord ends a started event; only one not started is cancelled)


async def rooms_empty(bot) -> bool:
    return not any(t.tournament for t in bot.core.state.tables.values())


async def play_out_round(emulator: DiscordEmulator, bot, channel: int, loser) -> None:
    """Every game of the round ended: in each game with a person, ``loser(table)`` (a person) resigns, typing in
    the tournament's channel; bots' games against each other are played out."""
    for table in [t for t in bot.core.state.tables.values() if t.tournament]:
        people = [seat.user for seat in table.seats.values() if seat.user is not None]
        if people:
            person = loser(table, people)
            await emulator.say(next(p for p in emulator.people.values() if p["id"] == person.id), channel,
                               f"{MENTION} resign")
    await until(lambda: not any(t.tournament for t in bot.core.state.tables.values()), timeout=120)


async def test_a_swiss_event_of_five_rounds_with_sixteen_players_keeps_the_swiss_rules(emulator, store, pool):
    games = emulator.channel("games")
    people = [user(100_000_000_000_000_100 + k, f"p{k:02}") for k in range(14)]
    for person in people:
        emulator.people[int(person["id"])] = person
    rnd = random.Random(16)
    async with running(emulator, store, pool, max_move_time=0.05) as bot:
        await emulator.say(ANA, games, f"{MENTION} tournament swiss english 1+0 5 rounds casual")
        for person in people:
            await emulator.say(person, games, f"{MENTION} tournament join")
        for level in (1, 4):  # and the bot at two levels
            await emulator.say(ANA, games, f"{MENTION} tournament bot {level}")
        await emulator.say(ANA, games, f"{MENTION} tournament start")
        for number in range(1, 6):
            await emulator.wait_for(lambda m: f"Round {number} of 5:" in text_of(m), what=f"round {number}")
            await until(lambda: sum(1 for t in bot.core.state.tables.values() if t.tournament) == 8)
            await play_out_round(emulator, bot, games, lambda table, ps: rnd.choice(ps))
            await bot.core.tick()
        over = await emulator.wait_for(lambda m: "is over" in text_of(m), what="the winners")
        assert over["_files"]["standings-1.png"].startswith(b"\x89PNG")
        [tid] = await store.tournaments_of(str(emulator.guild_of(games)))
        t = await store.tournament(tid)
        players = [e.id for e in t.players]
        assert len(players) == 16 and len(t.pairings) == 5 * 8
        check_swiss(players, [swiss.Game(p.round, p.white, p.black, p.result) for p in t.pairings])
        assert all(p.result is not None for p in t.pairings)  # every game played to a result


async def test_an_arena_of_ten_scores_streaks_and_berserk_as_lidraughts_does(emulator, store, pool):
    games = emulator.channel("games")
    people = [ANA, BEN, EVE, DAN] + [user(100_000_000_000_000_200 + k, f"a{k}") for k in range(6)]
    for person in people:
        emulator.people[int(person["id"])] = person
    star = people[1]  # Ben: his opponents resign twice, then he goes berserk and wins in 14 plies
    later = [0.0]
    rnd = random.Random(10)
    async with running(emulator, store, pool, clock=lambda: time.time() + later[0]) as bot:
        await emulator.say(ANA, games, f"{MENTION} tournament arena english 1+0 5 minutes casual")
        for person in people:
            await emulator.say(person, games, f"{MENTION} tournament join")
        await emulator.say(ANA, games, f"{MENTION} tournament start")
        for wave in range(3):
            await until(lambda: sum(1 for t in bot.core.state.tables.values() if t.tournament) == 5)
            mine = next(t for t in bot.core.state.tables.values() if t.tournament and t.colour_of(
                User(star["id"], star["username"])) is not None)
            if wave == 2:
                await emulator.say(star, games, f"{MENTION} berserk")
                await until(lambda: star["id"] in mine.berserk)
                for _ in range(14):
                    game = mine.game
                    mover = next(p for p in people if p["id"] == mine.to_move.user.id)
                    before = len(game.moves)
                    await emulator.say(mover, games, format_move(game.position, game.legal_moves()[0]))
                    await until(lambda: len(mine.game.moves) == before + 1)
            await play_out_round(emulator, bot, games, lambda table, ps: next(
                (p for p in ps if p.id != star["id"]), None) if table is mine else rnd.choice(ps))
            await bot.core.tick()  # the next wave: everyone is free
        t = (await store.tournament(next(iter(bot.core.state.tournaments))))
        assert t.sheets()[star["id"]].scores == (2, 2, 5)  # two wins, then a third on fire (4) and berserk (+1)
        shown = await emulator.answer(await emulator.slash(EVE, games, "standings", group="tournament"))
        assert f"{star['global_name'] or star['username']}: 9 (on fire)" in text_of(shown).replace("**", "")
        later[0] = 6 * 60.0  # the arena's time is up: its games on end, and no new one starts
        await play_out_round(emulator, bot, games, lambda table, ps: ps[0])
        await bot.core.tick()
        over = await emulator.wait_for(lambda m: "is over" in text_of(m), what="the winners")
        assert star.get("global_name", "") in text_of(over) or star["username"] in text_of(over)
