"""`puzzle` in chat: a shipped puzzle posted near the asker's rating, answered move by move by anyone in the channel
(the bot plays the defender), solved, failed or shown; ratings moving; games keeping their channel; a restart in the
middle of a puzzle."""

from __future__ import annotations

import io
import random
import re

import pytest

from bot.core import Core, puzzles
from bot.core.puzzles import pick, puzzle_set, starting_strength
from bot.ratings import Rating
from bot.store import SqliteStore
from bot.store.postgres import PostgresStore
from bot.terminal import Terminal, chat
from chat import ANA, BEN, Chat, config
from engine import game_type
from postgres import fresh_database


def longest(variant: str = "english"):
    """A shipped puzzle with the most moves for the solver (at least two)."""
    found = max(puzzle_set(variant).values(), key=lambda p: (p.solver_moves, p.id))
    assert found.solver_moves >= 2
    return found


def given(monkeypatch, puzzle) -> None:
    """The next `puzzle` posts ``puzzle`` (the choice near a rating is tested on its own)."""
    monkeypatch.setattr(puzzles, "pick", lambda *args: puzzle)


def short(puzzle, ply: int) -> str:
    """Move ``ply`` of the puzzle's solution as a player types it (the short form)."""
    gt = game_type(puzzle.variant)
    here = gt.read_position(puzzle.position)
    for text in puzzle.solution[:ply]:
        here = gt.make(here, gt.parse_move(here, text))
    return gt.write_move(here, gt.parse_move(here, puzzle.solution[ply]))


def a_wrong_move(puzzle) -> str:
    gt = game_type(puzzle.variant)
    here = gt.read_position(puzzle.position)
    right = gt.parse_move(here, puzzle.solution[0])
    return next(gt.write_move(here, m) for m in gt.legal_moves(here) if m != right)


async def test_a_puzzle_solved_move_by_move_by_two_people(pool, monkeypatch):
    puzzle = longest()
    given(monkeypatch, puzzle)
    chat = Chat(SqliteStore(":memory:"), pool)
    [posted] = await chat.say(ANA, "puzzle")
    solver = "White" if puzzle.position.startswith("W") else "Black"
    assert f"Puzzle {puzzle.id} (English" in posted.text and f"{solver} to play and win" in posted.text
    assert posted.board is not None and posted.board.position == game_type("english").read_position(puzzle.position)
    [again] = await chat.say(BEN, "board")
    assert again.board == posted.board and again.controls == posted.controls == chat.core.controls("c1")
    assert chat.core.legal_texts("c1") == list(posted.controls.moves)
    assert (await chat.say(BEN, "moves"))[0].text.startswith(f"Legal moves for {solver}: ")
    typo = await chat.say(BEN, "99-98")
    assert typo[0].private and chat.core.state.puzzles  # a typo changes nothing
    people = [ANA, BEN] * len(puzzle.solution)
    for ply in range(0, len(puzzle.solution), 2):
        [reply] = await chat.say(people[ply // 2], short(puzzle, ply))
        assert not reply.private, reply.text
        if ply + 1 < len(puzzle.solution):
            assert reply.text.startswith(f"Right: {short(puzzle, ply)}. I answer {short(puzzle, ply + 1)}.")
    assert "solved by ana and ben!" in reply.text and "ana's puzzle rating 1500 → " in reply.text
    for person in (ANA, BEN):
        rating, count = await chat.store.puzzle_rating("g", "english", person.id)
        assert rating.rating > 1500 and count == 1
    assert re.search(r"Puzzle ratings: English: 1[5-9]\d\d ± \d+ \(1 puzzle\)\.$", (await chat.say(BEN, "rating"))[0].text)
    board = (await chat.say(BEN, "leaderboard puzzles checkers"))[0].text
    assert board.startswith("Best English puzzle solvers here:\n1. ") and "ana" in board and "ben" in board
    strength, attempts = (await chat.store.puzzle_strengths("english"))[puzzle.id]
    assert strength.rating < starting_strength(puzzle).rating and attempts == 1  # one time it was played
    assert not chat.core.state.puzzles
    assert "No game is on here" in (await chat.say(ANA, short(puzzle, 0)))[0].text


async def test_a_wrong_move_ends_the_puzzle_with_the_answer(pool, monkeypatch):
    puzzle = longest()
    given(monkeypatch, puzzle)
    chat = Chat(SqliteStore(":memory:"), pool)
    await chat.say(ANA, "puzzle")
    wrong = a_wrong_move(puzzle)
    [reply] = await chat.say(BEN, wrong)
    assert reply.text.startswith(f"{wrong} is not it. The answer was {short(puzzle, 0)}")
    rating, count = await chat.store.puzzle_rating("g", "english", BEN.id)
    assert rating.rating < 1500 and count == 1
    assert (await chat.store.puzzle_rating("g", "english", ANA.id))[1] == 0  # asking is not answering
    assert (await chat.store.puzzle_strengths("english"))[puzzle.id][0].rating > starting_strength(puzzle).rating
    assert not chat.core.state.puzzles


async def test_solution_shows_the_answer_and_rates_nobody(pool, monkeypatch):
    puzzle = longest()
    given(monkeypatch, puzzle)
    chat = Chat(SqliteStore(":memory:"), pool)
    assert "No puzzle is on here" in (await chat.say(ANA, "solution"))[0].text
    await chat.say(ANA, "puzzle")
    again = await chat.say(BEN, "puzzle")
    assert again[0].private and "A puzzle is on here already" in again[0].text
    await chat.say(ANA, short(puzzle, 0))
    [shown] = await chat.say(BEN, "solution")
    assert shown.text.startswith(f"The answer: {short(puzzle, 2)}; the whole line: {short(puzzle, 0)} ")
    assert (await chat.store.puzzle_rating("g", "english", ANA.id))[1] == 0
    assert puzzle.id not in await chat.store.puzzle_strengths("english")


async def test_a_game_keeps_its_channel_and_ends_a_puzzle_there(pool, monkeypatch):
    puzzle = longest()
    given(monkeypatch, puzzle)
    chat = Chat(SqliteStore(":memory:"), pool, config(move_time=0.05))
    await chat.say(ANA, "new english level 1", channel="c2")
    refused = await chat.say(BEN, "puzzle", channel="c2")
    assert refused[0].private and "its moves come first" in refused[0].text
    await chat.say(ANA, "puzzle")
    replies = await chat.say(BEN, "new english level 1")
    assert replies[0].text.startswith("The puzzle here ends for the game. Its answer: ")
    assert "New game" in replies[1].text and chat.on("c1") and not chat.core.state.puzzles
    await chat.core.settle()
    await chat.core.close()


async def test_no_puzzles_for_tablut_and_a_variant_named_by_its_alias(pool):
    chat = Chat(SqliteStore(":memory:"), pool)
    refused = await chat.say(ANA, "puzzle tablut")
    assert refused[0].private and "I have no puzzles for tablut" in refused[0].text
    [posted] = await chat.say(ANA, "puzzle checkers")
    assert "(English" in posted.text


def test_a_puzzle_is_picked_near_the_rating_and_not_twice():
    puzzles_ = list(puzzle_set("english").values())
    rng = random.Random(1)
    low = [pick(puzzles_, {}, set(), 1100, rng) for _ in range(20)]
    high = [pick(puzzles_, {}, set(), 2000, rng) for _ in range(20)]
    assert max(starting_strength(p).rating for p in low) < min(starting_strength(p).rating for p in high)
    strengths = {p.id: (Rating(2000.0, 60.0), 9) for p in puzzles_[:5]}  # these five turned out hard
    assert {pick(puzzles_, strengths, set(), 2000, rng).id for _ in range(30)} <= {p.id for p in puzzles_[:5]} | {
        p.id for p in puzzles_ if starting_strength(p).rating >= 1700}
    seen = {p.id for p in puzzles_[1:]}
    assert pick(puzzles_, {}, seen, 1500, rng) == puzzles_[0]


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
async def test_a_puzzle_is_back_where_it_was_after_a_restart(pool, tmp_path, backend, request, monkeypatch):
    async def store():
        if backend == "sqlite":
            return SqliteStore(str(tmp_path / "bot.sqlite3"))
        return await PostgresStore.connect(url)

    puzzle = longest()
    given(monkeypatch, puzzle)
    url = await fresh_database(request.getfixturevalue("postgres_server")) if backend == "postgresql" else None
    first = Chat(await store(), pool)
    await first.say(ANA, "puzzle")
    await first.say(ANA, short(puzzle, 0))
    await first.store.close()

    second = Chat(await store(), pool)
    try:
        await second.core.start()
        on = second.core.state.puzzles["c1"]
        assert len(on.record.moves) == 2 and on.served.puzzle == puzzle.id
        [reply] = await second.say(BEN, short(puzzle, 2))
        assert not reply.private and short(puzzle, 2) in reply.text
        for ply in range(4, len(puzzle.solution), 2):
            [reply] = await second.say(BEN, short(puzzle, ply))
        assert "solved by ana and ben!" in reply.text  # Ana's move before the restart counts too
        assert (await second.store.puzzle_rating("g", "english", ANA.id))[1] == 1
    finally:
        await second.store.close()


async def test_a_puzzle_answered_by_another_process_meanwhile_is_read_again(pool, tmp_path, monkeypatch):
    puzzle = longest()
    given(monkeypatch, puzzle)
    path = str(tmp_path / "bot.sqlite3")
    first = Chat(SqliteStore(path), pool)
    await first.say(ANA, "puzzle")
    other = Chat(SqliteStore(path), pool)  # a second process holding the channel by mistake
    await other.core.start()
    await other.say(ANA, short(puzzle, 0))
    [stale] = await first.say(BEN, short(puzzle, 0))
    assert stale.private and stale.text.startswith("That was not done: the puzzle here had changed meanwhile")
    assert len(first.core.state.puzzles["c1"].record.moves) == 2  # read again as the database has it
    [reply] = await first.say(BEN, short(puzzle, 2))
    assert reply.text.startswith(f"Right: {short(puzzle, 2)}.")


async def test_a_puzzle_in_the_terminal_chat(pool, tmp_path, monkeypatch):
    puzzle = min((p for p in puzzle_set("english").values() if p.solver_moves == 1), key=lambda p: p.id)
    given(monkeypatch, puzzle)
    out = io.StringIO()
    terminal = Terminal(tmp_path, out=out)
    core = Core(config(), SqliteStore(":memory:"), pool, terminal.send)
    await chat(core, terminal, io.StringIO(f"puzzle\n{short(puzzle, 0)}\n"))
    text = out.getvalue()
    assert f"Puzzle {puzzle.id}" in text and re.search(r"solved by \w+!", text)
    await core.close()
