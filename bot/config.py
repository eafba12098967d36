"""The bot's settings, read from the environment and a `.env` file (by python-dotenv).

The environment wins over `.env`. Every key is listed, with a comment, in
`.env.example`. The token is kept out of ``repr`` so it never reaches a log.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field, fields
from pathlib import Path

from dotenv.parser import parse_stream

from bot.translation import LANGUAGES

from engine.analysis import NODES as ANALYSIS_NODES
from engine.search import spare_threads


class ConfigError(ValueError):
    """A setting that cannot be read; the message names the key."""


def default_workers() -> int:
    """One search process per core, keeping one core for the event loop; at least one."""
    return max(1, (os.cpu_count() or 2) - 1)


@dataclass(frozen=True)
class Config:
    """Settings of one bot process."""

    token: str = field(default="", repr=False)
    """DISCORD_TOKEN: the Discord bot token; empty runs the terminal chat."""
    database: str = field(default="data/bot.sqlite3", repr=False)  # a PostgreSQL URL may hold a password
    """BOT_DATABASE: the SQLite file games and ratings are kept in (':memory:' keeps nothing), or a PostgreSQL URL
    (postgresql://...) for bot processes on several machines."""
    workers: int = field(default_factory=default_workers)
    """BOT_WORKERS: search processes."""
    search_threads: int = field(default_factory=spare_threads)
    """BOT_SEARCH_THREADS: threads a search may use when it is the only one running (lazy SMP)."""
    move_time: float = 1.0
    """BOT_MOVE_TIME: the bot's default seconds per move."""
    max_move_time: float = 10.0
    """BOT_MAX_MOVE_TIME: the most seconds the bot thinks a move: the most a player may ask for in an untimed game,
    and a cap on the share of its clock it takes in a timed one (a machine with many games at once keeps it low)."""
    log_level: str = "INFO"
    """BOT_LOG_LEVEL: DEBUG, INFO, WARNING or ERROR."""
    queue_limit: int = 40
    """BOT_QUEUE_LIMIT: searches waiting for a worker before the bot says it is busy."""
    games_per_user: int = 3
    """BOT_GAMES_PER_USER: active games (and open challenges) one person may have."""
    matches_per_server: int = 2
    """BOT_MATCHES_PER_SERVER: bot-vs-bot matches running at once on one server."""
    input_limit: int = 300
    """BOT_INPUT_LIMIT: the longest message, in characters, the bot reads."""
    remind_after: float = 600.0
    """BOT_REMIND_AFTER: seconds of a player's silence on their move before a reminder."""
    abandon_after: float = 3600.0
    """BOT_ABANDON_AFTER: seconds of silence after which the idle player loses (or the game is aborted)."""
    challenge_expiry: float = 300.0
    """BOT_CHALLENGE_EXPIRY: seconds a challenge waits for an answer."""
    takebacks: int = 3
    """BOT_TAKEBACKS: takebacks allowed per game against the bot."""
    tt_mb: int = 64
    """BOT_TT_MB: transposition table of each search process, MB."""
    image_dir: str = "boards"
    """BOT_IMAGE_DIR: where the terminal chat writes its board images."""
    message_content: bool = True
    """BOT_MESSAGE_CONTENT: ask Discord for the Message Content intent, to read moves typed in a game's channel."""
    threads: bool = False
    """BOT_THREADS: on Discord, start each game in a thread of its own."""
    shard_count: int = 0
    """BOT_SHARD_COUNT: Discord shards in all; 0 asks Discord how many."""
    shard_ids: str = ""
    """BOT_SHARD_IDS: the shards this process runs, as '0,1'; empty runs them all."""
    endgame_pieces: int = 4
    """BOT_ENDGAME_PIECES: build the draughts endgame databases up to this many pieces at start-up, in the
    background, where they are missing (0: none). 5 is the operator's choice: International's take about 8 GB
    of memory and most of an hour of one core to build, and 2.4 GB on disk."""
    analysis_nodes: int = ANALYSIS_NODES
    """BOT_ANALYSIS_NODES: nodes searched a position when a game is analysed (`analyse`)."""
    web: bool = True
    """BOT_WEB: serve the web page (watch live, replay, play by clicking) beside the chat."""
    web_host: str = "127.0.0.1"
    """BOT_WEB_HOST: the address the web server listens on (0.0.0.0 for every network)."""
    web_port: int = 8080
    """BOT_WEB_PORT: its port."""
    web_url: str = ""
    """BOT_WEB_URL: the public address of the web page, for the links the chat gives (default: host and port)."""
    web_secret: str = field(default="", repr=False)
    """BOT_WEB_SECRET: the key seat links are made with (default: one made once and kept in the database)."""
    language: str = ""
    """BOT_LANGUAGE: the terminal chat's language: en, nl, fr, ru or pt_BR (default: the locale's, from LANG)."""
    discord_client_id: str = ""
    """DISCORD_CLIENT_ID: the bot's Discord application's id, for signing in with Discord on the web page (with the
    secret; its OAuth2 redirect must be BOT_WEB_URL/login/discord/back)."""
    discord_client_secret: str = field(default="", repr=False)
    """DISCORD_CLIENT_SECRET: that application's client secret (never logged)."""
    discord_oauth_url: str = "https://discord.com"
    """DISCORD_OAUTH_URL: where Discord's OAuth2 endpoints are (a test emulator's, or Discord's own)."""
    web_proxies: str = ""
    """BOT_WEB_PROXIES: addresses of the proxies in front of the web page, as '10.0.0.2,10.0.0.5': a request from one
    is counted against the address its X-Forwarded-For names (the limits on new games and analyses are per
    address)."""

    @property
    def web_base(self) -> str:
        """The web page's address as links give it."""
        return (self.web_url or f"http://{self.web_host}:{self.web_port}").rstrip("/")

    @property
    def proxies(self) -> frozenset[str]:
        """The addresses of ``web_proxies``."""
        return frozenset(part.strip() for part in self.web_proxies.split(",") if part.strip())

    @property
    def shards(self) -> tuple[int, ...]:
        """The shard ids of ``shard_ids``."""
        return tuple(int(part) for part in self.shard_ids.split(",") if part.strip())


# Environment key of each field.
KEYS = {
    "token": "DISCORD_TOKEN", "database": "BOT_DATABASE", "workers": "BOT_WORKERS",
    "search_threads": "BOT_SEARCH_THREADS", "move_time": "BOT_MOVE_TIME", "max_move_time": "BOT_MAX_MOVE_TIME",
    "log_level": "BOT_LOG_LEVEL",
    "queue_limit": "BOT_QUEUE_LIMIT", "games_per_user": "BOT_GAMES_PER_USER",
    "matches_per_server": "BOT_MATCHES_PER_SERVER", "input_limit": "BOT_INPUT_LIMIT",
    "remind_after": "BOT_REMIND_AFTER", "abandon_after": "BOT_ABANDON_AFTER",
    "challenge_expiry": "BOT_CHALLENGE_EXPIRY", "takebacks": "BOT_TAKEBACKS", "tt_mb": "BOT_TT_MB",
    "image_dir": "BOT_IMAGE_DIR", "message_content": "BOT_MESSAGE_CONTENT", "threads": "BOT_THREADS",
    "shard_count": "BOT_SHARD_COUNT", "shard_ids": "BOT_SHARD_IDS", "endgame_pieces": "BOT_ENDGAME_PIECES",
    "analysis_nodes": "BOT_ANALYSIS_NODES", "web": "BOT_WEB", "web_host": "BOT_WEB_HOST", "web_port": "BOT_WEB_PORT", "web_url": "BOT_WEB_URL",
    "web_secret": "BOT_WEB_SECRET", "web_proxies": "BOT_WEB_PROXIES", "language": "BOT_LANGUAGE",
    "discord_client_id": "DISCORD_CLIENT_ID", "discord_client_secret": "DISCORD_CLIENT_SECRET",
    "discord_oauth_url": "DISCORD_OAUTH_URL",
}
BOOLEANS = {"1": True, "true": True, "yes": True, "on": True, "0": False, "false": False, "no": False, "off": False}
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")


def read_dotenv(path: Path) -> dict[str, str]:
    """KEY=VALUE lines of a `.env` file, read by python-dotenv: comments (also after a value), quotes and
    `export` as a shell reads them; ``$VAR`` is left as written. A line that is not KEY=VALUE is refused by its
    number, never its text (it may be a pasted secret)."""
    if not path.is_file():
        return {}
    values: dict[str, str] = {}
    with path.open(encoding="utf-8") as stream:
        for line in parse_stream(stream):
            if line.error or (line.key is not None and line.value is None):
                raise ConfigError(f"{path}:{line.original.line}: expected KEY=VALUE")
            if line.key is not None and line.value is not None:
                values[line.key] = line.value
    return values


def load(env: dict[str, str] | None = None, dotenv: Path | None = Path(".env")) -> Config:
    """The settings from ``env`` (default: the process environment) over those in ``dotenv``."""
    values = read_dotenv(dotenv) if dotenv else {}
    values.update(os.environ if env is None else env)
    kwargs: dict[str, object] = {}
    defaults = Config()
    for f in fields(Config):
        key = KEYS[f.name]
        raw = values.get(key, "").strip()
        if not raw:
            continue
        kind = type(getattr(defaults, f.name))
        if kind is bool:
            if raw.lower() not in BOOLEANS:
                raise ConfigError(f"{key} must be true or false, not {raw!r}")
            kwargs[f.name] = BOOLEANS[raw.lower()]
            continue
        try:
            value = kind(raw)
        except ValueError:
            raise ConfigError(f"{key} must be {'a whole number' if kind is int else 'a number'}, not {raw!r}") from None
        if kind in (int, float) and value < 0:
            raise ConfigError(f"{key} must not be negative")
        kwargs[f.name] = value
    config = Config(**kwargs)  # type: ignore[arg-type]
    if config.log_level.upper() not in LOG_LEVELS:
        raise ConfigError(f"BOT_LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}")
    if config.workers < 1:
        raise ConfigError("BOT_WORKERS must be at least 1")
    cores = os.cpu_count() or 1
    if not 1 <= config.search_threads <= cores:
        raise ConfigError(f"BOT_SEARCH_THREADS must be 1 to {cores} (this machine's cores)")
    try:
        shards = config.shards
    except ValueError:
        raise ConfigError(f"BOT_SHARD_IDS must be shard numbers separated by commas, not {config.shard_ids!r}") from None
    if config.endgame_pieces not in (0, 2, 3, 4, 5):
        raise ConfigError("BOT_ENDGAME_PIECES must be 0 (no databases) or 2 to 5")
    if config.analysis_nodes < 1000:
        raise ConfigError("BOT_ANALYSIS_NODES must be at least 1000")
    if not 0 < config.web_port < 65536:
        raise ConfigError("BOT_WEB_PORT must be a port number, 1 to 65535")
    if config.web_url and not config.web_url.startswith(("http://", "https://")):
        raise ConfigError("BOT_WEB_URL must start with http:// or https://")
    if bool(config.discord_client_id) != bool(config.discord_client_secret):
        raise ConfigError("signing in with Discord needs both DISCORD_CLIENT_ID and DISCORD_CLIENT_SECRET")
    if not config.discord_oauth_url.startswith(("http://", "https://")):
        raise ConfigError("DISCORD_OAUTH_URL must start with http:// or https://")
    if config.language and config.language.replace("-", "_").lower() not in {code.lower() for code in LANGUAGES}:
        raise ConfigError(f"BOT_LANGUAGE must be one of {', '.join(LANGUAGES)}, not {config.language!r}")
    if shards and not all(0 <= s < config.shard_count for s in shards):
        raise ConfigError("BOT_SHARD_IDS needs BOT_SHARD_COUNT, and each id must be below it")
    return config
