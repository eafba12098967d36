"""The one keeper of the games on in this process: read by channel and by id (no scan), written only through
``open`` and ``close``, so that which games are on changes in one place."""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from bot.tables import Table


class Registry(Mapping[str, Table]):
    """The games on, by channel (a read-only mapping, for every duty of the core), and by id."""

    def __init__(self) -> None:
        self._by_channel: dict[str, Table] = {}
        self._by_id: dict[int, Table] = {}

    def __getitem__(self, channel: str) -> Table:
        return self._by_channel[channel]

    def __iter__(self) -> Iterator[str]:
        return iter(self._by_channel)

    def __len__(self) -> int:
        return len(self._by_channel)

    def by_id(self, game: int) -> Table | None:
        """The game on with the id ``game``, or None."""
        return self._by_id.get(game)

    def is_on(self, table: Table) -> bool:
        """Whether ``table`` is still the game on in its channel (not ended, nor replaced, while someone waited)."""
        return self._by_channel.get(table.channel) is table

    def open(self, table: Table) -> None:
        """``table``'s game is on from now on, in its channel (which has none on: the lobby checked it)."""
        assert table.channel not in self._by_channel, f"channel {table.channel} has a game on already"
        self._by_channel[table.channel] = self._by_id[table.id] = table

    def close(self, table: Table) -> None:
        """``table``'s game is no longer on (if it still was)."""
        if self.is_on(table):
            del self._by_channel[table.channel]
            self._by_id.pop(table.id, None)
