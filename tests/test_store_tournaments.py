"""Tournaments in both back ends (SQLite and a real PostgreSQL server): kept with their players and pairings, each
pairing's result read from the game in its room, and a round paired once when two processes try at once."""

from __future__ import annotations

import asyncio

from bot.clocks import TimeControl
from bot.ending import Ending
from bot.tournament.event import Entrant, Format, Pairing, Standing, Status, Tournament
from engine import Color, Termination
from test_store import SEATS, START, database, opener  # noqa: F401  (the fixtures)

BLITZ = TimeControl(3, 2)


def swiss_event(**more) -> Tournament:
    return Tournament(0, "g", "c1", Format.SWISS, "english", BLITZ, True, 1_000.0, rounds=3, creator="1",
                      name="Friday blitz", **more)


async def test_a_tournament_is_kept_with_its_players_and_its_pairings_results_read_from_their_games(opener):
    store = await opener()
    tid = await store.create_tournament(swiss_event())
    for k, name in enumerate(["ana", "ben", "cy"]):
        await store.put_entrant(tid, Entrant(str(k + 1), name, 10.0 + k, rating=1500 + 10 * k))
    await store.put_entrant(tid, Entrant("3", "cy", 99.0, Standing.PAUSED, 1))  # joined and rating stay
    t = await store.tournament(tid)
    assert (t.format, t.control, t.rated, t.rounds, t.name, t.status, t.round) == (
        Format.SWISS, BLITZ, True, 3, "Friday blitz", Status.SCHEDULED, 0)
    assert [(e.id, e.standing, e.joined, e.rating) for e in t.players] == [
        ("1", Standing.IN, 10.0, 1500), ("2", Standing.IN, 11.0, 1510), ("3", Standing.PAUSED, 12.0, 1520)]
    assert await store.live_tournaments() == [tid]
    pairings = [Pairing(1, 1, "1", "2"), Pairing(1, 2, "3", None)]
    assert await store.advance_tournament(t, Status.RUNNING, 1, pairings)
    assert not await store.advance_tournament(t, Status.RUNNING, 1, pairings)  # read before: refused, nothing added
    t = await store.tournament(tid)
    assert (t.status, t.round, [p.ended for p in t.pairings]) == (Status.RUNNING, 1, [False, False])
    game = await store.create_game("g", t.room(t.pairings[0]), "english", START, "people", SEATS,
                                   {"berserk": ["2"]})
    assert await store.link_game(tid, t.pairings[0], game)
    again = await store.create_game("g", t.room(t.pairings[0]), "english", START, "people", SEATS, {})
    assert not await store.link_game(tid, t.pairings[0], again)  # a pairing's game is started once
    version = await store.add_move(game, 0, 0, "11-15")
    await store.finish_game(game, version, Ending(Color.BLACK, Termination.RESIGNED), "White resigned", "")
    t = await store.tournament(tid)
    assert t.pairings[0] == Pairing(1, 1, "1", "2", 0.0, 1, frozenset({"2"}), True, game)
    assert await store.tournaments_of("g", "2") == [tid] and await store.tournaments_of("g", "9") == []


async def test_a_game_never_moved_in_is_lost_by_who_did_not_move(opener):
    store = await opener()
    tid = await store.create_tournament(swiss_event())
    t = await store.tournament(tid)
    await store.advance_tournament(t, Status.RUNNING, 1, [Pairing(1, 1, "1", "2"), Pairing(1, 2, "3", "4")])
    t = await store.tournament(tid)
    for pairing, moves in zip(t.pairings, ([], ["11-15"])):  # English: Black moves first
        game = await store.create_game("g", t.room(pairing), "english", START, "people", SEATS, {})
        await store.link_game(tid, pairing, game)
        version = 0
        for ply, move in enumerate(moves):
            version = await store.add_move(game, version, ply, move)
        await store.finish_game(game, version, Ending(None, Termination.NEVER_MOVED), "", "")
    t = await store.tournament(tid)
    assert [(p.result, p.absent) for p in t.pairings] == [(1.0, "2"), (0.0, "3")]  # Black, then White never moved


async def test_two_processes_pairing_the_same_round_at_once_pair_it_once(opener):
    one, two = await opener(), await opener()
    tid = await one.create_tournament(swiss_event())
    t = await one.tournament(tid)
    done = await asyncio.gather(one.advance_tournament(t, Status.RUNNING, 1, [Pairing(1, 1, "1", "2")]),
                                two.advance_tournament(t, Status.RUNNING, 1, [Pairing(1, 1, "2", "1")]))
    assert sorted(done) == [False, True]
    assert len((await two.tournament(tid)).pairings) == 1
