"""Small helpers shared by the tests."""

from engine import format_move, legal_moves, parse_fen, variant


def moves(variant_name: str, fen: str) -> set[str]:
    """The legal moves of a position, each written with its full path."""
    pos = parse_fen(variant(variant_name), fen)
    return {format_move(pos, m, full=True) for m in legal_moves(pos)}
