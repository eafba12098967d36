"""The real bot process (``python -m bot --discord``) pointed at the Discord emulator, for tests that run bots as
separate processes: ``python tests/emulated_bot.py API_URL GATEWAY_URL``; everything else from the environment."""

import sys

import discord
import yarl
from discord.gateway import DiscordWebSocket

from bot.__main__ import main

if __name__ == "__main__":
    discord.http.Route.BASE = sys.argv[1]
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(sys.argv[2])
    sys.exit(main(["--discord"]))
