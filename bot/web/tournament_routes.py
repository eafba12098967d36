"""The web server's page of a tournament, ``/t/REF`` (the chat gives its link): its standings, its games on
(each linked to its page) with its finished ones, and when its next round comes or its time is up. The page asks
``/api/t/REF`` again every few seconds."""

from __future__ import annotations

import logging

from aiohttp import web

from bot.core import SaveFailed
from bot.translation import rendered, tr
from bot.tournament.event import Format, Status, Tournament
from bot.tournament.words import title
from bot.web import wording
from bot.web.pages import Pages
from bot.web.site import NO_GAME, html_answer, json_answer, not_found, pages_of

log = logging.getLogger(__name__)


async def _page(request: web.Request) -> web.Response:
    if _tournament(request) is None:
        raise not_found(request, NO_GAME)
    return html_answer(request, "tournament.html")


def _tournament(request: web.Request) -> int | None:
    return pages_of(request).keys.read_tournament(request.match_info["ref"][:40])


async def _api(request: web.Request) -> web.Response:
    tid = _tournament(request)
    if tid is None:
        raise not_found(request, NO_GAME)
    pages = pages_of(request)
    try:
        t = await pages.core.tournament(tid)
    except SaveFailed as error:
        log.warning("a tournament could not be read from the database: %s", error)
        return json_answer(request, {"error": tr("The games' database is not answering right now. Please try again "
                                                 "in a minute.")}, status=503, headers={"Retry-After": "30"})
    if t is None:
        raise not_found(request, NO_GAME)
    return json_answer(request, rendered(view(pages, t, pages.core.now()), wording.language(request)),
                       headers={"Cache-Control": "no-store"})


def view(pages: Pages, t: Tournament, now: float) -> dict:
    """What the page shows of ``t``: title, where it stands, standings, games on and finished."""
    names = {e.id: e.name for e in t.players}
    sheets = t.sheets() if t.format is Format.ARENA else {}
    rows = []
    for place, (player, score) in enumerate(t.standings(), 1):
        row = {"place": place, "name": names.get(player, player), "points": f"{score[0]:g}"}
        if t.format is Format.ARENA:
            row |= {"scores": " ".join(str(s) for s in sheets[player].scores), "fire": sheets[player].on_fire}
        else:
            row |= {"buchholz": f"{score[1]:g}", "berger": f"{score[2]:g}"}
        rows.append(row)
    games: list[dict] = []
    done: list[dict] = []
    for p in reversed(t.pairings):
        if p.black is None or p.game is None:
            continue
        entry = {"round": p.round, "board": p.board, "white": names.get(p.white, p.white),
                 "black": names.get(p.black, p.black), "path": pages.game_path(p.game),
                 "result": None if p.result is None else {1.0: "1-0", 0.5: "½-½", 0.0: "0-1"}[p.result]}
        (done if p.ended else games).append(entry)
    return {"title": title(t), "status": _status(t, now),
            "format": t.format.value, "finished": t.over,
            "standings": rows, "on": games, "done": done[:100]}


def _status(t: Tournament, now: float):
    """Where it stands: when it starts, how long is left, the round on, or that it is over."""
    if t.status is Status.FINISHED:
        return tr("Finished.")
    if t.status is Status.CANCELLED:
        return tr("Cancelled.")
    if t.status is Status.SCHEDULED:
        return tr("It starts in {minutes} min.", minutes=max(0, round((t.starts - now) / 60)))
    if t.format is Format.ARENA:
        return tr("Under way: {minutes} min left.", minutes=max(0, round((t.ends - now) / 60)))
    return tr("Under way: round {round}. The next is paired when its last game ends.", round=t.round)


def add_routes(app: web.Application) -> None:
    """Route this module's addresses to its handlers."""
    app.router.add_get("/t/{ref}", _page)
    app.router.add_get("/api/t/{ref}", _api)
