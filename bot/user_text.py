"""Text people typed (words, names), made safe to repeat in a reply: the one cleaner every echo goes through.

A reply is read as Discord markdown (the bot's own words use `code` for
commands), so what a person typed must neither ping, nor look like a
mention, nor change the reply's formatting: ``help @everyone`` or
``help ```py`` are answered with those words shown as typed and inert.
"""

from __future__ import annotations

import re

# Control, invisible and direction characters (and lone surrogates, which no output can encode).
_UNSAFE = re.compile(r"[\x00-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff\ud800-\udfff]")
# Discord markdown that works inside a line: bold, italics, underline, strike, code, spoilers, masked links,
# quotes and headings; a backslash shows the character as it is.
_MARKDOWN = re.compile(r"([\\`*_~|\[\]>#])")
_BULLET = re.compile(r"^(\s*)-(\s)")  # "- x" at the start would be a list
_NUMBERED = re.compile(r"^(\s*\d+)\.(\s)")  # and so would "1. x"
JOINER = "\u2060"  # a word joiner: invisible, and it keeps Discord from reading @everyone or <@123> as a mention


def neutral(text: str, limit: int = 120) -> str:
    """``text`` safe to repeat: no control or direction characters, no mentions (``@`` and ``<`` defused with an
    invisible joiner), markdown shown as typed, cut to ``limit`` characters."""
    text = _UNSAFE.sub("", text)
    if len(text) > limit:
        text = text[:limit - 1] + "…"
    text = _MARKDOWN.sub(r"\\\1", text)
    text = _NUMBERED.sub(r"\1\\.\2", _BULLET.sub(r"\1\\-\2", text))
    return text.replace("@", "@" + JOINER).replace("<", "<" + JOINER)


def quoted(text: str, limit: int = 30) -> str:
    """``text`` cleaned by ``neutral`` and in quotes, for 'I don't understand ...' answers."""
    return f"'{neutral(text.strip(), limit)}'"
