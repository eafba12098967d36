"""Text people typed (words, names), made safe to repeat: ``neutral`` is the one cleaner every echo goes through.

``neutral`` takes out what must never come back (control and direction
characters, mentions) and is all a name gets: names are kept in the
database and the game records as plain text. A reply is read as Discord
markdown (the bot's own words use `code` for commands), so words a person
typed that a reply repeats are also made ``inert``: ``help @everyone`` or
``help ```py`` are answered with those words shown as typed. A front end that
shows plain text (the terminal) prints replies through ``plain``.
"""

from __future__ import annotations

import re
import unicodedata

# The Unicode categories taken out: controls (Cc), format characters (Cf: every invisible and direction mark, the
# Arabic letter mark and the bidi overrides and isolates among them), lone surrogates (Cs, which no output can
# encode), and line and paragraph separators (Zl, Zp).
_UNSAFE = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})
# Discord markdown that works inside a line: bold, italics, underline, strike, code, spoilers, masked links,
# quotes and headings; a backslash shows the character as it is.
_MARKDOWN = re.compile(r"([\\`*_~|\[\]>#])")
_BULLET = re.compile(r"^(\s*)-(\s)")  # "- x" at the start would be a list
_NUMBERED = re.compile(r"^(\s*\d+)\.(\s)")  # and so would "1. x"
_ESCAPED = re.compile(r"\\([\\`*_~|\[\]>#.-])")
NAME_LIMIT = 32  # characters of a person's name kept (Discord's display names have at most 32)
CHANNEL_NAME_LIMIT = 100  # characters of a channel's or thread's name (Discord allows 100)
JOINER = "\u2060"  # a word joiner: invisible, and it keeps Discord from reading @everyone or <@123> as a mention


def neutral(text: str, limit: int = 120) -> str:
    """``text`` safe to keep and repeat as plain text (a name, a record): no control or direction characters, no
    mentions (``@`` and ``<`` defused with an invisible joiner), cut to ``limit`` characters."""
    text = "".join(c for c in text if unicodedata.category(c) not in _UNSAFE)
    if len(text) > limit:
        text = text[:limit - 1] + "…"
    return text.replace("@", "@" + JOINER).replace("<", "<" + JOINER)


def name(text: str, limit: int = NAME_LIMIT) -> str:
    """A name a person chose (their own, a channel's), as the core keeps it: ``neutral``, and never empty."""
    return neutral(text, limit).strip() or "?"


def inert(text: str, limit: int = 120) -> str:
    """``text`` cleaned by ``neutral`` with its markdown shown as typed: for words a person typed that a reply
    repeats (replies are read as markdown)."""
    text = _MARKDOWN.sub(r"\\\1", neutral(text, limit))
    return _NUMBERED.sub(r"\1\\.\2", _BULLET.sub(r"\1\\-\2", text))


def quoted(text: str, limit: int = 30) -> str:
    """``text`` made ``inert`` and in quotes, for 'I don't understand ...' answers."""
    return f"'{inert(text.strip(), limit)}'"


def plain(reply: str) -> str:
    """A reply as a front end that shows plain text prints it: the escapes ``inert`` added taken out again."""
    return _ESCAPED.sub(r"\1", reply)
