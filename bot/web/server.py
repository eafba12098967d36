"""The web server (aiohttp): the front page, a page per game, its WebSocket, and the game's PDN and GIF.

Routes (``REF`` is a game's id and its watching key, ``12-AbCd...``: ids count up, keys cannot be guessed):
- ``/``: the games on, and forms to play the bot or start a bot match;
- ``/g/REF``: a game's page, to watch it live, replay it, and play it from a seat link (``#seat=...``);
- ``/ws/REF``: the page's WebSocket (JSON both ways; see ``bot.web.pages``);
- ``/g/REF.pdn`` and ``/g/REF.gif``: the record and the animated replay;
- ``/api/games`` and ``/api/new``: the front page's list and its forms; ``/api/rematch/REF``: a finished game of
  the page against the bot played again, colours swapped, for the player whose seat secret the body carries;
- ``/me`` and ``/api/me``: the games, ratings and puzzles of the person on this browser (signed in with Discord,
  else the page's guest cookie); ``/login``, ``/login/discord/back``, ``/logout`` and ``/api/account``: signing in
  with Discord (``bot.web.signin``);
- ``/api/practice/REF``: practice from one's own mistakes in a finished, analysed game (``bot.web.practice_routes``);
- ``/analysis``: the analysis board (``bot.web.board_routes``: any position, the reader's own moves, the engine's
  look at each), ``/analysis/g/REF?ply=N`` a game's position on it;
- ``/favicon.ico``: the pages' icon (``/static/favicon.svg``);
- ``/api/analysis/REF``: a finished game's analysis (GET: how far it is, and the analysis once done; POST: ask for
  it, as the player whose seat secret the body carries, ``{"seat": ...}``, else as the page's guest);
- ``/puzzles``: the games that have puzzles, each with its daily puzzle, the next one for the reader, its themes and
  a streak;
- ``/puzzle/VARIANT/ID``: a shipped puzzle's page, to solve it (``ID``: its id; ``daily``: the day's puzzle, the
  servers' daily post; ``random``: a redirect to the next one near the reader's rating, ``?theme=`` of a theme;
  ``streak``: a streak's page);
- ``/api/puzzles``, ``/api/puzzle/VARIANT/ID`` (GET: the puzzle's start; POST ``{"moves": [...]}``: the solver's
  moves so far, checked by the core: right, with the defender's reply, solved, or wrong, with the position it
  leads to), ``/api/puzzle/VARIANT/ID/solution`` (POST) and ``/api/streak/VARIANT``: the puzzle page's questions.
  The page is sent the solution only once the puzzle is over; the reader's first result on a puzzle is rated
  (``bot.web.puzzle_routes``).

Watching needs the page's address; moving needs the seat's secret, sent by the page over the WebSocket (it stays
in the link's fragment, which browsers never send to a server). Requests must name this server (``Host``: the
address in BOT_WEB_URL, or this machine's loopback names), WebSocket upgrades and form posts from other sites are
refused (their ``Origin`` must be this server), each connection may send small messages at a limited rate, and
new games from the page are limited per address and in all. While the database does not answer, what needs it (a
finished game's page) is answered 503, "try again".
"""

from __future__ import annotations

import logging
import sys

from aiohttp import web, web_response
from aiohttp.http_exceptions import HttpProcessingError

from bot.web import (board_routes, game_routes, player_routes, practice_routes, puzzle_routes, signin,
                     tournament_routes, websocket, wording)
from bot.web.pages import Pages
from bot.web.signin import SignIn
from bot.web.site import SERVER_NAME, SITE, Site, guard


def make_app(pages: Pages, proxies: frozenset[str] = frozenset(), signing: SignIn | None = None) -> web.Application:
    """The web page's server; ``proxies``: the addresses of the proxies in front of it (``site.client``);
    ``signing``: the bot's Discord application, when people may sign in with Discord."""
    app = web.Application(client_max_size=16384, middlewares=[guard])
    app[SITE] = Site(pages, proxies, signin=signing)
    # Every answer names this bot, not aiohttp's version: the header's default is aiohttp's module setting, the
    # one place that also reaches the answers aiohttp makes before the app sees a request (a malformed one's 400).
    web_response.SERVER_SOFTWARE = SERVER_NAME
    for routes in (game_routes, websocket, puzzle_routes, player_routes, tournament_routes, signin, board_routes,
                   practice_routes):
        routes.add_routes(app)
    app.router.add_get("/favicon.ico", _favicon)
    app.router.add_static("/static/", wording.STATIC)
    return app


async def _favicon(request: web.Request) -> web.Response:
    """The icon a browser asks for by itself, without a page that names it (a PDN or an answer opened alone): the
    pages' own, which they name in their head."""
    raise web.HTTPMovedPermanently("/static/favicon.svg")


class _RequestLog(logging.LoggerAdapter):
    """aiohttp's server log, where a request that is not HTTP (anyone may send one, as often as they like) is a
    line at INFO, without a traceback; the server's own faults keep theirs, at ERROR."""

    def exception(self, msg, *args, exc_info=True, **kwargs) -> None:  # type: ignore[override]
        error = exc_info if isinstance(exc_info, BaseException) else sys.exc_info()[1]
        if isinstance(error, HttpProcessingError):
            reason = (error.message or type(error).__name__).strip().splitlines()[0].rstrip(":")[:100]
            self.info(f"{msg}: refused as a malformed request (%s)", *args, reason)
            return
        super().exception(msg, *args, exc_info=exc_info, **kwargs)


async def serve(pages: Pages, host: str, port: int, proxies: frozenset[str] = frozenset(),
                signing: SignIn | None = None) -> web.AppRunner:
    """Start the server; the caller cleans the returned runner up."""
    runner = web.AppRunner(make_app(pages, proxies, signing), access_log=None,
                           logger=_RequestLog(logging.getLogger("aiohttp.server"), {}))
    await runner.setup()
    await web.TCPSite(runner, host, port).start()
    return runner
