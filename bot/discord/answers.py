"""Answering an interaction: Discord wants an answer within 3 seconds, and only one first answer."""

from __future__ import annotations

import asyncio

import discord


class Answerer:
    """Answers one interaction: the first reply is its response (or fills in the deferral), later ones follow up."""

    def __init__(self, interaction: discord.Interaction, private: bool):
        self.interaction = interaction
        self.private = private
        """Whether a deferral shows privately (the command's answers are private)."""
        self.lock = asyncio.Lock()
        self.deferred = False
        self.answered = False

    async def defer(self) -> None:
        async with self.lock:
            if not self.interaction.response.is_done():
                await self.interaction.response.defer(ephemeral=self.private, thinking=True)
                self.deferred = True

    async def send(self, private: bool, **kw) -> discord.Message | None:
        async with self.lock:
            response, first = self.interaction.response, not self.answered
            self.answered = True
            if not response.is_done():
                sent = await response.send_message(ephemeral=private, **kw)
                return sent.resource if isinstance(sent.resource, discord.Message) else None
            if first and self.deferred:
                if private == self.private:
                    files = kw.pop("files", [])
                    return await self.interaction.edit_original_response(attachments=files, **kw)
                await self.interaction.delete_original_response()  # a public "thinking..." for a private answer
            return await self.interaction.followup.send(ephemeral=private, wait=True, **kw)
