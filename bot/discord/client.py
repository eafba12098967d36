"""The Discord front end: chat events in, the core's replies out as messages with board images and buttons.

Ways in: `/draughts ...` slash commands; the buttons and the move menu under
boards and challenges, and the Analyse button under a game's end; the move menu and the Solution button under a
puzzle's board; a message that mentions the bot (``@Draughts 11-15``);
and, with the Message Content intent, a move typed on its own by a player in
a channel with a game, or by anyone where a puzzle is on. Every one becomes a core ``Message`` (``manager`` when
the person has Manage Server); the core does the rest.

Ways out: the core's replies, as messages with board images and buttons, are ``delivery``'s (``Delivery``), which
the client holds and hands each reply to.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from collections.abc import AsyncIterator

import discord
from discord.ext import commands as ext

from bot import commands
from bot.config import Config
from bot.core import Core
from bot.discord import commands as slash_commands, tournament_commands
from bot.discord.answers import Answerer
from bot.discord.boards import BoardMessages
from bot.discord.delivery import Delivery, cannot_write, permissions_in, personal
from bot.discord.messages import guild_of, in_order, name_of, user_of
from bot.discord.threads import GameThread
from bot.discord.views import (ActionButton, AnalyseButton, MoveMenu, PuzzleMenu, RematchButton, SeatButton,
                               SolutionButton, game_view, puzzle_view)
from bot.replies import Message, Reply, User
from bot.translation import render, tr
from bot.page_guilds import web_shard
from bot.web.pages import Pages

log = logging.getLogger(__name__)

DEFER_AFTER = 2.0  # seconds; an interaction must be answered (or deferred) within 3
PRIVATE_COMMANDS = {"help", "moves", "hint"}  # their answers are private, so a deferral of them is too
PAGES_LOST = tr("I no longer have the other pages of that menu (I was restarted since it was shown): type your "
                "move, or use `/draughts move`.")


class DraughtsBot(ext.AutoShardedBot):
    """The bot on Discord: one core, its search pool and database, and the chat around them."""

    def __init__(self, config: Config, core: Core, store: BoardMessages, pages: Pages | None = None, **options):
        """``core``: the games, which the caller connects to ``deliver``; ``store``: where each game's latest board
        message is kept."""
        # The bot has no voice: discord.py's warning at the first client, that voice's libraries (PyNaCl, davey)
        # are not installed, would only worry the operator at every start.
        discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
        intents = discord.Intents.default()
        intents.message_content = config.message_content
        if config.shards:
            options["shard_ids"] = list(config.shards)
        super().__init__(command_prefix=ext.when_mentioned, intents=intents, help_command=None,
                         shard_count=config.shard_count or None, allowed_mentions=discord.AllowedMentions.none(),
                         **options)
        self.config = config
        self.core = core
        self.pages = pages if config.web_url else None  # without a public address, Discord's people cannot reach it
        self.clock: asyncio.Task | None = None
        self.delivery = Delivery(self, core, store, self.pages)  # the ways out
        self.answering: dict[str, asyncio.Lock] = {}  # by channel: a puzzle's menu used one at a time

    # life cycle

    async def setup_hook(self) -> None:
        self.add_dynamic_items(ActionButton, AnalyseButton, MoveMenu, SeatButton, PuzzleMenu, SolutionButton,
                               RematchButton)
        self.tree.add_command(slash_commands.group)
        self.tree.add_command(tournament_commands.tournament)
        await self.tree.set_translator(slash_commands.Translations())
        await self.tree.sync()
        restored = await self.core.start(self.owns)
        shards = ",".join(map(str, self.config.shards)) or "all"
        log.info("shards %s of %s: took back %d unfinished games", shards, self.config.shard_count or "auto",
                 len(restored))
        if self.config.message_content:
            log.info("Message Content intent on: players' moves typed in a game's channel are read, "
                     "as well as messages that mention me, /draughts and the buttons")
        else:
            log.info("Message Content intent off: moves are read from messages that mention me "
                     "(@me 11-15), from /draughts and from the buttons")
        self.clock = asyncio.create_task(self.core.run_clock(), name="game clocks")

    async def on_ready(self) -> None:
        assert self.user is not None
        log.info("connected as %s to %d servers (shards %s of %s)", self.user, len(self.guilds),
                 ",".join(map(str, self.shard_ids or [])) or "all", self.shard_count)

    async def close(self) -> None:
        self.delivery.closing = True
        if self.clock is not None:
            self.clock.cancel()
        await self.core.close()
        await self.delivery.settle()
        await super().close()

    def owns(self, guild: str) -> bool:
        """Whether this process's shards serve ``guild`` (Discord's rule: (id >> 22) % shard count)."""
        shards = self.config.shards
        if not shards:
            return True
        shard = web_shard(guild)  # games started on the web page of shard N's process
        if shard is not None:
            return shard in shards
        number = int(guild) if guild.isdigit() else 0  # direct messages (and the page's games without shards): 0
        return (number >> 22) % self.config.shard_count in shards

    # ways in

    async def on_message(self, message: discord.Message) -> None:
        if message.author.bot or message.webhook_id is not None or self.user is None:
            return
        text = self._addressed(message)
        channel = self.delivery.rooms.room(message.channel, message.channel.id)
        user = user_of(message.author)
        if text is None:  # not for the bot, unless it is a player's move in a game here
            if not self.config.message_content or not self.core.reads_as_move(channel, user, message.content):
                return
            text = message.content.strip()
        permissions = permissions_in(message.channel)
        if permissions is not None and not permissions.send_messages:
            await self.delivery.direct(message.author, render(cannot_write(message.channel),
                                                              self.delivery.channel_language(channel)))
            return
        mentions = tuple(user_of(m) for m in in_order(message) if m.id != self.user.id)
        author = message.author  # a Member in a server (a User in direct messages, where nobody manages anything)
        manager = isinstance(author, discord.Member) and author.guild_permissions.manage_guild
        msg = Message(guild_of(message.guild), channel, user, text, mentions, name_of(message.channel), origin=message,
                      manager=manager)
        async with GameThread(self.core, self.config.threads, msg, message.channel, message.author) as msg:
            await self.core.handle(msg)

    def _addressed(self, message: discord.Message) -> str | None:
        """The text after a leading mention of the bot (all of it in a direct message), else None."""
        assert self.user is not None
        if isinstance(message.channel, discord.DMChannel):
            return message.content
        match = re.match(rf"^\s*<@!?{self.user.id}>\s*", message.content)
        return message.content[match.end():] if match else None

    async def slash(self, interaction: discord.Interaction, text: str, mentions: tuple[discord.abc.User, ...]) -> None:
        """A slash command, as the chat command ``text``."""
        answerer = Answerer(interaction, commands.split(text)[0] in PRIVATE_COMMANDS)
        permissions = interaction.app_permissions
        if interaction.guild_id is not None and not permissions.send_messages:
            await answerer.send(True, content=render(cannot_write(interaction.channel), personal(interaction)))
            return
        msg = self._message(interaction, text, answerer, tuple(user_of(m) for m in mentions))
        async with GameThread(self.core, self.config.threads, msg, interaction.channel, interaction.user) as msg:
            await self._answer(msg, answerer)

    async def pressed(self, interaction: discord.Interaction, game: int, ply: int | None, text: str) -> None:
        """A button or a move chosen from a menu: the command ``text`` in game ``game`` (at ``ply``)."""
        answerer = Answerer(interaction, private=False)
        refusal = self.core.may_press(self._channel(interaction), user_of(interaction.user), game, ply)
        if refusal:
            await answerer.send(True, content=render(refusal, personal(interaction)))
            return
        await self._answer(self._message(interaction, text, answerer), answerer)

    async def analyse(self, interaction: discord.Interaction, game: int) -> None:
        """The Analyse button under a game's end: anyone may press it (the core refuses what it must)."""
        answerer = Answerer(interaction, private=False)
        await self._answer(self._message(interaction, f"analyse {game}", answerer), answerer)

    async def rematch(self, interaction: discord.Interaction, game: int) -> None:
        """The Rematch button under a game's end: the core lets only the game's players."""
        answerer = Answerer(interaction, private=False)
        await self._answer(self._message(interaction, f"rematch {game}", answerer), answerer)

    async def answer_puzzle(self, interaction: discord.Interaction, served: int, ply: int, text: str) -> None:
        """A move chosen from a puzzle's menu, or its Solution button: anyone in the channel may use them; an old
        board's are refused privately. One use at a time in a channel, each checked when its turn comes: two quick
        picks from the same board answer once, and the second is refused, not read on the board that followed."""
        answerer = Answerer(interaction, private=False)
        channel = self._channel(interaction)
        msg = self._message(interaction, text, answerer)
        async with self._in_time(answerer), self.answering.setdefault(channel, asyncio.Lock()):
            refusal = self.core.may_answer(channel, served, ply)
            if refusal:
                await answerer.send(True, content=render(refusal, personal(interaction)))
                return
            await self.core.handle(msg)
        await self._done(msg, answerer)

    async def turn_puzzle_page(self, interaction: discord.Interaction, served: int, ply: int, page: int) -> None:
        """Show another page of a puzzle's move menu (its moves are the latest board's, kept in memory)."""
        channel = self._channel(interaction)
        refusal = self.core.may_answer(channel, served, ply)
        shown = self.delivery.puzzle_boards.get(channel)
        if refusal is None and (shown is None or (shown.controls.game, shown.controls.ply) != (served, ply)):
            refusal = PAGES_LOST
        if refusal or shown is None:
            await interaction.response.send_message(render(refusal or "", personal(interaction)), ephemeral=True)
            return
        await interaction.response.edit_message(view=puzzle_view(served, ply, list(shown.controls.moves), page,
                                                                 self.delivery.channel_language(channel, interaction)))

    async def turn_page(self, interaction: discord.Interaction, game: int, ply: int, page: int) -> None:
        """Show another page of the move menu."""
        channel = self._channel(interaction)
        refusal = self.core.may_press(channel, user_of(interaction.user), game, ply)
        if refusal:
            await interaction.response.send_message(render(refusal, personal(interaction)), ephemeral=True)
            return
        language = self.delivery.channel_language(channel, interaction)
        await interaction.response.edit_message(view=game_view(game, ply, self.core.legal_texts(channel), page,
                                                                watch=self.delivery.watch(game), language=language))

    async def seat_link(self, interaction: discord.Interaction, game: int) -> None:
        """The presser's seat link to the game on the web page, privately; refused to people not playing in it."""
        table = self.core.live(self._channel(interaction))
        user = user_of(interaction.user)
        colour = table.colour_of(user) if table is not None and table.id == game else None
        if table is None or table.id != game:
            text = tr("That game is over.")
        elif self.pages is None or colour is None:
            text = tr("You are not playing in this game. Watch live shows it to everyone.")
        else:
            text = tr("Your seat in this game, to move by clicking on the web page (it is yours alone: do not share "
                      "it): {link}", link=self.pages.seat_url(game, colour, user))
        await interaction.response.send_message(render(text, personal(interaction)), ephemeral=True)

    def legal_texts(self, interaction: discord.Interaction) -> list[str]:
        """The moves `/draughts move` suggests where ``interaction`` was made: its game's legal moves, else those of
        the latest puzzle board shown there while the puzzle is at that board (none after a restart: see
        ``Delivery._keep_puzzle``)."""
        channel = self._channel(interaction)
        if self.core.game_in(channel) is not None:
            return self.core.legal_texts(channel)
        shown = self.delivery.puzzle_boards.get(channel)
        if shown is None or self.core.may_answer(channel, shown.controls.game, shown.controls.ply) is not None:
            return []
        return list(shown.controls.moves)

    def _channel(self, interaction: discord.Interaction) -> str:
        """The core's channel for an interaction's: a tournament game's room for its thread."""
        return self.delivery.rooms.room(interaction.channel, interaction.channel_id)

    def _message(self, interaction: discord.Interaction, text: str, answerer: Answerer,
                 mentions: tuple[User, ...] = ()) -> Message:
        """The core's message for an interaction; ``manager`` if the person has Manage Server there."""
        return Message(guild_of(interaction.guild), self._channel(interaction), user_of(interaction.user), text,
                       mentions, name_of(interaction.channel), origin=answerer,
                       manager=interaction.guild_id is not None and interaction.permissions.manage_guild)

    @contextlib.asynccontextmanager
    async def _in_time(self, answerer: Answerer) -> AsyncIterator[None]:
        """Defer the interaction if what is done inside takes long: Discord wants an answer within 3 seconds."""
        async def defer_later() -> None:
            await asyncio.sleep(DEFER_AFTER)
            await answerer.defer()

        watchdog = asyncio.create_task(defer_later())
        try:
            yield
        finally:
            watchdog.cancel()

    async def _answer(self, msg: Message, answerer: Answerer) -> None:
        """Let the core answer, deferring if it takes long; an interaction is always answered."""
        async with self._in_time(answerer):
            await self.core.handle(msg)
        await self._done(msg, answerer)

    async def _done(self, msg: Message, answerer: Answerer) -> None:
        """The core has answered ``msg``: an interaction not answered yet is, with where to look."""
        if not answerer.answered:  # the answer went to a thread of its own
            done = (tr("Done: see this channel.") if msg.channel == self._channel(answerer.interaction) else
                    tr("Done: see {channel}.", channel=f"<#{msg.channel}>") if msg.channel.isdigit() else
                    tr("Done: see your game's thread."))
            await answerer.send(True, content=render(done, personal(answerer.interaction)))

    # ways out

    async def deliver(self, reply: Reply) -> None:
        """Show one of the core's replies (``Delivery.deliver``). Never raises: a reply that cannot be shown is
        logged."""
        await self.delivery.deliver(reply)
