"""Swiss pairings, as FIDE's Dutch system sets them, found as a maximum-weight matching (networkx's, Edmonds'
blossom algorithm: the method of the Dutch system's own endorsed programs) over the pairs the rules allow.

No two players meet twice: when no pairing of everyone can keep that, there is no next round (the event ends
early). Nobody plays the same colour three times in a row or has two more games with one colour than with the
other, unless no pairing of everyone can keep that (a late round of a small field; FIDE relaxes it too, for the
last round's leaders): then the pairing breaks it as little as it can. A bye goes to one player a round when the
count is odd, never twice to the same player while anyone is left who has not had one. Within those, the matching
prefers (in this order) players on the same score, each player's due colour, and the Dutch order inside a score
group (its top half against its bottom half). A bye goes to the lowest on score, and among them the lowest
ranked.

Standings order by score, then Buchholz (the opponents' scores), then Sonneborn-Berger (the beaten opponents'
scores and half the drawn ones'), then the seeding."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import networkx as nx

BYE_POINTS = 1.0  # a bye scores a win, as on lidraughts
_PAIR = 10 ** 15  # every pair made: the matching pairs everyone it can first
_SCORE = 10 ** 8  # a pair's score gap, squared in half points
_COLOUR = 10 ** 5  # both players due the same colour (times how strongly)
_RELAXED = 10 ** 11  # a pair allowed only when no pairing of everyone keeps the colour rules: colours broken
_BYE = "\0bye"  # the matching's stand-in for the bye (networkx's nodes cannot be None)


@dataclass(frozen=True)
class Game:
    """A pairing of a round and, once played, its result: white's points (1, 0.5 or 0; None while on). A bye has
    no ``black``; its player is ``white``."""

    round: int
    white: str
    black: str | None
    result: float | None = None

    def points(self, player: str) -> float:
        """``player``'s points from this game (0 while it is on)."""
        if self.black is None:
            return BYE_POINTS if player == self.white else 0.0
        if self.result is None:
            return 0.0
        return self.result if player == self.white else 1.0 - self.result if player == self.black else 0.0


@dataclass(frozen=True)
class Past:
    """A player's event so far, as pairings read it: score, opponents met, colours played in order ('W', 'B';
    byes left out), byes had."""

    score: float = 0.0
    opponents: frozenset[str] = frozenset()
    colours: str = ""
    byes: int = 0

    def preference(self) -> tuple[int, str | None]:
        """The colour this player is due and how strongly: 3 absolute (the rules demand it), 2 strong (one colour
        played more), 1 mild (alternating), 0 none (no game yet)."""
        if not self.colours:
            return 0, None
        difference = self.colours.count("W") - self.colours.count("B")
        if difference <= -2 or self.colours[-2:] == "BB":
            return 3, "W"
        if difference >= 2 or self.colours[-2:] == "WW":
            return 3, "B"
        if difference:
            return 2, "W" if difference < 0 else "B"
        return 1, "B" if self.colours[-1] == "W" else "W"


def pasts(players: Iterable[str], games: Iterable[Game]) -> dict[str, Past]:
    """Each player's past from the event's games (played or on), in round order."""
    score = {p: 0.0 for p in players}
    met: dict[str, set[str]] = {p: set() for p in score}
    colours = {p: "" for p in score}
    byes = {p: 0 for p in score}
    for game in sorted(games, key=lambda g: g.round):
        for player in (game.white, game.black):
            if player is not None and player not in score:
                score[player], met[player], colours[player], byes[player] = 0.0, set(), "", 0
        if game.black is None:
            byes[game.white] += 1
            score[game.white] += BYE_POINTS
            continue
        met[game.white].add(game.black)
        met[game.black].add(game.white)
        colours[game.white] += "W"
        colours[game.black] += "B"
        score[game.white] += game.points(game.white)
        score[game.black] += game.points(game.black)
    return {p: Past(score[p], frozenset(met[p]), colours[p], byes[p]) for p in score}


def pair(seeding: Sequence[str], past: dict[str, Past]) -> list[tuple[str, str | None]]:
    """The next round's pairings of the players in ``seeding`` (the best seed first), each as (white, black), the
    top boards first; a bye as (player, None)."""
    if len(seeding) < 2:
        return [(p, None) for p in seeding]
    rank = {p: (-past[p].score, i) for i, p in enumerate(seeding)}
    order = sorted(seeding, key=rank.__getitem__)
    for relax in (False, True):
        matched = _matching(order, past, relax)
        if {p for pair in matched for p in pair if p != _BYE} == set(order):
            break
    else:
        raise ValueError("no pairing of these players keeps them from meeting twice")
    boards = sorted((_coloured(a, b, past, rank) for a, b in matched if _BYE not in (a, b)),
                    key=lambda pr: min(rank[pr[0]], rank[pr[1]]))
    if all(not past[p].colours for p in seeding):  # round one: the higher seed's colour alternates by board
        boards = [(w, b) if (i % 2 == 0) == (rank[w] < rank[b]) else (b, w) for i, (w, b) in enumerate(boards)]
    bye: list[tuple[str, str | None]] = [(p, None) for pair in matched if _BYE in pair for p in pair if p != _BYE]
    return [*boards, *bye]


def _matching(order: list[str], past: dict[str, Past], relax: bool) -> list[tuple[str, str]]:
    """The best allowed pairs (one with ``_BYE`` when the count is odd), or fewer if not everyone can be paired."""
    graph: nx.Graph[str] = nx.Graph()
    groups: dict[float, list[str]] = {}
    for p in order:
        groups.setdefault(past[p].score, []).append(p)
    place = {p: (group.index(p), len(group)) for group in groups.values() for p in group}
    for i, a in enumerate(order):
        for b in order[i + 1:]:
            weight = _weight(a, b, past, place, relax)
            if weight is not None:
                graph.add_edge(a, b, weight=weight)
    if len(order) % 2:
        can_have_it = [p for p in order if past[p].byes == 0] or order
        for from_bottom, p in enumerate(reversed(order)):
            if p in can_have_it:
                half_points = round(past[p].score * 2)
                graph.add_edge(p, _BYE, weight=_PAIR - _SCORE * (half_points + 1) ** 2 - from_bottom)
    return list(nx.max_weight_matching(graph, maxcardinality=True))


def _weight(a: str, b: str, past: dict[str, Past], place: dict[str, tuple[int, int]], relax: bool) -> int | None:
    """How much pairing ``a`` with ``b`` is worth (more is better); None when the rules forbid it."""
    if b in past[a].opponents:
        return None
    (strength_a, due_a), (strength_b, due_b) = past[a].preference(), past[b].preference()
    weight = _PAIR - _SCORE * round(2 * abs(past[a].score - past[b].score)) ** 2
    if due_a is not None and due_a == due_b:
        if min(strength_a, strength_b) == 3:
            if not relax:
                return None
            weight -= _RELAXED
        weight -= _COLOUR * min(strength_a, strength_b)
    if past[a].score == past[b].score:  # the Dutch order: the group's top half against its bottom half
        (i, size), (j, _) = place[a], place[b]
        weight -= abs(abs(j - i) - size // 2)
    return weight


def _coloured(a: str, b: str, past: dict[str, Past], rank: dict[str, tuple[float, int]]) -> tuple[str, str]:
    """(white, black) for two paired players: both get their due colours if they can; else the stronger claim
    wins; equal claims alternate from the last round the two had different colours; else the higher ranked gets
    theirs."""
    (strength_a, due_a), (strength_b, due_b) = past[a].preference(), past[b].preference()
    higher, lower = (a, b) if rank[a] < rank[b] else (b, a)
    if due_a != due_b:
        if due_a is not None:
            return (a, b) if due_a == "W" else (b, a)
        return (b, a) if due_b == "W" else (a, b)
    if strength_a != strength_b:
        stronger = a if strength_a > strength_b else b
        other = b if stronger == a else a
        return (stronger, other) if due_a == "W" else (other, stronger)
    for colour_a, colour_b in zip(reversed(past[a].colours), reversed(past[b].colours)):
        if colour_a != colour_b:
            return (b, a) if colour_a == "W" else (a, b)
    wanted = past[higher].preference()[1] or "W"
    return (higher, lower) if wanted == "W" else (lower, higher)


def tie_breaks(players: Iterable[str], games: Sequence[Game]) -> dict[str, tuple[float, float, float]]:
    """Each player's (score, Buchholz, Sonneborn-Berger) from the finished games and byes."""
    final = pasts(players, games)
    buchholz = {p: 0.0 for p in final}
    berger = {p: 0.0 for p in final}
    for game in games:
        if game.black is None or game.result is None:
            continue
        for me, them in ((game.white, game.black), (game.black, game.white)):
            buchholz[me] += final[them].score
            berger[me] += game.points(me) * final[them].score
    return {p: (final[p].score, buchholz[p], berger[p]) for p in final}


def standings(seeding: Sequence[str], games: Sequence[Game]) -> list[tuple[str, tuple[float, float, float]]]:
    """The players in order, each with (score, Buchholz, Sonneborn-Berger): by those, then by seeding."""
    breaks = tie_breaks(seeding, games)
    seed = {p: i for i, p in enumerate(seeding)}
    return sorted(breaks.items(), key=lambda item: (tuple(-x for x in item[1]), seed.get(item[0], len(seed))))
