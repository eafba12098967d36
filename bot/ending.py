"""How a game ended, kept as data (a winner and a ``Termination``, as python-chess's ``Outcome`` and lila's stored
``Status``) and turned into words only where a person reads them, in their language.

The database keeps the winner and the termination; the words (who resigned, which rule ended the game) are made
again from them, the players' names and the game's record, so a game reads the same whether its end was just
played or read back from the database, and nothing is learnt again from a sentence or a PDN.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.words import colour_name, engine_words
from bot.translation import Text, plural, tr
from engine import Color, GameRecord, Termination

NO_RESULT = frozenset({Termination.NEVER_MOVED, Termination.STOPPED})
"""The ends that leave a game without a result: aborted (a player never moved), a bot match stopped."""


@dataclass(frozen=True)
class Ending:
    """How a game ended."""

    winner: Color | None
    """The side that won; None for a draw, and for a game that ended without a result."""
    termination: Termination

    @property
    def counts(self) -> bool:
        """Whether the game has a result (won, lost or drawn; rated if the game is): not aborted because a player
        never moved, nor a bot match stopped by its starter."""
        return self.termination not in NO_RESULT

    @property
    def drawn(self) -> bool:
        return self.winner is None and self.counts

    def reason(self, names: dict[Color, str], record: GameRecord[Any, Any]) -> Text:
        """Why, in words: the rules' own (from the finished ``record``), or who did what (by ``names``, the
        players' names by colour)."""
        t = self.termination
        if t.by_rules:
            result = record.result()
            if result is not None and result.termination is t:
                return engine_words(result.words)
            return RULES  # (a record that no longer ends so: its rules changed since)
        loser = names[self.winner.opponent] if self.winner is not None else ""
        if t is Termination.RESIGNED:
            return tr("{name} resigned", name=loser)
        if t is Termination.ABANDONED:
            return tr("{name} abandoned the game", name=loser)
        if t is Termination.TIME_OUT:
            return tr("{name} ran out of time", name=loser)
        if t is Termination.NEVER_MOVED:
            return tr("{name} never made a first move", name=names[record.turn])  # (the one left to move)
        if t is Termination.MOVE_LIMIT:
            return plural("{count} move each played", "{count} moves each played", len(record.moves) // 2)
        return tr("agreed") if t is Termination.AGREED else tr("stopped")

    def said(self, names: dict[Color, str], record: GameRecord[Any, Any]) -> Text:
        """As the chat says it: "ana (White) wins: ben resigned.", "Draw (agreed).", "Game aborted: ...". """
        reason = self.reason(names, record)
        if self.termination is Termination.NEVER_MOVED:
            return tr("Game aborted: {reason}. It does not count.", reason=reason)
        if self.termination is Termination.STOPPED:
            return tr("Bot match stopped.")
        if self.winner is None:
            return draw_words(reason)
        return tr("{name} ({colour}) wins: {reason}.", name=names[self.winner], colour=colour_name(self.winner),
                  reason=reason)

    def headline(self, names: dict[Color, str], record: GameRecord[Any, Any]) -> Text:
        """As a finished game's page says it beside the players' names: "White wins (ben resigned).", "Draw
        (agreed).", "Game over (... never made a first move)."."""
        reason = self.reason(names, record)
        if self.winner is not None:
            return tr("{colour} wins ({reason}).", colour=colour_name(self.winner), reason=reason)
        return draw_words(reason) if self.drawn else tr("Game over ({reason}).", reason=reason)

    def to_json(self) -> dict:
        return {"winner": str(self.winner) if self.winner is not None else None, "termination": self.termination.value}

    @classmethod
    def from_json(cls, data: dict) -> Ending:
        winner = data.get("winner")
        return cls(None if winner is None else Color[str(winner).upper()], Termination(data["termination"]))


RULES = tr("by the rules")
"""The reason of an end by the rules that the game's record no longer shows."""


def draw_words(reason: str) -> Text:
    """How a drawn game ends: "Draw (agreed)."."""
    return tr("Draw ({reason}).", reason=reason)
