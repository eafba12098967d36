"""What people say to the bot and what it says back, as every front end hands them to the core and shows them:
people, messages, replies, the boards and controls under them.

Players are ids and names, never a chat service's objects, so every front end
can use the core.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum
from typing import Any

from bot.translation import ENGLISH, render
from engine import GameRecord
from engine.analysis import Analysis


class Buttons(Enum):
    """Which controls a front end puts under a reply."""

    ANSWER = "answer"
    """Accept and Decline (a challenge, a draw offer, a takeback request)."""
    GAME = "game"
    """Resign, Offer draw, Takeback, and a menu of ``Controls.moves`` when there are any."""
    ANALYSE = "analyse"
    """Analyse, under the message that ends a game: anyone may press it (it asks `analyse GAME`)."""
    ENDED = "ended"
    """Analyse and Rematch, under the message that ends a game a person played: Rematch asks `rematch GAME` as
    whoever pressed it (the core lets only its players)."""
    PUZZLE = "puzzle"
    """Solution, and a menu of ``Controls.moves`` (the solver's legal moves), under a puzzle's latest board; anyone
    in the channel may use them. ``Controls.game`` is then the served puzzle's number (``Core.may_answer``)."""


@dataclass(frozen=True)
class Controls:
    """The controls under a reply, and what they act on; the core decides them when it sends the reply."""

    buttons: Buttons
    game: int
    """The game they act on; 0 under a challenge, which has no game yet."""
    ply: int = 0
    """Moves played when the board was shown: a move chosen from an older board is refused."""
    moves: tuple[str, ...] = ()
    """The legal move texts of the person to move; empty while the bot is to move and once the game is over."""


NO_GAME = 0  # the game of controls under a challenge


@dataclass(frozen=True)
class User:
    """A person, as the front end knows them."""

    id: str
    name: str


@dataclass(frozen=True)
class Message:
    """Something a person typed in a channel."""

    guild: str
    """The server (or the terminal)."""
    channel: str
    """A channel or thread id: one game at a time per channel."""
    user: User
    text: str
    mentions: tuple[User, ...] = ()
    """People the message names (@someone), resolved by the front end, in order."""
    channel_name: str = ""
    origin: object = None
    """The front end's own handle on the message (an interaction, say); handed back in replies."""
    manager: bool = False
    """Whether the person may change the server's settings (Discord's Manage Server; the terminal's one person)."""


@dataclass(frozen=True)
class Board:
    """A position to show: the front end draws it as an image or as text."""

    game_id: int
    """The game's id (``NO_GAME`` for a puzzle's board)."""
    game: str
    """The game's name (``engine.game_type``): english, ..., tablut."""
    position: Any
    """A position of that game."""
    last_move: Any = None
    before: Any = None
    """The position before ``last_move``, to show what it captured."""
    flipped: bool = False
    """Drawn from Black's side."""
    caption: str = ""
    status: str = ""
    """Whose turn it is, under the board ("": the game's own words, in English)."""
    clocks: tuple[float, float] | None = None
    """In a timed game, White's and Black's seconds left as the board is shown."""
    runs_out: float | None = None
    """When the side to move's time runs out (Unix time), while the game is on: a front end may count it down."""


@dataclass(frozen=True)
class Standings:
    """A tournament's standings to show as a table (an image where the front end has them): its title and column
    heads (texts in any language), and a row a player, the first ``marked`` rows brighter (the podium)."""

    tournament: int
    title: str
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    marked: int = 0


@dataclass(frozen=True)
class Scheduled:
    """A tournament just made, for a chat service that lists a server's events (Discord's scheduled events)."""

    tournament: int
    title: str
    starts: float
    ends: float
    """When it is expected to end (Unix time)."""
    status: str = "scheduled"
    """Where it stands, in a server event's words: 'scheduled' (just made), 'active', 'completed', 'canceled'."""


@dataclass(frozen=True)
class Reply:
    """What the bot says. ``private`` replies are for ``to.user`` alone (where the chat service allows it)."""

    channel: str
    text: str
    private: bool = False
    board: Board | None = None
    to: Message | None = None
    """The message answered, if any."""
    mentions: tuple[User, ...] = ()
    """People to notify (a reminder, a challenge)."""
    direct: bool = False
    """Also sent to each person mentioned on their own (a direct message on Discord), as reminders that matter are."""
    pdn: str | None = None
    """The game's PDN (with the final message, and for `pdn`)."""
    replay: GameRecord[Any, Any] | None = None
    """The finished game, with the final message: a front end can show it as an animation."""
    controls: Controls | None = None
    """Buttons (and a move menu) to put under the reply, if the front end has them."""
    game: int | None = None
    """The game whose record the reply carries (``pdn``, ``replay``, ``analysis``): it names the files."""
    analysis: Analysis | None = None
    """A game's analysis: a front end shows its graph (``renders.render_graph``) with the text."""
    told: bool = False
    """Its words went to the game's followers with an event (``bot.events``): a page that asked has seen them."""
    player: tuple[str, str] | None = None
    """The person whose games the reply lists (server, user id): a front end with a web page links their page."""
    tournament: int | None = None
    """A tournament the reply is about: a front end with a web page links the tournament's page."""
    scheduled: Scheduled | None = None
    """A tournament just made: a front end may list it among its server's events."""
    standings: Standings | None = None
    """A tournament's standings: a front end shows them as a table (``bot.present.standings_png``)."""
    update: str | None = None
    """A key this reply shares with earlier ones it brings up to date (an analysis's progress, then its result):
    a front end that can edit its messages edits the last one with this key (in this channel) instead of posting."""

    def in_language(self, language: str) -> Reply:
        """This reply as a front end shows it to readers of ``language``: its words and its board's captions."""
        if language == ENGLISH:
            return self
        board = self.board
        if board is not None:
            board = replace(board, caption=render(board.caption, language), status=render(board.status, language))
        return replace(self, text=render(self.text, language), board=board)
