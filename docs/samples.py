"""Write the sample board images shown in the README: ``python docs/samples.py``."""

from __future__ import annotations

import random
from pathlib import Path

from engine import Game, legal_moves, variant
from engine.games import game_type
from engine.search import Searcher
from engine.search.levels import choose_move, level
from renders import RenderOptions, render_png

HERE = Path(__file__).resolve().parent

PLIES = {"english": 20, "international": 30, "russian": 20}


def sample_game(name: str) -> Game:
    """Level-4 self-play (seeded, so the images are the same every time), stopped just after a capture."""
    v = variant(name)
    searcher = Searcher(game_type(v.name), tt_mb=4)
    rng = random.Random(4)
    game = Game(v)
    while game.result() is None and not (len(game.moves) >= PLIES[name] and game.moves[-1].is_capture):
        game.play(choose_move(searcher, game.position, level(4), 5.0, game.history(), rng).move)
    return game


def main() -> None:
    for name in PLIES:
        game = sample_game(name)
        number = len(game.moves) // 2 + 1
        for theme in ("wood", "contrast"):
            caption = f"Alice vs Dambot level 6 · move {number}"
            opts = RenderOptions(theme=theme, caption=caption, flipped=(name == "russian" and theme == "contrast"))
            png = render_png(game.type, game.position, opts, last_move=game.moves[-1], before=game.positions[-2])
            path = HERE / f"{name}-{theme}.png"
            path.write_bytes(png)
            print(f"{path.name}: {len(png) // 1024} KB, {len(legal_moves(game.position))} legal moves")


if __name__ == "__main__":
    main()
