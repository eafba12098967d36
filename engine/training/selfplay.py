"""Self-play games for training: positions with the game's result and the search's score.

A game opens with one or two random legal moves and then eight plies of a
search with noise on its evaluation (a different noise in every game), so
that no two games are alike and few are lost by the opening alone; then both
sides search a fixed number of nodes a move without noise (the same on any
machine, busy or not). Every quiet position after the opening
(no capture pending, as the evaluation only ever scores such positions) is
kept with the search's score and, once the game is over, its result.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from engine.draughts.weight_files import load_evaluator, starting_evaluator
from engine.draughts.game import Game
from engine.draughts.rules import legal_moves
from engine.draughts.variants import variant
from engine.game import Color
from engine.games import game_type
from engine.search import Limits, Searcher

MAX_PLIES = 300  # a game still going after this many plies counts as a draw
RANDOM_PLIES = (1, 2)
NOISY_PLIES = 8
NOISE = 40  # hundredths of a man


@dataclass(frozen=True)
class Samples:
    """Positions from games, one entry each (arrays of equal length)."""

    white: np.ndarray  # uint64 bitboards
    black: np.ndarray
    kings: np.ndarray
    turn: np.ndarray  # int8: 0 White to move, 1 Black
    score: np.ndarray  # int16: the search's score for White, hundredths of a man
    result: np.ndarray  # float32: the game's result for White, 1, 0.5 or 0

    def save(self, path: Path) -> None:
        """Write the samples; the file appears whole or not at all (a run may be interrupted at any moment)."""
        part = path.with_suffix(".part.npz")
        np.savez(part, **{name: getattr(self, name) for name in FIELDS})
        part.replace(path)

    @classmethod
    def load(cls, path: Path) -> Samples:
        with np.load(path) as f:
            return cls(*(f[name] for name in FIELDS))

    @classmethod
    def join(cls, parts: list[Samples]) -> Samples:
        return cls(*(np.concatenate([getattr(p, name) for p in parts]) for name in FIELDS))

    def __len__(self) -> int:
        return len(self.white)


FIELDS = ("white", "black", "kings", "turn", "score", "result")


def play_games(name: str, learned: Path | None, games: range, nodes: int, seed: int) -> Samples:
    """Play ``games`` (their numbers seed their openings) with the evaluation in ``learned`` (None: the start)."""
    v = variant(name)
    weights = load_evaluator(v, learned) if learned else starting_evaluator(v)
    searcher = Searcher(game_type(name), tt_mb=4, weights=weights)
    rows: list[tuple[int, int, int, int, int]] = []
    results: list[float] = []
    for number in games:
        rng = random.Random(seed * 1_000_003 + number)
        game = Game(v)
        kept: list[tuple[int, int, int, int, int]] = []
        searcher.clear()
        for _ in range(rng.randint(*RANDOM_PLIES)):
            moves = game.legal_moves()
            if not moves or game.result() is not None:
                break
            game.play(rng.choice(moves))
        opening = len(game.moves) + NOISY_PLIES
        noise_seed = rng.getrandbits(62)
        while game.result() is None and len(game.moves) < MAX_PLIES:
            pos = game.position
            if len(game.moves) < opening:
                game.play(searcher.search(pos, Limits(nodes=nodes), game.history(), noise=NOISE, seed=noise_seed).move)
                continue
            found = searcher.search(pos, Limits(nodes=nodes), game.history())
            if not legal_moves(pos)[0].is_capture:
                white_score = found.score if pos.turn == Color.WHITE else -found.score
                kept.append((pos.white, pos.black, pos.kings, int(pos.turn), max(-30000, min(30000, white_score))))
            game.play(found.move)
        result = game.result()
        outcome = 0.5 if result is None or result.winner is None else (1.0 if result.winner == Color.WHITE else 0.0)
        rows += kept
        results += [outcome] * len(kept)
    if not rows:
        empty = np.zeros(0, dtype=np.uint64)
        return Samples(empty, empty, empty, np.zeros(0, np.int8), np.zeros(0, np.int16), np.zeros(0, np.float32))
    cols = list(zip(*rows))
    return Samples(np.array(cols[0], dtype=np.uint64), np.array(cols[1], dtype=np.uint64),
                   np.array(cols[2], dtype=np.uint64), np.array(cols[3], dtype=np.int8),
                   np.array(cols[4], dtype=np.int16), np.array(results, dtype=np.float32))
