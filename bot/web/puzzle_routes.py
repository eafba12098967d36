"""The web server's puzzle routes: the puzzles page, a puzzle's page, and the questions it asks (its start, the solver's
moves so far, the solution once it is over)."""

from __future__ import annotations

import json
import logging

from aiohttp import web

from bot.core import refusal
from bot.translation import join, tr
from bot.web import views
from bot.web.site import html_answer, json_answer, not_found, pages_of
from bot.words import game_title
from engine import MoveError
from engine.puzzles.puzzle import Puzzle

log = logging.getLogger(__name__)

_PUZZLE = r"{variant:[^/]{1,20}}/{puzzle:[^/]{1,40}}"
NO_PUZZLE = tr("There is no such puzzle.")
PUZZLE_MOVES = 64  # moves a puzzle's answer may hold (the longest solutions have a handful)
BAD_ANSWER = tr("A puzzle's answer is the list of the solver's moves so far, such as {example}.",
                example='{"moves": ["11-15"]}')


# puzzles


def _find_puzzle(request: web.Request, daily: bool = True) -> Puzzle | None:
    """The puzzle a puzzle route names (``daily``: also the day's puzzle, by that word), or None."""
    core = pages_of(request).core
    variant, ref = request.match_info["variant"], request.match_info["puzzle"]
    if variant not in core.puzzle_variants():
        return None
    if ref == "daily":
        return core.daily_puzzle(variant) if daily else None
    return core.puzzle(variant, ref)


async def _puzzles_page(request: web.Request) -> web.Response:
    return html_answer(request, "puzzles.html")


async def _puzzle_page(request: web.Request) -> web.StreamResponse:
    """A puzzle's page; ``random`` sends the browser on to any one of the game's puzzles."""
    pages = pages_of(request)
    variant = request.match_info["variant"]
    if request.match_info["puzzle"] == "random":
        found = pages.core.random_puzzle(variant)
        if found is None:
            raise not_found(request, NO_PUZZLE)
        raise web.HTTPFound(pages.puzzle_path(variant, found.id), headers={"Cache-Control": "no-store"})
    if _find_puzzle(request) is None:
        raise not_found(request, NO_PUZZLE)
    return html_answer(request, "puzzle.html")


async def _puzzle_list(request: web.Request) -> web.Response:
    """The games that have puzzles: each one's name, title, how many, and its daily and random puzzle's pages."""
    pages = pages_of(request)
    return json_answer(request, {"variants": [
        {"name": variant, "title": game_title(variant), "count": count,
         "daily": pages.puzzle_path(variant, "daily"), "random": pages.puzzle_path(variant, "random")}
        for variant, count in pages.core.puzzle_variants().items()]})


async def _puzzle_start(request: web.Request) -> web.Response:
    """A puzzle as its page starts (``views.puzzle``): no solution."""
    found = _find_puzzle(request)
    if found is None:
        return json_answer(request, {"error": NO_PUZZLE}, status=404)
    daily = request.match_info["puzzle"] == "daily"
    return json_answer(request, views.puzzle(found, pages_of(request).puzzle_path(found.variant, found.id), daily),
                             headers={"Cache-Control": "no-store"})


async def _puzzle_try(request: web.Request) -> web.Response:
    """The solver's moves so far (``{"moves": [...]}``), checked by the core: right (with the defender's reply),
    solved or wrong (with the answer and the line); a move that is not legal is refused, and changes nothing."""
    pages = pages_of(request)
    found = _find_puzzle(request, daily=False)  # by its id: a daily page keeps its puzzle after midnight
    if found is None:
        return json_answer(request, {"error": NO_PUZZLE}, status=404)
    try:
        body = json.loads(await request.text())
    except (ValueError, RecursionError):
        return json_answer(request, {"error": BAD_ANSWER}, status=400)
    moves = body.get("moves") if isinstance(body, dict) else None
    if (not isinstance(moves, list) or not 0 < len(moves) <= PUZZLE_MOVES
            or not all(isinstance(m, str) and 0 < len(m) <= 100 for m in moves)):
        return json_answer(request, {"error": BAD_ANSWER}, status=400)
    try:
        step = pages.core.try_puzzle(found, moves)
    except MoveError as error:
        return json_answer(request, {"error": join([refusal(error, legal=False),
                                                   tr("That move is not legal here, so nothing changed.")])},
                           status=400)
    return json_answer(request, views.puzzle_step(found, len(moves), step.verdict, step.reply, step.right, step.line),
                             headers={"Cache-Control": "no-store"})


async def _puzzle_solution(request: web.Request) -> web.Response:
    """A puzzle's solution, for its page's Show the solution button."""
    pages = pages_of(request)
    found = _find_puzzle(request, daily=False)
    if found is None:
        return json_answer(request, {"error": NO_PUZZLE}, status=404)
    line = pages.core.try_puzzle(found, list(found.solution[::2])).line  # the whole line, as the core writes it
    return json_answer(request, views.puzzle_step(found, 0, "shown", None, None, line))


def add_routes(app: web.Application) -> None:
    """Route this module's addresses to its handlers."""
    app.router.add_get("/puzzles", _puzzles_page)
    app.router.add_get(f"/puzzle/{_PUZZLE}", _puzzle_page)
    app.router.add_get("/api/puzzles", _puzzle_list)
    app.router.add_get(f"/api/puzzle/{_PUZZLE}", _puzzle_start)
    app.router.add_post(f"/api/puzzle/{_PUZZLE}", _puzzle_try)
    app.router.add_get(f"/api/puzzle/{_PUZZLE}/solution", _puzzle_solution)
