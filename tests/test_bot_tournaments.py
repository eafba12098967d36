"""Tournaments through the core, as people in a channel run them: made by an administrator, joined, paired round
after round, played by typing in the tournament's channel, and ended with its winners; carried on by a new process
as it was."""

from __future__ import annotations

import pytest

from bot.store import SqliteStore
from bot.tournament.event import Format, Status
from bot.replies import User
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
    table = chat.replies[-1].standings  # and as a table, the podium marked, in the order of the standings
    names = {e.id: e.name for e in t.players}
    assert [row[1] for row in table.rows] == [names[p] for p, _ in t.standings()] and table.marked == 3
    assert [float(row[2]) for row in table.rows] == sorted((float(row[2]) for row in table.rows), reverse=True)
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
    for asked in ("takeback", "hint"):  # a casual tournament's games are no practice games
        replies = await chat.say(mover, asked)
        assert replies[0].private and "tournament" in replies[0].text and len(table.game.moves) == 1


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


DAN = User("4", "dan")


async def arena(chat: Chat, minutes: int = 5) -> int:
    await chat.say(ADMIN, f"tournament arena english 1+0 {minutes} minutes casual", manager=True)
    for person in (ANA, BEN, EVE, DAN):
        await chat.say(person, "tournament join")
    await chat.say(ADMIN, "tournament start", manager=True)
    [tid] = chat.core.state.tournaments
    return tid


async def play_plies(chat: Chat, room: str, plies: int) -> None:
    """Both players of the game in ``room`` play their first legal move, ``plies`` times in all."""
    table = chat.table(room)
    for _ in range(plies):
        game = table.game
        replies = await chat.say(table.to_move.user, game.type.write_move(game.position, game.legal_moves()[0],
                                                                          full=True), channel=room)
        assert not replies[0].private, replies[0].text


async def test_an_arena_scores_a_berserk_win_and_pairs_free_players_again_avoiding_the_last_opponent(chat):
    tid = await arena(chat)
    room, table = next((c, t) for c, t in rooms(chat).items() if t.colour_of(ANA) is not None)
    colour = table.colour_of(ANA)
    replies = await chat.say(ANA, "berserk")  # in the arena's channel: to her game
    assert "goes berserk" in replies[-1].text and table.clocks.of(colour) == 30.0
    assert (await chat.store.game(table.id)).settings["berserk"] == [ANA.id]
    first = table.seats[colour.opponent].user
    await play_plies(chat, room, 14)
    assert "already" in (await chat.say(ANA, "berserk"))[0].text
    assert "Too late" in (await chat.say(first, "berserk"))[0].text  # (they have moved)
    await chat.say(first, "resign")
    other = next(t for t in rooms(chat).values())
    await chat.say(other.to_move.user, "resign")
    await chat.core.tick()  # a new wave: everyone is free again
    t = await chat.store.tournament(tid)
    assert t.sheets()[ANA.id].scores == (3,)  # a win, and the berserk point (14 plies)
    second = [p for p in t.pairings if p.round == t.round]
    assert len(second) == 2 and not any({ANA.id, first.id} == set(p.players()) for p in second)
    for table in list(rooms(chat).values()):
        await chat.say(table.to_move.user, "resign")
    chat.clock.now += 6 * 60  # the arena's time is up: no new pairings, and it ends once its games have
    await chat.core.tick()
    t = await chat.store.tournament(tid)
    assert t.status is Status.FINISHED and "is over" in chat.texts()[-1]


async def test_berserk_is_refused_outside_an_arena_and_kept_after_a_restart_before_the_first_move(chat, pool):
    await swiss(chat, bot=None)
    replies = await chat.say(ANA, "berserk")
    assert replies[0].private and "arena" in replies[0].text
    await chat.say(ADMIN, "tournament cancel", manager=True)
    for table in list(rooms(chat).values()):
        await chat.say(table.to_move.user, "resign")
    await arena(chat)
    table = next(t for t in rooms(chat).values() if t.colour_of(BEN) is not None)
    await chat.say(BEN, "berserk")
    await chat.core.close()
    again = Chat(chat.store, pool)
    again.clock.now = chat.clock.now
    await again.core.start()
    restored = again.table(table.channel)
    colour = restored.colour_of(BEN)
    assert restored.berserk == {BEN.id} and restored.clocks.of(colour) == 30.0
    assert restored.clocks.of(colour.opponent) == 60.0


async def test_no_other_game_starts_where_a_tournament_is_held_nor_in_its_games_rooms(chat):
    await swiss(chat, bot=None)
    room, table = next(iter(rooms(chat).items()))
    player = table.to_move.user
    for text, channel in (("new english level 1", "c1"), ("rematch", room), ("new", room), ("puzzle", "c1"),
                          ("watch", "c1")):
        replies = await chat.say(EVE, text, channel=channel)
        assert replies[0].private and "tournament" in replies[0].text, (text, replies[0].text)
    assert len(rooms(chat)) == 1 and "c1" not in chat.core.state.tables
    game = table.game
    await chat.say(player, game.type.write_move(game.position, game.legal_moves()[0], full=True))
    assert len(table.game.moves) == 1  # still played by typing in the tournament's channel


async def test_a_player_who_never_moved_is_paused_and_paired_again_once_they_come_back(chat):
    tid = await arena(chat)
    table = next(t for t in rooms(chat).values() if t.colour_of(ANA) is not None)
    absent = table.to_move.user  # never moves: the clock runs out before their first move
    chat.clock.now += 61
    await chat.core.tick()
    assert f"{absent.name} never made a first move: the game is lost for the tournament." in chat.texts()
    await chat.core.tick()
    t = await chat.store.tournament(tid)
    assert t.entrant(absent.id).standing.value == "paused" and absent.id not in t.playing()
    await chat.say(absent, "tournament join")
    for other in list(rooms(chat).values()):
        await chat.say(other.to_move.user, "resign")
    await chat.core.tick()
    t = await chat.store.tournament(tid)
    assert t.entrant(absent.id).standing.value == "in" and absent.id in t.playing()  # paired again, not re-paused


async def test_a_round_robin_goes_on_when_a_player_withdraws_their_opponents_having_the_round_off(chat):
    await chat.say(ADMIN, "tournament roundrobin english 1+0 casual", manager=True)
    for person in (ANA, BEN, EVE, DAN):
        await chat.say(person, "tournament join")
    await chat.say(DAN, "tournament withdraw")  # before the start: not in the tables at all
    await chat.say(ADMIN, "tournament start", manager=True)
    [tid] = chat.core.state.tournaments
    t = await chat.store.tournament(tid)
    assert DAN.id not in {p for pairing in t.pairings for p in pairing.players()}
    assert len([p for p in t.pairings if p.round == 1]) == 2  # three players: a game and a round off
    await everyone_resigns(chat)
    await chat.core.tick()
    t = await chat.store.tournament(tid)
    playing = {p for pairing in t.pairings if pairing.round == 2 and not pairing.bye for p in pairing.players()}
    quitter = next(iter(playing))
    await chat.say(User(quitter, {u.id: u.name for u in (ANA, BEN, EVE)}[quitter]), "tournament withdraw")
    await everyone_resigns(chat)
    await chat.core.tick()
    t = await chat.store.tournament(tid)
    third = [p for p in t.pairings if p.round == 3]
    assert third and all(p.bye or quitter not in p.players() for p in third) and t.status is Status.RUNNING
    assert all(score[0] <= 2 for _, score in t.standings()), (t.standings(), t.pairings)  # (a round off: 0)


async def test_a_game_whose_link_to_its_pairing_failed_is_taken_up_not_played_twice(chat):
    from bot.store import SaveFailed

    linked = chat.store.link_game
    failures = [SaveFailed("the database did not answer")]

    async def once_failing(*args):
        if failures:
            raise failures.pop()
        return await linked(*args)

    chat.store.link_game = once_failing
    tid = await swiss(chat)  # the first board's game is on, its link not written
    await chat.core.tick()  # taken up: linked now, and its players called
    t = await chat.store.tournament(tid)
    assert all(p.game is not None for p in t.pairings if not p.bye) and len(rooms(chat)) == 2
    await everyone_resigns(chat)
    await chat.core.tick()
    t = await chat.store.tournament(tid)
    assert t.round == 2 and len({p.game for p in t.pairings if p.round == 1}) == 2  # one game a board


async def test_a_rated_tournaments_games_count_to_the_players_ratings_at_its_speed(chat):
    await chat.say(ADMIN, "tournament swiss english 1+0 1 rounds rated", manager=True)
    for person in (ANA, BEN):
        await chat.say(person, "tournament join")
    await chat.say(ADMIN, "tournament start", manager=True)
    await everyone_resigns(chat)
    for person in (ANA, BEN):
        rating, played = await chat.store.rating("g", "english", person.id, "bullet")
        assert played == 1 and rating.rating != 1500, person
        assert (await chat.store.rating("g", "english", person.id, "blitz"))[1] == 0
