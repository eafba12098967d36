"""Finding puzzles: the engine's weaker levels play each other, and every position of their games is screened by a
shallow search, then proved by a deep one (``engine.puzzles.prove``).

    puzzles = mine_game(searcher, seed=1, index=17)

Game ``index`` of ``seed`` is the same game on any machine: its two levels are
drawn from ``LEVELS`` by the seed and index, and they play reproducibly (levels
2 to 5 search a fixed depth with seeded noise). Levels that make mistakes leave
shots for the other side, as people's games do.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from engine.draughts.position import Position
from engine.game import GameRecord
from engine.puzzles.prove import GAIN, NOT_WON, Solution, first_seen, material, scored_moves, solve, winning
from engine.puzzles.puzzle import Puzzle
from engine.search.levels import choose_move, level
from engine.search.searcher import ENDING_BOUND, Limits, Searcher

LEVELS = (3, 4, 5)
"""The levels that play the miner's games."""
OPENING = 6
"""Plies played before the first position is looked at."""
MAX_PLIES = 200
"""A game is cut off after this many plies."""
SCREEN_DEPTH = 6
"""The shallow search every position gets (each move's reply to one less)."""
SCREEN_SLACK = 50
"""The screen lets a second move score up to this above ``NOT_WON``: the deep search may see it fail."""
DEPTH = {"international": 14}
"""The proof's depth per variant (each move's reply to one less); ``DEFAULT_DEPTH`` for the others."""
DEFAULT_DEPTH = 16
MARGIN = 50
"""The miner's rules are this much stricter than ``check``'s (hundredths of a man): the solution wins by two men,
every other move at most draws, so that ``python -m engine puzzles verify``, searching deeper, still agrees."""
PER_GAME = 2
"""Puzzles taken from one game at most."""
APART = 6
"""Plies between two puzzles of one game at least (the same shot is often on the board for a few moves)."""
ENDING_PIECES = {8: 6, 10: 8}
"""A puzzle with at most this many pieces on a board of this size is an ending."""
MIN_PIECES = 4
"""Fewer pieces than this make no puzzle (a king against a king: the databases' trivia)."""
"""A puzzle with at most this many pieces on a board of this size is an ending."""


def proof_depth(variant: str) -> int:
    return DEPTH.get(variant, DEFAULT_DEPTH)


def play_game(searcher: Searcher, seed: int, index: int) -> tuple[GameRecord, tuple[int, int]]:
    """Game ``index`` of ``seed``: the record and the two levels (the first player's, then the other's)."""
    rng = random.Random(f"{seed}/{index}")
    levels = (rng.choice(LEVELS), rng.choice(LEVELS))
    record = searcher.game.new_game()
    while record.result() is None and len(record.moves) < MAX_PLIES:
        lvl = level(levels[0 if record.turn == searcher.game.first else 1])
        found = choose_move(searcher, record.position, lvl, 0.1, record.history(), rng, reproducible=True)
        record.play(found.move)
    return record, levels


def screened(searcher: Searcher, position: Position) -> bool:
    """Whether a shallow search sees one quiet move win: worth proving. (Where a capture wins, every move is a capture:
    choosing which is no puzzle.)"""
    scored = scored_moves(searcher, position, SCREEN_DEPTH)
    if len(scored) < 2 or not winning(scored[0].score) or scored[0].move.is_capture:
        return False
    if scored[0].score < ENDING_BOUND and scored[0].score - material(position, position.turn) < GAIN:
        return False
    return scored[1].score <= NOT_WON - MARGIN + SCREEN_SLACK


def theme(searcher: Searcher, position: Position, solution: Solution) -> str:
    """What the puzzle is about (``engine.puzzles.puzzle.THEMES``): a sacrifice that wins material back and more
    is a shot at any stage of the game; otherwise few pieces (or a database win) make an ending, and a man crowned
    by the solver a breakthrough."""
    solver, game = position.turn, searcher.game
    here, sacrificed, crowned = position, False, False
    for ply, move in enumerate(solution.moves):
        sacrificed = sacrificed or (ply % 2 == 1 and move.is_capture)
        crowned = crowned or (ply % 2 == 0 and move.crowns)
        here = game.make(here, move)
    if sacrificed and material(here, solver) - material(position, solver) >= GAIN:
        return "shot"
    if (position.white | position.black).bit_count() <= ENDING_PIECES[position.variant.size] or solution.databases:
        return "ending"
    return "breakthrough" if crowned else "tactic"


def candidates(searcher: Searcher, record: GameRecord) -> Iterator[tuple[int, str, Position]]:
    """Positions one mistake away from the game: after each move the player to move could have made at each ply
    (the played one among them), those where a shallow search says the other side now wins; with the ply and the
    move's text."""
    game = searcher.game
    for ply, position in enumerate(record.positions[:-1]):
        if ply < OPENING:
            continue
        for move in game.legal_moves(position):
            after = game.make(position, move)
            if (after.white | after.black).bit_count() < MIN_PIECES or not game.legal_moves(after):
                continue
            quick = searcher.search(after, Limits(depth=SCREEN_DEPTH))
            if winning(quick.score) and (quick.score >= ENDING_BOUND
                                         or quick.score - material(after, after.turn) >= GAIN):
                yield ply, game.write_move(position, move), after


def mine_game(searcher: Searcher, seed: int, index: int) -> list[Puzzle]:
    """The puzzles proved in game ``index`` of ``seed`` (at most ``PER_GAME``, ``APART`` plies apart)."""
    record, levels = play_game(searcher, seed, index)
    game = searcher.game
    depth = proof_depth(game.name)
    found: list[Puzzle] = []
    seen: set[str] = set()
    last = -APART
    for ply, mistake, position in candidates(searcher, record):
        fen = game.write_position(position)
        if ply - last < APART or fen in seen or not screened(searcher, position):
            continue
        seen.add(fen)
        outcome = solve(searcher, position, depth, MARGIN)
        if not isinstance(outcome, Solution):
            continue
        texts, here = [], position
        for move in outcome.moves:
            texts.append(game.write_move(here, move, full=True))
            here = game.make(here, move)
        mover = 0 if record.positions[ply].turn == game.first else 1
        source = f"seed {seed} game {index} (levels {levels[0]} and {levels[1]}), after {mistake} at ply {ply + 1}"
        found.append(Puzzle(game.name, fen, tuple(texts), theme(searcher, position, outcome),
                            first_seen(searcher, position, outcome.moves[0], depth), outcome.score, source))
        last = ply
        if len(found) == PER_GAME:
            break
    return found
