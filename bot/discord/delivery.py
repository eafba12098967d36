"""The Discord front end's ways out: the core's replies shown as Discord messages, with board images and buttons.

A reply about an interaction answers it (privately where the core says private); other replies are channel
messages. A board is a PNG in an embed with the controls the core gave it (taken off the game's board before), or a
text diagram where the bot may not attach files. The last message of a game carries its PDN and a replay GIF and
greys out the buttons of its last board. Likewise only a puzzle's latest board keeps its menu. A reply that brings an
earlier one up to date (``Reply.update``: an analysis's progress, then its result with the graph) edits the message
of that earlier reply to the same request (``updates``), or is posted anew where that fails. A private answer to a
typed message is a reply in the channel that deletes itself after a minute. Where the bot may not write, it tells the
person in a direct message. A reply that cannot reach Discord (``LOST``: the connection dropped) is logged in one
line and not sent again; the game is stored, and `board` shows it again.

Each reply is shown in its reader's language: an answer for one person in their Discord's, what a channel sees in its
server's (``Delivery.channel_language``).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from dataclasses import dataclass, replace
from typing import Any

import aiohttp
import discord

from bot.core import Core
from bot.discord.answers import Answerer
from bot.discord.boards import BoardMessages
from bot.discord.messages import DIRECT, compose, cut, name_of
from bot.discord.rooms import Rooms
from bot.discord.server_events import ServerEvents
from bot.discord.updates import Updates
from bot.discord.views import analyse_view, answer_view, game_view, puzzle_view, link_view
from bot.replies import NO_GAME, Buttons, Controls, Reply
from bot.tournament.event import parent_channel, room_of
from bot.tournament.words import room_label
from bot.translation import ENGLISH, language_of, render, tr
from bot.web.pages import Pages

log = logging.getLogger(__name__)

# A request Discord refused, or whose connection was lost on the way (a kept-alive connection dropped, a
# timeout): discord.py retries neither, and the bot goes on without what it asked.
NOT_DONE = (discord.HTTPException, aiohttp.ClientError, asyncio.TimeoutError)
# A reply that could not reach Discord at all: the connection dropped, was refused or timed out (after discord.py's
# own retries), or Discord failed on its side (5xx). Not retried (a post the connection dropped may have arrived),
# logged in one line: the game is stored already, and `board` shows it again.
LOST = (aiohttp.ClientError, ConnectionError, asyncio.TimeoutError, discord.ConnectionClosed,
        discord.DiscordServerError)

NOTE_SECONDS = 60.0  # how long a private answer to a typed message stays in the channel


@dataclass(frozen=True)
class PuzzleBoard:
    """The latest board of the puzzle on in a channel: its message, which has the menu, and the controls it shows."""

    message: int
    controls: Controls


class Delivery:
    """Shows the core's replies through one Discord client, and keeps what showing them needs remembered: the
    messages later replies edit, each channel's latest puzzle board, the old boards losing their controls."""

    def __init__(self, client: discord.Client, core: Core, store: BoardMessages, pages: Pages | None) -> None:
        """``store``: where each game's latest board message is kept; ``pages``: the web page, when Discord's people
        can reach it (its links go under every board)."""
        self.client = client
        self.core = core
        self.store = store
        self.pages = pages
        self.closing = False
        """The bot is shutting down: a reply that fails then is dropped with a line in the log."""
        self.edits: set[asyncio.Task] = set()  # old boards losing their controls, in the background
        self.updates = Updates()  # the messages later replies edit
        self.puzzle_boards: dict[str, PuzzleBoard] = {}
        """By channel: the latest puzzle board, whose menu comes off when the puzzle moves on (``_keep_puzzle``)."""
        self.direct_languages: dict[str, str] = {}  # by direct-message channel: its person's, as they last showed it
        self.rooms = Rooms(client, self.channel_language, core.rooms_under)  # tournament games' threads
        self.server_events = ServerEvents(client)  # tournaments among the servers' scheduled events

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
        if not reply.private and room_of(reply.channel) is not None:  # a tournament game's: to its thread
            shown, headed = await self.rooms.shown_in(reply.channel)
            label = room_label(reply.channel)
            reply = replace(reply, channel=str(shown),
                            text=tr("{board}: {text}", board=label, text=reply.text) if headed else reply.text)
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
        if reply.direct:
            for person in reply.mentions:
                await self._direct_to(person.id, reply.text)
        if reply.scheduled is not None:
            self._in_background(self.server_events.show(reply.channel, reply.scheduled, language))
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
        sees in its server's (``channel_language``)."""
        if reply.private and answerer is not None:
            return personal(answerer.interaction)
        return self.channel_language(reply.channel, answerer.interaction if answerer is not None else None)

    def channel_language(self, channel: str, interaction: discord.Interaction | None = None) -> str:
        """What a channel's messages and their buttons are shown in: its server's language, as its administrators
        chose it or the server's settings prefer it. Where the cache has no server (a thread it never saw), the
        server is the interaction's or the game's there, and its preferred language the one an interaction names. A
        direct message's is its person's (as their last interaction there said; English before any)."""
        found = self.client.get_channel(int(parent_channel(channel)))  # (a tournament game's room: its channel's)
        guild = getattr(found, "guild", None)
        if guild is not None:
            return self.core.language(str(guild.id)) or language_of(str(guild.preferred_locale))
        if interaction is not None and interaction.guild_id is None:  # a direct message: its person's language
            self.direct_languages[channel] = personal(interaction)
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
        channel = self.client.get_channel(int(reply.channel)) or self.client.get_partial_messageable(int(reply.channel))
        permissions = answerer.interaction.app_permissions if answerer else permissions_in(channel)
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
                await self.direct(person, render(cannot_write(channel), language))
                return None
        await self._track(reply, sent, language)
        return sent

    async def _edit(self, message: discord.Message, reply: Reply, language: str = ENGLISH) -> discord.Message | None:
        """Edit ``message`` into ``reply``: through its interaction (for an answer to one), else, or when that
        fails (an interaction's token lasts 15 minutes), as a channel message. None if it cannot be edited (it was
        deleted, say)."""
        channel = self.client.get_channel(int(reply.channel)) or self.client.get_partial_messageable(int(reply.channel))
        permissions = permissions_in(channel)
        pictures = permissions is None or permissions.attach_files
        targets: list[discord.Message | discord.PartialMessage] = [message]
        if isinstance(message, (discord.InteractionMessage, discord.WebhookMessage)):
            targets.append(self.client.get_partial_messageable(int(reply.channel)).get_partial_message(message.id))
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
        watch = self.watch(board.game_id) if board is not None and board.game_id != NO_GAME else None  # a puzzle: none
        if reply.player is not None and reply.player[0] != DIRECT and self.pages is not None:  # a player's page
            return link_view(self.pages.player_url(*reply.player), tr("Their page"), language)
        if reply.tournament is not None and controls is None and self.pages is not None:
            return link_view(self.pages.tournament_url(reply.tournament), tr("Tournament page"), language)
        if controls is None:
            return link_view(watch, tr("Watch live"), language) if watch else None
        if controls.buttons is Buttons.ANSWER:
            return answer_view(controls.game, language)
        if controls.buttons in (Buttons.ANALYSE, Buttons.ENDED):
            return analyse_view(controls.game, language, rematch=controls.buttons is Buttons.ENDED)
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
                                                                          watch=self.watch(reply.game),
                                                                          language=language))

    async def _edit_view(self, channel: str, message_id: int, view: discord.ui.View | None) -> None:
        message = self.client.get_partial_messageable(int(channel)).get_partial_message(message_id)
        try:
            await message.edit(view=view)
        except NOT_DONE as error:  # the board keeps its controls, which the core refuses as out of date if used
            log.info("could not change the buttons of message %s (%s: %s)", message_id, error.__class__.__name__, error)

    async def _note(self, message: discord.Message, text: str) -> None:
        """A private answer to a typed message: a reply that deletes itself, or a direct message."""
        try:
            await message.reply(cut(text), mention_author=False, delete_after=NOTE_SECONDS)
        except discord.Forbidden:
            await self.direct(message.author, text)

    async def _direct_to(self, user: str, text: str) -> None:
        """A direct message to the Discord user with id ``user`` (a reminder that matters; logged if it fails)."""
        try:
            person = self.client.get_user(int(user)) or await self.client.fetch_user(int(user))
        except (ValueError, discord.HTTPException):
            log.info("could not find user %s for a direct message", user)
            return
        await self.direct(person, text)

    async def direct(self, person: discord.User | discord.Member, text: str) -> None:
        try:
            await person.send(cut(text))
        except discord.HTTPException:
            log.info("could not send a direct message to user %s", person.id)

    def watch(self, game: int) -> str | None:
        """The game's web page, when the bot has a public one (BOT_WEB_URL)."""
        return self.pages.game_url(game) if self.pages is not None else None

    async def settle(self) -> None:
        """Wait for the old boards still losing their controls (at the bot's close)."""
        await asyncio.gather(*self.edits, return_exceptions=True)


def personal(interaction: discord.Interaction) -> str:
    """The language of the person behind an interaction (their Discord's), for what only they see."""
    return language_of(str(interaction.locale))


def permissions_in(channel: object) -> discord.Permissions | None:
    """The bot's permissions in a server channel, if the cache knows them."""
    if not isinstance(channel, (discord.TextChannel, discord.Thread, discord.VoiceChannel)):
        return None
    try:
        return channel.permissions_for(channel.guild.me)
    except (discord.ClientException, AttributeError):
        return None


def cannot_write(channel: object) -> str:
    """What the bot says where it may not write (in a direct message to the person, or privately)."""
    if getattr(channel, "name", None):
        return tr("I cannot write in {channel}: I need the Send Messages permission there (and Attach Files and "
                  "Embed Links for board pictures). Ask a moderator, or play me in another channel.",
                  channel=f"#{name_of(channel)}")
    return tr("I cannot write in that channel: I need the Send Messages permission there (and Attach Files and "
              "Embed Links for board pictures). Ask a moderator, or play me in another channel.")
