"""The errors the engine raises for bad input. Every message can be shown to a player as it is."""

from __future__ import annotations


class FenError(ValueError):
    """A position string that cannot be read or describes an impossible position."""

    def __init__(self, message: str, fen: str):
        super().__init__(message)
        self.fen = fen


class MoveError(ValueError):
    """Base of the errors for a move typed by a player.

    ``text`` is what was typed, ``fen`` the position it was typed in, and
    ``legal`` the legal moves there, written as a player would type them.
    """

    def __init__(self, message: str, text: str, fen: str = "", legal: tuple[str, ...] = ()):
        super().__init__(message)
        self.text = text
        self.fen = fen
        self.legal = legal


class InvalidMoveError(MoveError):
    """The text names no move: nothing that reads as squares, or a square that does not exist."""


class IllegalMoveError(MoveError):
    """The text reads as a move, but the rules forbid it; the message says why."""


class AmbiguousMoveError(MoveError):
    """The text fits several legal moves; ``candidates`` lists them in full."""

    def __init__(self, message: str, text: str, fen: str, legal: tuple[str, ...], candidates: tuple[str, ...]):
        super().__init__(message, text, fen, legal)
        self.candidates = candidates
