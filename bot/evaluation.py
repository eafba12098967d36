"""An engine's evaluation of a position as every front end shows it: for White, as lidraughts gives every
evaluation (above zero, White is better), whichever side the search was made for.

A search scores a position for the side it searched for; ``Evaluation.of`` turns that into White's view once, where
the score is made, so the chat, the analysis and the web page cannot disagree on the sign.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.words import colour_name
from bot.translation import SIGNED, TWO_PLACES, Text, number, tr
from engine import Color
from engine.search import ENDING_BOUND, WIN_BOUND


@dataclass(frozen=True)
class Evaluation:
    """A position's evaluation, for White."""

    white: int
    """Hundredths of a man for White (below zero, Black is better); past ``ENDING_BOUND`` an ending the databases
    or the evaluation call won, past ``WIN_BOUND`` a win the search saw to its end."""

    @classmethod
    def of(cls, score: int, side: Color) -> Evaluation:
        """A search's ``score`` for ``side`` (the side it was made for)."""
        return cls(score if side is Color.WHITE else -score)

    def for_side(self, side: Color) -> int:
        """The score for ``side``: White's, or Black's (the same, turned)."""
        return self.white if side is Color.WHITE else -self.white

    @property
    def winner(self) -> Color | None:
        """The side it calls won (a won ending or a forced win), or None for a score in men."""
        if abs(self.white) <= ENDING_BOUND:
            return None
        return Color.WHITE if self.white > 0 else Color.BLACK

    @property
    def forced(self) -> bool:
        """Whether it is a win seen to its end (not an ending called won)."""
        return abs(self.white) > WIN_BOUND

    def words(self) -> Text:
        """As the chat says it, in brackets after a move: "evaluation +0.35 for White", "evaluation: a forced win
        for Black"."""
        winner = self.winner
        if winner is None:
            return tr("evaluation {score} for White", score=self.score())
        if self.forced:
            return tr("evaluation: a forced win for {colour}", colour=colour_name(winner))
        return tr("evaluation: a won ending for {colour}", colour=colour_name(winner))

    def score(self) -> str:
        """The score alone, in men for White ("+0.35", "0.00"), or the side it calls won ("a win for White")."""
        winner = self.winner
        if winner is not None:
            return tr("a win for {colour}", colour=colour_name(winner))
        return number(self.white / 100, SIGNED if self.white else TWO_PLACES)

    def page(self) -> dict:
        """As the web page shows it (in its own words and numbers): ``{"score": men}``, or ``{"winner": "White" or
        "Black", "forced": bool}``."""
        winner = self.winner
        if winner is None:
            return {"score": self.white / 100}
        return {"winner": str(winner), "forced": self.forced}
