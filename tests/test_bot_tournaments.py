"""Tournaments through the core, as people in a channel run them: made by an administrator, joined, paired round
after round, played by typing in the tournament's channel, and ended with its winners; carried on by a new process
as it was."""

from __future__ import annotations

import pytest

from bot.store import SqliteStore
from bot.tournament.event import Format, Status
from chat import ANA, BEN, EVE, Chat

ADMIN = ANA


@pytest.fixture
def chat(pool, tmp_path):
    return Chat(SqliteStore(str(tmp_path / "bot.sqlite3")), pool)


async def swiss(chat: Chat, rounds: int = 2, bot: int | None = 1) -> int:
    """A Swiss event in c1 with ana, ben and eve (and the bot at ``bot``), started: its id."""
    await chat.say(ADMIN, f"tournament swiss english 1+0 {rounds} rounds casual", manager=True)
    for person in (ANA, BEN, EVE):
        await chat.say(person, "tournament join")
    if bot:
        await chat.say(ADMIN, f"tournament bot {bot}", manager=True)
    await chat.say(ADMIN, "tournament start", manager=True)
    [tid] = chat.core.state.tournaments
    return tid


def rooms(chat: Chat) -> dict[str, object]:
    return {c: t for c, t in chat.core.state.tables.items() if "~t" in c}


async def everyone_resigns(chat: Chat) -> None:
    """Each person in a tournament game resigns it, typing in the tournament's channel."""
    for table in list(rooms(chat).values()):
        person = next(seat.user for seat in table.seats.values() if seat.user is not None)
        replies = await chat.say(person, "resign")
        assert not replies[0].private, replies[0].text
    await chat.core.settle()


async def test_a_swiss_event_is_paired_round_after_round_played_in_its_channel_and_ends_with_its_winners(chat):
    tid = await swiss(chat)
    assert "Round 1 of 2:" in chat.texts()[-3] or any("Round 1 of 2:" in t for t in chat.texts())
    assert len(rooms(chat)) == 2  # four players, two boards, every game in a room of its own
    await everyone_resigns(chat)
    await chat.core.tick()
    assert any("Round 2 of 2:" in t for t in chat.texts())
    await everyone_resigns(chat)
    await chat.core.tick()
    t = await chat.store.tournament(tid)
    assert t.status is Status.FINISHED and tid not in chat.core.state.tournaments
    assert "is over" in chat.texts()[-1] and "Standings:" in chat.texts()[-1]
    met = [frozenset(p.players()) for p in t.pairings]
    assert len(met) == 4 and len(set(met)) == 4  # nobody met twice


async def test_a_player_moves_in_their_tournament_game_by_typing_in_the_tournaments_channel(chat):
    await swiss(chat, bot=None)
    await chat.say(ADMIN, "tournament", manager=True)
    table = next(t for t in rooms(chat).values())
    mover = table.to_move.user
    game = table.game
    move = game.type.write_move(game.position, game.legal_moves()[0], full=True)
    replies = await chat.say(mover, move)
    assert not replies[0].private and len(table.game.moves) == 1, replies[0].text


async def test_only_administrators_make_tournaments_and_a_round_robin_takes_no_one_once_started(chat):
    replies = await chat.say(BEN, "tournament arena english 3+2 30 minutes")
    assert replies[0].private and "administrators" in replies[0].text
    replies = await chat.say(ADMIN, "tournament swiss english untimed", manager=True)
    assert replies[0].private and "clock" in replies[0].text
    await chat.say(ADMIN, "tournament roundrobin english 3+2", manager=True)
    await chat.say(ANA, "tournament join")
    await chat.say(BEN, "tournament join")
    await chat.say(ADMIN, "tournament start", manager=True)
    replies = await chat.say(EVE, "tournament join")
    assert replies[0].private and "before it starts" in replies[0].text
    [t] = chat.core.state.tournaments.values()
    assert t.format is Format.ROUND_ROBIN


async def test_a_restarted_process_carries_a_tournament_on_with_the_same_pairings_and_games(chat, pool):
    tid = await swiss(chat)
    before = {c: t.id for c, t in rooms(chat).items()}
    await chat.core.close()
    again = Chat(chat.store, pool)
    again.clock.now = chat.clock.now
    await again.core.start()
    await again.core.tick()  # nothing to start again: every game of the round is on
    assert {c: t.id for c, t in rooms(again).items()} == before
    assert len((await again.store.tournament(tid)).pairings) == 2
    await everyone_resigns(again)
    await again.core.tick()
    assert len((await again.store.tournament(tid)).pairings) == 4
