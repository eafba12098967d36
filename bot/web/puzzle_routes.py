"""The web server's puzzle routes: the puzzles page, a puzzle's page, and the questions it asks (its start, the solver's
moves so far, the solution once it is over); a streak's puzzles. The person on the page (its guest cookie) is
rated on their first result on each puzzle (``bot.core.training``): the answer says how their rating changed."""

from __future__ import annotations

import json
import logging

from aiohttp import web

from bot.core import SaveFailed, Step, refusal
from bot.translation import join, tr
from bot.web import views
from bot.web.site import (OTHER_SITE, guest_of, html_answer, json_answer, keep_guest, not_found, pages_of, person_of,
                          same_origin)
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
    """A puzzle's page; ``random`` sends the browser on to a puzzle near the person's puzzle rating that they have not
    had (of the theme ``?theme=`` names, if any), and ``streak`` is the page of a streak."""
    pages = pages_of(request)
    variant, ref = request.match_info["variant"], request.match_info["puzzle"]
    if ref == "random":
        theme = request.query.get("theme") or None
        guest = guest_of(request)
        found = await pages.core.next_puzzle(pages.guild, person_of(request, guest).id, variant, theme)
        if found is None:
            raise not_found(request, NO_PUZZLE)
        path = pages.puzzle_path(variant, found.id) + (f"?theme={found.theme}" if theme else "")
        response = web.HTTPFound(path, headers={"Cache-Control": "no-store"})
        keep_guest(response, guest)
        raise response
    missing = variant not in pages.core.puzzle_variants() if ref == "streak" else _find_puzzle(request) is None
    if missing:
        raise not_found(request, NO_PUZZLE)
    return html_answer(request, "puzzle.html")


async def _puzzle_list(request: web.Request) -> web.Response:
    """The games that have puzzles: each one's name, title, how many, its themes (with how many each), and its daily
    and random puzzle's and its streak's pages."""
    pages = pages_of(request)
    return json_answer(request, {"variants": [
        {"name": variant, "title": game_title(variant), "count": count, "themes": pages.core.puzzle_themes(variant),
         "daily": pages.puzzle_path(variant, "daily"), "random": pages.puzzle_path(variant, "random"),
         "streak": pages.puzzle_path(variant, "streak")}
        for variant, count in pages.core.puzzle_variants().items()]})


async def _puzzle_start(request: web.Request) -> web.Response:
    """A puzzle as its page starts (``views.puzzle``): no solution."""
    found = _find_puzzle(request)
    if found is None:
        return json_answer(request, {"error": NO_PUZZLE}, status=404)
    daily = request.match_info["puzzle"] == "daily"
    return json_answer(request, views.puzzle(found, pages_of(request).puzzle_path(found.variant, found.id), daily),
                             headers={"Cache-Control": "no-store"})


async def _streak_start(request: web.Request) -> web.Response:
    """Rung ``?rung=`` of the streak ``?seed=`` chose, as a puzzle's page starts (``views.puzzle``)."""
    try:
        rung, seed = int(request.query.get("rung", "0")), int(request.query.get("seed", "0"))
    except ValueError:
        return json_answer(request, {"error": NO_PUZZLE}, status=400)
    pages = pages_of(request)
    variant = request.match_info["variant"]
    found = await pages.core.streak_puzzle(variant, min(max(rung, 0), 10_000), seed % 2**31)
    if found is None:
        return json_answer(request, {"error": NO_PUZZLE}, status=404)
    return json_answer(request, views.puzzle(found, pages.puzzle_path(variant, found.id), False),
                       headers={"Cache-Control": "no-store"})


async def _puzzle_try(request: web.Request) -> web.Response:
    """The solver's moves so far (``{"moves": [...]}``), checked by the core: right (with the defender's reply),
    solved, or wrong (the position after the wrong move, to show before it is taken back; the answer is kept for
    the solution); a move that is not legal is refused, and changes nothing. A first result is rated, unless the
    body says ``"streak": true``."""
    pages = pages_of(request)
    if not same_origin(request):  # (a result changes the person's rating: only this site's pages send one)
        return json_answer(request, {"error": OTHER_SITE}, status=403)
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
    answer = views.puzzle_step(found, moves, step)
    if step.verdict == "right":
        return json_answer(request, answer, headers={"Cache-Control": "no-store"})
    return await _rated(request, found, step.verdict == "solved", answer, rated=body.get("streak") is not True)


async def _puzzle_solution(request: web.Request) -> web.Response:
    """A puzzle's solution, for its page's Show the solution button: a first result, and lost, unless the body says
    ``"streak": true``."""
    pages = pages_of(request)
    if not same_origin(request):
        return json_answer(request, {"error": OTHER_SITE}, status=403)
    found = _find_puzzle(request, daily=False)
    if found is None:
        return json_answer(request, {"error": NO_PUZZLE}, status=404)
    line = pages.core.try_puzzle(found, list(found.solution[::2])).line  # the whole line, as the core writes it
    answer = views.puzzle_step(found, [], Step("shown", line=line))
    try:
        streak = json.loads(await request.text() or "{}").get("streak") is True
    except (ValueError, RecursionError, AttributeError):
        streak = False
    return await _rated(request, found, False, answer, rated=not streak)


async def _rated(request: web.Request, found: Puzzle, solved: bool, answer: dict, rated: bool) -> web.Response:
    """``answer`` with the person's first result on ``found`` kept, and rated unless ``rated`` is False (a streak's:
    kept unrated, so that it is never rated later); ``rating``: before and after, or why it could not be
    (``unrated``) when the database does not answer. The puzzle goes on either way."""
    pages, guest = pages_of(request), guest_of(request)
    try:
        change = await pages.core.puzzle_result(pages.guild, person_of(request, guest), found, solved, rated)
    except SaveFailed as error:
        log.warning("a puzzle's result could not be kept: %s", error)
        if rated:
            answer["unrated"] = tr("The database is not answering, so this puzzle did not count for your puzzle "
                                   "rating.")
    else:
        if change is not None:
            answer["rating"] = {"before": round(change.before.rating), "after": round(change.after.rating)}
    response = json_answer(request, answer, headers={"Cache-Control": "no-store"})
    keep_guest(response, guest)
    return response


def add_routes(app: web.Application) -> None:
    """Route this module's addresses to its handlers."""
    app.router.add_get("/puzzles", _puzzles_page)
    app.router.add_get(f"/puzzle/{_PUZZLE}", _puzzle_page)
    app.router.add_get("/api/puzzles", _puzzle_list)
    app.router.add_get(f"/api/puzzle/{_PUZZLE}", _puzzle_start)
    app.router.add_post(f"/api/puzzle/{_PUZZLE}", _puzzle_try)
    app.router.add_post(f"/api/puzzle/{_PUZZLE}/solution", _puzzle_solution)
    app.router.add_get("/api/streak/{variant:[^/]{1,20}}", _streak_start)
