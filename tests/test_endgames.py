"""The endgame databases: built by retrograde analysis, checked against the moves, known results, and read by the
search so that it wins won endings by the shortest way and holds drawn ones.

The suite builds the 3-piece databases of every variant (a few seconds); the
4-piece ones and the known results they hold are opt-in (``--bench``).

Known results (endgame theory, e.g. the FMJD's endgame course; the checkers
classics): in English checkers two kings beat one; in International draughts
two kings against one are a draw, and three against one "usually a draw",
always when the lone king holds the long diagonal; in Brazilian and Russian
draughts (8x8, flying kings) three kings beat one when they hold the long
diagonal (Petrov's triangle) and draw when the lone king holds it.
"""

from __future__ import annotations

import shutil

import numpy as np
import pytest

from bot.evaluation import Evaluation
from engine import Game, parse_fen, variant
from engine.draughts.endgame_build import build, unpack, verify
from engine.draughts.endgame_solve import position_at
from engine.draughts.kernel import can_capture
from engine.draughts.endgames import DRAW, LOSS, WIN, Endgames, Layout
from engine.draughts.position import Position
from engine.game import Color
from engine.games import game_type
from engine.search import ENDING_BOUND, WIN_BOUND, History, Limits, Searcher
from engine.tools.cli import main as cli

NAMES = ("english", "international", "brazilian", "russian")
LONG_DIAGONAL = {8: (29, 25, 22, 18, 15, 11, 8, 4), 10: (46, 41, 37, 32, 28, 23, 19, 14, 10, 5)}


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """The 3-piece databases of every variant, in a folder of their own."""
    directory = tmp_path_factory.mktemp("egtb")
    for name in NAMES:
        for n in (2, 3):
            build(variant(name), n, directory)
    return directory


@pytest.fixture
def searched_with(built, monkeypatch):
    monkeypatch.setenv("ENGINE_EGTB_DIR", str(built))
    for name in NAMES:  # the compiled search is loaded before a test times it (seconds, with another process loading)
        Searcher(game_type(name), tt_mb=1).search(Game(variant(name)).position, Limits(depth=1))
    return built


def held(name, directory, pieces=3) -> Endgames:
    found = Endgames.open(variant(name), pieces, directory)
    assert found is not None and found.pieces == pieces
    return found


def table_stats(endgames: Endgames, signature, where):
    """Counts of (where(position), value) over a table's positions with the mover to move and no capture on."""
    lay = endgames.layout
    v = lay.variant
    val = unpack(np.asarray(endgames.wdl), lay.positions)
    (a, b, c, d, base, size), = [t for t in lay.tables if t[:4] == signature]
    counts: dict[tuple[bool, int], int] = {}
    for local in range(size):
        me, opp, kings, valid = position_at(a, b, c, d, local, lay.vector, lay.binom)
        if not valid:
            continue
        if can_capture(np.uint64(me), np.uint64(opp), np.uint64(kings), int(Color.WHITE), v.rules):  # as the moves say
            continue
        pos = Position(v, int(me), int(opp), int(kings), Color.WHITE)
        key = (where(pos), int(val[base + local]))
        counts[key] = counts.get(key, 0) + 1
    return counts


def on_diagonal(color):
    def where(pos: Position) -> bool:
        diagonal = pos.variant.mask(LONG_DIAGONAL[pos.variant.size])
        return bool(pos.pieces(color) & diagonal)
    return where


# --- the build and its check -------------------------------------------------------------------

@pytest.mark.parametrize("name", NAMES)
def test_every_position_agrees_with_its_moves(built, name):
    checked, wrong, first = verify(held(name, built))
    assert wrong == 0, first
    assert checked == Layout.of(variant(name), 3).positions


def test_the_check_finds_a_wrong_value(built, tmp_path):
    for path in built.glob("english-3.*"):
        shutil.copy(path, tmp_path / path.name)
    wdl = np.load(tmp_path / "english-3.wdl.npy")
    found = held("english", built)
    pos = parse_fen(variant("english"), "W:WK1,K2:BK32")
    assert found.value(pos)[0] == WIN
    for i in range(wdl.shape[0]):  # turn every win into a draw in one byte's four positions
        if wdl[i] & 3 == WIN:
            wdl[i] &= 0xFC
            break
    np.save(tmp_path / "english-3.wdl.npy", wdl)
    checked, wrong, first = verify(held("english", tmp_path))
    assert wrong >= 1 and "table" in first


def test_values_are_the_same_from_either_side(built):
    eg = held("international", built)
    v = variant("international")
    white = parse_fen(v, "W:WK7,K18:B44")
    turned = parse_fen(v, "B:W7:BK33,K44")  # ``white`` turned half a turn with colours swapped
    assert eg.value(white) == eg.value(turned)
    assert eg.value(white)[0] in (WIN, LOSS, DRAW)


def test_the_build_goes_on_from_the_piece_count_already_built(built, tmp_path, capsys):
    for path in built.glob("russian-2.*"):
        shutil.copy(path, tmp_path / path.name)
    assert cli(["egtb", "build", "--variant", "russian", "--pieces", "3", "--dir", str(tmp_path)]) == 0
    out, err = capsys.readouterr()
    assert "russian 2 pieces: built already" in out
    assert "russian 3 pieces: 216,000 positions" in out
    assert "100%" in err  # the progress bar
    assert cli(["egtb", "verify", "--variant", "russian", "--pieces", "3", "--dir", str(tmp_path), "--quiet"]) == 0
    assert "all 216,000 positions agree" in capsys.readouterr().out


def test_a_build_stopped_part_way_goes_on_from_the_last_pair_of_tables_it_solved(built, tmp_path):
    for path in built.glob("brazilian-2.*"):
        shutil.copy(path, tmp_path / path.name)
    seen = []

    def stop_after_one(what, done, total):  # as Ctrl-C would, once the first pair of tables is solved
        seen.append(done)
        if len(seen) == 2:  # (the first count is where the build starts)
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        build(variant("brazilian"), 3, tmp_path, stop_after_one)
    assert not (tmp_path / "brazilian-3.json").exists() and (tmp_path / "brazilian-3.partial").is_dir()
    again = []
    build(variant("brazilian"), 3, tmp_path, lambda what, done, total: again.append(done))
    assert again[0] == seen[1] > seen[0]  # it starts where the other stopped: the pair solved there is read back
    assert not (tmp_path / "brazilian-3.partial").exists()  # nothing left behind once the database is written
    for suffix in (".wdl.npy", ".dist.npy"):  # the same database as one built at a go
        assert (tmp_path / f"brazilian-3{suffix}").read_bytes() == (built / f"brazilian-3{suffix}").read_bytes()


def test_a_build_larger_than_the_machine_s_memory_is_refused_with_what_it_needs(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr("engine.tools.egtb.physical_memory", lambda: 4 * 2**30)  # a machine of 4 GB
    assert cli(["egtb", "build", "--variant", "international", "--pieces", "5", "--dir", str(tmp_path)]) == 2
    assert "needs about 7.0 GB of memory and this machine has 4.0 GB" in capsys.readouterr().err
    assert not list(tmp_path.iterdir())  # nothing started


def test_probe_from_the_command_line(built, capsys):
    assert cli(["egtb", "probe", "--variant", "english", "--pieces", "3", "--dir", str(built),
                "--fen", "W:WK1,K2:BK32"]) == 0
    assert "white to move: won in 33 plies" in capsys.readouterr().out.lower()
    assert cli(["egtb", "probe", "--variant", "english", "--dir", str(built / "none"), "--fen", "W:WK1:BK32"]) == 1


# --- known results -----------------------------------------------------------------------------

def test_two_kings_beat_one_in_english(built):
    stats = table_stats(held("english", built), (0, 2, 0, 1), lambda pos: True)
    wins, draws = stats.get((True, WIN), 0), stats.get((True, DRAW), 0)
    assert wins > 99 * draws  # the few draws: a king shut in its corner must be given up


def test_two_kings_draw_against_one_in_international(built):
    def lone_king_holds(pos):
        return on_diagonal(Color.BLACK)(pos) and not on_diagonal(Color.WHITE)(pos)
    stats = table_stats(held("international", built), (0, 2, 0, 1), lone_king_holds)
    assert stats.get((True, DRAW), 0) > 0 and stats.get((True, WIN), 0) == 0
    draws = sum(n for (_, value), n in stats.items() if value == DRAW)
    assert draws > 0.9 * sum(stats.values())


@pytest.mark.bench
def test_three_kings_against_one_on_flying_boards(tmp_path):
    for name, off_diagonal_wins in (("brazilian", 0.98), ("russian", 0.98), ("international", None)):
        v = variant(name)
        for n in (2, 3, 4):
            build(v, n, tmp_path)
        eg = held(name, tmp_path, 4)
        lone_holds = table_stats(eg, (0, 3, 0, 1),
                                 lambda pos: on_diagonal(Color.BLACK)(pos) and not on_diagonal(Color.WHITE)(pos))
        assert lone_holds[(True, DRAW)] > 0.95 * (lone_holds[(True, DRAW)] + lone_holds.get((True, WIN), 0))
        if off_diagonal_wins:
            def strong_holds(pos):
                return not on_diagonal(Color.BLACK)(pos) and on_diagonal(Color.WHITE)(pos)
            stats = table_stats(eg, (0, 3, 0, 1), strong_holds)
            assert stats[(True, WIN)] > off_diagonal_wins * (stats[(True, WIN)] + stats.get((True, DRAW), 0))
        assert verify(eg)[1] == 0


# --- the search ---------------------------------------------------------------------------------

def play_out(name: str, fen: str, seconds: float = 0.05, endgames: bool = True) -> Game:
    game = Game(variant(name), fen)
    searcher = Searcher(game_type(name), tt_mb=4, endgames=endgames)
    while game.result() is None and len(game.moves) < 200:
        game.play(searcher.search(game.position, Limits(time=seconds), game.history()).move)
    return game


@pytest.mark.parametrize("name, fen", [("english", "B:WK7:B12,18"), ("international", "B:W33,44:BK43"),
                                       ("russian", "W:WKa3:Bf6,b8"), ("brazilian", "B:Wa3,c3:Bf2")])
def test_the_search_wins_won_endings_by_the_shortest_way(searched_with, name, fen):
    eg = held(name, searched_with)
    value, plies = eg.value(parse_fen(variant(name), fen))
    assert value == WIN
    found = Searcher(game_type(name), tt_mb=4).search(parse_fen(variant(name), fen), Limits(time=0.2))
    assert ENDING_BOUND < found.score < WIN_BOUND
    position = parse_fen(variant(name), fen)
    assert Evaluation.of(found.score, position.turn).words() == f"evaluation: a won ending for {position.turn}"
    game = play_out(name, fen)
    assert game.result().winner == game.start.turn
    assert len(game.moves) == plies


def test_the_search_scores_a_drawn_ending_as_a_draw_and_holds_it(searched_with):
    # International: a lone king on the long diagonal against two kings; the databases say draw
    fen = "B:WK1,K2:BK46"
    pos = parse_fen(variant("international"), fen)
    assert held("international", searched_with).value(pos)[0] == DRAW
    found = Searcher(game_type("international"), tt_mb=4).search(pos, Limits(time=0.2))
    assert found.score == 0
    assert play_out("international", fen).result().winner is None


def won_lone_king_ending(directory):
    """An International position of two kings against one, the two to move, won in 5 plies or more."""
    eg = held("international", directory)
    lay = eg.layout
    v = variant("international")
    (a, b, c, d, base, size), = [t for t in lay.tables if t[:4] == (0, 2, 0, 1)]
    for local in range(size):
        me, opp, kings, valid = position_at(a, b, c, d, local, lay.vector, lay.binom)
        pos = Position(v, int(me), int(opp), int(kings), Color.WHITE)
        if valid and eg.value(pos)[0] == WIN and eg.value(pos)[1] >= 5:
            return pos, eg.value(pos)[1]
    raise AssertionError("no such position")


def test_a_win_the_lone_king_rule_would_draw_first_is_not_claimed(searched_with):
    pos, plies = won_lone_king_ending(searched_with)
    searcher = Searcher(game_type("international"), tt_mb=4)
    assert ENDING_BOUND < searcher.search(pos, Limits(time=0.2), History()).score < WIN_BOUND
    searcher.clear()
    late = History(ending=10 - plies + 1)  # one ply too few left of the 5-move rule's 10
    assert searcher.search(pos, Limits(time=0.2), late).score < ENDING_BOUND


def test_the_defender_keeps_to_the_databases_draw_when_the_other_moves_lose_beyond_the_king_move_count(
        tmp_path, monkeypatch):
    # White holds a draw only with 19-24; 19-15, 19-16 and 19-23 lose in 89 plies, longer than the king-move rule's
    # 80, but Black's man can move and restart the count, and did (a 5-piece ending the search once lost this way).
    build(variant("english"), 2, tmp_path)
    build(variant("english"), 3, tmp_path)
    build(variant("english"), 4, tmp_path)
    monkeypatch.setenv("ENGINE_EGTB_DIR", str(tmp_path))
    game = Game(variant("english"), "W:WK19,29:B26,K30")
    found = Searcher(game_type("english"), tt_mb=4).search(game.position, Limits(depth=8), game.history())
    assert (found.move.start, found.move.end) == (19, 24) and found.score == 0


def test_a_root_the_databases_hold_is_not_searched_deeper_unless_the_king_move_rule_is_near(searched_with):
    pos = parse_fen(variant("english"), "B:WK7:B12,18")
    value, plies = held("english", searched_with).value(pos)
    assert value == WIN
    searcher = Searcher(game_type("english"), tt_mb=4)
    assert searcher.search(pos, Limits(time=2)).depth == 2
    near = History(reversible=variant("english").king_move_limit - plies + 1)
    assert searcher.search(pos, Limits(time=0.3), near).depth > 2


def test_without_the_databases_the_search_sees_no_won_ending(searched_with):
    pos = parse_fen(variant("english"), "W:WK1,K2:BK32")
    found = Searcher(game_type("english"), tt_mb=4, endgames=False).search(pos, Limits(depth=8))
    assert found.score < ENDING_BOUND
