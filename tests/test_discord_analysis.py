"""Game analyses on Discord, end to end through the emulator: the Analyse button under a game's end, `/draughts
analyse` and `@bot analyse`, the answer edited in place from its first line into the summary with the graph, and
the refusal for a game still being played."""

from __future__ import annotations

import asyncio
import re

import pytest

from bot.discord.updates import Updates
from bot.replies import Message, Reply, User
from discord_emulator import ANA, BEN, EPHEMERAL, EVE, text_of
from discord_harness import running
from test_discord import (MENTION, bot_to_answer, buttons, emulator, has_file, latest_board,  # noqa: F401
                          menu, nothing_goes_wrong_quietly, store, until)

NODES = 3000  # a small effort: the tests are about the chat, not the engine


def shown_first(message: dict) -> str:
    """The words a message showed when it was posted, before any edit."""
    return text_of((message.get("_versions") or [message])[0])


def summaries(emu, channel: int, game: int) -> list[dict]:
    return [m for m in emu.posted(channel) if f"Analysis of game {game}" in text_of(m)]


async def ended_game(emu, bot, channel: int) -> tuple[int, dict]:
    """Ana plays the bot (level 1) a move in ``channel``, then resigns: the game's number and its last message."""
    board = await emu.answer(await emu.slash(ANA, channel, "new", level=1, time=0.05))
    game = bot.core.game_in(str(channel))
    await emu.answer(await emu.choose(ANA, board, menu(board)["options"][0]["value"]))
    await bot_to_answer(bot)
    ended = await emu.answer(await emu.press(ANA, await latest_board(emu, channel), "Resign"))
    assert "Ana resigned" in text_of(ended)
    return game, ended


@pytest.fixture
def held(pool, monkeypatch):
    """The search pool's analysis jobs wait until the event is set (the moves of games do not)."""
    gate = asyncio.Event()
    look = pool.look

    async def waiting(owner, segment):
        await gate.wait()
        return await look(owner, segment)
    monkeypatch.setattr(pool, "look", waiting)
    return gate


async def test_anyone_presses_analyse_under_a_games_end_even_after_a_restart(emulator, store, pool):
    games = emulator.channel("games")
    async with running(emulator, store, pool, analysis_nodes=NODES) as bot:
        game, ended = await ended_game(emulator, bot, games)
        analyse = buttons(ended)["Analyse"]
        assert not analyse.get("disabled") and "`analyse`" in text_of(ended)
    async with running(emulator, store, pool, analysis_nodes=NODES) as bot:  # the button outlives the bot
        since = len(emulator.posts)
        pressed = await emulator.press(EVE, ended, "Analyse")  # Eve did not play: anyone may ask
        answer = await emulator.answer(pressed)
        assert not answer["flags"] & EPHEMERAL
        await until(lambda: f"Analysis of game {game}" in text_of(answer), timeout=60)
        assert re.match(rf"Analysing game {game}: \d+ positions", shown_first(answer))  # first the progress line ...
        summary = text_of(answer)  # ... then that same message, edited into the summary with the graph
        assert "(Ana)" in summary and "(Bot level 1)" in summary and "accuracy" in summary
        assert answer["_files"][f"analysis-{game}.png"].startswith(b"\x89PNG")
        assert answer["embeds"][0]["image"]["url"] == f"attachment://analysis-{game}.png"
        assert summaries(emulator, games, game) == [answer]  # not posted a second time
        assert [m for m in emulator.posted(games, since) if m is not answer] == []
        edits = answer["_edits"]

        again = await emulator.answer(await emulator.slash(BEN, games, "analyse"))  # the channel has it: pointed at
        assert again["flags"] & EPHEMERAL and "scroll up to it" in text_of(again) and not has_file(again, ".png")
        pressed_again = await emulator.answer(await emulator.press(BEN, ended, "Analyse"))
        assert pressed_again["flags"] & EPHEMERAL and summaries(emulator, games, game) == [answer]
        other = emulator.channel("more-games")
        kept = await emulator.answer(await emulator.slash(BEN, other, "analyse", game=game))  # kept: at once
        assert text_of(kept).startswith(f"Analysis of game {game}")
        assert has_file(kept, f"analysis-{game}.png") and "_versions" not in kept
        assert answer["_edits"] == edits  # the earlier answer, far up the channel, is left as it was
        await bot_to_answer(bot)


async def test_analyse_typed_or_by_number_edits_its_own_answer(emulator, store, pool, held):
    games, other = emulator.channel("games"), emulator.channel("more-games")
    async with running(emulator, store, pool, analysis_nodes=NODES) as bot:
        game, _ = await ended_game(emulator, bot, games)
        since = len(emulator.posts)
        await emulator.say(ANA, games, f"{MENTION} analyse")  # the channel's last finished game
        progress = await emulator.wait_for(lambda m: "Analysing game" in text_of(m), since)
        await asyncio.sleep(0.2)
        assert text_of(progress).startswith(f"Analysing game {game}:") and summaries(emulator, games, game) == []
        held.set()
        await until(lambda: f"Analysis of game {game}" in text_of(progress), timeout=60)
        assert has_file(progress, f"analysis-{game}.png") and summaries(emulator, games, game) == [progress]

        by_number = await emulator.answer(await emulator.slash(EVE, other, "analyse", game=game))  # from elsewhere
        assert text_of(by_number).startswith(f"Analysis of game {game}") and has_file(by_number, ".png")


async def test_an_answer_that_cannot_be_edited_is_brought_up_to_date_another_way(emulator, store, pool, held):
    games = emulator.channel("games")
    async with running(emulator, store, pool, analysis_nodes=NODES) as bot:
        game, ended = await ended_game(emulator, bot, games)
        pressed = await emulator.press(EVE, ended, "Analyse")
        by_button = await emulator.answer(pressed)
        other = emulator.channel("more-games")
        since = len(emulator.posts)
        await emulator.say(BEN, other, f"{MENTION} analyse {game}")  # Ben asks elsewhere, joining Eve's analysis
        typed = await emulator.wait_for(lambda m: "Analysing game" in text_of(m), since)
        pressed.expired = True  # the button's interaction is too old to edit by its token ...
        typed["_deleted"] = True  # ... and Ben's answer was deleted
        held.set()
        await until(lambda: f"Analysis of game {game}" in text_of(by_button), timeout=60)
        assert by_button["_edits"] == 1  # edited all the same, as a message of the channel
        await emulator.wait_for(lambda m: m is not typed and f"Analysis of game {game}" in text_of(m), since,
                                what="Ben's answer, posted anew")
        await asyncio.sleep(0.2)
        assert len(summaries(emulator, games, game)) == 1 and len(summaries(emulator, other, game)) == 1


async def test_a_game_still_being_played_between_two_people_is_not_analysed(emulator, store, pool):
    games = emulator.channel("games")
    async with running(emulator, store, pool, analysis_nodes=NODES) as bot:
        none = await emulator.answer(await emulator.slash(EVE, games, "analyse"))
        assert none["flags"] & EPHEMERAL and "No game has finished" in text_of(none)
        offer = await emulator.answer(await emulator.slash(ANA, games, "challenge", opponent=BEN))
        await emulator.answer(await emulator.press(BEN, offer, "Accept"))
        game = bot.core.game_in(str(games))
        for person in (EVE, ANA, BEN):  # a stranger, and the players themselves
            refused = await emulator.answer(await emulator.slash(person, games, "analyse", game=game))
            assert refused["flags"] & EPHEMERAL and "still being played" in text_of(refused)
        since = len(emulator.posts)
        await emulator.say(ANA, games, f"{MENTION} analyse {game}")
        note = await emulator.wait_for(lambda m: "still being played" in text_of(m), since)
        assert "message_reference" in note  # the typed refusal: a reply that goes away
        assert bot.core.state.analyses == {} and not any("Analysing" in text_of(m) for m in emulator.posts)


def test_updated_messages_are_one_per_request_and_the_oldest_forgotten():
    updates = Updates(size=2)
    ana, ben = (Message("g", "1", User(str(n), name), "analyse", origin=object()) for n, name in ((1, "Ana"), (2, "Ben")))
    first = updates.of(Reply("1", "Analysing game 3", to=ana, update="analysis-3"))
    assert updates.of(Reply("1", "Analysis of game 3", to=ana, update="analysis-3")) is first
    assert updates.of(Reply("1", "Analysis of game 3", to=ben, update="analysis-3")) is not first  # Ben's own
    assert updates.of(Reply("1", "not keyed", to=ana)) is None
    assert updates.of(Reply("1", "private", to=ana, private=True, update="analysis-3")) is None
    updates.of(Reply("2", "Analysing game 4", to=ana, update="analysis-4"))
    assert len(updates) == 2 and updates.of(Reply("1", "again", to=ana, update="analysis-3")) is not first
