"""Tournaments among a Discord server's scheduled events: listed when made, and started, ended or cancelled with
them, so the server's members see them in their events list. Where the bot may not manage events, nothing is
listed, and a line is logged."""

from __future__ import annotations

import asyncio
import datetime
import logging
import re
import time

import discord

from bot.replies import Scheduled
from bot.translation import render, tr

log = logging.getLogger(__name__)

NOT_DONE = (discord.HTTPException, OSError, ValueError)  # refused, or the connection lost on the way
STATUSES = {"active": "start", "completed": "end", "canceled": "cancel"}  # a status, and the event's way to it


class ServerEvents:
    """The scheduled events this process listed, by tournament (others are found among the server's by name)."""

    def __init__(self, client: discord.Client):
        self.client = client
        self._listed: dict[int, discord.ScheduledEvent] = {}  # tournament -> its event, as its last change left it
        self._changing: dict[int, asyncio.Lock] = {}  # tournament -> held while its event changes

    async def show(self, channel: str, scheduled: Scheduled, language: str) -> None:
        """List a tournament just made, or bring its event to ``scheduled.status``: one change at a time, in the
        order the tournament made them."""
        async with self._changing.setdefault(scheduled.tournament, asyncio.Lock()):
            await self._show(channel, scheduled, language)
        if scheduled.status in ("completed", "canceled"):
            self._changing.pop(scheduled.tournament, None)
            self._listed.pop(scheduled.tournament, None)

    async def _show(self, channel: str, scheduled: Scheduled, language: str) -> None:
        found = self.client.get_channel(int(channel))
        guild = getattr(found, "guild", None)
        if guild is None:
            return
        try:
            if scheduled.status == "scheduled":
                self._listed[scheduled.tournament] = await self._list(guild, channel, getattr(found, "name", channel),
                                                                      scheduled, language)
                return
            event = self._event(guild, scheduled)
            if event is None or scheduled.status not in STATUSES:
                return
            way = STATUSES[scheduled.status]
            if event.status is discord.EventStatus.active and way == "cancel":
                way = "end"  # (Discord cancels only an event not started, and ends one started)
            elif way == "end" and event.status is discord.EventStatus.scheduled:
                event = self._listed[scheduled.tournament] = await event.start()  # (Discord ends only one started)
            elif event.status is not discord.EventStatus.scheduled and way != "end":
                return  # (an event started or over is not started or cancelled again)
            if event.status in (discord.EventStatus.completed, discord.EventStatus.cancelled):
                return
            self._listed[scheduled.tournament] = await getattr(event, way)()
        except NOT_DONE as error:
            log.info("tournament %d: the server's event is not %s (%s: %s)", scheduled.tournament, scheduled.status,
                     error.__class__.__name__, error)

    async def _list(self, guild: discord.Guild, channel: str, name: str, scheduled: Scheduled,
                    language: str) -> discord.ScheduledEvent:
        start = datetime.datetime.fromtimestamp(max(scheduled.starts, time.time() + 60), datetime.timezone.utc)
        end = datetime.datetime.fromtimestamp(scheduled.ends, datetime.timezone.utc)
        return await guild.create_scheduled_event(
            name=render(scheduled.title, language)[:100], start_time=start, end_time=max(end, start),
            entity_type=discord.EntityType.external, privacy_level=discord.PrivacyLevel.guild_only,
            location=f"#{name}"[:100],
            description=render(tr("Played in this server's channel <#{channel}>: `tournament join` there to play.",
                                  channel=channel), language))

    def _event(self, guild: discord.Guild, scheduled: Scheduled) -> discord.ScheduledEvent | None:
        """The tournament's event: as this process last changed it, else the server's named "... #N: ..." (after a
        restart)."""
        listed = self._listed.get(scheduled.tournament)
        if listed is not None:
            return listed
        mark = re.compile(rf"#{scheduled.tournament}(?!\d)")  # (the title's number, in every language)
        me = self.client.user.id if self.client.user is not None else None
        return next((e for e in guild.scheduled_events if mark.search(e.name) and e.creator_id == me), None)
