"""``python -m bot``: the chat bot. Without DISCORD_TOKEN it runs as a chat in the terminal."""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys

from bot import config as settings
from bot.app import run_terminal
from bot.store import StoreError


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot", description=__doc__)
    parser.add_argument("--terminal", action="store_true", help="run the terminal chat even if a token is set")
    args = parser.parse_args(argv)
    try:
        config = settings.load()
    except settings.ConfigError as error:
        print(f"Configuration error: {error}", file=sys.stderr)
        return 2
    logging.basicConfig(level=config.log_level.upper(), stream=sys.stderr,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    if config.token and not args.terminal:
        print("DISCORD_TOKEN is set, but the Discord front end is not built yet; running the terminal chat.",
              file=sys.stderr)
    try:
        asyncio.run(run_terminal(config))
    except StoreError as error:
        print(f"Database error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\nBye. Unfinished games are kept; start again to play on.", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
