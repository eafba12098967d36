"""Move notation: PDN square notation in and out, read leniently from chat text.

Written: ``11-15`` for a move, ``11x18`` for a capture, the full path
``11x18x25`` when from and to alone would be ambiguous (or on request);
coordinates (``c3-d4``, ``c3:e5``) for the variants that use them.

Read: numbers or coordinates, separated by ``-``, ``x``, ``:`` or spaces, in
any case, inside other text (``I play 11-15!``). The squares must fit exactly
one legal move: the first and last are its start and end, any between must be
squares it lands on, in order. Notation reaches the rules only through the
legal move lists.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from engine.draughts import kernel_layout
from engine.draughts.fen import to_fen
from engine.draughts.position import Move, Position
from engine.draughts.rules import generate, legal_moves
from engine.draughts.variants import Variant
from engine.errors import AmbiguousMoveError, IllegalMoveError, InvalidMoveError, Words, phrase
from engine.game import Color

_SQUARE = r"(?:[a-j](?:10|[1-9])|\d{1,2})"
_SEPARATOR = r"(?:\s*[-x:×]\s*|\s+)"
_MOVE_TEXT = re.compile(rf"(?<![a-z0-9]){_SQUARE}(?:{_SEPARATOR}{_SQUARE})+(?![a-z0-9])", re.IGNORECASE)
_SQUARE_TEXT = re.compile(_SQUARE, re.IGNORECASE)


def example_move(v: Variant) -> str:
    """A first move of the variant, written as its players write it: a hint for help texts."""
    return "c3-d4" if v.coordinates else ("32-28" if v.size == 10 else "11-15")


def format_move(position: Position, move: Move, *, full: bool = False, coordinates: bool | None = None) -> str:
    """How to write ``move`` (legal in ``position``): start and end, or the
    whole path when that is asked for or needed to tell it from another move."""
    legal = legal_moves(position) if (move.is_capture and not full) else []
    return _write(position, move, legal, full, coordinates)


def legal_move_texts(position: Position) -> tuple[str, ...]:
    """Every legal move, written as ``format_move`` writes it."""
    legal = legal_moves(position)
    return tuple(_write(position, m, legal, False, None) for m in legal)


def _write(position: Position, move: Move, legal: list[Move], full: bool, coordinates: bool | None) -> str:
    v = position.variant
    coords = v.coordinates if coordinates is None else coordinates
    sep = (":" if coords else "x") if move.is_capture else "-"
    squares: tuple[int, ...] = (move.start, move.end)
    if move.path and (full or any(m != move and (m.start, m.end) == squares for m in legal)):
        squares = move.path
    return sep.join(v.square_name(sq, coords) for sq in squares)


def is_move_text(text: str) -> bool:
    """Whether ``text`` is a move written alone (``11-15``, ``11 15``, ``11×18``, ``c3:e5``, ``11-15!``), not
    words that happen to hold numbers: what a player types in a game's channel without addressing the bot.
    Whether the move is legal is ``parse_move``'s question."""
    return _MOVE_TEXT.fullmatch(text.strip().rstrip("!?").strip()) is not None  # "11-15!": the player's comment


def parse_move(position: Position, text: str) -> Move:
    """The legal move that ``text`` names.

    Raises InvalidMoveError when no move can be read, IllegalMoveError (with
    the reason and the legal moves) when the rules forbid it, and
    AmbiguousMoveError (with the candidates) when it fits several moves.
    """
    v = position.variant
    fen = to_fen(position)
    found = _MOVE_TEXT.search(text)
    if not found:
        raise InvalidMoveError(phrase("I could not read a move in '{text}': write it like {example}",
                                     text=text.strip()[:40], example=example_move(v)),
                               text, fen, legal_move_texts(position))
    try:
        squares = [v.parse_square(s) for s in _SQUARE_TEXT.findall(found.group(0))]
    except ValueError as e:
        why = e.args[0] if e.args and isinstance(e.args[0], Words) else str(e)  # parse_square's words
        raise InvalidMoveError(why, text, fen, legal_move_texts(position)) from None

    # Every path of every legal move, so that any of a capture's paths is understood.
    paths: dict[Move, list[tuple[int, ...]]] = {}
    for m in generate(position, kernel_layout.MODE_ALL_PATHS):
        paths.setdefault(m, []).append(m.path)
    matches = [m for m, ps in paths.items() if any(_fits(squares, p) for p in ps)]
    if len(matches) == 1:
        return matches[0]  # with the first path found, as legal_moves gives it
    legal = legal_move_texts(position)
    if matches:
        candidates = tuple(format_move(position, m, full=True) for m in matches)
        raise AmbiguousMoveError(phrase("{move} could be {moves}; write the whole path", move=found.group(0),
                                       moves=_or(candidates)), text, fen, legal, candidates)
    raise IllegalMoveError(_why_illegal(position, squares, found.group(0), paths), text, fen, legal)


def _fits(squares: list[int], path: tuple[int, ...]) -> bool:
    """The typed squares are the path's start and end, with some of its landing squares between, in order."""
    if squares[0] != path[0] or squares[-1] != path[-1] or len(squares) > len(path):
        return False
    rest = iter(path[1:-1])
    return all(any(sq == p for p in rest) for sq in squares[1:-1])


def _why_illegal(position: Position, squares: list[int], typed: str,
                 paths: dict[Move, list[tuple[int, ...]]]) -> Words:
    v = position.variant
    square = v.square_name(squares[0])
    if not paths:
        return phrase("there is no legal move: the game is over")
    piece = position.piece_at(squares[0])
    if piece is None:
        return phrase("there is no piece on {square}", square=square)
    owner = Color.WHITE if piece in "wW" else Color.BLACK
    if owner != position.turn:
        return phrase("the piece on {square} is not yours: {colour} is to move", square=square, colour=position.turn)
    legal = list(paths)
    if legal[0].is_capture:
        if any(_fits(squares, m.path) for m in generate(position, kernel_layout.MODE_QUIET_ONLY)):
            return phrase("capture is compulsory: you must take with {moves}", moves=_or(_texts(position, legal)))
        unfinished = [m for m, ps in paths.items() if any(_starts(squares, p) for p in ps)]
        if unfinished:
            return phrase("the capture must go on to the end: {moves}", moves=_or(_texts(position, unfinished)))
        if v.majority:
            fewer = [m for m in generate(position, kernel_layout.MODE_NO_MAJORITY | kernel_layout.MODE_ALL_PATHS)
                     if _fits(squares, m.path)]
            if fewer:
                return phrase("majority rule: {move} takes {taken} but you must take the most pieces ({most}) with "
                             "{moves}", move=typed, taken=len(fewer[0].captures), most=len(legal[0].captures),
                             moves=_or(_texts(position, legal)))
    own = [m for m in legal if m.start == squares[0]]
    if not own:
        return phrase("the piece on {square} has no legal move", square=square)
    return phrase("the piece on {square} cannot play {move}; it can play {moves}", square=square, move=typed,
                 moves=_or(_texts(position, own)))


def _starts(squares: list[int], path: tuple[int, ...]) -> bool:
    """The typed squares follow the path from its start but stop before its end."""
    if squares[0] != path[0] or squares[-1] == path[-1] or squares[-1] not in path[1:]:
        return False
    return _fits(squares, path[: path.index(squares[-1], 1) + 1])


def _texts(position: Position, moves: list[Move]) -> list[str]:
    legal = legal_moves(position)
    return [_write(position, m, legal, False, None) for m in sorted(moves, key=lambda m: (m.start, m.end, m.captures))]


def _or(texts: Iterable[str]) -> str | Words:
    """Moves as a choice: 'a', 'a or b', 'a, b or c'."""
    texts = list(texts)
    return texts[0] if len(texts) == 1 else phrase("{moves} or {last}", moves=", ".join(texts[:-1]), last=texts[-1])
