"""A puzzle and the set files that keep them: one puzzle a line, tab-separated, with a header saying how it was made.

    for puzzle in shipped("english"):
        puzzle.position, puzzle.solution, puzzle.theme

A set file's lines::

    # comment lines: what the set is and the command that made it
    FEN <tab> solution <tab> theme <tab> depth <tab> score <tab> source

The solution is the solver's moves and the defender's replies between them, as
full move texts (every square a capture lands on) separated by spaces; it ends
with the solver's move.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

SETS = Path(__file__).resolve().parent / "sets"
"""Where the shipped sets are, one file per variant (``<variant>.txt``)."""

THEMES = ("shot", "breakthrough", "ending", "tactic")
"""What a puzzle is about: a shot (a sacrifice that opens the captures), a breakthrough (a man through to the
king row), an ending (few pieces, or a win the endgame databases hold), or any other tactic that wins material."""


@dataclass(frozen=True)
class Puzzle:
    """One puzzle: a position where the side to move has one winning continuation."""

    variant: str
    position: str
    """The start, as a FEN; the side to move is the solver."""
    solution: tuple[str, ...]
    """The solver's moves and the defender's replies, full move texts; the solver's move first and last."""
    theme: str
    """One of ``THEMES``."""
    depth: int
    """The shallowest search depth that finds the first move: how far ahead a player must look."""
    score: int
    """The solution's score after the first move, hundredths of a man from the solver's side."""
    source: str
    """Where it was found: the miner's seed, game and ply, and the levels that played it."""

    @property
    def id(self) -> str:
        """A short name that stays the same for the same puzzle (eight hex digits of its variant and position)."""
        return hashlib.sha1(f"{self.variant} {self.position}".encode()).hexdigest()[:8]

    @property
    def solver_moves(self) -> int:
        """How many moves the solver makes."""
        return (len(self.solution) + 1) // 2

    def line(self) -> str:
        """The puzzle as a set file's line (no newline)."""
        return "\t".join((self.position, " ".join(self.solution), self.theme, str(self.depth), f"{self.score:+d}",
                          self.source))

    @classmethod
    def from_line(cls, variant: str, text: str) -> Puzzle:
        """A set file's line back; ValueError saying what is wrong."""
        fields = text.rstrip("\n").split("\t")
        if len(fields) != 6:
            raise ValueError(f"a puzzle line has 6 tab-separated fields, not {len(fields)}")
        position, solution, theme, depth, score, source = fields
        if theme not in THEMES:
            raise ValueError(f"unknown theme {theme!r}")
        moves = tuple(solution.split())
        if len(moves) % 2 == 0:
            raise ValueError("a solution ends with the solver's move (an odd number of moves)")
        return cls(variant, position, moves, theme, int(depth), int(score), source)


def read_set(variant: str, path: Path) -> list[Puzzle]:
    """The puzzles of a set file (none if it does not exist); ValueError naming the line that is wrong."""
    if not path.exists():
        return []
    puzzles = []
    for number, text in enumerate(path.read_text().splitlines(), 1):
        if text.strip() and not text.startswith("#"):
            try:
                puzzles.append(Puzzle.from_line(variant, text))
            except ValueError as e:
                raise ValueError(f"{path}, line {number}: {e}") from None
    return puzzles


def header(path: Path) -> list[str]:
    """A set file's comment lines at its top."""
    if not path.exists():
        return []
    lines = []
    for text in path.read_text().splitlines():
        if not text.startswith("#"):
            break
        lines.append(text)
    return lines


def shipped(variant: str) -> list[Puzzle]:
    """The puzzles the engine ships for ``variant`` (none for a game without a set)."""
    return read_set(variant, SETS / f"{variant}.txt")
