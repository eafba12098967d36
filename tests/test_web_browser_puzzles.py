"""The puzzle pages in a real headless Chromium (tests/test_web_browser.py has the browser and the server): a
puzzle of several moves solved by clicking, the defender's replies played on the board; a wrong move, and the
Show the solution button, showing the answer; the daily puzzle and the puzzles' page. What is checked is what a
person sees: the pieces the board draws and the words the page displays."""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Callable

from bot.core.daily import day_of, puzzle_of_the_day
from bot.core.puzzles import puzzle_set
from engine import game_type
from test_web_browser import Browser, pytestmark, served  # noqa: F401 (fixture, skip)
from test_web_browser_feedback import SIZES, visible_text


def deepest():
    """The English puzzle with the most solver moves (the same one every time)."""
    return max(puzzle_set("english").values(), key=lambda p: (p.solver_moves, p.id))


def until(b: Browser, test: Callable[[], object], what: str, timeout: float = 15.0):
    """Wait until ``test()`` holds (its value); fail saying ``what`` did not happen, and what the page says."""
    deadline = time.monotonic() + timeout
    while True:
        value = test()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}; the page says: {b.js('return document.body.innerText')!r}")
        time.sleep(0.05)


def drawn_pieces(b: Browser) -> set[tuple[str, str]]:
    """The pieces the board draws (not the ghosts of those just taken): (cell 'r,c', kind)."""
    return {tuple(p) for p in b.js("return [...document.querySelectorAll('#board g.piece:not(.captured)')]"
                                   ".map((g) => [g.dataset.cell, g.dataset.piece])")}


def pieces_of(variant: str, position) -> set[tuple[str, str]]:
    return {(f"{cell[0]},{cell[1]}", kind) for cell, kind in game_type(variant).pieces(position)}


def loaded(b: Browser) -> bool:
    return bool(b.js("return typeof puzzle !== 'undefined' && puzzle.data !== null"))


def my_turn(b: Browser) -> bool:
    return bool(b.js("return puzzle.data !== null && !puzzle.over && !puzzle.waiting && puzzle.legal.length > 0"))


def click_move(b: Browser, move) -> None:
    """Click the squares of ``move`` (an engine move of the position the page shows) until the page sends it."""
    until(b, lambda: my_turn(b), "the page did not offer a move")
    path = [list(cell) for cell in game_type("english").path(move)]
    offered = b.js("return puzzle.legal.map((m) => m.path)")
    assert path in offered, (path, offered)
    for cell in path:
        b.click_cell(cell)
        if not b.js("return puzzle.clicks.length"):
            break
    assert b.js("return puzzle.waiting || puzzle.over !== null"), "the clicks did not play the move"


def open_puzzle(b: Browser, url: str) -> None:
    b.open(url)
    until(b, lambda: loaded(b), "the puzzle did not load")


async def test_a_puzzle_of_five_moves_solved_by_clicking(served):
    chat, base, browser = served
    puzzle = deepest()
    assert puzzle.solver_moves >= 3
    gt = game_type("english")
    record = gt.new_game(puzzle.position)
    b = await browser()
    await asyncio.to_thread(open_puzzle, b, base + f"/puzzle/english/{puzzle.id}")
    assert await asyncio.to_thread(visible_text, b, "task") == "Black to play and win"
    assert await asyncio.to_thread(visible_text, b, "motif") == f"Theme: {puzzle.theme}"
    assert await asyncio.to_thread(drawn_pieces, b) == pieces_of("english", record.position)
    assert await asyncio.to_thread(b.js, "return puzzle.flipped === null && flipped()")  # Black at the bottom
    for n in range(puzzle.solver_moves):
        due = gt.parse_move(record.position, puzzle.solution[2 * n])
        await asyncio.to_thread(click_move, b, due)
        record.play(due)
        if n == puzzle.solver_moves - 1:
            break
        before = record.position
        reply = record.play_text(puzzle.solution[2 * n + 1])
        said = f"Right! I answer {gt.write_move(before, reply)}. Your move."
        await asyncio.to_thread(until, b, lambda: visible_text(b, "status") == said, f"no {said!r}")
        # the board shows the reply played: the defender's piece moved, what it took gone
        assert await asyncio.to_thread(drawn_pieces, b) == pieces_of("english", record.position)
    await asyncio.to_thread(until, b, lambda: visible_text(b, "status").startswith("Solved!"), "no Solved!")
    line = chat.core.try_puzzle(puzzle, list(puzzle.solution[::2])).line
    assert await asyncio.to_thread(visible_text, b, "status") == f"Solved! The whole line: {line}."
    assert await asyncio.to_thread(drawn_pieces, b) == pieces_of("english", record.position)
    listed = await asyncio.to_thread(b.js, "return [...document.querySelectorAll('#moves button.move')]"
                                           ".map((m) => m.textContent)")
    assert " ".join(listed) == line
    assert await asyncio.to_thread(b.js, "return $('solution').disabled")  # nothing left to show
    # once over, the line can be stepped through: the start again
    await asyncio.to_thread(b.key, "\ue011")  # Home
    await asyncio.to_thread(until, b, lambda: drawn_pieces(b) == pieces_of("english", gt.read_position(
        puzzle.position)), "Home did not show the start")


@SIZES
async def test_a_wrong_move_is_shown_then_taken_back_and_the_solver_tries_again_rated_once(served, phone):
    chat, base, browser = served
    puzzle = deepest()
    gt = game_type("english")
    start = gt.read_position(puzzle.position)
    right = gt.parse_move(start, puzzle.solution[0])
    wrong = next(m for m in gt.legal_moves(start) if m != right)
    b = await browser(phone=phone)
    await asyncio.to_thread(open_puzzle, b, base + f"/puzzle/english/{puzzle.id}")
    assert not await asyncio.to_thread(b.js, "return $('solution').disabled")
    assert await asyncio.to_thread(visible_text, b, "rating") == ""
    # no theme chosen: the next puzzle of any theme
    assert await asyncio.to_thread(b.js, "return $('another').getAttribute('href')") == "/puzzle/english/random"
    await asyncio.to_thread(click_move, b, wrong)
    # shown on the board, said, and the rating's change written under it: the first try is the one that counts
    await asyncio.to_thread(until, b, lambda: drawn_pieces(b) == pieces_of("english", gt.make(start, wrong)),
                            "the wrong move was not shown")
    assert await asyncio.to_thread(visible_text, b, "status") == f"{gt.write_move(start, wrong)} is not it."
    rating = await asyncio.to_thread(until, b, lambda: visible_text(b, "rating"), "no word on the rating")
    found = re.fullmatch(r"Your puzzle rating: 1500 → (\d+) \(-(\d+)\)\.", rating)
    assert found and int(found[1]) == 1500 - int(found[2]), rating  # lost: a wrong move is a miss
    # then taken back: the start again, the solver to move, the answer not given away
    await asyncio.to_thread(until, b, lambda: drawn_pieces(b) == pieces_of("english", start), "not taken back")
    said = f"{gt.write_move(start, wrong)} is not it. Try again, or ask for the solution."
    await asyncio.to_thread(until, b, lambda: visible_text(b, "status") == said, f"no {said!r}")
    assert await asyncio.to_thread(my_turn, b)
    line = chat.core.try_puzzle(puzzle, list(puzzle.solution[::2])).line
    assert line not in await asyncio.to_thread(b.js, "return document.body.innerText")
    await asyncio.to_thread(click_move, b, right)  # and again: right this time, but the rating stays as it was
    await asyncio.to_thread(until, b, lambda: visible_text(b, "status").startswith("Right! I answer"), "no reply")
    assert await asyncio.to_thread(visible_text, b, "rating") == rating

    # a fresh page: one right move, then the button shows the answer due there, not before
    await asyncio.to_thread(open_puzzle, b, base + f"/puzzle/english/{puzzle.id}")
    await asyncio.to_thread(click_move, b, right)
    after = gt.make(start, right)
    reply = gt.parse_move(after, puzzle.solution[1])
    here = gt.make(after, reply)
    await asyncio.to_thread(until, b, lambda: visible_text(b, "status").startswith("Right! I answer"), "no reply")
    await asyncio.to_thread(b.js, "$('solution').click()")
    answer = gt.parse_move(here, puzzle.solution[2])
    said = f"The answer: {gt.write_move(here, answer)}. The whole line: {line}."
    await asyncio.to_thread(until, b, lambda: visible_text(b, "status") == said, f"no {said!r}")
    assert await asyncio.to_thread(drawn_pieces, b) == pieces_of("english", gt.make(here, answer))


async def test_an_illegal_answer_from_the_server_leaves_the_board_as_it_was(served):
    """A refusal (here a move sent by hand that the board would not offer) is shown, and the page goes on."""
    chat, base, browser = served
    puzzle = deepest()
    b = await browser()
    await asyncio.to_thread(open_puzzle, b, base + f"/puzzle/english/{puzzle.id}")
    await asyncio.to_thread(b.js, "play({text: '1-5', path: []})")
    await asyncio.to_thread(until, b, lambda: "not legal here" in visible_text(b, "notice"), "no refusal shown")
    assert await asyncio.to_thread(b.js, "return [puzzle.entries.length, puzzle.moves.length, puzzle.over]") == \
        [1, 0, None]
    assert await asyncio.to_thread(visible_text, b, "status") == "Your move: click or drag a piece, or type the move."
    assert await asyncio.to_thread(my_turn, b)


async def test_the_daily_page_shows_todays_puzzle_and_the_puzzles_page_leads_to_it(served):
    chat, base, browser = served
    today = puzzle_of_the_day("english", day_of(chat.clock())[0])
    assert chat.core.daily_puzzle("english") == today
    b = await browser()
    await asyncio.to_thread(b.open, base + "/puzzles")
    link = await asyncio.to_thread(until, b, lambda: b.js(
        "const a = document.querySelector('[data-variant=english] a.daily'); return a && a.textContent"),
        "the puzzles' page lists no English")
    assert link == "Today's puzzle"
    await asyncio.to_thread(b.js, "document.querySelector('[data-variant=english] a.daily').click()")
    await asyncio.to_thread(until, b, lambda: loaded(b), "the daily page did not load")
    assert await asyncio.to_thread(b.js, "return location.pathname") == "/puzzle/english/daily"
    assert await asyncio.to_thread(b.js, "return puzzle.data.id") == today.id
    assert await asyncio.to_thread(drawn_pieces, b) == pieces_of("english", game_type("english").read_position(
        today.position))
    assert "today's puzzle" in await asyncio.to_thread(visible_text, b, "title")
    solver = "White" if today.position.startswith("W") else "Black"
    assert await asyncio.to_thread(visible_text, b, "task") == f"{solver} to play and win"
    permalink = await asyncio.to_thread(b.js, "return $('permalink').getAttribute('href')")
    assert permalink == f"/puzzle/english/{today.id}" and await asyncio.to_thread(visible_text, b, "permalink")

    await asyncio.to_thread(b.open, base + "/puzzles")
    await asyncio.to_thread(until, b, lambda: b.js("return document.querySelector('[data-variant=english] a.random')"),
                            "no random link")
    await asyncio.to_thread(b.js, "document.querySelector('[data-variant=english] a.random').click()")
    await asyncio.to_thread(until, b, lambda: loaded(b) and b.js("return location.pathname") != "/puzzles",
                            "the random link led nowhere")
    landed = await asyncio.to_thread(b.js, "return [location.pathname, puzzle.data.id]")
    assert landed[0] == f"/puzzle/english/{landed[1]}" and landed[1] in puzzle_set("english")


def solve_shown(b: Browser) -> None:
    """Solve the puzzle the page shows by clicking its answer, move after move."""
    found = puzzle_set("english")[b.js("return puzzle.data.id")]
    gt = game_type("english")
    here = gt.read_position(found.position)
    for n in range(0, len(found.solution), 2):
        move = gt.parse_move(here, found.solution[n])
        click_move(b, move)
        here = gt.make(here, move)
        if n + 1 < len(found.solution):
            here = gt.make(here, gt.parse_move(here, found.solution[n + 1]))


@SIZES
async def test_a_streak_goes_on_while_solved_ends_at_the_first_miss_and_keeps_the_best(served, phone):
    chat, base, browser = served
    b = await browser(phone=phone)
    await asyncio.to_thread(open_puzzle, b, base + "/puzzle/english/streak")
    assert await asyncio.to_thread(visible_text, b, "streak") == "Streak: 0 solved"
    assert "puzzle streak" in await asyncio.to_thread(visible_text, b, "title")
    assert not await asyncio.to_thread(visible_text, b, "another")  # a streak goes on by itself
    first = await asyncio.to_thread(b.js, "return puzzle.data.id")
    await asyncio.to_thread(solve_shown, b)
    await asyncio.to_thread(until, b, lambda: visible_text(b, "streak") == "Streak: 1 solved", "no count")
    await asyncio.to_thread(until, b, lambda: b.js(f"return puzzle.data !== null && puzzle.data.id !== {first!r}")
                            and my_turn(b), "the next puzzle did not come")
    found = puzzle_set("english")[await asyncio.to_thread(b.js, "return puzzle.data.id")]
    gt = game_type("english")
    start = gt.read_position(found.position)
    wrong = next(m for m in gt.legal_moves(start) if m != gt.parse_move(start, found.solution[0]))
    await asyncio.to_thread(click_move, b, wrong)
    over = "Streak: 1 solved. It is over; your best: 1."
    await asyncio.to_thread(until, b, lambda: visible_text(b, "streak") == over, f"no {over!r}")
    assert (await asyncio.to_thread(visible_text, b, "status")).startswith("The answer: ")
    assert await asyncio.to_thread(visible_text, b, "new-streak") == "A new streak"
    assert await asyncio.to_thread(visible_text, b, "rating") == ""  # a streak is never rated
    await asyncio.to_thread(b.js, "$('new-streak').click()")
    await asyncio.to_thread(until, b, lambda: loaded(b) and visible_text(b, "streak") == "Streak: 0 solved",
                            "no new streak")


async def test_a_theme_chosen_on_the_puzzles_page_stays_and_my_page_lists_the_puzzles_tried(served):
    chat, base, browser = served
    b = await browser()
    await asyncio.to_thread(b.open, base + "/puzzles")
    shot = await asyncio.to_thread(until, b, lambda: b.js(
        "const a = document.querySelector('[data-variant=english] a[data-theme=shot]'); return a && a.textContent"),
        "no theme links")
    assert re.fullmatch(r"shot \(\d+\)", shot)
    await asyncio.to_thread(b.js, "document.querySelector('[data-variant=english] a[data-theme=shot]').click()")
    await asyncio.to_thread(until, b, lambda: loaded(b) and b.js("return location.pathname") != "/puzzles",
                            "the theme's link led nowhere")
    assert await asyncio.to_thread(b.js, "return location.search") == "?theme=shot"
    assert await asyncio.to_thread(visible_text, b, "motif") == "Theme: shot"
    assert (await asyncio.to_thread(b.js, "return $('another').getAttribute('href')")).endswith("?theme=shot")
    tried = await asyncio.to_thread(b.js, "return puzzle.data.id")
    await asyncio.to_thread(b.js, "$('solution').click()")  # asked for before a move: a miss
    rating = await asyncio.to_thread(until, b, lambda: visible_text(b, "rating"), "no word on the rating")
    after = re.fullmatch(r"Your puzzle rating: 1500 → (\d+) \(-\d+\)\.", rating)[1]

    await asyncio.to_thread(b.open, base + "/me")
    await asyncio.to_thread(until, b, lambda: "puzzle rating" in visible_text(b, "my-puzzle-ratings"), "no ratings")
    assert re.fullmatch(rf"English: puzzle rating {after} ± \d+ \(puzzles: 1\)",  # (as ratings are written)
                        await asyncio.to_thread(visible_text, b, "my-puzzle-ratings"))
    assert await asyncio.to_thread(visible_text, b, "my-puzzles") == f"English: missed, puzzle rating {after} after it"
    assert await asyncio.to_thread(b.js, "return document.querySelector('#my-puzzles a').getAttribute('href')") == (
        f"/puzzle/english/{tried}")
