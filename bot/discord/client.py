"""The Discord front end: chat events in, the core's replies out as messages with board images and buttons.

Ways in: `/draughts ...` slash commands; the buttons and the move menu under
boards and challenges, and the Analyse button under a game's end; the move menu and the Solution button under a
puzzle's board; a message that mentions the bot (``@Draughts 11-15``);
and, with the Message Content intent, a move typed on its own by a player in
a channel with a game, or by anyone where a puzzle is on. Every one becomes a core ``Message`` (``manager`` when
the person has Manage Server); the core does the rest.

Ways out: a reply about an interaction answers it (privately where the core
says private); other replies are channel messages. A board is a PNG in an
embed with the controls the core gave it (taken off the game's board before), or a
text diagram where the bot may not attach files. The last message of a game
carries its PDN and a replay GIF and greys out the buttons of its last board. Likewise only a puzzle's latest board
keeps its menu. A reply that brings an earlier one up
to date (``Reply.update``: an analysis's progress, then its result with the graph) edits the message of that
earlier reply to the same request (``updates``), or is posted anew where that fails. A private answer to a typed
message is a reply in the channel that deletes itself after a minute. Where the bot
may not write, it tells the person in a direct message. A reply that cannot reach Discord (``LOST``: the connection
dropped) is logged in one line and not sent again; the game is stored, and `board` shows it again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from collections.abc import AsyncIterator, Coroutine
from dataclasses import dataclass
from typing import Any

import aiohttp
import discord
from discord.ext import commands as ext

from bot import commands
from bot.config import Config
from bot.core import Core
from bot.discord import commands as slash_commands
from bot.discord.answers import Answerer
from bot.discord.messages import compose, cut, guild_of, in_order, name_of, user_of
from bot.discord.threads import GameThread
from bot.discord.updates import Updates
from bot.discord.views import (ActionButton, AnalyseButton, MoveMenu, PuzzleMenu, SeatButton, SolutionButton,
                               analyse_view, answer_view, game_view, puzzle_view, watch_view)
from bot.discord.boards import BoardMessages
from bot.replies import Buttons, Controls, Message, NO_GAME, Reply, User
from bot.translation import ENGLISH, language_of, render, tr
from bot.web.pages import Pages, web_shard

log = logging.getLogger(__name__)

# A request Discord refused, or whose connection was lost on the way (a kept-alive connection dropped, a
# timeout): discord.py retries neither, and the bot goes on without what it asked.
NOT_DONE = (discord.HTTPException, aiohttp.ClientError, asyncio.TimeoutError)
# A reply that could not reach Discord at all: the connection dropped, was refused or timed out (after discord.py's
# own retries), or Discord failed on its side (5xx). Not retried (a post the connection dropped may have arrived),
# logged in one line: the game is stored already, and `board` shows it again.
LOST = (aiohttp.ClientError, ConnectionError, asyncio.TimeoutError, discord.ConnectionClosed,
        discord.DiscordServerError)

DEFER_AFTER = 2.0  # seconds; an interaction must be answered (or deferred) within 3
PRIVATE_COMMANDS = {"help", "moves", "hint"}  # their answers are private, so a deferral of them is too
NOTE_SECONDS = 60.0  # how long a private answer to a typed message stays in the channel
PAGES_LOST = tr("I no longer have the other pages of that menu (I was restarted since it was shown): type your "
                "move, or use `/draughts move`.")


@dataclass(frozen=True)
class PuzzleBoard:
    """The latest board of the puzzle on in a channel: its message, which has the menu, and the controls it shows."""

    message: int
    controls: Controls


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
        self.store = store
        self.core = core
        self.pages = pages if config.web_url else None  # without a public address, Discord's people cannot reach it
        self.clock: asyncio.Task | None = None
        self.closing = False
        self.edits: set[asyncio.Task] = set()  # old boards losing their controls, in the background
        self.updates = Updates()  # the messages later replies edit
        self.puzzle_boards: dict[str, PuzzleBoard] = {}
        """By channel: the latest puzzle board, whose menu comes off when the puzzle moves on (``_keep_puzzle``)."""
        self.answering: dict[str, asyncio.Lock] = {}  # by channel: a puzzle's menu used one at a time
        self.direct_languages: dict[str, str] = {}  # by direct-message channel: its person's, as they last showed it

    # life cycle

    async def setup_hook(self) -> None:
        self.add_dynamic_items(ActionButton, AnalyseButton, MoveMenu, SeatButton, PuzzleMenu, SolutionButton)
        self.tree.add_command(slash_commands.group)
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
        self.closing = True
        if self.clock is not None:
            self.clock.cancel()
        await self.core.close()
        await asyncio.gather(*self.edits, return_exceptions=True)
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
        channel = str(message.channel.id)
        user = user_of(message.author)
        if text is None:  # not for the bot, unless it is a player's move in a game here
            if not self.config.message_content or not self.core.reads_as_move(channel, user, message.content):
                return
            text = message.content.strip()
        permissions = self._permissions(message.channel)
        if permissions is not None and not permissions.send_messages:
            await self._direct(message.author, render(self._cannot_write(message.channel),
                                                      self._channel_language(channel)))
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
            await answerer.send(True, content=render(self._cannot_write(interaction.channel), _personal(interaction)))
            return
        msg = self._message(interaction, text, answerer, tuple(user_of(m) for m in mentions))
        async with GameThread(self.core, self.config.threads, msg, interaction.channel, interaction.user) as msg:
            await self._answer(msg, answerer)

    async def pressed(self, interaction: discord.Interaction, game: int, ply: int | None, text: str) -> None:
        """A button or a move chosen from a menu: the command ``text`` in game ``game`` (at ``ply``)."""
        answerer = Answerer(interaction, private=False)
        refusal = self.core.may_press(str(interaction.channel_id), user_of(interaction.user), game, ply)
        if refusal:
            await answerer.send(True, content=render(refusal, _personal(interaction)))
            return
        await self._answer(self._message(interaction, text, answerer), answerer)

    async def analyse(self, interaction: discord.Interaction, game: int) -> None:
        """The Analyse button under a game's end: anyone may press it (the core refuses what it must)."""
        answerer = Answerer(interaction, private=False)
        await self._answer(self._message(interaction, f"analyse {game}", answerer), answerer)

    async def answer_puzzle(self, interaction: discord.Interaction, served: int, ply: int, text: str) -> None:
        """A move chosen from a puzzle's menu, or its Solution button: anyone in the channel may use them; an old
        board's are refused privately. One use at a time in a channel, each checked when its turn comes: two quick
        picks from the same board answer once, and the second is refused, not read on the board that followed."""
        answerer = Answerer(interaction, private=False)
        channel = str(interaction.channel_id)
        msg = self._message(interaction, text, answerer)
        async with self._in_time(answerer), self.answering.setdefault(channel, asyncio.Lock()):
            refusal = self.core.may_answer(channel, served, ply)
            if refusal:
                await answerer.send(True, content=render(refusal, _personal(interaction)))
                return
            await self.core.handle(msg)
        await self._done(msg, answerer)

    async def turn_puzzle_page(self, interaction: discord.Interaction, served: int, ply: int, page: int) -> None:
        """Show another page of a puzzle's move menu (its moves are the latest board's, kept in memory)."""
        channel = str(interaction.channel_id)
        refusal = self.core.may_answer(channel, served, ply)
        shown = self.puzzle_boards.get(channel)
        if refusal is None and (shown is None or (shown.controls.game, shown.controls.ply) != (served, ply)):
            refusal = PAGES_LOST
        if refusal or shown is None:
            await interaction.response.send_message(render(refusal or "", _personal(interaction)), ephemeral=True)
            return
        await interaction.response.edit_message(view=puzzle_view(served, ply, list(shown.controls.moves), page,
                                                                 self._channel_language(channel, interaction)))

    async def turn_page(self, interaction: discord.Interaction, game: int, ply: int, page: int) -> None:
        """Show another page of the move menu."""
        channel = str(interaction.channel_id)
        refusal = self.core.may_press(channel, user_of(interaction.user), game, ply)
        if refusal:
            await interaction.response.send_message(render(refusal, _personal(interaction)), ephemeral=True)
            return
        await interaction.response.edit_message(view=game_view(game, ply, self.core.legal_texts(channel), page,
                                                                watch=self._watch(game),
                                                                language=self._channel_language(channel, interaction)))

    async def seat_link(self, interaction: discord.Interaction, game: int) -> None:
        """The presser's seat link to the game on the web page, privately; refused to people not playing in it."""
        table = self.core.live(str(interaction.channel_id))
        user = user_of(interaction.user)
        colour = table.colour_of(user) if table is not None and table.id == game else None
        if table is None or table.id != game:
            text = tr("That game is over.")
        elif self.pages is None or colour is None:
            text = tr("You are not playing in this game. Watch live shows it to everyone.")
        else:
            text = tr("Your seat in this game, to move by clicking on the web page (it is yours alone: do not share "
                      "it): {link}", link=self.pages.seat_url(game, colour, user))
        await interaction.response.send_message(render(text, _personal(interaction)), ephemeral=True)

    def legal_texts(self, channel: str) -> list[str]:
        """The moves `/draughts move` suggests in ``channel``: its game's legal moves, else those of the latest
        puzzle board shown there while the puzzle is at that board (none after a restart: see ``_keep_puzzle``)."""
        if self.core.game_in(channel) is not None:
            return self.core.legal_texts(channel)
        shown = self.puzzle_boards.get(channel)
        if shown is None or self.core.may_answer(channel, shown.controls.game, shown.controls.ply) is not None:
            return []
        return list(shown.controls.moves)

    def _watch(self, game: int) -> str | None:
        """The game's web page, when the bot has a public one (BOT_WEB_URL)."""
        return self.pages.game_url(game) if self.pages is not None else None

    def _message(self, interaction: discord.Interaction, text: str, answerer: Answerer,
                 mentions: tuple[User, ...] = ()) -> Message:
        """The core's message for an interaction; ``manager`` if the person has Manage Server there."""
        return Message(guild_of(interaction.guild), str(interaction.channel_id), user_of(interaction.user), text,
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
            done = (tr("Done: see {channel}.", channel=f"<#{msg.channel}>")
                    if msg.channel != str(answerer.interaction.channel_id) else tr("Done: see this channel."))
            await answerer.send(True, content=render(done, _personal(answerer.interaction)))

    # ways out

    async def deliver(self, reply: Reply) -> None:
        """Show one of the core's replies. Never raises: a reply that cannot be shown is logged."""
        try:
            await self._deliver(reply)
        except Exception as error:
            if self.closing:
                log.info("a reply in channel %s was dropped: the bot is shutting down", reply.channel)
            elif isinstance(error, LOST):
                log.warning("a reply in channel %s was not delivered: the connection to Discord failed (%s: %s); "
                            "the game is kept, and `board` shows it again", reply.channel, error.__class__.__name__,
                            " ".join(str(error).split())[:200])  # one line, even for a proxy's HTML error page
            else:
                log.exception("could not show a reply in channel %s", reply.channel)

    async def _deliver(self, reply: Reply) -> None:
        origin = reply.to.origin if reply.to is not None else None
        answerer = origin if isinstance(origin, Answerer) and (
            reply.private or str(origin.interaction.channel_id) == reply.channel) else None
        language = self._language(reply, answerer)
        reply = reply.in_language(language)
        if reply.private:
            if answerer is not None:
                await answerer.send(True, content=cut(reply.text))
            elif isinstance(origin, discord.Message):
                await self._note(origin, reply.text)
            return
        updated = self.updates.of(reply)
        if updated is None:
            await self._show(reply, answerer, origin, language)
            return
        async with updated.lock:  # taken before any await: the replies of one key are shown in the core's order
            if updated.message is not None:
                edited = await self._edit(updated.message, reply, language)
                if edited is not None:
                    updated.message = edited
                    return
                answerer = None  # its interaction was answered long ago: a new message goes in the channel
            updated.message = await self._show(reply, answerer, origin, language)

    def _language(self, reply: Reply, answerer: Answerer | None) -> str:
        """What ``reply`` is shown in: an answer for one person in their Discord's language, what the channel
        sees in its server's (``_channel_language``)."""
        if reply.private and answerer is not None:
            return _personal(answerer.interaction)
        return self._channel_language(reply.channel, answerer.interaction if answerer is not None else None)

    def _channel_language(self, channel: str, interaction: discord.Interaction | None = None) -> str:
        """What a channel's messages and their buttons are shown in: its server's language, as its administrators
        chose it or the server's settings prefer it. Where the cache has no server (a thread it never saw), the
        server is the interaction's or the game's there, and its preferred language the one an interaction names. A
        direct message's is its person's (as their last interaction there said; English before any)."""
        found = self.get_channel(int(channel))
        guild = getattr(found, "guild", None)
        if guild is not None:
            return self.core.language(str(guild.id)) or language_of(str(guild.preferred_locale))
        if interaction is not None and interaction.guild_id is None:  # a direct message: its person's language
            self.direct_languages[channel] = _personal(interaction)
        if channel in self.direct_languages:
            return self.direct_languages[channel]
        guild_id = interaction.guild_id if interaction is not None else None
        if guild_id is None:
            table = self.core.live(channel)
            guild_id = int(table.guild) if table is not None and table.guild.isdigit() else None
        chosen = self.core.language(str(guild_id)) if guild_id is not None else None
        if chosen:
            return chosen
        if interaction is not None and interaction.guild_locale is not None:
            return language_of(str(interaction.guild_locale))
        return ENGLISH

    async def _show(self, reply: Reply, answerer: Answerer | None, origin: object,
                    language: str = ENGLISH) -> discord.Message | None:
        """Post a public reply (as the answer to its interaction, if any), its buttons and files in ``language``; the
        message, where Discord says it."""
        channel = self.get_channel(int(reply.channel)) or self.get_partial_messageable(int(reply.channel))
        permissions = answerer.interaction.app_permissions if answerer else self._permissions(channel)
        pictures = permissions is None or permissions.attach_files
        view = self._view(reply, language)
        try:
            sent = await self._post(reply, answerer, channel, pictures, permissions, view, language)
        except discord.Forbidden:
            if not pictures:
                raise
            log.info("channel %s refused a file; sending the text board", reply.channel)
            try:
                sent = await self._post(reply, answerer, channel, False, permissions, view, language)
            except discord.Forbidden:
                person = origin.author if isinstance(origin, discord.Message) else None
                if person is None:
                    raise
                await self._direct(person, render(self._cannot_write(channel), language))
                return None
        await self._track(reply, sent, language)
        return sent

    async def _edit(self, message: discord.Message, reply: Reply, language: str = ENGLISH) -> discord.Message | None:
        """Edit ``message`` into ``reply``: through its interaction (for an answer to one), else, or when that
        fails (an interaction's token lasts 15 minutes), as a channel message. None if it cannot be edited (it was
        deleted, say)."""
        channel = self.get_channel(int(reply.channel)) or self.get_partial_messageable(int(reply.channel))
        permissions = self._permissions(channel)
        pictures = permissions is None or permissions.attach_files
        targets: list[discord.Message | discord.PartialMessage] = [message]
        if isinstance(message, (discord.InteractionMessage, discord.WebhookMessage)):
            targets.append(self.get_partial_messageable(int(reply.channel)).get_partial_message(message.id))
        for target in targets:
            kw = await compose(reply, pictures, permissions is None or permissions.embed_links,
                               self._view(reply, language), language)
            try:
                edited = await target.edit(content=kw.get("content"), embed=kw.get("embed"),
                                           attachments=kw.get("files", []), view=kw.get("view"),
                                           allowed_mentions=kw["allowed_mentions"])
            except NOT_DONE as error:
                log.info("could not edit message %s (%s: %s)", message.id, error.__class__.__name__, error)
                continue
            await self._track(reply, edited, language)
            return edited
        return None

    async def _post(self, reply: Reply, answerer: Answerer | None, channel, pictures: bool,
                    permissions: discord.Permissions | None, view: discord.ui.View | None,
                    language: str = ENGLISH) -> discord.Message | None:
        kw = await compose(reply, pictures, permissions is None or permissions.embed_links, view, language)
        if answerer is not None:
            return await answerer.send(False, **kw)
        return await channel.send(**kw)

    def _view(self, reply: Reply, language: str = ENGLISH) -> discord.ui.View | None:
        """The buttons (and move menu) the core gave the reply, labelled in ``language``; under every board, the web
        page's links."""
        controls = reply.controls
        board = reply.board
        watch = self._watch(board.game_id) if board is not None and board.game_id != NO_GAME else None  # a puzzle: none
        if controls is None:
            return watch_view(watch, language) if watch else None
        if controls.buttons is Buttons.ANSWER:
            return answer_view(controls.game, language)
        if controls.buttons is Buttons.ANALYSE:
            return analyse_view(controls.game, language)
        if controls.buttons is Buttons.PUZZLE:
            return puzzle_view(controls.game, controls.ply, list(controls.moves), language=language)
        return game_view(controls.game, controls.ply, list(controls.moves), watch=watch, language=language)

    async def _track(self, reply: Reply, sent: discord.Message | None, language: str = ENGLISH) -> None:
        """A public reply was posted (or edited in): the boards before it that lose their controls. A puzzle's board
        (``NO_GAME``) is not a game's: it has no web page and no board message in the database."""
        self._keep_puzzle(reply, sent)
        if reply.board is None or reply.board.game_id != NO_GAME:
            await self._keep_track(reply, sent, reply.controls is not None, language)

    def _keep_puzzle(self, reply: Reply, sent: discord.Message | None) -> None:
        """Only a puzzle's latest board keeps its menu and Solution button: a new one (the next move, or a new
        puzzle) takes them off the board before, and so does any reply after which that board's controls would be
        refused (``Core.may_answer``): the puzzle solved, failed, shown, or ended for a game. In the background, as
        for games. Unlike a game's, the board is remembered in memory only: after a restart an older board keeps its
        menu until it is used, and then ``may_answer`` refuses it as out of date."""
        channel, controls = reply.channel, reply.controls
        shown = self.puzzle_boards.get(channel)
        if controls is not None and controls.buttons is Buttons.PUZZLE and sent is not None:
            self.puzzle_boards[channel] = PuzzleBoard(sent.id, controls)
        elif shown is None or self.core.may_answer(channel, shown.controls.game, shown.controls.ply) is None:
            return  # no puzzle board here, or it is still the one to answer on
        else:
            del self.puzzle_boards[channel]
        if shown is not None and (sent is None or shown.message != sent.id):
            self._in_background(self._edit_view(channel, shown.message, None))

    def _in_background(self, edit: Coroutine[Any, Any, None]) -> None:
        """An old board's controls changed without holding up the chat; ``close`` waits for it."""
        task = asyncio.create_task(edit)
        self.edits.add(task)
        task.add_done_callback(self.edits.discard)

    async def _keep_track(self, reply: Reply, sent: discord.Message | None, controls: bool,
                          language: str = ENGLISH) -> None:
        """Only a game's latest board keeps its buttons and menu: a new one takes them off the board before (in
        the background, so the game goes on). At the game's end its last board's buttons are greyed out. Which
        message that is, is kept with the game in the database, so a restart changes nothing a player sees."""
        if reply.board is not None and sent is not None and controls:
            game = reply.board.game_id
            before = await self.store.board_message(game)
            await self.store.set_board_message(game, str(sent.id))
            if before is not None and before != str(sent.id):
                self._in_background(self._edit_view(reply.channel, int(before), None))
        if reply.replay is not None and reply.game is not None:
            last = await self.store.board_message(reply.game)
            if last is not None:
                await self.store.set_board_message(reply.game, None)
                await self._edit_view(reply.channel, int(last), game_view(reply.game, 0, [], disabled=True,
                                                                          watch=self._watch(reply.game),
                                                                          language=language))

    async def _edit_view(self, channel: str, message_id: int, view: discord.ui.View | None) -> None:
        message = self.get_partial_messageable(int(channel)).get_partial_message(message_id)
        try:
            await message.edit(view=view)
        except NOT_DONE as error:  # the board keeps its controls, which the core refuses as out of date if used
            log.info("could not change the buttons of message %s (%s: %s)", message_id, error.__class__.__name__, error)

    async def _note(self, message: discord.Message, text: str) -> None:
        """A private answer to a typed message: a reply that deletes itself, or a direct message."""
        try:
            await message.reply(cut(text), mention_author=False, delete_after=NOTE_SECONDS)
        except discord.Forbidden:
            await self._direct(message.author, text)

    async def _direct(self, person: discord.User | discord.Member, text: str) -> None:
        try:
            await person.send(cut(text))
        except discord.HTTPException:
            log.info("could not send a direct message to user %s", person.id)

    def _permissions(self, channel: object) -> discord.Permissions | None:
        """The bot's permissions in a server channel, if the cache knows them."""
        if not isinstance(channel, (discord.TextChannel, discord.Thread, discord.VoiceChannel)):
            return None
        try:
            return channel.permissions_for(channel.guild.me)
        except (discord.ClientException, AttributeError):
            return None

    @staticmethod
    def _cannot_write(channel: object) -> str:
        if getattr(channel, "name", None):
            return tr("I cannot write in {channel}: I need the Send Messages permission there (and Attach Files and "
                      "Embed Links for board pictures). Ask a moderator, or play me in another channel.",
                      channel=f"#{name_of(channel)}")
        return tr("I cannot write in that channel: I need the Send Messages permission there (and Attach Files and "
                  "Embed Links for board pictures). Ask a moderator, or play me in another channel.")


def _personal(interaction: discord.Interaction) -> str:
    """The language of the person behind an interaction (their Discord's), for what only they see."""
    return language_of(str(interaction.locale))


