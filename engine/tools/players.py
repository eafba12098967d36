"""A match's players: a player as written on the command line (``parse_player``), and the ``Player`` that plays
its moves in a match's games.

A player is written as

- ``level:N``: our engine at difficulty level N (6 is full strength), with
  optional settings to compare: search (``level:6,lmr=1.6,futility=60,extend=1,probcut=10,threats=1,tt=64``;
  ``endgames=0``
  plays without the endgame databases),
  a learned weights file (``weights=my.npz``, as ``python -m engine train --out`` writes; last, as the
  rest of the spec is its path, commas and all) or single hand-set weights (``king=130``);
- ``minimax:D``: the seeds' plain material-only minimax to depth D;
- ``hub:COMMAND``: any Hub engine started by COMMAND (``hub:python -m engine hub``);
- ``hub1:COMMAND``: Scan 2.0 in its older Hub dialect (``hub1:/path/to/scan hub``; International only).
  A Hub engine given as a path runs in its own folder, where Scan finds ``scan.ini`` and ``data/``.
  ``hub,depth=D:COMMAND`` and ``hub1,depth=D:COMMAND`` fix its search depth instead of its time.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from engine.draughts.baseline import minimax_move
from engine.draughts.evaluation_tables import weights_vector
from engine.draughts.game import Game
from engine.draughts.position import Move
from engine.draughts.variants import Variant
from engine.draughts.weight_files import load_evaluator
from engine.games import game_type
from engine.search import Searcher
from engine.outside import Limit, SimpleEngine
from engine.search.levels import choose_move, level


def _switch(text: str) -> bool:
    return bool(int(text))


def _positive(text: str) -> int:
    number = int(text)
    if number < 1:
        raise ValueError(f"{number} is below 1")
    return number


SEARCH_SETTINGS: dict[str, Callable[[str], object]] = {
    "lmr": float, "futility": int, "extend": _switch, "probcut": int, "threats": _switch, "tt": float,
    "endgames": _switch, "threads": _positive,
}


@dataclass(frozen=True)
class PlayerSpec:
    """A player as written on the command line."""

    kind: str
    """'level', 'minimax', 'hub' or 'hub1'."""
    arg: str
    """The level number, the minimax depth or the Hub command."""
    search: dict
    """Searcher settings that differ from the defaults (lmr, futility, extend, probcut, threats, tt in MB, endgames,
    threads); for a Hub
    engine, its fixed ``depth`` if any."""
    weights_file: str | None = None
    """A learned weights file (.npz) to use instead of the variant's own."""
    weights: dict | None = None
    """Single evaluation weights overriding the file (``king=130``)."""


def parse_player(spec: str) -> PlayerSpec:
    """Read a player spec; ValueError saying what is wrong."""
    kind, _, arg = spec.partition(":")
    if kind == "level":
        arg, has_weights, weights_path = arg.partition(",weights=")  # the file's path is the rest: it may hold commas
        number, *options = arg.split(",")
        if has_weights:
            options.append("weights=" + weights_path)
        if not number.isdigit():
            raise ValueError(f"{spec!r}: write the level as a number, such as level:6")
        level(int(number))
        search: dict = {}
        weights: dict = {}
        weights_file = None
        for option in options:
            name, _, value = option.partition("=")
            try:
                if name in SEARCH_SETTINGS:
                    search[name] = SEARCH_SETTINGS[name](value)
                elif name == "weights":
                    weights_file = value
                    _check_weights_file(spec, value)
                else:
                    weights[name] = int(value)
                    weights_vector({name: 0})  # an unknown weight raises
            except ValueError as e:
                if str(e).startswith(repr(spec)):
                    raise
                raise ValueError(f"{spec!r}: {e if 'unknown weight' in str(e) else f'{name} takes a number'}; "
                                 f"settings are {', '.join(SEARCH_SETTINGS)}, weights=FILE or a weight "
                                 "name=value") from None
        return PlayerSpec(kind, number, search, weights_file, weights or None)
    if kind == "minimax" and arg.isdigit():
        return PlayerSpec(kind, arg, {})
    kind, *options = kind.split(",")
    if kind in ("hub", "hub1") and arg.strip():
        search = {}
        for option in options:
            name, _, value = option.partition("=")
            if name != "depth" or not value.isdigit() or int(value) < 1:
                raise ValueError(f"{spec!r}: a Hub engine takes one setting, depth=D (a number), as in "
                                 f"{kind},depth=6:COMMAND")
            search["depth"] = int(value)
        return PlayerSpec(kind, arg, search)
    raise ValueError(f"unknown player {spec!r}: use level:N, minimax:D, hub:COMMAND or hub1:COMMAND")


def _check_weights_file(spec: str, path: str) -> None:
    try:
        data = np.load(path)
    except (OSError, ValueError) as e:
        raise ValueError(f"{spec!r}: cannot read the learned weights file {path!r} ({e}); weights=FILE comes last in "
                         "a spec, as everything after it is the file's path") from None
    names = getattr(data, "files", None)  # a .npy file holds one array, not a learned weights file
    if names is None or not {"counts", "tables"} <= set(names):
        raise ValueError(f"{spec!r}: {path!r} is not a learned weights file (python -m engine train --out writes one)")
    data.close()


class Player:
    """One side of a match."""

    def __init__(self, spec: str, v: Variant, seed: int):
        self.spec = spec
        self.variant = v
        self.rng = random.Random(seed)
        parsed = parse_player(spec)
        self.hub: SimpleEngine | None = None
        self.hub_depth: int | None = None
        self.searcher: Searcher | None = None
        if parsed.kind == "level":
            self.level = level(int(parsed.arg))
            settings = dict(parsed.search)
            tt_mb = settings.pop("tt", 32)
            evaluator = load_evaluator(v, Path(parsed.weights_file) if parsed.weights_file else None, parsed.weights)
            self.searcher = Searcher(game_type(v.name), tt_mb=tt_mb, weights=evaluator, **settings)
            self.searcher.warm_up()
        elif parsed.kind == "minimax":
            self.depth = int(parsed.arg)
        else:
            self.hub = SimpleEngine.popen_hub(parsed.arg, v, version=1 if parsed.kind == "hub1" else 2)
            depth = parsed.search.get("depth")
            self.hub_depth = None if depth is None else int(depth)

    def new_game(self) -> None:
        if self.searcher:
            self.searcher.clear()
        if self.hub:
            self.hub.new_game()

    def move(self, game: Game, budget: float) -> Move:
        if self.searcher:
            return choose_move(self.searcher, game.position, self.level, budget, game.history(), self.rng).move
        if self.hub:
            limit = Limit(depth=self.hub_depth) if self.hub_depth else Limit(time=budget)
            return self.hub.play(game, limit).move
        return minimax_move(game.position, self.depth, self.rng)

    def close(self) -> None:
        if self.hub:
            self.hub.quit()
