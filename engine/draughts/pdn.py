"""Draughts games written as PDN (Portable Draughts Notation), for saving and sharing."""

from __future__ import annotations

from engine.draughts.fen import to_fen
from engine.draughts.notation import format_move
from engine.draughts.position import Move, Position
from engine.draughts.rules import start_position
from engine.draughts.variants import Variant
from engine.game import Color, GameRecord
from engine.records import game_record

# PDN GameType numbers of the variants.
GAME_TYPES = {"english": 21, "international": 20, "russian": 25, "brazilian": 26}


def score_text(v: Variant, winner: Color | None) -> str:
    """The result tag of a finished game ('2-0' style on the 10x10 and flying-king boards, '1-0' style in
    English); ``winner`` None is a draw."""
    win, draw = ("1", "1/2") if v.name == "english" else ("2", "1")
    if winner is None:
        return f"{draw}-{draw}"
    return f"{win}-0" if winner == Color.WHITE else f"0-{win}"


def game_to_pdn(game: GameRecord[Position, Move], tags: dict[str, str] | None = None) -> str:
    """The game with its tags (Event, White, Black, ... as given), its moves and its result (the rules'
    result unless the tags give one: a resignation, say)."""
    variant = game.start.variant
    all_tags = {"GameType": str(GAME_TYPES[variant.name])}
    all_tags.update(tags or {})
    if game.start != start_position(variant):
        all_tags["FEN"] = to_fen(game.start)
    return game_record(game, all_tags, lambda ply: format_move(game.positions[ply], game.moves[ply]))
