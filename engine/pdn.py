"""Games written as PDN (Portable Draughts Notation), for saving and sharing."""

from __future__ import annotations

from collections.abc import Callable

from engine.fen import to_fen
from engine.game import Game
from engine.notation import format_move
from engine.rules import start_position
from engine.variants import Color, Variant

# PDN GameType numbers of the variants.
GAME_TYPES = {"english": 21, "international": 20, "russian": 25, "brazilian": 26}


def result_text(game: Game) -> str:
    """The result tag of a game as the rules leave it; '*' if unfinished."""
    result = game.result()
    return "*" if result is None else score_text(game.variant, result.winner)


def score_text(v: Variant, winner: Color | None) -> str:
    """The result tag of a finished game ('2-0' style on the 10x10 and flying-king boards, '1-0' style in
    English); ``winner`` None is a draw."""
    win, draw = ("1", "1/2") if v.name == "english" else ("2", "1")
    if winner is None:
        return f"{draw}-{draw}"
    return f"{win}-0" if winner == Color.WHITE else f"0-{win}"


def move_label(game, ply: int) -> str:
    """The number before the move of ``ply`` (0-based): '12.' for the first player's move, '12...' for the other's."""
    first = game.variant.first
    offset = 0 if game.start.turn == first else 1
    number = (ply + offset) // 2 + 1
    return f"{number}." if game.positions[ply].turn == first else f"{number}..."


def game_to_pdn(game: Game, tags: dict[str, str] | None = None) -> str:
    """The game with its tags (Event, White, Black, ... as given), its moves and its result (the rules'
    result unless the tags give one: a resignation, say)."""
    all_tags = {"GameType": str(GAME_TYPES[game.variant.name])}
    all_tags.update(tags or {})
    if game.start != start_position(game.variant):
        all_tags["FEN"] = to_fen(game.start)
    all_tags.setdefault("Result", result_text(game))
    return tagged(all_tags, movetext(game, lambda ply: format_move(game.positions[ply], game.moves[ply])))


def movetext(game, write: Callable[[int], str]) -> list[str]:
    """The words of a game's moves: numbers ('12.', and '12...' when a game starts with the second player)
    and each move as ``write(ply)`` gives it."""
    words = []
    for ply in range(len(game.moves)):
        label = move_label(game, ply)
        if ply == 0 or not label.endswith("..."):
            words.append(label)
        words.append(write(ply))
    return words


def tagged(tags: dict[str, str], words: list[str]) -> str:
    """A record: the tags, a blank line, the words and the result (``tags['Result']``) in lines of 79."""
    words = words + [tags["Result"]]
    body, line = [], ""
    for word in words:
        if line and len(line) + 1 + len(word) > 79:
            body.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    body.append(line)
    return "\n".join(f'[{name} "{value}"]' for name, value in tags.items()) + "\n\n" + "\n".join(body) + "\n"
