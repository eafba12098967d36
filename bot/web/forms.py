"""The front page's forms, read: a form is a JSON object, and each field is checked here for what it must be
before it becomes the chat command the core reads (``new ...`` or ``watch ...``). Anything else is a ``FormError``
whose words are for the person who sent it; the core then checks the ranges that depend on its settings."""

from __future__ import annotations

import math
import re
from typing import TypeGuard

from bot.clocks import UNTIMED, WEB_CONTROLS
from bot.translation import tr
from engine import NAMES

LEVELS = range(1, 7)
COLOURS = ("white", "black", "random")
LARGEST = 3600.0  # seconds: far above any setting the core takes, and short to write as a plain decimal
NAME = re.compile(r"[\w .'-]{1,24}")
BAD_LEVEL = tr("The level is a whole number from 1 (beginner) to 6 (master).")
BAD_LEVELS = tr("The levels of a bot match are whole numbers from 1 (beginner) to 6 (master).")
BAD_TIME = tr("The bot's seconds a move are a number, such as 1 or 0.5.")
BAD_DELAY = tr("The seconds between moves are a number, such as 1 or 0.5.")
UNREADABLE = tr("That form could not be read. Please start games with the forms on the front page.")


class FormError(ValueError):
    """A form the server cannot use; the message says what is wrong, for a person."""


def command(form: object) -> str:
    """The chat command the form asks for: a game against the bot (``kind`` 'bot', the default) or a bot
    match ('match')."""
    if not isinstance(form, dict):
        raise FormError(UNREADABLE)
    variant = form.get("variant")
    if variant not in NAMES:
        raise FormError(tr("There is no game of that name here. The games are {games}.", games=", ".join(NAMES)))
    kind = form.get("kind", "bot")
    if kind == "match":
        levels = form.get("levels", [3, 3])
        if not isinstance(levels, list) or len(levels) != 2:
            raise FormError(tr("A bot match needs two levels."))
        words = " ".join(f"level {_level(x, BAD_LEVELS)}" for x in levels)
        return f"watch {variant} {words} {_control(form)} delay {_seconds(form.get('delay', 1), BAD_DELAY)}"
    if kind != "bot":
        raise FormError(UNREADABLE)
    colour = form.get("colour", "white")
    if colour not in COLOURS:
        raise FormError(tr("The colour is white, black or random."))
    control = _control(form)
    time = f"time {_seconds(form.get('time', 1), BAD_TIME)}" if control == str(UNTIMED) else ""
    return f"new {variant} level {_level(form.get('level', 3), BAD_LEVEL)} {colour} {control} {time}".rstrip()


def _control(form: dict) -> str:
    """The form's clock as the chat writes it: untimed, or one of the page's presets."""
    control = form.get("control", str(UNTIMED))
    if control not in {str(c) for c in (UNTIMED, *WEB_CONTROLS)}:
        raise FormError(tr("The clock is one of the form's: untimed, or minutes plus seconds a move such as 3+2."))
    return str(control)


def name(form: dict) -> str:
    """The player's name on the page (Guest when none is given)."""
    text = form.get("name") or "Guest"
    if not isinstance(text, str) or not NAME.fullmatch(text.strip()):
        raise FormError(tr("A name is 1 to 24 letters, digits, spaces, dots or dashes."))
    return text.strip()


def _level(value: object, refusal: str) -> int:
    if not _number(value) or value not in LEVELS:  # 3.0 is 3; 2.5 and 7 are no level
        raise FormError(refusal)
    return int(value)


def _seconds(value: object, refusal: str) -> str:
    """A number of seconds as the chat writes it (``0.5``, ``2``)."""
    if not _number(value) or not 0 <= value <= LARGEST:
        raise FormError(refusal)
    return f"{value:.3f}".rstrip("0").rstrip(".")


def _number(value: object) -> TypeGuard[float]:
    """A finite number (JSON's true and false are no numbers, and Python's json reads Infinity and NaN)."""
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        return False
    try:
        return math.isfinite(value)
    except OverflowError:  # a whole number too large for a float (JSON's numbers have no limit)
        return False
