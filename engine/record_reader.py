"""Games read back from PDN text (a file of several games, of any of the five), as records to replay or analyse.

The game comes from the tags: PDN's ``GameType`` number for draughts (20
International, 21 English, 25 Russian, 26 Brazilian; the number before any
comma), ``Game`` for Tablut (as ``Tablut.record_text`` writes it); the start
from ``FEN`` (draughts) or ``Position`` (Tablut). Without either tag a game is
read as ``default`` says. Comments (``{...}``), variations (``(...)``),
annotation glyphs (``$2``, ``?!``) and move numbers are skipped.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from engine.draughts.pdn import GAME_TYPES
from engine.errors import MoveError
from engine.game import GameRecord
from engine.games import game_type
from engine.records import read_tags

_BY_NUMBER = {str(number): name for name, number in GAME_TYPES.items()}
_SKIP = re.compile(r"\{[^}]*\}|\([^()]*\)|\$\d+|;[^\n]*")
_NUMBER = re.compile(r"^\d+\.(\.\.)?")
_RESULTS = {"1-0", "0-1", "2-0", "0-2", "1/2-1/2", "1-1", "0-0", "*"}


class RecordError(ValueError):
    """A game in the text cannot be read: which one, and why."""


@dataclass(frozen=True)
class ReadGame:
    tags: dict[str, str]
    record: GameRecord[Any, Any]


def read_games(text: str, default: str | None = None) -> list[ReadGame]:
    """Every game in ``text``, in order; a ``RecordError`` naming the game and the move that cannot be read."""
    chunks = [c for c in re.split(r"\n\s*\n(?=\s*\[)", "\n" + text.replace("\r\n", "\n")) if c.strip()]
    return [_read(chunk, n + 1, default) for n, chunk in enumerate(chunks)]


def _read(chunk: str, number: int, default: str | None) -> ReadGame:
    tags = read_tags(chunk)
    name = _game_name(tags, default)
    if name is None:
        raise RecordError(f"game {number}: no GameType (or Game) tag says which game it is")
    kind = game_type(name)
    body = "\n".join(line for line in chunk.strip().splitlines() if not line.lstrip().startswith("["))
    previous = None
    while previous != body:  # nested variations come out from the inside
        previous, body = body, _SKIP.sub(" ", body)
    try:
        record = kind.new_game(tags.get("FEN") or tags.get("Position"))
        for word in body.split():
            word = _NUMBER.sub("", word).rstrip("!?")
            if word and word not in _RESULTS:
                record.play_text(word)
    except MoveError as error:
        raise RecordError(f"game {number}: {error}") from error
    return ReadGame(tags, record)


def _game_name(tags: dict[str, str], default: str | None) -> str | None:
    if "GameType" in tags:
        number = tags["GameType"].split(",")[0].strip()
        if number not in _BY_NUMBER:
            raise RecordError(f"GameType {number} is not a game this engine plays "
                              f"({', '.join(f'{n} {name}' for n, name in _BY_NUMBER.items())})")
        return _BY_NUMBER[number]
    if tags.get("Game", "").lower().startswith("tablut"):
        return "tablut"
    return default
