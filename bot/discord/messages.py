"""Between Discord and the core: people, servers and channels as the core knows them, and a core reply made into
the parts of a Discord message."""

from __future__ import annotations

import asyncio
import io

import discord

from bot.present import board_png, board_text, clock_line, graph_png, replay_gif, standings_png
from bot.replies import NO_GAME, Reply, User
from bot.translation import ENGLISH, render, tr
from bot.user_text import CHANNEL_NAME_LIMIT, name

TEXT_LIMIT = 2000  # Discord's limit on a message's text
FILE_LIMIT = 8 * 1024 * 1024  # bytes; a replay larger than this (a very long game) is left out
COLOUR = 0x8B5A2B
CLOCKS = tr("Clocks")
DIRECT = "direct"  # the "server" of games in direct messages


async def compose(reply: Reply, pictures: bool, embeds: bool, view: discord.ui.View | None,
                  language: str = ENGLISH) -> dict:
    """The message for a public reply (its words already in ``language``: ``Reply.in_language``): text, mentions,
    the board (picture or text), an analysis's graph, files (the replay's caption in ``language``) and buttons."""
    text, files, embed = reply.text, [], None
    board = reply.board
    if board is not None and pictures:
        name = f"game-{board.game_id}.png" if board.game_id != NO_GAME else "puzzle.png"
        files.append(discord.File(io.BytesIO(await asyncio.to_thread(board_png, board)), name))
        if embeds:
            embed = discord.Embed(description=cut(text, 4096), colour=COLOUR)
            embed.set_image(url=f"attachment://{name}")
            embed.set_footer(text=board.caption)
            if board.clocks is not None:  # (Discord counts the side to move's time down in each reader's client)
                clocks = render(clock_line(board, named=False), language)  # (under the field's name, Clocks)
                if board.runs_out is not None:
                    runs_out = tr("the time of the side to move runs out {when}", when=f"<t:{int(board.runs_out)}:R>")
                    clocks = f"{clocks} · {render(runs_out, language)}"
                embed.add_field(name=render(CLOCKS, language), value=clocks)
            text = ""
    elif board is not None:
        text += f"\n```\n{board_text(board, language)}\n```"
    if reply.analysis is not None and pictures:
        name = f"analysis-{reply.game}.png"
        files.append(discord.File(io.BytesIO(await asyncio.to_thread(graph_png, reply.analysis, language)), name))
        if embeds and embed is None:
            embed = discord.Embed(description=cut(text, 4096), colour=COLOUR)
            embed.set_image(url=f"attachment://{name}")
            text = ""
    if reply.standings is not None and pictures:
        name = f"standings-{reply.standings.tournament}.png"
        files.append(discord.File(io.BytesIO(await asyncio.to_thread(standings_png, reply.standings, language)), name))
        if embeds and embed is None:
            embed = discord.Embed(description=cut(text, 4096), colour=COLOUR)
            embed.set_image(url=f"attachment://{name}")
            text = ""
    if reply.pdn is not None:
        name = f"game-{reply.game}"
        if pictures:
            files.append(discord.File(io.BytesIO(reply.pdn.encode()), f"{name}.pdn"))
            if reply.replay is not None:
                gif = await asyncio.to_thread(replay_gif, reply.replay, language)
                if len(gif) <= FILE_LIMIT:
                    files.append(discord.File(io.BytesIO(gif), f"{name}.gif"))
        else:
            text += f"\n```\n{cut(reply.pdn, TEXT_LIMIT - len(text) - 20)}\n```"
    pings = " ".join(f"<@{u.id}>" for u in reply.mentions if u.id.isdigit())
    kw: dict = {"content": cut(f"{pings} {text}".strip() if pings else text) or None,
                "allowed_mentions": discord.AllowedMentions(
                    users=[discord.Object(int(u.id)) for u in reply.mentions if u.id.isdigit()])}
    if embed is not None:
        kw["embed"] = embed
    if files:
        kw["files"] = files
    if view is not None:
        kw["view"] = view
    return kw


def user_of(person: discord.abc.User) -> User:
    """The person as the core knows them (their display name is cleaned as the core cleans every name)."""
    return User(str(person.id), name(person.display_name))


def guild_of(guild: discord.Guild | None) -> str:
    return str(guild.id) if guild is not None else DIRECT


def name_of(channel: object) -> str:
    """The channel's name, cleaned as a person's is: anyone who may start a thread names it as they like."""
    return name(str(getattr(channel, "name", None) or "direct messages"), CHANNEL_NAME_LIMIT)


def in_order(message: discord.Message) -> list[discord.abc.User]:
    """The people a message mentions, in the order it names them."""
    people = {m.id: m for m in message.mentions}
    return [people[i] for i in message.raw_mentions if i in people]


def cut(text: str, limit: int = TEXT_LIMIT) -> str:
    return text if len(text) <= limit else text[:limit - 1] + "…"
