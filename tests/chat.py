"""A chat to drive the bot core in tests: people type, replies are collected."""

from __future__ import annotations

from dataclasses import replace

from bot.config import Config
from bot.core import Core
from bot.store import SqliteStore
from bot.replies import Message, Reply, User
from bot.tables import Table

ANA = User("1", "ana")
BEN = User("2", "ben")
EVE = User("3", "eve")
CONFIG = Config(database=":memory:", workers=1, move_time=0.05)


class Clock:
    """Time that passes only when a test says so."""

    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


class Chat:
    """One bot core with its replies, in channel 'c1' of server 'g' unless told otherwise."""

    def __init__(self, store: Store, pool, config: Config = CONFIG):
        self.replies: list[Reply] = []
        self.clock = Clock()
        self.store = store
        self.core = Core(config, store, pool, self._send, clock=self.clock)

    async def _send(self, reply: Reply) -> None:
        self.replies.append(reply)

    async def say(self, user: User, text: str, channel: str = "c1", mentions: tuple[User, ...] = (),
                  manager: bool = False) -> list[Reply]:
        """Send a message (``manager``: from one of the server's administrators); the replies it got straight away."""
        start = len(self.replies)
        await self.core.handle(Message("g", channel, user, text, mentions, channel_name=channel, manager=manager))
        return self.replies[start:]

    def table(self, channel: str = "c1") -> Table:
        """The game in ``channel``, read from the core's state (tests look inside; front ends ask the core)."""
        return self.core.state.tables[channel]

    def on(self, channel: str = "c1") -> bool:
        """Whether a game is on in ``channel``."""
        return self.core.game_in(channel) is not None

    def texts(self) -> list[str]:
        return [r.text for r in self.replies]

    async def play_any(self, user: User, channel: str = "c1") -> str:
        """Play the user's first legal move; the move text."""
        game = self.table(channel).game
        text = game.type.write_move(game.position, game.legal_moves()[0], full=True)
        replies = await self.say(user, text, channel)
        assert not replies[0].private, replies[0].text
        return text


def config(**changes) -> Config:
    return replace(CONFIG, **changes)
