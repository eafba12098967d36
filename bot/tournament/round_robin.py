"""A round robin for a small group: everyone meets everyone once, in the rounds of FIDE's Berger tables (the
circle method: the last player stays put, the others turn one place a round), with a bye a round for an odd
count. Colours follow the tables: the last player alternates, and in every other pair the player first in the
circle's order has White, so nobody's colours differ by more than one."""

from __future__ import annotations

from collections.abc import Sequence


def schedule(players: Sequence[str]) -> list[list[tuple[str, str | None]]]:
    """Every round's pairings, each (white, black); a bye as (player, None)."""
    seats: list[str | None] = [*players, None] if len(players) % 2 else list(players)
    n = len(seats)
    if n < 2:
        return []
    rounds = []
    circle = seats[:-1]
    last = seats[-1]
    for r in range(n - 1):
        turned = circle[r * (n // 2) % (n - 1):] + circle[:r * (n // 2) % (n - 1)]
        pairs = [(last, turned[0]) if r % 2 else (turned[0], last)]
        pairs += [(turned[i], turned[n - 1 - i]) for i in range(1, n // 2)]
        rounds.append([_bye_last(w, b) for w, b in pairs if w is not None or b is not None])
    return rounds


def _bye_last(white: str | None, black: str | None) -> tuple[str, str | None]:
    """A pair with the odd count's empty seat as a bye: (player, None)."""
    if white is None:
        assert black is not None
        return black, None
    return white, black
