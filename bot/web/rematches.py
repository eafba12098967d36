"""A rematch from a finished game's page: a game against the bot played again on the page, colours swapped, at
the same level, with the same clock and rating, for the player whose seat link the page has."""

from __future__ import annotations

from bot.clocks import TimeControl
from bot.store import StoredGame
from bot.tables import Kind, stored_seats
from engine import Color


def rematch_command(stored: StoredGame, colour: Color) -> str | None:
    """The chat command that starts game ``stored`` again with its person, who played ``colour``, on the other
    side; None if it was not a game against the bot (people play theirs again in their chat: `rematch`)."""
    if stored.kind != Kind.BOT.value:
        return None
    settings = stored.settings
    level = stored_seats(stored.seats)[colour.opponent].level
    control = TimeControl.from_json(settings.get("control"))
    time = "" if control.timed else f" time {settings['budget']:g}"
    rated = "rated" if settings.get("rated") else "casual"
    return f"new {stored.variant} level {level} {colour.opponent.name.lower()} {control}{time} {rated}"
