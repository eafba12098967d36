"""The server names the web page's own games are kept under, and the channels they are played in: ``web`` (or
``web:N`` on shard N's process, which takes them back after a restart), each game in a channel of its own."""

from __future__ import annotations

GUILD = "web"  # the server name of games started on the page; with shards, "web:N" names the shard that owns them
CHANNEL_PREFIX = "web-"  # the channels of games started on the page


def web_guild(shards: tuple[int, ...]) -> str:
    """The server name the page's games are kept under: ``web``, or ``web:N`` on the process whose first shard is
    N, which takes them back after a restart."""
    return f"{GUILD}:{shards[0]}" if shards else GUILD


def web_shard(guild: str) -> int | None:
    """The shard that owns the page's games kept under ``guild`` (``web_guild``'s), or None for other servers."""
    name, _, shard = guild.partition(":")
    return int(shard) if name == GUILD and shard.isdigit() else None


def is_page_guild(guild: str) -> bool:
    """Whether ``guild`` is where the page's own games are kept (not a chat's server)."""
    return guild == GUILD or web_shard(guild) is not None


def page_guilds(shard_count: int) -> list[str]:
    """Every server name the page's games may be kept under: ``web`` (one process, or the web tier's), and
    ``web:N`` for each shard's process when the bot runs in ``shard_count`` shards."""
    return [GUILD] + [f"{GUILD}:{shard}" for shard in range(shard_count)]
