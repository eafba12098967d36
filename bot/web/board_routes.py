"""The web server's analysis board: ``/analysis`` (a position of any game, from its start, a FEN, a game's position
or one set up by hand, where the reader tries their own moves), and its questions: ``/api/board`` (the positions
after the moves so far and the legal moves; nothing is kept), ``/api/board/setup`` (a position set up by hand, as a
FEN) and ``/api/board/eval`` (the engine's look at a position: its score, for White, and best line).

A look is searched in the pool's analysis lane (``SearchPool.look``), which gives way to every game's move, at the
analysis's effort (``BOT_ANALYSIS_NODES``); one at a time for each address, and ``BOARD_LOOKS`` in all, so that a
crowd of analysis boards delays no game (``bench/web.py --boards`` measures it).
"""

from __future__ import annotations

import json
import logging
from typing import Any
from urllib.parse import urlencode

from aiohttp import web

from bot.core import LOOK_BUSY, Refusal, refusal
from bot.translation import join, tr
from bot.web import views
from bot.web.site import NO_GAME, SITE, client, html_answer, json_answer, not_found, pages_of, requested_game
from bot.words import engine_words, game_title
from engine import Color, MoveError, game_type
from engine.analysis import decisive
from engine.games import GAMES
from renders.graph import white_chances

log = logging.getLogger(__name__)

BOARD_LOOKS = 4
"""Looks at analysis boards' positions searched or waiting at once, in all."""
MAX_MOVES = 600
BAD_BOARD = tr("An analysis board's question is a variant, its start (a FEN, or none for the usual one) and the moves "
               "from there.")
ONE_AT_A_TIME = tr("One position at a time: the engine is still looking at your last one.")


def _board(body: Any) -> tuple[str, str, list[str]]:
    """The game, start and moves a board question names; ``ValueError`` for anything else."""
    if not isinstance(body, dict) or body.get("variant") not in GAMES:
        raise ValueError
    start, moves = body.get("start") or "", body.get("moves") or []
    if (not isinstance(start, str) or len(start) > 400 or not isinstance(moves, list) or len(moves) > MAX_MOVES
            or not all(isinstance(m, str) and 0 < len(m) <= 100 for m in moves)):
        raise ValueError
    return body["variant"], start, moves


async def _read(request: web.Request) -> tuple[str, str, list[str]]:
    try:
        return _board(json.loads(await request.text()))
    except (ValueError, RecursionError):
        raise web.HTTPBadRequest(text=json.dumps({"error": str(BAD_BOARD)}), content_type="application/json") from None


def _refused(request: web.Request, error: Exception) -> web.Response:
    """A start or move that cannot be read or played, in words; nothing changes."""
    words = refusal(error, legal=False) if isinstance(error, MoveError) else tr(
        "That FEN is not a position of this variant: {why}", why=str(error)[:200])
    return json_answer(request, {"error": join([words, tr("The board stays as it was.")])}, status=400)


async def _page(request: web.Request) -> web.Response:
    return html_answer(request, "analysis.html")


async def _from_game(request: web.Request) -> web.Response:
    """A game's position (``?ply=``) on the analysis board: the game's start and its moves up to there."""
    found = await pages_of(request).find(requested_game(request))
    if found is None:
        raise not_found(request, NO_GAME)
    record = found.record if isinstance(found, views.Finished) else found.game
    try:
        ply = min(max(int(request.query.get("ply", len(record.moves))), 0), len(record.moves))
    except ValueError:
        ply = len(record.moves)
    kind = record.type
    moves = [kind.write_move(p, m, full=True) for p, m in zip(record.positions[:ply], record.moves[:ply])]
    query = urlencode({"variant": kind.name, "start": kind.write_position(record.start), "moves": " ".join(moves)})
    raise web.HTTPFound(f"/analysis?{query}", headers={"Cache-Control": "no-store"})


async def _positions(request: web.Request) -> web.Response:
    """The positions after each move from the start, the legal moves at the end, and the FEN there."""
    variant, start, moves = await _read(request)
    try:
        record = views.board_record(variant, start, moves)
    except (ValueError, MoveError) as error:
        return _refused(request, error)
    kind = record.type
    ended = record.result()
    return json_answer(request, {
        "variant": variant, "title": game_title(variant), "board": views.layout(kind), "themes": views.themes(),
        "start": kind.write_position(record.start), "fen": kind.write_position(record.position),
        "moves": [kind.write_move(p, m, full=True) for p, m in zip(record.positions, record.moves)],
        "entries": [views.entry(record, ply) for ply in range(len(record.moves) + 1)],
        "legal": [] if ended else views.legal(kind, record.position),
        "over": engine_words(ended.words) if ended else None})


async def _setup(request: web.Request) -> web.Response:
    """A position set up by hand (``{"variant", "pieces": [[row, col, kind]...], "turn"}``) as its FEN."""
    try:
        body = json.loads(await request.text())
        variant, pieces, turn = body["variant"], body["pieces"], body["turn"]
        fen = views.setup_fen(variant, pieces, turn)
        game_type(variant).read_position(fen)
    except (ValueError, KeyError, TypeError, RecursionError) as error:
        return json_answer(request, {"error": tr("That position cannot be set up: {why}", why=str(error)[:200])},
                           status=400)
    return json_answer(request, {"fen": fen})


async def _eval(request: web.Request) -> web.Response:
    """The engine's look at the position after the moves: for White, its score in men (or the side a forced result
    favours), its chances as the graph draws them, and the best line."""
    variant, start, moves = await _read(request)
    try:
        record = views.board_record(variant, start, moves)
    except (ValueError, MoveError) as error:
        return _refused(request, error)
    site, address = request.app[SITE], client(request)
    if address in site.looking:
        return json_answer(request, {"error": ONE_AT_A_TIME}, status=429)
    if len(site.looking) >= BOARD_LOOKS:
        return json_answer(request, {"error": LOOK_BUSY}, status=503, headers={"Retry-After": "5"})
    site.looking.add(address)
    try:
        seen = await pages_of(request).core.look_at(f"board:{address}", record)
    except Refusal as refused:
        return json_answer(request, {"error": refused.args[0]}, status=503, headers={"Retry-After": "5"})
    finally:
        site.looking.discard(address)
    white = seen.score if record.turn is Color.WHITE else -seen.score
    answer: dict = {"line": list(seen.line), "database": seen.database,
                    "chances": white_chances(white, record.type.chances_scale), "best_path": None}
    if seen.line:  # the best move's cells, for the board's arrow
        best = record.type.parse_move(record.position, seen.line[0])
        answer["best_path"] = [list(cell) for cell in record.type.path(best)]
    if decisive(white):
        answer["winner"] = str(Color.WHITE if white > 0 else Color.BLACK)
    else:
        answer["score"] = round(white / 100, 2)
    return json_answer(request, answer, headers={"Cache-Control": "no-store"})


def add_routes(app: web.Application) -> None:
    """Route this module's addresses to its handlers."""
    app.router.add_get("/analysis", _page)
    app.router.add_get(r"/analysis/g/{ref:[0-9]{1,12}-[\w-]{1,24}}", _from_game)
    app.router.add_post("/api/board", _positions)
    app.router.add_post("/api/board/setup", _setup)
    app.router.add_post("/api/board/eval", _eval)
