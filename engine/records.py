"""A game's record as text, laid out as PDN lays it out (tags, numbered moves, the result), for every game."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from engine.game import GameRecord


def move_label(game: GameRecord[Any, Any], ply: int) -> str:
    """The number before the move of ``ply`` (0-based): '12.' for the first player's move, '12...' for the other's."""
    first = game.type.first
    offset = 0 if game.start.turn == first else 1
    number = (ply + offset) // 2 + 1
    return f"{number}." if game.positions[ply].turn == first else f"{number}..."


def movetext(game: GameRecord[Any, Any], write: Callable[[int], str]) -> list[str]:
    """The words of a game's moves: numbers ('12.', and '12...' when a game starts with the second player)
    and each move as ``write(ply)`` gives it."""
    words = []
    for ply in range(len(game.moves)):
        label = move_label(game, ply)
        if ply == 0 or not label.endswith("..."):
            words.append(label)
        words.append(write(ply))
    return words


# A tag pair, [Name "value"], on a line of its own; inside the value a backslash escapes the next character.
_TAG = re.compile(r'\[(\w+)\s+"((?:[^"\\]|\\.)*)"\]')
# What a tag value may not hold (PDN follows PGN: strings are printing characters, no newline or tab).
_NOT_IN_VALUE = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def tag_line(name: str, value: str) -> str:
    """A tag pair as PDN writes it (PDN follows PGN: in a value, ``\\`` is written ``\\\\`` and ``"`` is written
    ``\\"``, so no value ends its tag or starts another); control characters and line breaks, which a value
    may not hold, are written as spaces."""
    value = _NOT_IN_VALUE.sub(" ", value).replace("\\", "\\\\").replace('"', '\\"')
    return f'[{name} "{value}"]'


def read_tags(text: str) -> dict[str, str]:
    """The tags of the PDN record ``text`` starts with (the tag lines before its moves), their values unescaped;
    a name given twice keeps its first value."""
    tags: dict[str, str] = {}
    for line in text.lstrip().splitlines():
        found = _TAG.fullmatch(line.strip())
        if found is None:
            break
        tags.setdefault(found[1], re.sub(r"\\(.)", r"\1", found[2]))
    return tags


def tagged(tags: dict[str, str], words: list[str]) -> str:
    """A record: the tags, a blank line, the words and the result (``tags['Result']``) in lines of 79."""
    words = words + [tags["Result"]]
    body, line = [], ""
    for word in words:
        if line and len(line) + 1 + len(word) > 79:
            body.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    body.append(line)
    return "\n".join(tag_line(name, value) for name, value in tags.items()) + "\n\n" + "\n".join(body) + "\n"


def game_record(game: GameRecord[Any, Any], tags: dict[str, str], write: Callable[[int], str]) -> str:
    """The game with its tags and its result (the rules' result unless the tags give one: a resignation, say)."""
    all_tags = dict(tags)
    if "Result" not in all_tags:
        result = game.result()
        all_tags["Result"] = "*" if result is None else game.type.score_text(result.winner)
    return tagged(all_tags, movetext(game, write))
