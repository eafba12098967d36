"""Board image speed and sizes.

    python bench/render.py [--repeat 50]

- one 10x10 middlegame board (last move with a capture, ghosts, caption),
  rendered and encoded as PNG: median time over ``repeat`` renders after a
  warm-up (the empty board and the sprites are cached, as in the bot), and
  the PNG size in both themes and for an 8x8 board;
- a 150-ply game as an animated GIF at the default GIF width: time and size.

Targets (issue 4): 15 ms or less per 10x10 board, PNG 150 KB or less,
GIF under 8 MB.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from engine import Game, variant
from renders import RenderOptions, render_gif, render_png


def middlegame(name: str, plies: int, seed: int) -> Game:
    """A game of random moves, ended after ``plies`` with a capture as the last move."""
    v = variant(name)
    for s in range(seed, seed + 1000):
        rng = random.Random(s)
        game = Game(v)
        while len(game.moves) < plies and game.result() is None:
            game.play(rng.choice(game.legal_moves()))
        if len(game.moves) == plies and game.moves[-1].is_capture:
            return game
    raise RuntimeError("no game found")


def long_game(name: str, plies: int) -> Game:
    v = variant(name)
    for s in range(1000):
        rng = random.Random(s)
        game = Game(v)
        while len(game.moves) < plies and game.result() is None:
            game.play(rng.choice(game.legal_moves()))
        if len(game.moves) == plies:
            return game
    raise RuntimeError("no game long enough")


def time_png(game: Game, opts: RenderOptions, repeat: int) -> tuple[float, int]:
    def once() -> bytes:
        return render_png(game.type, game.position, opts, last_move=game.moves[-1], before=game.positions[-2])

    png = once()  # warm the caches
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        once()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), len(png)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=50)
    args = parser.parse_args()
    caption = "Alice (White) vs Dambot level 6 (Black) · move 21"
    intl = middlegame("international", 40, 1)
    eng = middlegame("english", 24, 1)
    print(f"{'board':<26}{'theme':<10}{'width':>6}{'median ms':>11}{'PNG KB':>8}")
    for game, label in ((intl, "10x10 middlegame"), (eng, "8x8 middlegame")):
        for theme in ("wood", "contrast"):
            opts = RenderOptions(theme=theme, caption=caption)
            t, size = time_png(game, opts, args.repeat)
            print(f"{label:<26}{theme:<10}{opts.width:>6}{1000 * t:>11.2f}{size / 1024:>8.1f}")
    game = long_game("international", 150)
    t0 = time.perf_counter()
    gif = render_gif(game)
    print(f"GIF of a 150-ply International game ({len(game.moves) + 1} frames): "
          f"{time.perf_counter() - t0:.2f} s, {len(gif) / 1024 / 1024:.2f} MB")


if __name__ == "__main__":
    main()
