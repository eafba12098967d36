"""Tablut through the engine's search: it sees wins, keeps its budget and its keys, and beats random play."""

import math
import random
import time

import numpy as np

from engine import Color
from engine.search import WIN_BOUND, Limits, Searcher
from engine.search.levels import choose_move, level
from engine.tablut import kernel as tk
from engine.tablut.game import TABLUT, TablutGame
from engine.tablut.rules import NO_KING, TablutPosition, legal_moves, make, square, start_position, state
from engine.tablut.search import key, tablut_history

_searcher: list[Searcher] = []


def searcher() -> Searcher:
    if not _searcher:
        _searcher.append(Searcher(TABLUT, tt_mb=8))
        _searcher[0].warm_up()  # loads the compiled search, as the bot's workers do when they start
    s = _searcher[0]
    s.clear()
    return s


def position(white=(), black=(), king="e5", turn=Color.WHITE) -> TablutPosition:
    mask = lambda names: sum(1 << square(n) for n in names)  # noqa: E731
    return TablutPosition(mask(white), mask(black), square(king) if king else NO_KING, turn)


def test_white_walks_the_king_out_when_a_line_is_open():
    p = position(white=["e4"], black=["d9", "h1"], king="c6")  # c9 and c1 are open; a6 is a camp
    result = searcher().search(p, Limits(depth=3))
    assert result.score > WIN_BOUND and result.mate_in == 1
    assert make(p, result.move).king in {square("c9"), square("c1")}


def test_black_captures_the_king_when_it_can():
    # the king on f7 (away from the throne) with a Black soldier on f8: g7 ... Black to move closes f6
    p = position(white=["c3"], black=["f8", "h6", "a7"], king="f7", turn=Color.BLACK)
    result = searcher().search(p, Limits(depth=3))
    after = make(p, result.move)
    assert after.king == NO_KING and result.score > WIN_BOUND


def test_black_blocks_a_single_open_line():
    p = position(white=["e4"], black=["c1", "h8", "h2", "b8", "d7"], king="c7", turn=Color.BLACK)
    result = searcher().search(p, Limits(time=0.3))
    after = make(p, result.move)
    lines = 0
    for m in legal_moves(after):
        if m.start == after.king and make(after, m).king in {sq for sq in range(81) if tk.ESCAPE[sq]}:
            lines += 1
    assert lines == 0, f"{result.move} leaves the king a way out"


def test_a_search_keeps_its_time_budget_and_plays_legal_moves():
    """40 positions of random games, budgets from 10 ms to 300 ms: a legal move, a legal line, within budget + 50 ms."""
    rng = random.Random(11)
    s = searcher()
    for _ in range(40):
        game = TablutGame()
        for _ in range(rng.randrange(0, 40)):
            if game.result() is not None:
                break
            game.play(rng.choice(game.legal_moves()))
        if game.result() is not None:
            continue
        p = game.position
        budget = math.exp(rng.uniform(math.log(0.01), math.log(0.3)))
        t0 = time.perf_counter()
        result = s.search(p, Limits(time=budget), tablut_history(game.positions))
        elapsed = time.perf_counter() - t0
        assert elapsed <= budget + 0.05, f"{elapsed:.3f} s for a budget of {budget:.3f} s"
        assert result.move in legal_moves(p)
        pos = p
        for move in result.pv:  # the principal variation is a legal line
            assert move in legal_moves(pos)
            pos = make(pos, move)
    full = s.search(start_position(), Limits(time=0.3))
    assert full.depth >= 4


def test_the_keys_the_search_updates_move_by_move_equal_keys_computed_afresh():
    rng = random.Random(3)
    st = np.zeros((2, tk.STATE_COLS), dtype=np.uint64)
    out = np.zeros((512, 4), dtype=np.uint64)
    p = start_position()
    for _ in range(150):
        st[0] = state(p)[0]
        n = tk.generate(st, 0, int(p.turn), out, 0)
        if n == 0:
            break
        i = rng.randrange(n)
        after_key = tk.key_after(np.uint64(key(p)), st, 0, out, i, tk.ZOBRIST)
        tk.make(st, 0, out, i)
        move = next(m for m in legal_moves(p) if (m.start, m.end) == (out[i, 0], out[i, 1]))
        p = make(p, move)
        assert int(after_key) == key(p)
        assert np.array_equal(st[1], state(p)[0])  # the compiled make agrees with the game's


def test_the_history_holds_the_positions_since_the_last_capture():
    game = TablutGame()
    for text in ("e3-c3", "e2-d2", "c3-c4"):  # no captures
        game.play_text(text)
    history = tablut_history(game.positions)
    assert history.reversible == 3 and history.keys == tuple(key(p) for p in game.positions[:-1])


def test_level_6_beats_random_moves():
    for colour in Color:
        rng = random.Random(int(colour))
        game = TablutGame()
        s = searcher()
        while game.result() is None and len(game.moves) < 200:
            if game.turn == colour:
                move = choose_move(s, game.position, level(6), 0.05, tablut_history(game.positions)).move
            else:
                move = choose_move(s, game.position, level(1), 0.05, rng=rng).move
            game.play(move)
        assert game.result() is not None and game.result().winner == colour, (colour, game.result())
