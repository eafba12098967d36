"""What the Discord front end keeps in the database: the message of each game's latest board, which carries the
controls (its buttons are turned off when a newer board takes over, even after a restart). The bot's stores keep
it (``SqliteStore``, ``PostgresStore``: the games' ``board_message`` column); the neutral ``Store`` does not
know of it."""

from __future__ import annotations

from typing import Protocol, runtime_checkable


@runtime_checkable
class BoardMessages(Protocol):
    async def board_message(self, game: int) -> str | None:
        """The id of the game's latest board message, as the front end that posted it named it."""

    async def set_board_message(self, game: int, message: str | None) -> None:
        """Keep ``message`` as the game's latest board message (None: it has none)."""
