"""The seed's Tablut player, to measure ours against: alpha-beta minimax to a fixed depth with its evaluation.

The seed (a Python entry of the Ashton Tablut competition) scores a position
as the sum of, for White:

- soldiers: 160/8 = 20 for each white soldier, -160/16 = -10 for each black one;
- direct paths: the king's open lines to an escape square, 20 for one and
  BIG/2 for two or more (for Black: BIG/4 for one, BIG/2 for more, against it);
- king safety: for each Black soldier next to the king, -20 with the king on
  the throne, -30 (camps count too) next to the throne, -50 (camps too) elsewhere;

and the negative of that for Black. Its flat-area table and position heat map
are pictures the seed does not spell out, so they are left out here. A won
position (king escaped or captured) scores BIG.
"""

from __future__ import annotations

import random

from engine.game import Color
from engine.tablut import kernel as tablut_kernel
from engine.tablut.rules import (CAMP, DIRECTIONS, ESCAPES, NO_KING, THRONE, TablutMove, TablutPosition, _step,
                                 legal_moves, make, state)

BIG = 10_000


def seed_evaluation(position: TablutPosition, side: Color) -> float:
    """The seed's score of ``position`` for ``side``."""
    if position.king == NO_KING:
        return BIG if side == Color.BLACK else -BIG
    if position.king in ESCAPES:
        return BIG if side == Color.WHITE else -BIG
    white = 20 * position.white.bit_count() - 10 * position.black.bit_count()
    lines = tablut_kernel.open_lines(state(position), 0, position.king)
    king = position.king
    near = [_step(king, dr, dc) for dr, dc in DIRECTIONS]
    if king == THRONE:
        safety = -20 * sum(1 for sq in near if position.black >> sq & 1)
    else:
        per = -30 if THRONE in near else -50
        safety = per * sum(1 for sq in near if sq >= 0 and (position.black >> sq & 1 or CAMP[sq] >= 0))
    if side == Color.WHITE:
        return white + safety + (0 if lines == 0 else 20 if lines == 1 else BIG / 2)
    return -(white + safety) - (0 if lines == 0 else BIG / 4 if lines == 1 else BIG / 2)


def _negamax(position: TablutPosition, depth: int, alpha: float, beta: float) -> float:
    moves = legal_moves(position)
    if depth == 0 or not moves:
        if not moves and position.king != NO_KING and position.king not in ESCAPES:
            return -BIG  # no legal move loses
        return seed_evaluation(position, position.turn)
    best = -float("inf")
    for move in moves:
        score = -_negamax(make(position, move), depth - 1, -beta, -alpha)
        best = max(best, score)
        alpha = max(alpha, score)
        if alpha >= beta:
            break
    return best


def minimax_move(position: TablutPosition, depth: int = 2, rng: random.Random | None = None) -> TablutMove:
    """The seed's choice at ``depth``, ties broken at random."""
    rng = rng or random.Random()
    moves = legal_moves(position)
    if not moves:
        raise ValueError("the side to move has no legal move: the game is over")
    scored = [(-_negamax(make(position, m), depth - 1, -float("inf"), float("inf")), m) for m in moves]
    top = max(s for s, _ in scored)
    return rng.choice([m for s, m in scored if s == top])
