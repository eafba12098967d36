"""The errors the engine raises for bad input. Every message can be shown to a player as it is.

A move's refusal is also kept as ``Words``: its English template and the values that fill it, so that a front end
that speaks other languages shows it in a player's (the bot reads the templates from its catalogs, where pybabel
finds them by the ``phrase`` marker: README, "Languages"). The engine itself imports nothing of the bot.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Words:
    """Words for a player, in English: ``template`` with ``{name}`` placeholders, and the values that fill them
    (squares, moves and numbers, which read the same in every language; a colour, a game's result, or other
    ``Words``, which a front end shows in its reader's language). ``str()`` is the English."""

    template: str
    values: Mapping[str, object] = field(default_factory=dict)
    plural: str | None = None
    """The template for a ``count`` other than 1 (the value ``count``), when the words count something."""

    def __str__(self) -> str:
        template = self.plural if self.plural is not None and self.values.get("count") != 1 else self.template
        return template.format(**{name: str(value) for name, value in self.values.items()})


def phrase(template: str, **values: object) -> Words:
    """``template`` filled with ``values`` (the marker pybabel extracts the engine's templates by)."""
    return Words(template, values)


def counted(singular: str, plural: str, count: int, **values: object) -> Words:
    """Words that count: ``singular`` for a ``count`` of 1, else ``plural`` (each language has its own plural forms:
    pybabel extracts both by this marker)."""
    return Words(singular, {"count": count, **values}, plural)


def said(message: str | Words) -> Words:
    """A message as ``Words``: plain English is a template with nothing to fill."""
    return message if isinstance(message, Words) else Words(message.replace("{", "{{").replace("}", "}}"))


class FenError(ValueError):
    """A position string that cannot be read or describes an impossible position."""

    def __init__(self, message: str, fen: str):
        super().__init__(message)
        self.fen = fen


class MoveError(ValueError):
    """Base of the errors for a move typed by a player.

    ``text`` is what was typed, ``fen`` the position it was typed in, and
    ``legal`` the legal moves there, written as a player would type them;
    ``words`` is why, as ``Words`` (its English is the message).
    """

    def __init__(self, message: str | Words, text: str, fen: str = "", legal: tuple[str, ...] = ()):
        self.words = said(message)
        super().__init__(str(self.words))
        self.text = text
        self.fen = fen
        self.legal = legal


class InvalidMoveError(MoveError):
    """The text names no move: nothing that reads as squares, or a square that does not exist."""


class IllegalMoveError(MoveError):
    """The text reads as a move, but the rules forbid it; the message says why."""


class AmbiguousMoveError(MoveError):
    """The text fits several legal moves; ``candidates`` lists them in full."""

    def __init__(self, message: str | Words, text: str, fen: str, legal: tuple[str, ...],
                 candidates: tuple[str, ...]):
        super().__init__(message, text, fen, legal)
        self.candidates = candidates
