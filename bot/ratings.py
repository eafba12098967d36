"""Glicko-2 ratings (Glickman, "Example of the Glicko-2 system", 2013).

Each finished rated game is a rating period of its own, as on most online
game servers, so ratings move after every game. The bot's levels have fixed
ratings, per game, measured by their ladder of matches (``bench/ladder.py``
writes ``level_ratings.json``: level 1, random moves, anchored at 600, each
level above rated by its measured Elo over the one below); a person playing
the bot rated is rated against them.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path

SCALE = 173.7178  # Glicko-2's conversion between rating points and its internal scale
TAU = 0.5  # how much the volatility may change; Glickman suggests 0.3 to 1.2
EPSILON = 1e-6  # convergence of the volatility iteration


@dataclass(frozen=True)
class Rating:
    """A player's rating: the estimate, its deviation and its volatility."""

    rating: float = 1500.0
    rd: float = 350.0
    volatility: float = 0.06

    def __str__(self) -> str:
        return f"{self.rating:.0f} ± {2 * self.rd:.0f}"


# A game without a measured ladder (Tablut) rates its levels by these guesses.
NOMINAL = {1: 600, 2: 900, 3: 1150, 4: 1400, 5: 1700, 6: 2000}
LEVEL_RD = 50  # a level's rating deviation: how far it is trusted


def level_rating(game: str, level: int) -> Rating:
    """What level ``level`` of the bot is worth in ``game``."""
    return Rating(float(_ladder().get(game, {}).get(str(level), NOMINAL[level])), LEVEL_RD)


@cache
def _ladder() -> dict[str, dict[str, int]]:
    table = json.loads(Path(__file__).with_name("level_ratings.json").read_text())
    return {name: ratings for name, ratings in table.items() if not name.startswith("_")}


def _g(phi: float) -> float:
    return 1 / math.sqrt(1 + 3 * phi * phi / math.pi ** 2)


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1 / (1 + math.exp(-_g(phi_j) * (mu - mu_j)))


def update(player: Rating, games: list[tuple[Rating, float]]) -> Rating:
    """The player's rating after a period with ``games``: (opponent, score 1, 0.5 or 0) pairs."""
    mu, phi, sigma = (player.rating - 1500) / SCALE, player.rd / SCALE, player.volatility
    if not games:
        return Rating(player.rating, min(350.0, math.sqrt(phi * phi + sigma * sigma) * SCALE), sigma)
    terms = []
    for opponent, score in games:
        mu_j, phi_j = (opponent.rating - 1500) / SCALE, opponent.rd / SCALE
        terms.append((_g(phi_j), _expected(mu, mu_j, phi_j), score))
    v = 1 / sum(g * g * e * (1 - e) for g, e, _ in terms)
    delta = v * sum(g * (s - e) for g, e, s in terms)
    sigma = _new_volatility(phi, sigma, v, delta)
    phi_star = math.sqrt(phi * phi + sigma * sigma)
    phi = 1 / math.sqrt(1 / (phi_star * phi_star) + 1 / v)
    mu = mu + phi * phi * sum(g * (s - e) for g, e, s in terms)
    return Rating(mu * SCALE + 1500, phi * SCALE, sigma)


@dataclass(frozen=True)
class Side:
    """One side of a rated game: a person (their id and name), or a bot level (``fixed``, its rating)."""

    user: str | None = None
    name: str = ""
    fixed: Rating | None = None


@dataclass(frozen=True)
class RatedGame:
    """A rated game as it ends: its two sides, and the first one's score (1, 0.5 or 0)."""

    sides: tuple[Side, Side]
    score: float
    speed: str = "correspondence"
    """The speed it was played at (``bot.clocks.Speed``'s value): ratings are kept per speed."""

    def people(self) -> list[str]:
        """The ids of the people who played it, sorted (the order their ratings are locked in)."""
        return sorted({side.user for side in self.sides if side.user is not None})

    def changes(self, now: Mapping[str, Rating]) -> list[Change]:
        """Each person's new rating, from their ratings ``now`` (by id; a new player's when missing), in the
        sides' order."""
        before = [side.fixed if side.fixed is not None else now.get(side.user or "", Rating()) for side in self.sides]
        scores = (self.score, 1 - self.score)
        return [Change(side.user, side.name, before[i], update(before[i], [(before[1 - i], scores[i])]))
                for i, side in enumerate(self.sides) if side.user is not None]


@dataclass(frozen=True)
class RatedPuzzle:
    """A puzzle's rated end: the people it counts for (id and name each, in order), whether they solved it, and
    the puzzle's strength to start from when nobody has tried it yet."""

    people: tuple[tuple[str, str], ...]
    solved: bool
    first_strength: Rating

    def users(self) -> list[str]:
        """The people's ids, sorted (the order their ratings are locked in)."""
        return sorted({user for user, _ in self.people})

    def changes(self, now: Mapping[str, Rating], strength: Rating | None) -> tuple[list[Change], Rating]:
        """Each person's new puzzle rating and the puzzle's new strength, from the people's ratings ``now`` (by id;
        a new player's when missing) and the puzzle's ``strength`` (None: never tried)."""
        strength = strength or self.first_strength
        score = 1.0 if self.solved else 0.0
        before = [(user, name, now.get(user, Rating())) for user, name in self.people]
        changes = [Change(user, name, old, update(old, [(strength, score)])) for user, name, old in before]
        return changes, update(strength, [(change.before, 1 - score) for change in changes])


@dataclass(frozen=True)
class Change:
    """A person's rating before and after a game."""

    user: str
    name: str
    before: Rating
    after: Rating


def _new_volatility(phi: float, sigma: float, v: float, delta: float) -> float:
    """Step 5 of Glickman's procedure: the Illinois algorithm on f(x) = 0."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta ** 2 - phi ** 2 - v - ex) / (2 * (phi ** 2 + v + ex) ** 2) - (x - a) / TAU ** 2

    big_a = a
    if delta ** 2 > phi ** 2 + v:
        big_b = math.log(delta ** 2 - phi ** 2 - v)
    else:
        k = 1
        while f(a - k * TAU) < 0:
            k += 1
        big_b = a - k * TAU
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2)
