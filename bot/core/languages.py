"""The `language` command: the language the bot speaks to a server's channels, as its administrators choose it
(by default, the chat service's own setting for the server). What the bot says to one person follows that
person's language where the chat service tells it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from bot.core.state import Answers, Keeps, Refusal
from bot.replies import Message
from bot.translation import LANGUAGES, tr

DEFAULT = "default"
CODES = ", ".join(LANGUAGES)


class Needs(Answers, Keeps, Protocol):
    """What the `language` command uses of the core's state."""

    languages: dict[str, str]


async def command(s: Needs, msg: Message, words: list[str]) -> None:
    """`language` (which one, and the choices), `language CODE`, `language default`."""
    if not words:
        chosen = s.languages.get(msg.guild)
        said = (tr("This server's language: {language}.", language=LANGUAGES[chosen]) if chosen else
                tr("This server's language follows its Discord setting."))
        await s.say(msg.channel, said, to=msg)
        await s.private(msg, tr("Administrators (Manage Server) choose one with `language CODE` ({codes}), or "
                                "`language default`.", codes=CODES))
        return
    if not msg.manager:
        raise Refusal(tr("Only the server's administrators (Manage Server) choose its language."))
    word = words[0].replace("-", "_")
    if word.lower() == DEFAULT:
        await s.store.set_language(msg.guild, None)
        s.languages.pop(msg.guild, None)
        await s.say(msg.channel, tr("This server's language follows its Discord setting again."), to=msg)
        return
    code = next((known for known in LANGUAGES if known.lower() == word.lower()), None)
    if code is None or len(words) > 1:
        raise Refusal(tr("I speak {codes}; `language default` follows the server's Discord setting.", codes=CODES))
    await s.store.set_language(msg.guild, code)
    s.languages[msg.guild] = code
    await s.say(msg.channel, tr("This server's language is now {language}.", language=LANGUAGES[code]), to=msg)


async def load(s: Needs, owns: Callable[[str], bool]) -> None:
    """The languages chosen on the servers this process serves."""
    s.languages = {guild: code for guild, code in (await s.store.languages()).items()
                   if owns(guild) and code in LANGUAGES}
