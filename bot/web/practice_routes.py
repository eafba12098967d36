"""Practice from one's own mistakes on a finished game's page, as `practice` does in chat: ``/api/practice/REF``.

Asked by a player of the game (the body carries their seat's secret, ``{"seat": ...}``) once its analysis is done:
without a move, the positions where the analysis marked one of their moves a mistake or a blunder, each with its
legal moves (not the answer); with ``{"ply": N, "move": "..."}``, whether that move counts there (the engine's
move does, and so does one the analysis would not have marked, searched in the pool's analysis lane), in the
chat's words, and then the engine's move. Nothing is kept and nothing is rated, as in chat.
"""

from __future__ import annotations

import json

from aiohttp import web

from bot.core import PRACTISED, Refusal, refusal
from bot.translation import join, tr
from bot.web import views
from bot.web.site import NO_GAME, OTHER_SITE, REF, SITE, client, json_answer, pages_of, requested_game, same_origin
from engine import MoveError

NOT_YOURS = tr("Practice is for the game's players: open it from your seat's link.")
NOT_ANALYSED = tr("This game has no analysis yet: Analyse it first, and your mistakes come here to practise.")


async def _practice(request: web.Request) -> web.Response:
    if not same_origin(request):
        return json_answer(request, {"error": OTHER_SITE}, status=403)
    pages = pages_of(request)
    found = await pages.find(requested_game(request))
    if found is None:
        return json_answer(request, {"error": NO_GAME}, status=404)
    try:
        body = json.loads(await request.text())
    except (ValueError, RecursionError):
        body = None
    if not isinstance(body, dict) or not isinstance(body.get("seat", ""), str):
        return json_answer(request, {"error": NOT_YOURS}, status=400)
    if not isinstance(found, views.Finished):
        return json_answer(request, {"error": NOT_ANALYSED}, status=409)
    secret = body.get("seat", "")[:64]
    colour = next((c for c, user in found.people.items()
                   if secret and pages.keys.check(found.id, c, user.id, secret)), None)
    if colour is None:
        return json_answer(request, {"error": NOT_YOURS}, status=403)
    try:
        progress = await pages.core.analysis(found.id, found.guild)
    except Refusal as refused:  # (a game that ended before its first move has nothing to analyse)
        return json_answer(request, {"error": refused.args[0]}, status=409)
    if progress.analysis is None:
        return json_answer(request, {"error": NOT_ANALYSED}, status=409)
    record, kind = found.record, found.record.type
    spots = {m.ply: m for m in progress.analysis.moves if m.mover is colour and m.judgement in PRACTISED}
    if "move" not in body:
        return json_answer(request, {"spots": [
            {"ply": ply, "played": m.played, "judgement": m.judgement,
             "legal": views.legal(kind, record.positions[ply])} for ply, m in sorted(spots.items())]})
    ply, move = body.get("ply"), body.get("move")
    if type(ply) is not int or ply not in spots or not isinstance(move, str) or not 0 < len(move) <= 100:
        return json_answer(request, {"error": tr("That is not one of your positions to practise.")}, status=400)
    spot, before = spots[ply], record.positions[ply]
    user = found.people[colour]
    site, address = request.app[SITE], client(request)
    if address in site.looking:  # (each judgement is two searches: one at a time, as the analysis board's looks)
        return json_answer(request, {"error": tr("One move at a time: the last one is still being judged.")},
                           status=429)
    site.looking.add(address)
    try:
        good, words = await pages.core.practise(user.id, kind.name, kind.write_position(before), move, spot.best)
    except MoveError as error:
        return json_answer(request, {"error": join([refusal(error, legal=False),
                                                   tr("That move is not legal here, so nothing changed.")])},
                           status=400)
    except Refusal as refused:
        return json_answer(request, {"error": refused.args[0]}, status=503, headers={"Retry-After": "30"})
    finally:
        site.looking.discard(address)
    best = kind.parse_move(before, spot.best)
    return json_answer(request, {"good": good, "words": words, "best": kind.write_move(before, best),
                                 "best_path": [list(cell) for cell in kind.path(best)]})


def add_routes(app: web.Application) -> None:
    """Route this module's addresses to its handlers."""
    app.router.add_post(f"/api/practice/{REF}", _practice)
