"""The web front end's side of the core: it follows the games' events (``bot.events``), keeps each watched
game's page up to date, and turns what a page does (a move, a command, a new game) into core messages.

``Pages.told`` takes each event of a game, in order: from the core itself (``Core.follow``), or in the web tier
from the process that plays the game (``bot.web.shared``). ``Pages`` also sits between the core and the chat
front end (``Pages.send_for``): replies go on to the chat as before, except those of games started on the page
(their channel is the page's own) and private answers to the page, which go back to the page that asked; so does
a public answer that no event told (the bot declining a draw: talk around the game, not the game). A move made on
the page is a message like any other, by the seat's player, so it passes the same checks and locks and is stored
and announced the same way; the chat shows it too.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from dataclasses import replace
from typing import Any, NamedTuple, Protocol

from bot.commands import whole_number
from bot.core import Core, SaveFailed, Send
from bot.events import Ended, Event, Moved, Started, applied
from bot.replies import Message, Reply, User
from bot.tables import Kind, LiveGame
from bot.words import colour_name, game_name
from bot.translation import ENGLISH, join, tr
from bot.web import views
from bot.web.finished import FinishedGames, people_of
from bot.page_guilds import CHANNEL_PREFIX, GUILD, is_page_guild
from bot.web.seats import SeatKeys
from bot.web.watchers import Watcher, WebOrigin
from engine import Color

log = logging.getLogger(__name__)

COMMANDS = ("resign", "draw", "takeback", "accept", "decline", "stop")
OUT_OF_DATE = tr("That board is out of date: the game has moved on.")
NOT_A_MOVE = tr("That is not a move of this game, so nothing was done: the board sends moves only.")


class LiveGames(Protocol):
    """Where the pages find the games on and send what they do: the core itself, or in the web tier the games of
    every process (``bot.web.shared.SharedGames``)."""

    async def live_game(self, game: int) -> LiveGame | None: ...

    async def live_games(self, guild: str | None = None) -> list[LiveGame]: ...

    async def handle(self, msg: Message) -> None: ...

    async def open(self, msg: Message) -> int | None: ...


def _version(found: LiveGame | views.Finished) -> int | None:
    """The version of the game as found (``LiveGame.told``); None for a finished game: it changes no more."""
    return found.told if isinstance(found, LiveGame) else None


class _Sent(NamedTuple):
    """What a game's open pages were last sent: its moves, and the game's version then."""

    moves: list[Any]
    version: int | None


class Pages:
    """Every page of one bot process, and the games they show."""

    def __init__(self, keys: SeatKeys, base_url: str, core: Core, games: LiveGames | None = None,
                 local_chat: bool = False, guild: str = GUILD):
        """``core``: this process's, for finished games, analyses and puzzles (its replies come to the pages through
        ``send_for``); ``games``: where the games on are (the core's own, whose events the pages follow, unless
        given: in the web tier, every process's, which hands the pages their events). ``local_chat``: the chat is
        this machine's terminal, so its games are listed on the front page and the chat is given the links (on
        Discord, players get them from buttons, and only the page's games are listed). ``guild``: the server name the page's games are kept under (``web:N`` on shard N's process, which
        takes them back after a restart)."""
        self.guild = guild
        self.keys = keys
        self.base_url = base_url.rstrip("/")
        self.local_chat = local_chat
        self.core = core
        self.games: LiveGames = games if games is not None else core
        if games is None:
            core.follow(self.told)  # (in the web tier, ``games`` hands it the events of every process's games)
        self._chat: Send | None = None
        self._watchers: dict[int, set[Watcher]] = {}
        self._live: dict[int, LiveGame] = {}  # games on, by id: as their events so far have them
        self._unannounced: set[int] = set()  # new games whose links the terminal's chat has not been given
        self._reading: set[asyncio.Task] = set()  # games read again after a gap in their events
        self._sent: dict[int, _Sent] = {}  # what each game's pages were last sent
        self.finished = FinishedGames(core)

    # wiring

    def send_for(self, chat: Send | None) -> Send:
        """The ``send`` to give the core: replies reach ``chat`` (None: no chat) and the pages."""
        self._chat = chat
        return self._deliver

    def game_path(self, game: int) -> str:
        """A game's page, without the server's address: its id and its watching key."""
        return f"/g/{game}-{self.keys.watch_key(game)}"

    def game_url(self, game: int) -> str:
        return self.base_url + self.game_path(game)

    def puzzle_path(self, variant: str, puzzle: str) -> str:
        """A puzzle's page, without the server's address (``puzzle``: its id, or ``daily`` for the day's puzzle of
        ``variant``, ``random`` for the next one near the reader's rating, or ``streak`` for a streak of them)."""
        return f"/puzzle/{variant}/{puzzle}"

    def puzzle_url(self, variant: str, puzzle: str) -> str:
        return self.base_url + self.puzzle_path(variant, puzzle)

    def seat_path(self, game: int, colour: Color, user: User) -> str:
        """A player's private link to their game, without the server's address (the secret is in the fragment,
        which browsers never send to a server)."""
        return f"{self.game_path(game)}#seat={self.keys.secret(game, colour, user.id)}"

    def game_of(self, ref: str) -> int | None:
        """The game a page's address names (``ID-KEY``), or None if the key is not that game's."""
        number, _, key = ref.partition("-")
        game = whole_number(number)  # (ASCII digits only, as every command reads numbers)
        return game if game is not None and self.keys.check_watch(game, key) else None

    def tournament_url(self, tournament: int) -> str:
        """A tournament's page: its standings and its games on."""
        return f"{self.base_url}/t/{self.keys.tournament_ref(tournament)}"

    def player_url(self, guild: str, user: str) -> str:
        """The page of a chat's player: their games and ratings on server ``guild``."""
        return f"{self.base_url}/p/{self.keys.player_ref(guild, user)}"

    def seat_url(self, game: int, colour: Color, user: User) -> str:
        return self.base_url + self.seat_path(game, colour, user)

    # replies from the core

    async def _deliver(self, reply: Reply) -> None:
        origin = reply.to.origin if reply.to is not None else None
        if reply.private and isinstance(origin, WebOrigin):
            await origin.notice(reply.text)
            return
        if self._chat is not None and not reply.channel.startswith(CHANNEL_PREFIX):
            await self._chat(replace(reply, to=None) if isinstance(origin, WebOrigin) else reply)
            if self.local_chat:
                await self._announce(reply)
                link = (tr("Their games on the web page: {url}", url=self.player_url(*reply.player)) if reply.player
                        else tr("The tournament's page: {url}", url=self.tournament_url(reply.tournament))
                        if reply.tournament is not None else None)
                if link is not None:  # (Discord gives it with a button)
                    await self._chat(Reply(reply.channel, link))
        if isinstance(origin, WebOrigin) and not reply.told:
            await origin.notice(reply.text)  # an answer no event told the game's pages: the page that asked sees it

    async def _announce(self, reply: Reply) -> None:
        """In the chat, the first board of a new game brings its links: one to watch, one per player's seat."""
        assert self._chat is not None, "send_for gives the pages their chat"
        if reply.board is None or reply.board.game_id not in self._unannounced:
            return
        self._unannounced.discard(reply.board.game_id)
        table = self._live.get(reply.board.game_id)
        if table is None:
            return
        lines = [tr("Watch live: {url}", url=self.game_url(table.id))]
        for colour, seat in table.seats.items():
            if seat.user is not None:
                lines.append(tr("Seat link for {name} ({colour}), to play from the page: {url}", name=seat.user.name,
                                colour=colour_name(colour), url=self.seat_url(table.id, colour, seat.user)))
        await self._chat(Reply(reply.channel, join(lines, "\n")))

    def told(self, event: Event, after: LiveGame | None = None) -> None:
        """Bring the pages of ``event``'s game up to date (``after``: the game after it, when the caller has it). A
        game whose events these pages have not all seen is read whole again (``_read_again``)."""
        game = event.game
        if isinstance(event, Ended):
            self._end(event)
            return
        known = self._live.get(game)  # (the game just before the event, when these pages have followed it)
        if after is None:
            if not isinstance(event, Started) and (known is None or known.told != event.version - 1):
                self._read_again(game)
                return
            event, after = applied(event, known)
            assert after is not None, "a game on, after an event that follows the one its copy has seen"
        if known is None and self.local_chat:
            self._unannounced.add(game)
        self._live[game] = after
        if game not in self._watchers:
            return
        if isinstance(event, Moved) and known and self._sent.get(game) == _Sent(after.game.moves[:-1], known.told):
            self._sent[game] = _Sent(list(after.game.moves), after.told)  # (they saw the game just before: the move)
            self._broadcast(game, views.moved(known, after, event.said, event.at), seated=after)
        else:
            self._broadcast(game, self._update(game, after.game, views.status(after, event.said, self.core.now()),
                                               after.told, event.at, whole=isinstance(event, Started)))

    def _read_again(self, game: int) -> None:
        """Read game ``game`` whole from where it is played, and bring its pages up to it (its events have a gap
        here: they began before these pages heard of it, say)."""
        async def read() -> None:
            try:
                found = await self.find(game)
            except SaveFailed as error:  # its pages stay as they are until its next event
                log.warning("could not read game %d again for its pages: %s", game, error)
                return
            if found is not None and game in self._watchers:
                self._broadcast(game, self._whole(found))

        task = asyncio.create_task(read())
        self._reading.add(task)
        task.add_done_callback(self._reading.discard)

    def _end(self, event: Ended) -> None:
        game_id = event.game
        table = self._live.pop(game_id, None)
        self._unannounced.discard(game_id)
        if table is None:  # a game these pages did not follow: its pages (if any) read it from the database
            self._read_again(game_id)
            return
        finished = views.Finished(game_id, table.game, table.names(), table.kind, event.said, event.pdn, guild=table.guild,
                                  people=people_of(table.seats), starter=table.starter, ending=event.ending)
        self.finished.keep(finished)
        if game_id in self._watchers:
            self._broadcast(game_id, self._update(game_id, table.game, views.status(finished, event.said),
                                                  event.version, event.at))
        self._sent.pop(game_id, None)

    def _whole(self, found: LiveGame | views.Finished) -> dict:
        """The update that brings a game's pages up to ``found``, the game as it is now."""
        record = found.record if isinstance(found, views.Finished) else found.game
        return self._update(found.id, record, views.status(found, now=self.core.now()), _version(found), whole=True)

    def _update(self, game_id: int, record: Any, status: dict, version: int | None, at: float = 0.0,
                whole: bool = False) -> dict:
        """The message that brings a page that saw the moves last sent up to ``record``, the game's ``version``
        (None once it is over):
        the positions from the first move that changed (a takeback rewinds), the status, and when its event
        happened where the game is played (``at``, for timing; now, if not given). A ``whole`` update brings the
        pages to the game as it is, whatever versions they saw before (one that started again numbers from 1)."""
        sent = self._sent.get(game_id)
        first = 0  # the first position the pages have not seen as it is now
        if sent is not None:
            same = 0
            while same < min(len(sent.moves), len(record.moves)) and sent.moves[same] == record.moves[same]:
                same += 1
            first = same + 1
        self._sent[game_id] = _Sent(list(record.moves), version)
        entries = [views.entry(record, ply) for ply in range(first, len(record.moves) + 1)]
        return {"type": "update", "v": version, "whole": whole, "from": first, "entries": entries, "status": status,
                "at": at or time.time()}

    def _broadcast(self, game_id: int, message: dict, seated: LiveGame | None = None) -> None:
        """Send ``message`` to the game's pages, written once for each language they are shown in; ``seated``: the
        game, whose legal moves are added for the pages seated as the side to move."""
        written: dict[tuple[str, bool], str] = {}
        legal: list[dict] | None = None
        for watcher in list(self._watchers.get(game_id, ())):
            to_move = seated is not None and watcher.seat is not None and watcher.seat[0] is seated.game.turn
            key = (watcher.language, to_move)
            if key not in written:
                if to_move:
                    assert seated is not None
                    legal = views.legal_moves(seated) if legal is None else legal
                written[key] = views.written(message | {"legal": legal} if to_move else message, watcher.language)
            if not watcher.put(written[key]):
                self.leave(watcher)
                watcher.drop()

    # pages

    async def find(self, game_id: int) -> LiveGame | views.Finished | None:
        """The game on, or finished, with this id."""
        found = await self.games.live_game(game_id)
        if found is not None:
            self._live[game_id] = found
            return found
        return self.finished.get(game_id) or await self.finished.stored(game_id)

    async def join(self, game_id: int, language: str = ENGLISH) -> Watcher | None:
        """A new page on game ``game_id``, shown in ``language``, sent the whole game first; None if there is no
        such game."""
        found = await self.find(game_id)
        if found is None:
            return None
        watcher = Watcher(game_id, language)
        self._send_whole(watcher, found)
        self._watchers.setdefault(game_id, set()).add(watcher)
        return watcher

    async def resend(self, watcher: Watcher) -> None:
        """Send the page its game whole again: it asks when it finds a gap in the versions of its updates."""
        found = await self.find(watcher.game)
        if found is not None:
            self._send_whole(watcher, found)

    def _send_whole(self, watcher: Watcher, found: LiveGame | views.Finished) -> None:
        game_id = found.id
        record = found.record if isinstance(found, views.Finished) else found.game
        moves = list(record.moves)
        sent = self._sent.get(game_id)
        if game_id in self._watchers and (sent is None or sent.moves != moves):
            # the pages already open get what they missed first, so that every page has seen the same moves
            self._broadcast(game_id, self._whole(found))
        self._sent[game_id] = _Sent(moves, _version(found))
        watcher.send({"type": "game", "id": game_id, "board": views.layout(record.type), "themes": views.themes(),
                      "entries": [views.entry(record, ply) for ply in range(len(moves) + 1)],
                      "status": views.status(found, now=self.core.now()), "v": _version(found)})

    def leave(self, watcher: Watcher) -> None:
        watchers = self._watchers.get(watcher.game)
        if watchers is not None:
            watchers.discard(watcher)
            if not watchers:
                del self._watchers[watcher.game]
                self._sent.pop(watcher.game, None)

    def watchers(self, game_id: int) -> int:
        return len(self._watchers.get(game_id, ()))

    async def take_seat(self, watcher: Watcher, secret: str) -> bool:
        """Seat the page as the player whose link carries ``secret`` (in a finished game, to see it from their
        side); False if it is no seat's secret."""
        found = await self.find(watcher.game)
        if found is None:
            return False
        people, starter = people_of(found.seats) if isinstance(found, LiveGame) else found.people, found.starter
        for colour, user in people.items():
            if self.keys.check(found.id, colour, user.id, secret):
                watcher.seat = (colour, user)
                # with the moves it may play now (a page that only watched had none), and whether it may play the
                # game again here (the page's own games against the bot: a chat's game is played again in its chat)
                legal = views.legal_moves(found) if isinstance(found, LiveGame) and found.game.turn is colour else []
                watcher.send({"type": "seat", "colour": str(colour), "name": user.name, "legal": legal,
                              "rematch": found.kind is Kind.BOT and is_page_guild(found.guild)})
                return True
        if found.kind is Kind.MATCH and starter is not None and self.keys.check(found.id, Color.WHITE, starter.id,
                                                                                  secret):
            watcher.starter = starter
            watcher.send({"type": "seat", "colour": None, "name": starter.name, "starter": True})
            return True
        return False

    def starter_path(self, game: int, user: User) -> str:
        """The link of the person who started a bot match (White's seat secret for them): it lets them stop it."""
        return self.seat_path(game, Color.WHITE, user)

    async def move(self, watcher: Watcher, text: str, ply: int) -> None:
        """A move from a seated page, made at position ``ply`` (the number of moves the page showed), as its
        player's message in the game's channel. Only a move of the game's kind made at the game's latest position
        is passed on, legal or not (the core answers an illegal one on the page); anything else, such as a chat
        command, is refused on the page and reaches no chat."""
        playing = await self._player(watcher)
        if playing is None:
            return
        table, user = playing
        if not table.game.type.is_move_text(text):
            await watcher.notice(NOT_A_MOVE)
        elif ply != len(table.game.moves):
            await watcher.notice(OUT_OF_DATE)
        else:
            await self._handle(watcher, table, user, text, (table.id, ply))

    async def command(self, watcher: Watcher, name: str) -> None:
        """One of ``COMMANDS`` from a seated page (``stop`` also from a bot match's starter), as that person's
        message in the game's channel."""
        assert name in COMMANDS
        playing = await self._player(watcher, starter=name == "stop")
        if playing is not None:
            await self._handle(watcher, *playing, name)

    async def _player(self, watcher: Watcher, starter: bool = False) -> tuple[LiveGame, User] | None:
        """The game on that the page shows and the person the page acts for (its seat's player, or with
        ``starter`` a bot match's starter); None, with the page told why, when there is none."""
        found = await self.find(watcher.game)
        if not isinstance(found, LiveGame):
            await watcher.notice(tr("That game is over."))
            return None
        if starter and watcher.starter is not None:
            return found, watcher.starter
        if watcher.seat is None:
            await watcher.notice(tr("This page only watches: open your own seat link to play."))
            return None
        return found, watcher.seat[1]

    async def _handle(self, watcher: Watcher, table: LiveGame, user: User, text: str,
                      at: tuple[int, int] | None = None) -> None:
        await self.games.handle(Message(table.guild, table.channel, user, text, channel_name=table.channel_name,
                                        origin=WebOrigin(watcher.notice, at)))

    async def start(self, user: User, command: str) -> tuple[int | None, list[str]]:
        """Start a game from the page with a chat command (``new ...`` or ``watch ...``) in a channel of its own:
        (its id, or None, and what the core answered privately)."""
        notes: list[str] = []

        async def note(text: str) -> None:
            notes.append(text)

        channel = CHANNEL_PREFIX + secrets.token_urlsafe(9)
        game = await self.games.open(Message(self.guild, channel, user, command, channel_name="web",
                                             origin=WebOrigin(note)))
        return game, notes

    # analyses

    async def analysis(self, game_id: int) -> dict | None:
        """How far the analysis of a finished game is, and the analysis once done, as its page shows it
        (``views.analysis``); None if there is no such game. ``Refusal`` for a game still on (or one with nothing
        to analyse); ``SaveFailed`` when the database does not answer."""
        found = await self.find(game_id)
        return await self.finished.analysis(found) if found is not None else None

    async def ask_analysis(self, game_id: int, secret: str, guest: User) -> dict | None:
        """Start the analysis of a finished game, asked from its page: as the player whose seat ``secret`` is (one
        analysis at a time each, in chat or on the page), else as ``guest``. Refused as `analyse` is in chat; None
        if there is no such game."""
        found = await self.find(game_id)
        return await self.finished.ask_analysis(found, self.keys, secret, guest) if found is not None else None

    def pdn(self, table: LiveGame) -> str:
        """The record of a game on so far, as the core writes it."""
        return self.core.game_pdn(table)

    async def listing(self) -> list[dict]:
        """The games on that the front page lists (those started on the page, and the terminal's): their page,
        game, players (by colour, the side that moves first first), moves played (counted as the move list numbers
        them: a move of each side is one) and watchers."""
        return [{"path": self.game_path(t.id), "game": t.game.type.title, "name": game_name(t.game.type.name),
                 "players": [[str(c), t.seats[c].name] for c in (t.game.type.first, t.game.type.first.opponent)],
                 "moves": (len(t.game.moves) + 1) // 2, "kind": t.kind.value, "watchers": self.watchers(t.id)}
                for t in await self.games.live_games(None if self.local_chat else self.guild)]

    async def web_games(self) -> int:
        """Games on that were started on the page."""
        return len(await self.games.live_games(self.guild))

    def forget(self, game_id: int) -> None:
        """Stop keeping game ``game_id`` as last seen, when no page shows it (the web tier's pages no longer hear
        of it)."""
        if game_id not in self._watchers:
            self._live.pop(game_id, None)
            self._sent.pop(game_id, None)

    def close(self) -> None:
        for watchers in list(self._watchers.values()):
            for watcher in list(watchers):
                watcher.drop()
        self._watchers.clear()
