"""Puzzles on Discord, end to end through the emulator: `/draughts puzzle` and `@bot puzzle`, answered from the move
menu under the board, by a move typed alone or after a mention; a wrong move and `/draughts solution` showing the
answer; only the latest puzzle board keeping its menu; `/draughts daily` for the server's managers only, and the
daily puzzle posted at its hour by the core's clock."""

from __future__ import annotations

import asyncio
import copy

from bot.discord.views import PuzzleMenu, SolutionButton, puzzle_view
from bot.store import SqliteStore
from chat import Clock
from discord_emulator import ANA, BEN, EPHEMERAL, EVE, MANAGE_GUILD, components, text_of
from discord_harness import running
from engine.puzzles.puzzle import Puzzle
from test_bot_daily import HOUR, MIDNIGHT, solve_text
from test_bot_puzzles import a_wrong_move, given, longest, short
from test_discord import (MENTION, bot_to_answer, buttons, emulator, has_file, menu,  # noqa: F401
                          nothing_goes_wrong_quietly, store, until)

PAGED = Puzzle("english", "W:WK6,K8,K14,K16,K22,K24,K30,K32:B1,3", ("32-28",), "tactic", 1, 100, "a test's")
"""Made up for the menu's pages: White has 26 moves, the answer the last of them (on the second page)."""


def is_puzzle_board(message: dict) -> bool:
    return "Solution" in buttons(message)


async def latest_puzzle(emu, channel: int, since: int = 0) -> dict:
    """The newest puzzle board in ``channel`` posted at or after ``since`` (waiting for one)."""
    await emu.wait_for(lambda m: int(m["channel_id"]) == channel and is_puzzle_board(m), since, what="a puzzle board")
    return [m for m in emu.posted(channel, since) if is_puzzle_board(m)][-1]


def live(emu, channel: int) -> list[dict]:
    """The messages of ``channel`` that show controls."""
    return [m for m in emu.posted(channel) if components(m)]


async def test_a_puzzle_asked_with_the_slash_command_and_solved_from_the_menu(emulator, store, pool, monkeypatch):
    puzzle = longest()
    given(monkeypatch, puzzle)
    games = emulator.channel("games")
    async with running(emulator, store, pool) as bot:
        board = await emulator.answer(await emulator.slash(EVE, games, "puzzle", variant="english"))
        assert f"Puzzle {puzzle.id} (English" in text_of(board) and not board["flags"] & EPHEMERAL
        assert board["embeds"][0]["image"]["url"] == "attachment://puzzle.png" and has_file(board, "puzzle.png")
        assert set(buttons(board)) == {"Solution"}  # no game buttons, no web page links: a puzzle is not a game
        served = bot.core.state.puzzles[str(games)].served.id
        assert menu(board)["custom_id"] == f"draughts:puzzle:{served}:0:0"
        assert buttons(board)["Solution"]["custom_id"] == f"draughts:solution:{served}:0"
        people = [ANA, BEN, EVE]
        for turn, ply in enumerate(range(0, len(puzzle.solution), 2)):
            offered = [o["value"] for o in menu(board)["options"]]
            assert short(puzzle, ply) in offered, offered
            answer = await emulator.answer(await emulator.choose(people[turn % 3], board, short(puzzle, ply)))
            assert not answer["flags"] & EPHEMERAL, text_of(answer)
            await until(lambda: components(board) == [])  # the board before loses its menu
            if ply + 1 < len(puzzle.solution):
                assert text_of(answer).startswith(f"Right: {short(puzzle, ply)}. I answer {short(puzzle, ply + 1)}.")
                assert menu(answer)["custom_id"] == f"draughts:puzzle:{served}:{ply + 2}:0"
                board = answer
        assert "solved by Ana and Ben and Eve!" in text_of(answer) and has_file(answer, "puzzle.png")
        assert components(answer) == [] and live(emulator, games) == []  # over: nothing left to press
        assert await store.board_message(0) is None and not bot.core.state.puzzles
        top = await emulator.answer(await emulator.slash(EVE, games, "leaderboard", variant="english", puzzles=True))
        assert text_of(top).startswith("Best English puzzle solvers here:")
        practice = await emulator.answer(await emulator.slash(EVE, games, "practice"))
        assert practice["flags"] & EPHEMERAL and "nothing to practise yet" in text_of(practice)


async def test_typed_moves_and_slash_moves_answer_a_puzzle_and_the_slash_solution_ends_it(emulator, store, pool, monkeypatch):
    puzzle = longest()
    given(monkeypatch, puzzle)
    games = emulator.channel("games")
    async with running(emulator, store, pool) as bot:
        await emulator.say(ANA, games, f"{MENTION} puzzle")
        first = await latest_puzzle(emulator, games)
        since = len(emulator.posts)
        await emulator.say(BEN, games, short(puzzle, 0))  # a move typed alone: anyone may answer
        right = await latest_puzzle(emulator, games, since)
        assert text_of(right).startswith(f"Right: {short(puzzle, 0)}.")
        await until(lambda: live(emulator, games) == [right])
        since = len(emulator.posts)
        await emulator.say(EVE, games, f"{MENTION} {short(puzzle, 2)}")  # or after a mention
        again = await latest_puzzle(emulator, games, since)
        assert text_of(again).startswith(f"Right: {short(puzzle, 2)}.")
        await until(lambda: live(emulator, games) == [again])
        typed = await emulator.autocomplete(ANA, games, "")  # /draughts move suggests the solver's moves
        await until(lambda: typed.choices is not None)
        assert [c["value"] for c in typed.choices] == [o["value"] for o in menu(again)["options"]]
        moved = await emulator.answer(await emulator.slash(ANA, games, "move", move=short(puzzle, 4)))
        assert text_of(moved).startswith(f"Right: {short(puzzle, 4)}.")
        await until(lambda: live(emulator, games) == [moved])
        shown = await emulator.answer(await emulator.slash(BEN, games, "solution"))
        assert text_of(shown).startswith(f"The answer: {short(puzzle, 6)}; the whole line: {short(puzzle, 0)} ")
        assert has_file(shown, "puzzle.png") and components(shown) == []
        await until(lambda: live(emulator, games) == [])
        assert not bot.core.state.puzzles and first is not right


async def test_a_wrong_move_from_the_menu_shows_the_answer_and_the_old_menu_is_refused(emulator, store, pool,
                                                                                       monkeypatch):
    puzzle = longest()
    given(monkeypatch, puzzle)
    games = emulator.channel("games")
    async with running(emulator, store, pool) as bot:
        board = await emulator.answer(await emulator.slash(ANA, games, "puzzle"))
        kept = copy.deepcopy(board)  # as a client that has not refreshed still shows it
        wrong = a_wrong_move(puzzle)
        failed = await emulator.answer(await emulator.choose(BEN, board, wrong))
        assert text_of(failed).startswith(f"{wrong} is not it. The answer was {short(puzzle, 0)}")
        assert "Ben's puzzle rating 1500 → " in text_of(failed) and components(failed) == []
        await until(lambda: live(emulator, games) == [])
        for act in (emulator.choose(EVE, kept, short(puzzle, 0)), emulator.press(EVE, kept, "Solution")):
            refused = await emulator.answer(await act)
            assert refused["flags"] & EPHEMERAL and text_of(refused) == "That puzzle is over."
        assert not bot.core.state.puzzles


async def test_only_the_latest_puzzle_board_keeps_its_menu(emulator, store, pool, monkeypatch):
    puzzle = longest()
    given(monkeypatch, puzzle)
    games = emulator.channel("games")
    async with running(emulator, store, pool) as bot:
        board = await emulator.answer(await emulator.slash(ANA, games, "puzzle"))
        kept = copy.deepcopy(board)
        real = bot.core.handle

        async def slow(msg):  # both picks are in before the first is done
            await asyncio.sleep(0.3)
            await real(msg)
        monkeypatch.setattr(bot.core, "handle", slow)
        # two picks from one board at once: one answers, the other is refused, not read on the board after it
        clicks = await asyncio.gather(emulator.choose(ANA, board, short(puzzle, 0)),
                                      emulator.choose(BEN, board, short(puzzle, 0)))
        answers = [await emulator.answer(c) for c in clicks]
        played = [a for a in answers if not a["flags"] & EPHEMERAL]
        refused = [a for a in answers if a["flags"] & EPHEMERAL]
        assert len(played) == 1 and len(refused) == 1, [text_of(a) for a in answers]
        assert "out of date" in text_of(refused[0])
        monkeypatch.setattr(bot.core, "handle", real)
        newest = await latest_puzzle(emulator, games)
        await until(lambda: live(emulator, games) == [newest])
        stale = await emulator.answer(await emulator.press(EVE, kept, "Solution"))  # an old board's button
        assert stale["flags"] & EPHEMERAL and "out of date" in text_of(stale) and bot.core.state.puzzles
        # a game started here ends the puzzle (in words, without a board): its board's menu comes off too
        await emulator.answer(await emulator.slash(BEN, games, "new", level=1, time=0.05))
        await emulator.wait_for(lambda m: "The puzzle here ends for the game" in text_of(m))
        await until(lambda: components(newest) == [])
        assert not bot.core.state.puzzles and bot.core.game_in(str(games)) is not None
        await emulator.answer(await emulator.slash(BEN, games, "resign"))
        await bot_to_answer(bot)


async def test_the_puzzle_menu_pages_past_25_moves_and_still_works_after_a_restart(emulator, tmp_path, pool,
                                                                                   monkeypatch):
    given(monkeypatch, PAGED)
    games = emulator.channel("games")
    path = str(tmp_path / "bot.sqlite3")
    first = SqliteStore(path)
    async with running(emulator, first, pool):
        board = await emulator.answer(await emulator.slash(ANA, games, "puzzle"))
        options = [o["value"] for o in menu(board)["options"]]
        assert len(options) == 25 and options[-1] == "page:1" and "32-28" not in options
        turned = await emulator.choose(ANA, board, "page:1")  # the menu turns its page in place
        await until(lambda: turned.callbacks)
        assert turned.callbacks[0]["type"] == 7
        second = [o["value"] for o in menu(emulator.messages[int(board["id"])])["options"]]
        assert "32-28" in second and second[-1] == "page:0" and len(set(options[:-1]) | set(second[:-1])) == 26
        old_page = copy.deepcopy(emulator.messages[int(board["id"])])
    await first.close()
    again = SqliteStore(path)
    try:
        async with running(emulator, again, pool) as bot:  # the puzzle is back; the menu's pages are not
            assert bot.core.state.puzzles
            lost = await emulator.answer(await emulator.choose(BEN, old_page, "page:0"))
            assert lost["flags"] & EPHEMERAL and "type your move" in text_of(lost)
            solved = await emulator.answer(await emulator.choose(BEN, old_page, "32-28"))  # its moves still work
            assert "solved by Ben!" in text_of(solved)
    finally:
        await again.close()


async def test_the_daily_puzzle_is_set_by_a_manager_and_posted_at_its_hour(emulator, store, pool):
    games = emulator.channel("games")
    assert emulator.member_permissions(ANA) & MANAGE_GUILD and not emulator.member_permissions(BEN) & MANAGE_GUILD
    clock = Clock()
    clock.now = MIDNIGHT + 24 * HOUR + 13 * HOUR  # day 1, 13:00 UTC
    async with running(emulator, store, pool, clock=clock) as bot:
        refused = await emulator.answer(await emulator.slash(BEN, games, "daily", action="here", hour=14))
        assert refused["flags"] & EPHEMERAL and "Manage Server" in text_of(refused)
        since = len(emulator.posts)
        await emulator.say(BEN, games, f"{MENTION} daily here hour 14")  # typed, by someone without it: refused
        note = await emulator.wait_for(lambda m: "Manage Server" in text_of(m), since)
        assert "message_reference" in note and not await store.dailies()
        await emulator.say(ANA, games, f"{MENTION} daily here hour 9")  # typed by the owner: done
        await emulator.wait_for(lambda m: "every day at 09:00 UTC" in text_of(m), since)
        off = await emulator.answer(await emulator.slash(ANA, games, "daily", action="off"))
        assert "No more daily puzzles" in text_of(off) and not await store.dailies()
        done = await emulator.answer(await emulator.slash(ANA, games, "daily", action="here", hour=14,
                                                          variant="english"))
        assert not done["flags"] & EPHEMERAL and "every day at 14:00 UTC" in text_of(done)
        assert [(d.channel, d.hour, d.variant) for d in await store.dailies()] == [(str(games), 14, "english")]
        shown = await emulator.answer(await emulator.slash(EVE, games, "daily"))  # anyone may look
        assert "posted here" in text_of(shown) and "14:00 UTC" in text_of(shown)

        since = len(emulator.posts)
        clock.now += 59 * 60  # 13:59: not yet
        await bot.core.tick()
        await asyncio.sleep(0.2)
        assert not bot.core.state.puzzles and emulator.posted(games, since) == []
        clock.now += 60  # 14:00
        await bot.core.tick()
        posted = await latest_puzzle(emulator, games, since)
        assert text_of(posted).startswith("Daily puzzle for ") and posted["_interaction"] is None  # by the clock
        puzzle = bot.core.daily_puzzle("english")
        assert bot.core.state.puzzles[str(games)].served.puzzle == puzzle.id
        board = posted
        for typed in solve_text(puzzle):
            answer = await emulator.answer(await emulator.choose(ANA, board, typed))
            board = answer
        assert "solved by Ana!" in text_of(answer)
        said = await emulator.answer(await emulator.slash(BEN, games, "daily"))
        assert "Today's was solved by Ana." in text_of(said)
        await until(lambda: live(emulator, games) == [])


def test_puzzle_controls_are_not_a_games_and_page_like_the_games():
    moves = [f"{n}-{n + 4}" for n in range(1, 31)]
    view = puzzle_view(12, 4, moves, page=1)
    menu_, solution = view.children
    assert isinstance(menu_, PuzzleMenu) and isinstance(solution, SolutionButton)
    assert menu_.item.custom_id == "draughts:puzzle:12:4:1" and solution.item.custom_id == "draughts:solution:12:4"
    assert [o.value for o in menu_.item.options] == moves[24:] + ["page:0"]
    assert [type(i) for i in puzzle_view(12, 4, []).children] == [SolutionButton]  # no moves: the button alone
