"""The seeds' style of player: plain fixed-depth minimax on material alone.

A yardstick for ``python -m engine match``: alpha-beta negamax over the
public rules API, no transposition table, no quiescence, no move ordering,
scoring men and kings by their weights in the variant's evaluation file.
Ties between equal moves are broken at random (seeded), as the seed engines do.
"""

from __future__ import annotations

import random

from engine.draughts.evaluation_tables import W_KING, W_MAN
from engine.draughts.weight_files import hand_weights
from engine.draughts.position import Move, Position
from engine.draughts.rules import legal_moves, make
from engine.search.kernel import WIN


def minimax_move(position: Position, depth: int, rng: random.Random) -> Move:
    """The best move by material after ``depth`` plies (a random one among equals)."""
    weights = hand_weights(position.variant)
    man, king = int(weights[W_MAN]), int(weights[W_KING])
    moves = legal_moves(position)
    if not moves:
        raise ValueError("the side to move has no legal move: the game is over")
    best, chosen = -2 * WIN, []
    for move in moves:
        score = -_negamax(make(position, move), depth - 1, -2 * WIN, -best + 1, man, king, 1)
        if score > best:
            best, chosen = score, [move]
        elif score == best:
            chosen.append(move)
    return rng.choice(chosen)


def _negamax(position: Position, depth: int, alpha: int, beta: int, man: int, king: int, ply: int) -> int:
    moves = legal_moves(position)
    if not moves:
        return -(WIN - ply)
    if depth <= 0:
        return _material(position, man, king)
    for move in moves:
        score = -_negamax(make(position, move), depth - 1, -beta, -alpha, man, king, ply + 1)
        if score >= beta:
            return score
        alpha = max(alpha, score)
    return alpha


def _material(position: Position, man: int, king: int) -> int:
    men_w, kings_w = position.count(position.turn)
    men_b, kings_b = position.count(position.turn.opponent)
    return (men_w - men_b) * man + (kings_w - kings_b) * king
