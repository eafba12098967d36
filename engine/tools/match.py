"""Engine matches: how every evaluation or search change is judged.

Two players meet over balanced openings, each opening twice with colours
swapped, at a fixed budget per move. A player is written as a spec
(``level:N``, ``minimax:D``, ``hub:COMMAND`` or ``hub1:COMMAND``, with settings: ``engine.tools.players``).

Games run in parallel worker processes (``jobs``); a game still going after
``MAX_PLIES`` is scored a draw.
"""

from __future__ import annotations

import math
import random
import re
from collections.abc import Callable, Collection, Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from functools import cache
from pathlib import Path


from engine.draughts.game import Game
from engine.draughts.notation import format_move
from engine.draughts.pdn import GAME_TYPES, game_to_pdn
from engine.draughts.position import Move
from engine.draughts.rules import legal_moves, make, start_position
from engine.draughts.variants import Variant, variant
from engine.game import Color
from engine.games import game_type
from engine.progress import progress_bar
from engine.records import read_tags
from engine.search import Limits, Searcher
from engine.tools.players import Player, parse_player

MAX_PLIES = 300
Z95 = 1.96
OPENING_PLIES = {"english": 3, "international": 2, "russian": 2, "brazilian": 2}
BALANCED = 40  # an opening is balanced if a depth-6 search scores it within this many hundredths


@dataclass(frozen=True)
class MatchGame:
    pdn: str
    score_a: float
    """1 if player A won, 0.5 for a draw, 0 if A lost."""
    plies: int
    round_no: int


def finished_games(text: str, spec_a: str, spec_b: str, v: Variant, budget: float) -> list[MatchGame]:
    """The whole games of the match ``spec_a`` vs ``spec_b`` in ``v`` at ``budget`` a move already in a match's
    PDN file, to resume it (a last game cut short is left out, to be played again); ValueError if the file holds
    another match, or a game cut short before its end."""
    games: dict[int, MatchGame] = {}
    gt = game_type(v.name)
    results = {gt.score_text(Color.WHITE): 1.0, gt.score_text(Color.BLACK): 0.0}
    chunks = [c for c in re.split(r"\n(?=\[GameType )", text) if c.strip()]
    for n, chunk in enumerate(chunks):
        tags = read_tags(chunk)
        result = tags.get("Result")
        if result is None or not re.search(r"(^|\s)" + re.escape(result) + r"\n+$", chunk):
            if n < len(chunks) - 1:
                raise ValueError(f"game {n + 1} of {len(chunks)} in the file is not whole")
            continue  # the last game, cut short by an interruption: played again
        match = (tags.get("Event"), tags.get("GameType"), tags.get("Budget"))
        if match != (f"{spec_a} vs {spec_b}", str(GAME_TYPES[v.name]), f"{budget:g}") or "PlyCount" not in tags:
            raise ValueError(f"the file holds another match ({tags.get('Event')}, game type {tags.get('GameType')}, "
                             f"{tags.get('Budget')} s a move); give a new --pdn file to start this one")
        round_no = int(tags["Round"])
        a_colour = v.first if a_moves_first(round_no) else v.first.opponent
        white_won = results.get(result, 0.5)  # a draw, or '*' for a game adjudicated a draw
        score_a = white_won if a_colour == Color.WHITE else 1.0 - white_won
        pdn = chunk.rstrip("\n") + "\n"  # as written: each game ends its last line, a blank line follows
        games.setdefault(round_no, MatchGame(pdn, score_a, int(tags["PlyCount"]), round_no))
    return [games[n] for n in sorted(games)]


def openings(v: Variant, count: int) -> list[tuple[Move, ...]]:
    """``count`` balanced openings: move sequences a depth-6 search scores as nearly level (repeated if needed)."""
    found = _balanced(v.name)
    return [found[i % len(found)] for i in range(count)]


@cache
def _balanced(name: str) -> list[tuple[Move, ...]]:
    v = variant(name)
    searcher = Searcher(game_type(v.name), tt_mb=4)
    scored = []
    for line in _lines(start_position(v), OPENING_PLIES[name]):
        pos = start_position(v)
        for m in line:
            pos = make(pos, m)
        if not legal_moves(pos):
            continue
        searcher.clear()
        score = searcher.search(pos, Limits(depth=6)).score
        if abs(score) <= BALANCED:
            scored.append((abs(score), [(m.start, m.end) for m in line], line))
    scored.sort(key=lambda t: (t[0], t[1]))
    # spread the choice over the list rather than taking near-identical lines first
    lines = [t[2] for t in scored]
    rng = random.Random(len(lines))
    rng.shuffle(lines)
    return lines


def _lines(pos, plies: int) -> Iterator[tuple[Move, ...]]:
    if plies == 0:
        yield ()
        return
    for m in legal_moves(pos):
        for rest in _lines(make(pos, m), plies - 1):
            yield (m,) + rest


def play_game(a: Player, b: Player, v: Variant, opening: tuple[Move, ...], budget: float, round_no: int) -> MatchGame:
    """Round ``round_no``'s game from an opening; A plays the side that moves first if ``a_moves_first``."""
    game = Game(v)
    for m in opening:
        game.play(m)
    first, second = (a, b) if a_moves_first(round_no) else (b, a)
    players = {v.first: first, v.first.opponent: second}
    for p in (a, b):
        p.new_game()
    while game.result() is None and len(game.moves) < MAX_PLIES:
        game.play(players[game.turn].move(game, budget))
    result = game.result()
    if result is None or result.winner is None:
        score_a = 0.5
    else:
        score_a = 1.0 if players[result.winner] is a else 0.0
    white, black = players[Color.WHITE], players[Color.BLACK]
    opening_text = " ".join(format_move(pos, m) for pos, m in zip(game.positions, opening))
    tags = {"Event": f"{a.spec} vs {b.spec}", "Round": str(round_no), "White": white.spec, "Black": black.spec,
            "Opening": opening_text, "Budget": f"{budget:g}", "PlyCount": str(len(game.moves)),
            "Termination": str(result) if result else f"adjudicated draw after {MAX_PLIES} plies"}
    return MatchGame(game_to_pdn(game, tags), score_a, len(game.moves), round_no)


# --- worker processes ------------------------------------------------------------
_players: tuple[Player, Player] | None = None


def _init_worker(spec_a: str, spec_b: str, name: str, seed: int) -> None:
    global _players
    v = variant(name)
    _players = (Player(spec_a, v, seed), Player(spec_b, v, seed + 1))


def _play_task(name: str, opening: tuple[Move, ...], budget: float, round_no: int) -> MatchGame:
    assert _players is not None
    return play_game(_players[0], _players[1], variant(name), opening, budget, round_no)


def run_match(spec_a: str, spec_b: str, v: Variant, games: int, budget: float, jobs: int = 1, seed: int = 1,
              on_game: Callable[[int, MatchGame], None] | None = None, done: Collection[int] = ()) -> list[MatchGame]:
    """Play ``games`` games (rounded up to pairs) but the rounds in ``done``, and return them in round order;
    ``on_game`` hears of each game as it ends."""
    for spec in (spec_a, spec_b):
        parse_player(spec)  # refuse a bad spec here, not in every worker
    lines = openings(v, rounds(games) // 2)
    tasks = [(v.name, lines[(r - 1) // 2], budget, r)
             for r in range(1, rounds(games) + 1) if r not in done]
    if not tasks:
        return []
    records: list[MatchGame] = []
    with ProcessPoolExecutor(max_workers=max(1, jobs), initializer=_init_worker,
                             initargs=(spec_a, spec_b, v.name, seed)) as pool:
        futures = [pool.submit(_play_task, *t) for t in tasks]
        for n, fut in enumerate(as_completed(futures)):
            record = fut.result()
            records.append(record)
            if on_game:
                on_game(n + 1, record)
    return sorted(records, key=lambda r: r.round_no)


def kept_games(pdn: Path, spec_a: str, spec_b: str, v: Variant, games: int, budget: float) -> list[MatchGame]:
    """The games of this match of ``games`` games already written to ``pdn`` (none if there is no such file),
    to resume it; ValueError if the file holds another match or cannot be read."""
    if not pdn.exists():
        return []
    try:
        kept = finished_games(pdn.read_text(), spec_a, spec_b, v, budget)
    except (KeyError, ValueError, UnicodeDecodeError, OSError) as e:
        raise ValueError(f"cannot resume from {pdn}: {e}") from None
    if kept and kept[-1].round_no > rounds(games):
        raise ValueError(f"cannot resume from {pdn}: it holds games up to round {kept[-1].round_no}, more than the "
                         f"{games} asked for; ask for at least {kept[-1].round_no}")
    return kept


def match_to_file(spec_a: str, spec_b: str, v: Variant, games: int, budget: float, pdn: Path,
                  kept: list[MatchGame], jobs: int = 1, seed: int = 1,
                  on_game: Callable[[MatchGame, list[MatchGame]], None] | None = None) -> list[MatchGame]:
    """Play the games of a match missing from ``kept`` (as ``kept_games`` read them from ``pdn``), writing each
    to ``pdn`` as it ends so that an interrupted match can be resumed; all the games, in round order.

    A bad player spec raises ValueError before the file is touched."""
    for spec in (spec_a, spec_b):
        parse_player(spec)
    records = list(kept)
    if kept:  # the file anew with just these games (a game cut short by an interruption is dropped), moved into place
        part = pdn.with_name(pdn.name + ".part")
        part.write_text("".join(g.pdn + "\n" for g in kept))
        part.replace(pdn)
    with pdn.open("a" if kept else "w") as out:
        def keep(_: int, record: MatchGame) -> None:
            records.append(record)
            out.write(record.pdn + "\n")
            out.flush()
            if on_game:
                on_game(record, records)

        run_match(spec_a, spec_b, v, games, budget, jobs, seed, keep, done={r.round_no for r in kept})
    return sorted(records, key=lambda r: r.round_no)


def a_moves_first(round_no: int) -> bool:
    """Whether player A has the side that moves first in a round: each opening is played in rounds 2i + 1 (A
    first) and 2i + 2 (B first)."""
    return round_no % 2 == 1


def rounds(games: int) -> int:
    """The games a match of ``games`` games plays: pairs, each opening with both colours."""
    return 2 * ((games + 1) // 2)


@dataclass(frozen=True)
class Summary:
    wins: int
    draws: int
    losses: int

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float:
        """Points of player A per game, 0 to 1."""
        return (self.wins + 0.5 * self.draws) / self.games if self.games else 0.5

    def elo(self) -> tuple[float, float, float]:
        """Elo difference of A over B, with the low and high ends of its 95% interval.

        The interval is the normal approximation with the games' own variance
        (draws narrow it); when every game had the same result that variance is
        zero, and Wilson's bound for n games takes its place.
        """
        n = self.games
        p = self.score
        if not n:
            return 0.0, 0.0, 0.0
        var = (self.wins + 0.25 * self.draws) / n - p * p
        if var > 1e-12:
            half = Z95 * math.sqrt(var / n)
            return _elo(p, n), _elo(p - half, n), _elo(p + half, n)
        z2 = Z95 * Z95
        centre = (p + z2 / (2 * n)) / (1 + z2 / n)
        half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
        return _elo(p, n), _elo(centre - half, n), _elo(min(1.0, centre + half), n)

    def __str__(self) -> str:
        elo, low, high = self.elo()
        return (f"+{self.wins} ={self.draws} -{self.losses}  score {100 * self.score:.1f}%  "
                f"Elo {elo:+.0f} (95% {low:+.0f} to {high:+.0f})")


def summarize(records: list[MatchGame]) -> Summary:
    return Summary(sum(r.score_a == 1 for r in records), sum(r.score_a == 0.5 for r in records),
                   sum(r.score_a == 0 for r in records))


def _elo(p: float, n: int) -> float:
    """Elo difference for a score fraction; a clean sweep counts as half a game short of it."""
    eps = 0.5 / max(n, 1)
    p = min(max(p, eps), 1 - eps)
    return -400 * math.log10(1 / p - 1) + 0.0  # + 0.0: an even score prints +0, not -0


def round_judge(v: Variant, games: int, budget: float, jobs: int = 1, seed: int = 1) -> Callable[[Path, Path, Path], dict]:
    """A training round's judge (``engine.training.pipeline.Judge``): a match of ``games`` games at ``budget``
    seconds a move, level 6 with the round's weights against level 6 with the weights before, resumable from
    its PDN file; the round is kept if it scores above half."""
    def judge(new: Path, old: Path, pdn: Path) -> dict:
        # whole paths, so that a run resumed from another folder, or with its folder spelt otherwise, finds its games
        a, b = f"level:6,weights={new.resolve()}", f"level:6,weights={old.resolve()}"
        done = kept_games(pdn, a, b, v, games, budget)
        show = progress_bar(count=lambda n, total: f"{n}/{total} games")
        show(pdn.stem, len(done), rounds(games))

        def on_game(_: MatchGame, played: list[MatchGame]) -> None:
            show(f"{pdn.stem} {summarize(played)}", len(played), rounds(games))
        played = match_to_file(a, b, v, games, budget, pdn, done, jobs, seed, on_game)
        summary = summarize(played)
        elo, low, high = summary.elo()
        kept = summary.score > 0.5
        print(f"{pdn.stem}: {new.name} against {old.name}, {summary} at {budget} s a move; "
              f"{'kept' if kept else 'not kept: the next round goes on from the weights before'}")
        return {"match": str(summary), "seconds_a_move": budget, "elo": round(elo), "elo_low": round(low),
                "elo_high": round(high), "kept": kept}
    return judge
