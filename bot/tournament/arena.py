"""An arena, scored and paired as lidraughts (and lichess, whose code it shares) does.

Scoring: a win is 2 points, a draw 1, a loss 0. After two wins in a row a player is on fire: each game then
counts double (a win 4, a draw 2) until one is not won. A draw before the 20th ply counts 0 and ends a streak.
Berserk (half one's own clock, and no increment) adds a point to a win of at least 14 plies.

Pairing: players free to play are paired in waves, neighbours in the standings against each other, never
against the opponent of their last game while anyone else is free. Up to ``SMALL`` free players, the pairs come
from a maximum-weight matching (networkx) that keeps rank gaps small; above it, from neighbours down the
standings (lichess pairs its large arenas so too: a matching over hundreds would hold up the wave)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import networkx as nx

WIN, DRAW = 2, 1
QUICK_DRAW_PLIES = 20  # a draw shorter than this counts nothing
BERSERK_PLIES = 14  # a berserk win at least this long counts one more point
SMALL = 100  # free players paired by a matching; more are paired down the standings


@dataclass(frozen=True)
class Result:
    """One finished arena game as one player's sheet reads it."""

    points: float  # 1 a win, 0.5 a draw, 0 a loss (as the game ended, before arena scoring)
    plies: int
    berserk: bool = False


@dataclass(frozen=True)
class Sheet:
    """A player's arena score: each game's points in order, whether it counted double, whether it was won."""

    scores: tuple[int, ...] = ()
    fire: tuple[bool, ...] = ()
    won: tuple[bool, ...] = ()

    @property
    def total(self) -> int:
        return sum(self.scores)

    @property
    def on_fire(self) -> bool:
        """Whether the next game counts double: the last two were won."""
        return len(self.won) >= 2 and all(self.won[-2:])

    def then(self, result: Result) -> Sheet:
        """This sheet with one more game."""
        doubled = self.on_fire
        if result.points == 1:
            score = WIN * (2 if doubled else 1) + (1 if result.berserk and result.plies >= BERSERK_PLIES else 0)
        elif result.points == 0.5 and result.plies >= QUICK_DRAW_PLIES:
            score = DRAW * (2 if doubled else 1)
        else:
            score, doubled = 0, False
        return Sheet((*self.scores, score), (*self.fire, doubled), (*self.won, result.points == 1))


def sheet(results: Sequence[Result]) -> Sheet:
    """A player's sheet from their finished games in the order they ended."""
    found = Sheet()
    for result in results:
        found = found.then(result)
    return found


def pair(free: Sequence[str], last_opponent: dict[str, str], balance: dict[str, int]) -> list[tuple[str, str]]:
    """Pairs of the free players (in standings order, the leader first), each (white, black): neighbours in the
    standings, never the opponent of one's last game if another pair can be made; White to the one who has had it
    less (``balance``: games with White less games with Black), the lower placed on a tie. One left over waits
    for the next wave."""
    pairs = _pairs(free, last_opponent)
    return [(a, b) if balance.get(a, 0) < balance.get(b, 0) else (b, a) for a, b in pairs]


def _pairs(free: Sequence[str], last_opponent: dict[str, str]) -> list[tuple[str, str]]:
    if len(free) < 2:
        return []
    if len(free) > SMALL:
        return _down_the_standings(list(free), last_opponent)
    graph: nx.Graph[str] = nx.Graph()
    for i, a in enumerate(free):
        for j in range(i + 1, len(free)):
            b = free[j]
            again = last_opponent.get(a) == b or last_opponent.get(b) == a
            graph.add_edge(a, b, weight=10 ** 9 - (j - i) ** 2 - (10 ** 7 if again else 0))
    place = {p: i for i, p in enumerate(free)}
    pairs = [(a, b) if place[a] < place[b] else (b, a) for a, b in nx.max_weight_matching(graph, maxcardinality=True)]
    return sorted(pairs, key=lambda pr: place[pr[0]])


def _down_the_standings(free: list[str], last_opponent: dict[str, str]) -> list[tuple[str, str]]:
    """Neighbours paired down the standings, a player swapped with the next one down when they met last."""
    def again(a: str, b: str) -> bool:
        return last_opponent.get(a) == b or last_opponent.get(b) == a

    pairs = []
    while len(free) >= 2:
        a = free.pop(0)
        pairs.append((a, free.pop(next((k for k, b in enumerate(free) if not again(a, b)), 0))))
    if pairs and again(*pairs[-1]):  # the last two had no choice: one of them changes places with a pair above
        a, b = pairs[-1]
        for k in range(len(pairs) - 2, max(-1, len(pairs) - 6), -1):
            c, d = pairs[k]
            if not again(c, a) and not again(d, b):
                pairs[k], pairs[-1] = (c, a), (d, b)
                break
    return pairs
