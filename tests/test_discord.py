"""The Discord front end end to end: discord.py, unmodified, against a Discord emulated on loopback.

People type messages, run slash commands, press buttons and pick moves from
menus in the emulator; the tests read what the bot posted there.
"""

from __future__ import annotations

import asyncio
import copy
from dataclasses import replace
import logging
from types import SimpleNamespace

import discord
import pytest
import pytest_asyncio

from bot.core import Core
from bot.discord.views import pages_of
from bot.store import SqliteStore
from bot.replies import Message, User
from bot.tables import Kind
from bot.web.pages import Pages
from bot.web.seats import SeatKeys
from discord_emulator import (ANA, BEN, BOT, EPHEMERAL, EVE, GUILD, LOADING, DiscordEmulator, components,
                              text_of, user)
from discord_harness import CONFIG, pointed_at, running
from engine import Color, format_move

MENTION = f"<@{BOT['id']}>"


@pytest_asyncio.fixture(loop_scope="session")
async def emulator():
    emu = DiscordEmulator()
    await emu.start()
    with pointed_at(emu):
        yield emu
    await emu.close()
    late = [(i.id, i.kind) for i in emu.interactions.values() if i.answered is None or i.answered - i.created > 3.0]
    assert not late, f"interactions not acknowledged within Discord's 3 s: {late}"


@pytest.fixture(autouse=True)
def nothing_goes_wrong_quietly(caplog):
    """Every test also checks that neither the bot nor discord.py logged an error."""
    yield
    errors = [f"{r.name}: {r.getMessage()}" for r in caplog.get_records("call") if r.levelno >= logging.ERROR]
    assert not errors, errors


@pytest_asyncio.fixture(loop_scope="session")
async def store(tmp_path):
    s = SqliteStore(str(tmp_path / "bot.sqlite3"))
    yield s
    await s.close()


def has_file(message: dict, ending: str) -> bool:
    return any(name.endswith(ending) for name in message["_files"])


def menu(message: dict) -> dict | None:
    return next((c for c in components(message) if c["type"] == 3), None)


def buttons(message: dict) -> dict[str, dict]:
    return {c["label"]: c for c in components(message) if c["type"] == 2}


async def latest_board(emu: DiscordEmulator, channel: int, since: int = 0) -> dict:
    """The newest board with a move menu in ``channel`` (waiting for one)."""
    await emu.wait_for(lambda m: int(m["channel_id"]) == channel and menu(m) is not None, since, what="a board")
    return [m for m in emu.posted(channel) if menu(m) is not None][-1]


async def until(condition, timeout: float = 10.0) -> None:
    for _ in range(int(timeout / 0.02)):
        if condition():
            return
        await asyncio.sleep(0.02)
    assert condition()


async def bot_to_answer(bot) -> None:
    """Wait until no game against the bot waits on it. (A person's move is posted before the bot starts to think:
    a test that saw the post may ask before there is a search to wait for.)"""
    for _ in range(1200):
        await bot.core.settle(matches=False)
        if all(not t.to_move.is_bot or t.game.result() is not None for t in bot.core.state.tables.values()
               if t.kind is Kind.BOT):
            break
        await asyncio.sleep(0.05)
    await asyncio.sleep(0.05)  # the reply's HTTP round trip


async def test_a_whole_game_by_typed_moves(emulator, store, pool, caplog):
    caplog.set_level(logging.INFO, "bot.discord.client")
    games = emulator.channel("games")
    async with running(emulator, store, pool) as bot:
        assert emulator.identifies == 1 and emulator.commands[0]["name"] == "draughts"
        assert "Message Content intent on" in caplog.text  # the mode, said at start
        await emulator.say(ANA, games, f"{MENTION} new english level 1 time 0.05")
        first = await emulator.wait_for(lambda m: "New game" in text_of(m), what="the new game")
        assert first["embeds"][0]["image"]["url"] == "attachment://game-1.png"
        assert first["_files"]["game-1.png"].startswith(b"\x89PNG")
        table = bot.core.state.tables[str(games)]
        while str(games) in bot.core.state.tables:
            await bot_to_answer(bot)
            if str(games) not in bot.core.state.tables:
                break
            since = len(emulator.posts)
            await emulator.say(ANA, games, format_move(table.game.position, table.game.legal_moves()[0]))
            await emulator.wait_for(lambda m: "Ana played" in text_of(m) or "wins" in text_of(m), since)
        final = await emulator.wait_for(lambda m: has_file(m, ".gif"), what="the final message")
        assert "wins" in text_of(final) or "Draw" in text_of(final)
        assert b'[Event "Draughts bot game 1"]' in final["_files"]["game-1.pdn"]
        assert final["_files"]["game-1.gif"].startswith(b"GIF8")
        bot_moves = [m for m in emulator.posted(games) if "I played" in text_of(m)]
        assert bot_moves and all("evaluation" in text_of(m) for m in bot_moves)
        *earlier, last_board = [m for m in emulator.posted(games) if has_file(m, ".png")]
        await until(lambda: all(c["disabled"] for c in components(last_board)))  # buttons greyed out at the end
        assert all(components(m) == [] for m in earlier)  # only the latest board ever had live controls
        chatter = len(emulator.posts)
        await emulator.say(BEN, games, "11-15 is what I would play")  # no game: people talking are left alone
        await asyncio.sleep(0.2)
        assert len(emulator.posts) == chatter


async def test_a_move_typed_alone_is_read_in_every_form_the_engine_reads(emulator, store, pool):
    games, tablut = emulator.channel("games"), emulator.channel("more-games")
    async with running(emulator, store, pool) as bot:
        await emulator.say(ANA, games, f"{MENTION} new english level 1 time 0.05")
        await emulator.wait_for(lambda m: "New game" in text_of(m))
        since = len(emulator.posts)
        await emulator.say(ANA, games, "11 15")  # squares apart, as the README says a move may be typed
        await emulator.wait_for(lambda m: "Ana played 11-15" in text_of(m), since)
        await bot_to_answer(bot)
        since = len(emulator.posts)
        await emulator.say(ANA, games, "1×10")  # a move, though not a legal one: answered, not ignored
        await emulator.wait_for(lambda m: "Legal moves" in text_of(m), since)
        since = len(emulator.posts)
        await emulator.say(ANA, games, "gg, 2 more games after this?")  # chatter with numbers is left alone ...
        game = bot.core.state.tables[str(games)].game
        await emulator.say(ANA, games, format_move(game.position, game.legal_moves()[0]))
        answer = await emulator.wait_for(lambda m: "Ana played" in text_of(m), since)
        assert emulator.posted(since=since)[0] is answer  # ... the move after it is the first thing answered
        await emulator.say(ANA, tablut, f"{MENTION} new tablut white level 1 time 0.05")
        await emulator.wait_for(lambda m: "Tablut" in text_of(m), since)
        await emulator.say(ANA, tablut, "e3c3")
        await emulator.wait_for(lambda m: "Ana played e3-c3" in text_of(m), since)


async def test_the_start_says_nothing_of_voice_which_the_bot_has_no_use_for(emulator, store, pool, caplog,
                                                                            monkeypatch):
    # as in a fresh process without PyNaCl and davey (discord.py warns once a process, at its first client)
    monkeypatch.setattr(discord.VoiceClient, "warn_nacl", True)
    monkeypatch.setattr(discord.VoiceClient, "warn_dave", True)
    caplog.set_level(logging.INFO)
    async with running(emulator, store, pool):
        pass
    assert "Message Content intent on" in caplog.text  # what the start does say
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING] == []  # and no warning


async def test_a_wrong_token_is_refused_at_login(emulator, store, pool):
    with pytest.raises(discord.LoginFailure):
        async with running(emulator, store, pool, token="not-the-token"):
            pass
    assert emulator.identifies == 0


async def test_a_typed_mistake_is_answered_in_a_reply_that_goes_away(emulator, store, pool):
    games = emulator.channel("games")
    async with running(emulator, store, pool) as bot:
        await emulator.say(ANA, games, f"{MENTION} new english level 1")
        await emulator.wait_for(lambda m: "New game" in text_of(m))
        mistake = await emulator.say(ANA, games, "9-18")
        note = await emulator.wait_for(lambda m: "Legal moves" in text_of(m))
        assert str(note["message_reference"]["message_id"]) == mistake["id"] and not note["_mentions"]["replied_user"]
        assert bot.core.state.tables[str(games)].game.moves == []


async def test_words_after_a_mention_come_back_inert(emulator, store, pool):
    games = emulator.channel("games")
    async with running(emulator, store, pool):
        await emulator.say(ANA, games, f"{MENTION} @everyone")
        note = await emulator.wait_for(lambda m: "don't know" in text_of(m))
        assert "@everyone" not in text_of(note) and "\\u" not in text_of(note) and "everyone" in text_of(note)


async def test_without_message_content_a_move_needs_a_mention(emulator, store, pool, caplog):
    caplog.set_level(logging.INFO, "bot.discord.client")
    games = emulator.channel("games")
    async with running(emulator, store, pool, message_content=False) as bot:
        assert "Message Content intent off" in caplog.text
        await emulator.say(ANA, games, f"{MENTION} new english level 1 time 0.05")
        await emulator.wait_for(lambda m: "New game" in text_of(m))
        game = bot.core.state.tables[str(games)].game
        since = len(emulator.posts)
        await emulator.say(ANA, games, "9-13")  # Discord hides the words from the bot
        await asyncio.sleep(0.3)
        assert len(game.moves) == 0 and emulator.posted(since=since) == []
        await emulator.say(ANA, games, f"{MENTION} 9-13")
        await emulator.wait_for(lambda m: "Ana played 9-13" in text_of(m), since)


async def test_a_whole_game_by_slash_commands_and_the_move_menu(emulator, store, pool):
    games = emulator.channel("games")
    async with running(emulator, store, pool) as bot:
        answer = await emulator.answer(await emulator.slash(ANA, games, "new", variant="russian", level=1, time=0.05))
        assert "New game" in text_of(answer) and answer["embeds"][0]["footer"]["text"].startswith("Russian")
        assert set(buttons(answer)) == {"Resign", "Offer draw", "Takeback"}
        table = bot.core.state.tables[str(games)]
        typed = await emulator.autocomplete(ANA, games, "c3")
        await asyncio.sleep(0.3)
        assert typed.choices and all(c["value"].startswith("c3") for c in typed.choices)
        wrong = await emulator.answer(await emulator.slash(ANA, games, "move", move="a1-h8"))
        assert wrong["flags"] & EPHEMERAL and "Legal moves:" in text_of(wrong)  # privately, with the legal ones
        turn = 0
        while str(games) in bot.core.state.tables:
            await bot_to_answer(bot)
            if str(games) not in bot.core.state.tables:
                break
            legal = [format_move(table.game.position, m) for m in table.game.legal_moves()]
            if turn % 2:
                done = await emulator.slash(ANA, games, "move", move=legal[0])
            else:
                board = await latest_board(emulator, games)
                offered = [o["value"] for o in menu(board)["options"]]
                assert sorted(offered) == sorted(legal)
                done = await emulator.choose(ANA, board, legal[-1])
            reply = await emulator.answer(done)
            assert not reply["flags"] & EPHEMERAL, text_of(reply)
            turn += 1
        final = await emulator.wait_for(lambda m: has_file(m, ".gif"), what="the final message")
        assert "wins" in text_of(final) or "Draw" in text_of(final)
        assert await store.active_games() == []


async def test_a_challenge_accepted_by_a_second_user_and_played_to_a_result(emulator, store, pool):
    games = emulator.channel("games")
    async with running(emulator, store, pool) as bot:
        offer = await emulator.answer(await emulator.slash(ANA, games, "challenge", opponent=BEN, colour="white"))
        assert "challenges Ben" in text_of(offer) and set(buttons(offer)) == {"Accept", "Decline"}
        assert [str(u) for u in offer["_mentions"]["users"]] == [BEN["id"]]  # Ben is notified, nobody else
        refused = await emulator.answer(await emulator.press(EVE, offer, "Accept"))
        assert refused["flags"] & EPHEMERAL and "for Ben" in text_of(refused)
        accepted = await emulator.answer(await emulator.press(BEN, offer, "Accept"))
        assert "Ben accepts" in text_of(accepted)
        table = bot.core.state.tables[str(games)]
        assert table.seats[Color.WHITE].user.id == ANA["id"] and table.rated
        for _ in range(6):
            person = ANA if table.game.turn == Color.WHITE else BEN
            board = await latest_board(emulator, games)
            await emulator.answer(await emulator.choose(person, board, menu(board)["options"][0]["value"]))
        board = await latest_board(emulator, games)
        ended = await emulator.answer(await emulator.press(BEN, board, "Resign"))
        assert "Ana (White) wins: Ben resigned" in text_of(ended) and "Ratings:" in text_of(ended)
        assert has_file(ended, ".pdn") and has_file(ended, ".gif")
        top = await emulator.answer(await emulator.slash(EVE, games, "leaderboard", variant="english"))
        assert "1. Ana" in text_of(top)


async def test_a_bot_match_watched_to_the_end(emulator, store, pool):
    games = emulator.channel("games")
    async with running(emulator, store, pool) as bot:
        start = await emulator.answer(await emulator.slash(EVE, games, "watch", variant="english", first=6, second=1,
                                                           delay=0.0, time=0.05))
        assert "Bot match" in text_of(start) and components(start) == []  # nothing to press in a match
        final = await emulator.wait_for(lambda m: has_file(m, ".gif"), timeout=120, what="the end of the match")
        assert "wins" in text_of(final) or "Draw" in text_of(final)
        played = [m for m in emulator.posted(games) if "played" in text_of(m)]
        assert played and all(has_file(m, ".png") for m in played)
        await asyncio.sleep(0.2)
        assert all(components(m) == [] for m in played)  # nothing to press in a match, even at its end
        assert str(games) not in bot.core.state.tables


async def test_a_stranger_pressing_a_games_buttons_is_refused_privately(emulator, store, pool):
    games = emulator.channel("games")
    async with running(emulator, store, pool) as bot:
        board = await emulator.answer(await emulator.slash(ANA, games, "new", level=1, time=0.05))
        await bot_to_answer(bot)
        board = await latest_board(emulator, games)
        for act in (emulator.press(EVE, board, "Resign"), emulator.press(EVE, board, "Offer draw"),
                    emulator.choose(EVE, board, menu(board)["options"][0]["value"])):
            refused = await emulator.answer(await act)
            assert refused["flags"] & EPHEMERAL and text_of(refused) == "You are not in this game."
        table = bot.core.state.tables[str(games)]
        assert table.game.moves == [] and table.draw_offer is None
        # once the game moves on, the old board loses its controls; a client still showing them is refused
        shown = copy.deepcopy(board)
        await emulator.answer(await emulator.choose(ANA, board, menu(board)["options"][0]["value"]))
        await bot_to_answer(bot)
        await until(lambda: components(board) == [])
        stale = await emulator.answer(await emulator.choose(ANA, shown, menu(shown)["options"][1]["value"]))
        assert stale["flags"] & EPHEMERAL and "out of date" in text_of(stale)


async def test_with_a_public_web_page_boards_link_to_it_and_players_get_their_seat_privately(emulator, store, pool):
    games = emulator.channel("games")
    def web_page(core):
        return Pages(SeatKeys(b"k" * 32), "https://draughts.example", core)

    async with running(emulator, store, pool, pages=web_page, web_url="https://draughts.example") as bot:
        pages = bot.pages
        await emulator.answer(await emulator.slash(ANA, games, "new", level=1, time=0.05))
        board = await latest_board(emulator, games)
        game = bot.core.game_in(str(games))
        assert buttons(board)["Watch live"]["url"] == f"https://draughts.example{pages.game_path(game)}"
        seat = await emulator.answer(await emulator.press(ANA, board, "Play in browser"))
        assert seat["flags"] & EPHEMERAL
        link = text_of(seat).split()[-1]
        assert link.startswith(f"https://draughts.example{pages.game_path(game)}#seat=")
        assert pages.keys.check(game, Color.BLACK, str(ANA["id"]), link.split("#seat=")[1])
        other = await emulator.answer(await emulator.press(EVE, board, "Play in browser"))
        assert other["flags"] & EPHEMERAL and "#seat=" not in text_of(other)
    async with running(emulator, store, pool) as bot:  # without BOT_WEB_URL, no links: the page is not public
        await emulator.answer(await emulator.slash(BEN, emulator.channel("more-games"), "new", level=1, time=0.05))
        board = await latest_board(emulator, emulator.channel("more-games"))
        assert "Watch live" not in buttons(board) and "Play in browser" not in buttons(board)


async def test_the_websocket_dropped_mid_game_resumes_with_nothing_lost(emulator, store, pool):
    games = emulator.channel("games")
    async with running(emulator, store, pool) as bot:
        await emulator.say(ANA, games, f"{MENTION} new english level 1 time 0.05")
        await emulator.wait_for(lambda m: "New game" in text_of(m))
        game = bot.core.state.tables[str(games)].game
        await emulator.drop()
        since = len(emulator.posts)
        await emulator.say(ANA, games, "9-13")  # sent while the bot is away: Discord keeps it for the resume
        await emulator.wait_for(lambda m: "Ana played 9-13" in text_of(m), since, what="the move made while away")
        await emulator.wait_for(lambda m: "I played" in text_of(m), since, what="the bot's answer")
        assert (emulator.resumes, emulator.identifies) == (1, 1)  # resumed, not a new session
        assert len(game.moves) == 2 and len((await store.active_games())[0].moves) == 2


async def test_the_bot_restarted_mid_game_keeps_its_buttons_working_on_the_latest_board_only(emulator, tmp_path, pool):
    games = emulator.channel("games")
    path = str(tmp_path / "bot.sqlite3")
    first_store = SqliteStore(path)
    async with running(emulator, first_store, pool) as bot:
        await emulator.answer(await emulator.slash(ANA, games, "new", level=1, time=0.05, colour="white"))
        await bot_to_answer(bot)
        shown = copy.deepcopy(await latest_board(emulator, games))  # as a client that has not refreshed shows it
    await first_store.close()

    def live() -> list[dict]:
        return [m for m in emulator.posted(games) if any(not c.get("disabled") for c in components(m))]

    second_store = SqliteStore(path)
    try:
        async with running(emulator, second_store, pool) as bot:
            assert len(bot.core.state.tables[str(games)].game.moves) == 1
            since = len(emulator.posts)
            choice = menu(shown)["options"][0]["value"]
            played = await emulator.answer(await emulator.choose(ANA, shown, choice))
            assert f"Ana played {choice}" in text_of(played)
            await emulator.wait_for(lambda m: "I played" in text_of(m), since)
            await bot_to_answer(bot)
            latest = await latest_board(emulator, games)
            await until(lambda: live() == [latest])  # the board from before the restart lost its controls
            gone = await emulator.answer(await emulator.press(ANA, shown, "Resign"))  # still works: resigns
            assert "resigned" in text_of(gone)
            await until(lambda: live() == [gone])  # and at the end no board shows a control that could be pressed:
            assert set(buttons(gone)) == {"Analyse", "Rematch"}  # only the game's end: Analyse (anyone) and Rematch
            assert all(c["disabled"] for c in components(latest))
    finally:
        await second_store.close()


async def test_a_stopped_bot_match_sends_its_files_under_its_own_number(emulator, store, pool):
    games, other = emulator.channel("games"), emulator.channel("more-games")
    async with running(emulator, store, pool) as bot:
        await emulator.answer(await emulator.slash(ANA, other, "new", level=1))  # game 1, so the match is game 2
        await emulator.answer(await emulator.slash(EVE, games, "watch", variant="english", delay=5.0, time=0.05))
        await until(lambda: len(bot.core.state.tables) == 2)
        stopped = await emulator.answer(await emulator.slash(EVE, games, "stop"))
        assert "stopped" in text_of(stopped)
        assert set(stopped["_files"]) == {"game-2.pdn", "game-2.gif"}
        assert b'[Event "Draughts bot game 2"]' in stopped["_files"]["game-2.pdn"]


async def test_a_rate_limited_message_create_is_retried(emulator, store, pool):
    games = emulator.channel("games")
    async with running(emulator, store, pool):
        emulator.rate_limit("POST", rf"/channels/{games}/messages", retry_after=0.3)
        await emulator.say(ANA, games, f"{MENTION} games")
        answer = await emulator.wait_for(lambda m: "No games" in text_of(m))
        assert emulator.limited == 1 and answer and len(emulator.posted(games)) == 1  # sent once, after the wait


async def test_a_reply_lost_with_its_connection_is_logged_in_one_line_and_the_chat_goes_on(emulator, store, pool,
                                                                                        caplog):
    caplog.set_level(logging.INFO)
    games = emulator.channel("games")
    async with running(emulator, store, pool) as bot:
        await emulator.say(ANA, games, f"{MENTION} new english level 1 time 0.05")
        await emulator.wait_for(lambda m: "New game" in text_of(m))
        table = bot.core.state.tables[str(games)]
        move = format_move(table.game.position, table.game.legal_moves()[0])
        emulator.hang_up("POST", rf"/channels/{games}/messages")  # the reply to Ana's move: the connection drops
        since = len(emulator.posts)
        await emulator.say(ANA, games, move)
        await until(lambda: emulator.hung_up == 1)
        await bot_to_answer(bot)  # the bot moves all the same, and says so
        await emulator.wait_for(lambda m: "I played" in text_of(m), since)
        assert not any("Ana played" in text_of(m) for m in emulator.posted(games, since))  # lost on the way
        noted = [r for r in caplog.records if r.levelno >= logging.WARNING]
        assert len(noted) == 1 and noted[0].name == "bot.discord.delivery", [r.getMessage() for r in noted]
        assert noted[0].exc_info is None and "\n" not in noted[0].getMessage(), noted[0].getMessage()
        assert str(games) in noted[0].getMessage()
        since = len(emulator.posts)
        await emulator.say(ANA, games, f"{MENTION} board")  # nothing about the game was lost: board shows it
        board = await emulator.wait_for(lambda m: has_file(m, ".png"), since)
        assert board and table.game.moves and format_move(table.game.positions[0], table.game.moves[0]) == move


async def test_a_connection_lost_while_an_old_board_loses_its_buttons_leaves_the_game_going(emulator, store, pool,
                                                                                            caplog):
    caplog.set_level(logging.INFO, "bot.discord.delivery")
    games = emulator.channel("games")
    async with running(emulator, store, pool) as bot:
        await emulator.say(ANA, games, f"{MENTION} new english level 1 time 0.05")
        first = await emulator.wait_for(lambda m: "New game" in text_of(m))
        emulator.hang_up("PATCH", rf"/channels/{games}/messages/{first['id']}")
        table = bot.core.state.tables[str(games)]
        await emulator.say(ANA, games, format_move(table.game.position, table.game.legal_moves()[0]))
        await emulator.wait_for(lambda m: "Ana played" in text_of(m))
        await until(lambda: "could not change the buttons of message" in caplog.text)
        assert emulator.hung_up == 1 and buttons(first)  # the old board keeps them, and the log says why
        await bot_to_answer(bot)
        since = len(emulator.posts)
        await emulator.say(ANA, games, format_move(table.game.position, table.game.legal_moves()[0]))
        await emulator.wait_for(lambda m: "Ana played" in text_of(m), since)  # the game goes on


async def test_a_channel_without_attach_files_gets_the_text_board(emulator, store, pool):
    quiet = emulator.channel("no-files")
    async with running(emulator, store, pool):
        await emulator.say(ANA, quiet, f"{MENTION} new english level 1")
        board = await emulator.wait_for(lambda m: "New game" in text_of(m))
        assert board["_files"] == {} and "```" in board["content"] and " b " in board["content"].lower()
        assert buttons(board)  # the buttons work without pictures


async def test_a_channel_the_bot_cannot_write_in_is_said_privately(emulator, store, pool):
    closed = emulator.channel("read-only")
    async with running(emulator, store, pool) as bot:
        await emulator.say(ANA, closed, f"{MENTION} new")
        told = await emulator.wait_for(lambda m: "cannot write in #read-only" in text_of(m))
        assert emulator.channels[int(told["channel_id"])]["type"] == 1  # a direct message
        slash = await emulator.answer(await emulator.slash(ANA, closed, "new"))
        assert slash["flags"] & EPHEMERAL and "cannot write" in text_of(slash)
        assert bot.core.state.tables == {}


async def test_a_slow_answer_is_deferred_then_filled_in(emulator, store, pool, monkeypatch):
    games = emulator.channel("games")
    async with running(emulator, store, pool) as bot:
        real = bot.core.handle

        async def slow(msg):
            await asyncio.sleep(2.5)
            await real(msg)
        monkeypatch.setattr(bot.core, "handle", slow)
        interaction = await emulator.slash(ANA, games, "games")
        answer = await emulator.answer(interaction, timeout=10)
        assert interaction.callbacks[0]["type"] == 5  # "thinking..." within the 3 s
        assert "No games" in text_of(answer) and not answer["flags"] & LOADING
        private = await emulator.answer(await emulator.slash(ANA, games, "moves"), timeout=10)
        assert private["flags"] & EPHEMERAL and "No game" in text_of(private)


async def test_games_in_threads(emulator, store, pool):
    games = emulator.channel("games")
    async with running(emulator, store, pool, threads=True) as bot:
        pointer = await emulator.answer(await emulator.slash(ANA, games, "new", level=1))
        assert pointer["flags"] & EPHEMERAL and "see <#" in text_of(pointer)
        [thread] = [c for c in emulator.channels.values() if c["type"] == 11]
        assert thread["parent_id"] == str(games) and str(thread["id"]) in bot.core.state.tables
        board = await emulator.wait_for(lambda m: m["channel_id"] == thread["id"] and "New game" in text_of(m))
        assert has_file(board, ".png")
        await emulator.answer(await emulator.slash(BEN, games, "new", level=9))  # refused: no empty thread left
        assert len([c for c in emulator.channels.values() if c["type"] == 11]) == 1


async def test_a_hostile_display_name_names_a_games_thread_cleaned(emulator, store, pool):
    games = emulator.channel("games")
    mallory = {**user(100_000_000_000_000_066, "mallory"), "global_name": "Mal\u061clory\u202e @everyone"}
    async with running(emulator, store, pool, threads=True):
        await emulator.answer(await emulator.slash(mallory, games, "new", level=1))
        [thread] = [c for c in emulator.channels.values() if c["type"] == 11]
        listed = text_of(await emulator.answer(await emulator.slash(ANA, games, "games")))
    for text in (thread["name"], listed):  # the thread's name, and the list of games that names it
        assert "Mallory" in text and "\u061c" not in text and "\u202e" not in text and "@everyone" not in text, text


async def test_the_move_menu_pages_past_25_moves(emulator, store, pool):
    games = emulator.channel("games")
    await store.create_game(str(GUILD), str(games), "international", "W:WK46,K47,K48,K49,K50,K36:B1,2,3", "bot",
                      {"white": {"user": [ANA["id"], "Ana"]}, "black": {"level": 1}},
                      {"budget": 0.05, "rated": False, "channel_name": "games"})
    async with running(emulator, store, pool):
        board = await emulator.answer(await emulator.slash(ANA, games, "board"))
        first = menu(board)
        assert len(first["options"]) == 25 and first["options"][-1]["value"] == "page:1"
        turned = await emulator.choose(ANA, board, "page:1")  # the menu turns its page in place
        await until(lambda: turned.callbacks)
        assert turned.callbacks[0]["type"] == 7
        second = menu(emulator.messages[int(board["id"])])
        seen = {o["value"] for o in first["options"][:-1]} | {o["value"] for o in second["options"][:-1]}
        assert len(seen) == 48 and second["options"][-1]["value"] == "page:2"


def test_menu_pages_hold_every_move_once():
    moves = [f"m{i}" for i in range(52)]
    pages = pages_of(moves)
    assert [len(p) for p in pages] == [24, 24, 4] and sum(pages, []) == moves
    assert pages_of(moves[:25]) == [moves[:25]]


async def test_a_shard_restores_only_its_servers_games(emulator, store, pool):
    mine, other = str(GUILD), str(GUILD + (1 << 22))  # shards 0 and 1 of 2
    for guild, channel in ((mine, "10"), (other, "11")):
        await store.create_game(guild, channel, "english", "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
                          "bot", {"white": {"level": 1}, "black": {"user": [ANA["id"], "Ana"]}},
                          {"budget": 0.05, "rated": False})
    async with running(emulator, store, pool, shard_count=2, shard_ids="0") as bot:
        assert set(bot.core.state.tables) == {"10"}
        assert [s.shard for s in emulator.sessions.values()] == [[0, 2]]


async def test_tablut_on_discord_with_the_paged_menu_and_a_replay(emulator, store, pool):
    games = emulator.channel("games")
    async with running(emulator, store, pool) as bot:
        start = await emulator.answer(await emulator.slash(ANA, games, "new", variant="tablut", level=1, time=0.05,
                                                           colour="white"))
        assert "Tablut: Ana (White)" in text_of(start) and has_file(start, ".png")
        options = menu(start)["options"]
        assert len(options) == 25 and options[-1]["value"] == "page:1"  # White has more than 25 moves
        table = bot.core.state.tables[str(games)]
        played = await emulator.answer(await emulator.choose(ANA, start, "e3-c3"))
        assert "Ana played e3-c3" in text_of(played)
        await bot_to_answer(bot)
        assert len(table.game.moves) == 2
        resigned = await emulator.answer(await emulator.press(ANA, await latest_board(emulator, games), "Resign"))
        assert "Black" in text_of(resigned) and "Ana resigned" in text_of(resigned)
        assert resigned["_files"][next(n for n in resigned["_files"] if n.endswith(".gif"))].startswith(b"GIF8")
        assert b'[Game "Tablut (Ashton rules)"]' in next(v for n, v in resigned["_files"].items() if n.endswith(".pdn"))


async def test_a_double_click_on_the_menu_plays_one_move(emulator, store, pool):
    games = emulator.channel("games")
    async with running(emulator, store, pool) as bot:
        board = await emulator.answer(await emulator.slash(ANA, games, "new", level=1, time=0.05))
        first, second = (o["value"] for o in menu(board)["options"][:2])
        clicks = await asyncio.gather(emulator.choose(ANA, board, first), emulator.choose(ANA, board, second))
        answers = [await emulator.answer(c) for c in clicks]
        played = [a for a in answers if not a["flags"] & EPHEMERAL]
        refused = [a for a in answers if a["flags"] & EPHEMERAL]
        assert len(played) == 1 and len(refused) == 1, [text_of(a) for a in answers]
        assert "out of date" in text_of(refused[0]) or "Not your turn" in text_of(refused[0])
        await bot_to_answer(bot)
        assert len(bot.core.state.tables[str(games)].game.moves) == 2
        assert len((await store.active_games())[0].moves) == 2


async def test_games_started_on_a_shards_web_page_belong_to_that_shards_process(store, pool):
    from bot.discord.client import DraughtsBot

    config = replace(CONFIG, shard_count=2, shard_ids="1")
    one = DraughtsBot(config, Core(config, store, pool), store)  # never started: only asked
    assert one.owns("web:1") and not one.owns("web:0")
    assert one.owns(str(GUILD + (1 << 22))) and not one.owns(str(GUILD))


async def test_a_channel_the_cache_never_saw_speaks_its_servers_language_and_a_direct_message_its_persons(
        store, pool):
    from bot.discord.client import DraughtsBot

    core = Core(CONFIG, store, pool)
    bot = DraughtsBot(CONFIG, core, store)  # never started: its cache knows no channel, as for an unseen thread
    core.connect(lambda reply: asyncio.sleep(0))  # (nothing is posted: the bot never started)
    await core.handle(Message(str(GUILD), "555", User("1", "ana"), "new english level 1 time 0.05"))
    assert bot.delivery.channel_language("555") == "en"
    core.state.languages[str(GUILD)] = "fr"  # as `language fr` chose it
    assert bot.delivery.channel_language("555") == "fr"  # found through the game on there
    assert bot.delivery.channel_language("556") == "en"  # no game, no interaction: nothing says which server
    # a direct message has no server: its person's language, as their interaction there says, then remembered
    direct = SimpleNamespace(guild_id=None, guild_locale=None, locale="pt-BR")
    assert bot.delivery.channel_language("557", direct) == "pt_BR" and bot.delivery.channel_language("557") == "pt_BR"
    await core.close()


async def test_a_person_is_answered_in_their_language_and_the_channel_in_the_servers(emulator, store, pool):
    games = emulator.channel("games")
    emulator.guild_locale, emulator.locales[ANA["id"]] = "ru", "pt-BR"
    try:
        async with running(emulator, store, pool):
            opened = await emulator.answer(await emulator.slash(ANA, games, "new", variant="russian", level=1,
                                                                time=0.05))
            assert not opened["flags"] & EPHEMERAL and "Новая партия, товарищеская" in text_of(opened)
            assert opened["embeds"][0]["footer"]["text"].startswith("Русские шашки · ход 1")
            again = await emulator.answer(await emulator.slash(ANA, games, "new", level=1))
            assert again["flags"] & EPHEMERAL and text_of(again).startswith("Há uma partida neste canal")
            assert "ana" in text_of(again)  # her name as it is
    finally:
        emulator.guild_locale = "en-US"
        emulator.locales.clear()


async def test_the_slash_commands_are_registered_with_their_names_and_descriptions_in_each_language(
        emulator, store, pool):
    async with running(emulator, store, pool):
        [group] = [c for c in emulator.commands if c["name"] == "draughts"]
    assert group["description_localizations"]["ru"] == "Играйте в шашки с ботом или с друзьями."
    commands = {c["name"]: c for c in group["options"]}
    assert {lang: commands["new"]["name_localizations"].get(lang) for lang in ("nl", "fr", "ru", "pt-BR")} == {
        "nl": "nieuw", "fr": "nouvelle", "ru": "новая", "pt-BR": "nova"}
    assert commands["resign"]["description_localizations"]["pt-BR"] == "Desistir da partida."
    assert len(commands["practice"]["description"]) <= 100
    assert all(len(d) <= 100 for c in commands.values() for d in c["description_localizations"].values())
    assert "en-US" not in commands["new"]["name_localizations"]  # English is the command's own name


async def test_a_servers_administrators_choose_the_language_of_its_channels(emulator, store, pool):
    games = emulator.channel("games")
    async with running(emulator, store, pool):
        refused = await emulator.answer(await emulator.slash(BEN, games, "language", language="fr"))
        assert refused["flags"] & EPHEMERAL and "administrators" in text_of(refused)
        chosen = await emulator.answer(await emulator.slash(ANA, games, "language", language="fr"))  # the owner
        assert text_of(chosen) == "La langue de ce serveur est désormais : Français."
        opened = await emulator.answer(await emulator.slash(BEN, games, "new", level=1, time=0.05))
        assert "Nouvelle partie, amicale" in text_of(opened)  # though the server's Discord setting is English
    async with running(emulator, store, pool):  # kept in the database
        await emulator.answer(await emulator.slash(BEN, games, "resign"))
        shown = await emulator.answer(await emulator.slash(EVE, games, "language"))
        assert text_of(shown) == "Langue de ce serveur : Français."
        back = await emulator.answer(await emulator.slash(ANA, games, "language", language="default"))
        assert text_of(back) == "This server's language follows its Discord setting again."


async def test_buttons_and_menus_follow_the_channels_language_and_refusals_the_persons(emulator, store, pool):
    games = emulator.channel("games")
    emulator.guild_locale, emulator.locales[ANA["id"]], emulator.locales[BEN["id"]] = "nl", "pt-BR", "fr"
    try:
        async with running(emulator, store, pool) as bot:
            opened = await emulator.answer(await emulator.slash(ANA, games, "new", level=1, time=0.05))
            assert {"Opgeven", "Remise aanbieden", "Terugnemen"} <= set(buttons(opened))
            assert menu(opened)["placeholder"].startswith("Kies een zet (")
            refused = await emulator.answer(await emulator.slash(ANA, games, "move", move="22-18"))
            assert refused["flags"] & EPHEMERAL
            assert text_of(refused).startswith("A peça na casa 22 não é sua: é a vez das Pretas. Lances válidos: ")
            pressed = await emulator.answer(await emulator.press(BEN, opened, "Opgeven"))
            assert pressed["flags"] & EPHEMERAL and text_of(pressed) == "Vous n'êtes pas dans cette partie."
            await emulator.answer(await emulator.slash(ANA, games, "move", move="11-15"))
            await bot_to_answer(bot)
            since = len(emulator.posts)
            await emulator.answer(await emulator.slash(ANA, games, "resign"))
            ended = await emulator.wait_for(lambda m: "Analyseren" in buttons(m), since, what="the end of the game")
            assert int(ended["channel_id"]) == games
    finally:
        emulator.guild_locale = "en-US"
        emulator.locales.clear()


async def test_the_slash_commands_options_and_choices_are_described_in_each_language(emulator, store, pool):
    async with running(emulator, store, pool):
        [group] = [c for c in emulator.commands if c["name"] == "draughts"]
    commands = {c["name"]: c for c in group["options"]}
    new = {o["name"]: o for o in commands["new"]["options"]}
    assert new["variant"]["description"] == "Which draughts (default: English)"
    assert new["variant"]["description_localizations"]["fr"] == "Quelles dames (par défaut : anglaises)"
    english = next(c for c in new["variant"]["choices"] if c["value"] == "english")
    assert english["name"] == "English draughts / checkers (8x8)"
    assert english["name_localizations"]["ru"] == "Английские шашки / чекерс (8x8)"
    assert new["level"]["choices"][0]["name_localizations"]["pt-BR"] == "1: iniciante"
    assert next(c for c in new["colour"]["choices"] if c["value"] == "white")["name_localizations"]["nl"] == "wit"
    daily = {o["name"]: o for o in commands["daily"]["options"]}
    assert next(c for c in daily["action"]["choices"] if c["value"] == "here")["name_localizations"]["fr"] == "ici"
    assert all(len(d) <= 100 for c in commands.values() for o in c.get("options", [])
               for d in o.get("description_localizations", {}).values())
    assert all(1 <= len(n) <= 100 for c in commands.values() for o in c.get("options", [])
               for choice in o.get("choices", []) for n in choice.get("name_localizations", {}).values())


async def test_a_blitz_challenge_shows_both_clocks_counting_down_and_the_side_out_of_time_loses(emulator, store, pool):
    import re
    import time

    games = emulator.channel("games")
    async with running(emulator, store, pool) as bot:
        later = [0.0]  # seconds the test moves the bot's clock on
        bot.core.state.clock = lambda: time.time() + later[0]
        offer = await emulator.answer(await emulator.slash(ANA, games, "challenge", opponent=BEN, colour="white",
                                                           clock="1+0"))
        assert "1+0 (bullet)" in text_of(offer)
        await emulator.answer(await emulator.press(BEN, offer, "Accept"))
        board = await latest_board(emulator, games)
        field = board["embeds"][0]["fields"][0]
        assert field["name"] == "Clocks" and re.match(r"White 1:00, Black (0:5\d|1:00) · ", field["value"])
        assert "<t:" in field["value"] and ":R>" in field["value"]  # Discord counts the side to move's time down
        table = bot.core.state.tables[str(games)]
        for _ in range(3):  # each side moves (a side that never moved and runs out aborts the game)
            person = ANA if table.game.turn == Color.WHITE else BEN
            board = await emulator.answer(await emulator.choose(person, board, menu(board)["options"][0]["value"]))
        later[0] = 61.0  # the other side thinks too long
        await bot.core.tick()
        loser = "Ben" if person is ANA else "Ana"
        ended = await emulator.wait_for(lambda m: f"{loser} ran out of time" in text_of(m), what="the loss on time")
        assert "wins" in text_of(ended) and str(games) not in bot.core.state.tables


async def test_a_correspondence_player_is_reminded_by_direct_message_before_their_time_runs_out(emulator, store,
                                                                                                 pool):
    import time

    games = emulator.channel("games")
    async with running(emulator, store, pool) as bot:
        later = [0.0]
        bot.core.state.clock = lambda: time.time() + later[0]
        offer = await emulator.answer(await emulator.slash(ANA, games, "challenge", opponent=BEN, colour="black",
                                                           clock="1 day"))
        assert "1 day a move" in text_of(offer)
        await emulator.answer(await emulator.press(BEN, offer, "Accept"))
        board = await latest_board(emulator, games)
        await emulator.answer(await emulator.choose(ANA, board, menu(board)["options"][0]["value"]))  # Black first
        later[0] = 13 * 3600.0  # Ben has eleven hours left
        await bot.core.tick()
        direct = await emulator.wait_for(
            lambda m: emulator.channels[int(m["channel_id"])]["type"] == 1 and "left on your clock" in text_of(m),
            what="the reminder in a direct message")
        assert emulator.channels[int(direct["channel_id"])]["recipients"][0]["id"] == BEN["id"]
        assert "10:59" in text_of(direct) or "11:00" in text_of(direct)


async def test_a_finished_games_rematch_button_starts_it_again_colours_swapped(emulator, store, pool):
    games = emulator.channel("games")
    async with running(emulator, store, pool) as bot:
        offer = await emulator.answer(await emulator.slash(ANA, games, "challenge", opponent=BEN, colour="white",
                                                           clock="3+2"))
        await emulator.answer(await emulator.press(BEN, offer, "Accept"))
        table = bot.core.state.tables[str(games)]
        for _ in range(2):
            person = ANA if table.game.turn == Color.WHITE else BEN
            board = await latest_board(emulator, games)
            await emulator.answer(await emulator.choose(person, board, menu(board)["options"][0]["value"]))
        board = await latest_board(emulator, games)
        ended = await emulator.answer(await emulator.press(BEN, board, "Resign"))
        assert set(buttons(ended)) == {"Analyse", "Rematch"}
        refused = await emulator.answer(await emulator.press(EVE, ended, "Rematch"))
        assert refused["flags"] & EPHEMERAL and "Only a player" in text_of(refused)
        asked = await emulator.answer(await emulator.press(BEN, ended, "Rematch"))
        assert "Rematch, colours swapped." in text_of(asked) and "3+2 (blitz)" in text_of(asked)
        await emulator.answer(await emulator.press(ANA, asked, "Accept"))
        again = bot.core.state.tables[str(games)]
        assert again.seats[Color.WHITE].user.id == BEN["id"] and str(again.control) == "3+2"


async def test_a_players_history_links_their_page_when_the_bot_has_a_public_one(emulator, store, pool):
    games = emulator.channel("games")

    def web_page(core):
        return Pages(SeatKeys(b"k" * 32), "https://draughts.example", core)

    async with running(emulator, store, pool, pages=web_page, web_url="https://draughts.example") as bot:
        await emulator.answer(await emulator.slash(ANA, games, "new", level=1, time=0.05))
        board = await latest_board(emulator, games)
        await emulator.answer(await emulator.choose(ANA, board, menu(board)["options"][0]["value"]))
        await bot_to_answer(bot)
        board = await latest_board(emulator, games)
        await emulator.answer(await emulator.press(ANA, board, "Resign"))
        listed = await emulator.answer(await emulator.slash(BEN, games, "history", user=ANA))
        assert "Ana's last games here" in text_of(listed) and "Ana resigned" in text_of(listed)
        link = buttons(listed)["Their page"]["url"]
        assert link == f"https://draughts.example/p/{bot.pages.keys.player_ref(str(GUILD), str(ANA['id']))}"
