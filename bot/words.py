"""The bot's words for the engine's values, in the reader's language: a colour, a level, a game's name and title,
the engine's own words (why a move is refused, why a game ended, whose turn it is) and the analysis's judgements."""

from __future__ import annotations

from typing import Any

from bot.translation import Text, plural, tr
from bot.user_text import inert
from engine import Color, GameType, Result, Words, game_type


def colour_name(colour: Color) -> Text:
    """"White" or "Black", in the reader's language."""
    return tr("White") if colour is Color.WHITE else tr("Black")


LEVEL_NAMES = {1: tr("beginner"), 2: tr("novice"), 3: tr("casual"), 4: tr("club"), 5: tr("strong"), 6: tr("master")}
"""The bot's levels' names (``engine.search.levels``), in the reader's language."""

def position_status(kind: GameType[Any, Any], position: Any) -> Text:
    """The words under a board: whose turn it is, or why nobody moves, in the reader's language."""
    return engine_words(kind.status_words(position))


def engine_words(said: Words) -> Text:
    """The engine's words (why a move is refused, why a game ended, whose turn it is) to be shown in the reader's
    language: their template read from the catalogs (pybabel finds the engine's by ``phrase`` and ``counted``),
    their values as the bot shows them: squares, moves and numbers as they are, a colour by its name, a game's
    result in words, and what a person typed made inert."""
    values = {name: _engine_value(name, value) for name, value in said.values.items()}
    if said.plural is not None:
        count = values.pop("count")
        assert isinstance(count, int), "words that count have a whole number"
        return plural(said.template, said.plural, count, **values)
    return tr(said.template, **values)


def _engine_value(name: str, value: object) -> object:
    if isinstance(value, Words):
        return engine_words(value)
    if isinstance(value, Color):
        return colour_name(value)
    if isinstance(value, Result):
        reason = engine_words(value.words)
        if value.winner is None:
            return tr("Draw: {reason}", reason=reason)
        return tr("{colour} wins: {reason}", colour=colour_name(value.winner), reason=reason)
    if name == "text":  # what the person typed, repeated
        return inert(str(value))
    return value


JUDGEMENTS = {"inaccuracy": tr("inaccuracy"), "mistake": tr("mistake"), "blunder": tr("blunder")}
"""The analysis's judgements of a move, in the reader's language."""

GAME_NAMES = {"english": tr("English"), "international": tr("International"), "russian": tr("Russian"),
              "brazilian": tr("Brazilian"), "tablut": tr("Tablut")}
"""The games' names as a title starts with them, in the reader's language."""


def game_name(name: str) -> str:
    return GAME_NAMES.get(name, name.capitalize())


GAME_TITLES = {"english": tr("English draughts / checkers (8x8)"), "international": tr("International (10x10)"),
               "brazilian": tr("Brazilian (8x8)"), "russian": tr("Russian (8x8)"),
               "tablut": tr("Tablut (9x9, Ashton rules)")}
"""The games' titles (``GameType.title``), in the reader's language."""


def game_title(name: str) -> str:
    return GAME_TITLES.get(name) or game_type(name).title
