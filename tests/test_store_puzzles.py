"""The store's puzzles on both back ends, SQLite and a real PostgreSQL server: puzzles served in a channel (one on
at a time, advanced and ended once), the attempts, ratings and puzzle strengths an end keeps, and each server's
daily puzzle, posted once a day."""

from __future__ import annotations

import asyncio
import dataclasses

import pytest

from bot.ratings import Change, RatedPuzzle, Rating, update
from bot.store import Attempt, Daily, MoveConflict, PuzzleTry, SaveFailed, ServedPuzzle
from test_store import database, opener  # noqa: F401 (the fixtures: each back end, opened as often as asked)

POSITION = "W:W21,22,25:B9,10,18"
SOLUTION = ("22-17", "10x19", "21-17")


def served(channel: str = "c1", puzzle: str = "a1b2c3d4", guild: str = "g", kind: str = "puzzle",
           day: str | None = None, variant: str = "english") -> ServedPuzzle:
    return ServedPuzzle(0, guild, channel, variant, puzzle, kind, POSITION, SOLUTION, "" if kind == "daily" else "1",
                        "" if kind == "daily" else "ana", 1700000000.25, day=day)


async def test_a_puzzle_on_is_back_with_its_solution_and_ply_after_a_restart(opener):
    store = await opener()
    assert await store.puzzles_on() == []
    first = await store.start_puzzle(served())
    second = await store.start_puzzle(served("c2", "practice:7:12", kind="practice"))
    await store.advance_puzzle(first, 2)
    await store.close()
    again = await opener()
    assert await again.puzzles_on() == [dataclasses.replace(served(), id=first, ply=2),
                                        dataclasses.replace(served("c2", "practice:7:12", kind="practice"), id=second)]


async def test_a_channel_has_one_puzzle_on_at_a_time(opener):
    store = await opener()
    first = await store.start_puzzle(served())
    with pytest.raises(MoveConflict):
        await store.start_puzzle(served(puzzle="other"))
    other_channel = await store.start_puzzle(served("c2"))
    other_server = await store.start_puzzle(served(guild="h"))  # another server's channel of the same name
    assert [p.id for p in await store.puzzles_on()] == [first, other_channel, other_server]
    await store.end_puzzle(first, "shown", [])
    after = await store.start_puzzle(served(puzzle="other"))
    assert [(p.id, p.puzzle) for p in await store.puzzles_on()] == [
        (other_channel, "a1b2c3d4"), (other_server, "a1b2c3d4"), (after, "other")]


async def test_a_puzzle_advances_only_forward_and_only_while_it_is_on(opener):
    store = await opener()
    puzzle = await store.start_puzzle(served())
    await store.advance_puzzle(puzzle, 1)
    for stale in (1, 0):  # another process played that move already
        with pytest.raises(MoveConflict):
            await store.advance_puzzle(puzzle, stale)
    await store.advance_puzzle(puzzle, 3)
    await store.end_puzzle(puzzle, "solved", [Attempt("1", "ana", True)])
    with pytest.raises(MoveConflict):
        await store.advance_puzzle(puzzle, 4)
    with pytest.raises(MoveConflict):
        await store.advance_puzzle(999, 1)


async def test_an_end_keeps_attempts_ratings_and_the_puzzles_strength_once(opener):
    store = await opener()
    puzzle = await store.start_puzzle(served())
    first = Rating(1480, 300, 0.06)  # the puzzle's strength before anyone tried it
    changes = await store.end_puzzle(puzzle, "solved", [Attempt("1", "ana", True), Attempt("2", "ben", True)],
                                     RatedPuzzle((("1", "ana"), ("2", "ben")), True, first))
    solver = update(Rating(), [(first, 1.0)])  # worked out from what the database held: new players, a new puzzle
    strength = update(first, [(Rating(), 0.0), (Rating(), 0.0)])
    assert changes == [Change("1", "ana", Rating(), solver), Change("2", "ben", Rating(), solver)]
    assert await store.puzzles_on() == []
    assert await store.puzzle_rating("g", "english", "1") == (solver, 1)
    assert await store.puzzle_rating("g", "english", "3") == (Rating(), 0)
    assert await store.puzzle_strengths("english") == {"a1b2c3d4": (strength, 1)}
    with pytest.raises(MoveConflict):  # ended already: nothing more is written
        await store.end_puzzle(puzzle, "failed", [Attempt("3", "cy", True)], RatedPuzzle((("1", "ana"),), False, first))
    assert await store.puzzle_rating("g", "english", "1") == (solver, 1)
    assert await store.puzzle_strengths("english") == {"a1b2c3d4": (strength, 1)}
    assert await store.puzzles_seen("g", "english", "3") == set()

    again = await store.start_puzzle(served())  # the same puzzle served again: rated from what is kept now
    changes = await store.end_puzzle(again, "failed", [Attempt("1", "ana", False)],
                                     RatedPuzzle((("1", "ana"),), False, first))
    assert changes == [Change("1", "ana", solver, update(solver, [(strength, 0.0)]))]
    assert await store.puzzle_rating("g", "english", "1") == (update(solver, [(strength, 0.0)]), 2)
    assert await store.puzzle_strengths("english") == {"a1b2c3d4": (update(strength, [(solver, 1.0)]), 2)}
    board = await store.puzzle_leaderboard("g", "english")
    assert [(s.user, s.name, s.games) for s in board] == [("2", "ben", 1), ("1", "ana", 2)]
    # puzzle ratings are their own: not a game rating, not another server's, nor another variant's
    assert await store.rating("g", "english", "1") == (Rating(), 0) and await store.leaderboard("g", "english") == []
    assert await store.puzzle_rating("h", "english", "1") == (Rating(), 0)
    assert await store.puzzle_strengths("international") == {}


async def test_an_end_that_fails_writes_nothing_and_leaves_the_puzzle_on(opener):
    store = await opener()
    puzzle = await store.start_puzzle(served())
    with pytest.raises(SaveFailed) as refused:  # one person's attempt twice: the database refuses the end
        await store.end_puzzle(puzzle, "solved", [Attempt("1", "ana", True), Attempt("1", "ana", False)],
                               RatedPuzzle((("1", "ana"),), True, Rating(1480, 300, 0.06)))
    assert not isinstance(refused.value, MoveConflict)
    assert [p.id for p in await store.puzzles_on()] == [puzzle]
    assert await store.puzzle_rating("g", "english", "1") == (Rating(), 0)
    assert await store.puzzle_strengths("english") == {}
    assert await store.puzzles_seen("g", "english", "1") == set()
    await store.end_puzzle(puzzle, "solved", [Attempt("1", "ana", True)])
    assert await store.puzzles_seen("g", "english", "1") == {"a1b2c3d4"}


async def test_a_puzzle_tried_alone_is_kept_ended_rated_once_and_listed_in_the_persons_history(opener):
    store = await opener()
    first = Rating(1480, 300, 0.06)
    changes = await store.tried_puzzle(served("page:web:ana", puzzle="p1"), "failed", Attempt("web:ana", "ana", False),
                                       RatedPuzzle((("web:ana", "ana"),), False, first))
    after = update(Rating(), [(first, 0.0)])
    assert changes == [Change("web:ana", "ana", Rating(), after)]
    assert await store.puzzles_on() == []  # kept ended: nothing is left on to bring back after a restart
    assert await store.puzzle_rating("g", "english", "web:ana") == (after, 1)
    assert await store.puzzles_seen("g", "english", "web:ana") == {"p1"}
    # tried again (a retry, unrated), then another puzzle solved: each listed, the latest first
    assert await store.tried_puzzle(served("page:web:ana", puzzle="p1"), "solved",
                                    Attempt("web:ana", "ana", True)) == []
    solved = await store.tried_puzzle(served("page:web:ana", puzzle="p2", variant="international"), "solved",
                                      Attempt("web:ana", "ana", True),
                                      RatedPuzzle((("web:ana", "ana"),), True, first))
    history = await store.puzzle_history("g", "web:ana")
    assert [(t.variant, t.puzzle, t.solved, t.rating) for t in history] == [
        ("international", "p2", True, solved[0].after.rating), ("english", "p1", True, None),
        ("english", "p1", False, after.rating)]
    assert all(isinstance(t, PuzzleTry) and t.ended > 1700000000.25 for t in history)
    assert [t.puzzle for t in await store.puzzle_history("g", "web:ana", limit=1)] == ["p2"]
    assert await store.puzzle_history("h", "web:ana") == [] and await store.puzzle_history("g", "web:ben") == []

    # the page's own puzzles (channel web-puzzles) keep a person's first try only: a second, even at once, is refused
    page = served("web-puzzles", puzzle="p9")
    assert await store.tried_puzzle(page, "solved", Attempt("1", "ana", True)) == []
    with pytest.raises(MoveConflict):
        await store.tried_puzzle(page, "failed", Attempt("1", "ana", False), RatedPuzzle((("1", "ana"),), False, first))
    assert (await store.puzzle_rating("g", "english", "1"))[1] == 0  # nothing of the refused try was kept

    # a chat's puzzle keeps each rated person's rating after it too
    puzzle = await store.start_puzzle(served())
    changes = await store.end_puzzle(puzzle, "solved", [Attempt("1", "ana", True)],
                                     RatedPuzzle((("1", "ana"),), True, first))
    assert [(t.puzzle, t.rating) for t in await store.puzzle_history("g", "1")] == [
        ("a1b2c3d4", changes[0].after.rating), ("p9", None)]


async def test_the_puzzles_a_person_has_seen_are_those_they_attempted_in_that_server_and_variant(opener):
    store = await opener()
    for puzzle, guild, variant, people in (("p1", "g", "english", ["1", "2"]), ("p2", "g", "english", ["1"]),
                                           ("p3", "g", "international", ["1"]), ("p4", "h", "english", ["1"]),
                                           ("p5", "g", "english", [])):
        served_id = await store.start_puzzle(served(puzzle=puzzle, guild=guild, variant=variant))
        await store.end_puzzle(served_id, "failed", [Attempt(user, "someone", False) for user in people])
    await store.start_puzzle(served(puzzle="p6"))  # on: nobody has attempted it yet
    assert await store.puzzles_seen("g", "english", "1") == {"p1", "p2"}
    assert await store.puzzles_seen("g", "english", "2") == {"p1"}
    assert await store.puzzles_seen("g", "international", "1") == {"p3"}
    assert await store.puzzles_seen("h", "english", "2") == set()


async def test_the_daily_puzzle_is_set_kept_and_marked_once_a_day(opener):
    store = await opener()
    assert await store.dailies() == [] and not await store.mark_daily("g", "2026-01-01")  # none set
    await store.set_daily("g", "c1", 9, "english")
    await store.set_daily("h", "d1", 0, "international")
    assert await store.dailies() == [Daily("g", "c1", 9, "english"), Daily("h", "d1", 0, "international")]
    assert await store.mark_daily("g", "2026-01-01")
    assert not await store.mark_daily("g", "2026-01-01")  # posted already that day
    await store.set_daily("g", "c2", 18, "english")  # moved: the day it was last posted stays
    assert (await store.dailies())[0] == Daily("g", "c2", 18, "english", "2026-01-01")
    again = await opener()  # another process, or after a restart
    assert not await again.mark_daily("g", "2026-01-01")
    assert await again.mark_daily("g", "2026-01-02") and await again.mark_daily("h", "2026-01-01")
    await again.set_daily("g", None)
    assert await again.dailies() == [Daily("h", "d1", 0, "international", "2026-01-01")]
    assert not await again.mark_daily("g", "2026-01-03")


async def test_the_dailys_solvers_are_named_first_solver_first(opener):
    store = await opener()
    day = "2026-01-01"
    assert await store.daily_solvers("g", day) == []
    first = await store.start_puzzle(served(kind="daily", day=day))
    await store.end_puzzle(first, "solved", [Attempt("2", "ben", True), Attempt("1", "ana", False),
                                             Attempt("3", "cy", True)])
    asked = await store.start_puzzle(served())  # asked for the same day: not the daily
    await store.end_puzzle(asked, "solved", [Attempt("4", "dee", True)])
    elsewhere = await store.start_puzzle(served(guild="h", kind="daily", day=day))
    await store.end_puzzle(elsewhere, "solved", [Attempt("5", "eve", True)])
    yesterday = await store.start_puzzle(served(kind="daily", day="2025-12-31"))
    await store.end_puzzle(yesterday, "solved", [Attempt("6", "fay", True)])
    with pytest.raises(MoveConflict):  # one daily puzzle a day on a server, whoever posts it (even elsewhere)
        await store.start_puzzle(served("c2", kind="daily", day=day))
    assert await store.daily_solvers("g", day) == ["ben", "cy"]
    assert await store.daily_solvers("h", day) == ["eve"]
    assert await store.daily_solvers("g", "2026-01-02") == []


async def test_two_processes_racing_on_puzzles_exactly_one_wins_each_time(opener):
    first, second = await opener(), await opener()
    for channel in ("c1", "c2", "c3"):
        starts = await asyncio.gather(first.start_puzzle(served(channel)), second.start_puzzle(served(channel)),
                                      return_exceptions=True)
        assert sum(isinstance(r, MoveConflict) for r in starts) == 1, starts
        puzzle = next(r for r in starts if isinstance(r, int))
        advances = await asyncio.gather(first.advance_puzzle(puzzle, 1), second.advance_puzzle(puzzle, 1),
                                        return_exceptions=True)
        assert sum(isinstance(r, MoveConflict) for r in advances) == 1, advances
        ends = await asyncio.gather(
            first.end_puzzle(puzzle, "solved", [Attempt("1", "ana", True)],
                             RatedPuzzle((("1", "ana"),), True, Rating())),
            second.end_puzzle(puzzle, "failed", [Attempt("1", "ana", True)],
                              RatedPuzzle((("1", "ana"),), False, Rating())),
            return_exceptions=True)
        assert sum(isinstance(r, MoveConflict) for r in ends) == 1, ends
    assert (await first.puzzle_rating("g", "english", "1"))[1] == 3  # one end of each race counted, no more
    assert (await second.puzzle_strengths("english"))["a1b2c3d4"][1] == 3
    await first.set_daily("g", "c1", 9, "english")
    for day in ("2026-01-01", "2026-01-02"):
        marks = await asyncio.gather(first.mark_daily("g", day), second.mark_daily("g", day))
        assert sorted(marks) == [False, True]
