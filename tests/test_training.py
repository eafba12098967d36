"""The training pipeline: self-play, the fit, the weights file the engine loads, and resuming."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

from engine import variant
from engine.draughts.evaluation_tables import G_BIG_REGIONS, layout
from engine.draughts.weight_files import WEIGHTS_DIR, load_evaluator, read_learned, start_learned
from engine.training.pipeline import CHUNK
from engine.training.selfplay import play_games
from engine.tools.cli import main as cli


def test_self_play_keeps_quiet_positions_with_the_games_result():
    samples = play_games("english", None, range(3), 300, 7)
    assert len(samples) > 30
    assert set(np.unique(samples.result)) <= {0.0, 0.5, 1.0}
    assert np.all((samples.white & samples.black) == 0)
    again = play_games("english", None, range(3), 300, 7)
    assert np.array_equal(samples.white, again.white), "the same seed plays the same games"


def train_args(tmp_path, *extra) -> list[str]:
    return ["train", "--variant", "russian", "--rounds", "1", "--games", str(2 * CHUNK), "--nodes", "300",
            "--epochs", "2", "--match-games", "2", "--match-time", "0.02", "--data", str(tmp_path / "d"),
            "--out", str(tmp_path / "russian.npz"), *extra]


def train(tmp_path, *extra):
    return subprocess.run([sys.executable, "-m", "engine", *train_args(tmp_path, *extra)], capture_output=True,
                          text=True, timeout=600)


def test_train_writes_weights_the_engine_loads_and_resumes_where_it_stopped(tmp_path, capsys):
    r = train(tmp_path)
    assert r.returncode == 0, r.stderr
    assert "held-out loss" in r.stdout
    assert "round 0: games" in r.stderr and "round-0-match" in r.stderr, "progress bars"
    figures = json.loads((tmp_path / "d" / "russian" / "rounds.json").read_text())["0"]
    assert figures["positions"] > 0 and figures["loss_after"] > 0 and figures["match"].count("=") == 1
    assert len((tmp_path / "d" / "russian" / "round-0-match.pdn").read_text().split("[Event")) == 3
    round_0 = tmp_path / "d" / "russian" / "round-0.npz"
    with np.load(round_0) as f:
        assert "python -m engine train --variant russian" in str(f["made_by"])
    fitted = read_learned(round_0, variant("russian"))
    start_counts, _ = start_learned(variant("russian"))
    assert np.abs(fitted[1]).max() > 0 and not np.array_equal(fitted[0], start_counts), "the fit moved the weights"
    if figures["kept"]:  # two games at 0.02 s a move: either way
        assert "kept" in r.stdout and "weights written" in r.stdout
        assert np.array_equal(read_learned(tmp_path / "russian.npz", variant("russian"))[0], fitted[0])
        load_evaluator(variant("russian"), tmp_path / "russian.npz")
    else:
        assert "not kept" in r.stdout and "no round was kept" in r.stdout and not (tmp_path / "russian.npz").exists()

    # interrupted after the first chunk: only the second is played again
    games = tmp_path / "d" / "russian" / "round-0"
    first, second = games / "games-00000.npz", games / "games-00001.npz"
    mtime = first.stat().st_mtime_ns
    second.unlink()
    (tmp_path / "d" / "russian" / "round-0.npz").unlink()
    (tmp_path / "d" / "russian" / "rounds.json").unlink()
    r = train(tmp_path)
    assert r.returncode == 0, r.stderr
    assert second.exists() and first.stat().st_mtime_ns == mtime

    capsys.readouterr()
    assert cli(train_args(tmp_path, "--nodes", "500")) == 2  # refused before it starts: asked in this process
    assert "other settings" in capsys.readouterr().err


def test_train_adds_the_large_regions_to_the_shipped_weights(tmp_path):
    r = train(tmp_path, "--patterns", "large", "--start", "shipped", "--epochs", "8")
    assert r.returncode == 0, r.stderr
    v = variant("russian")
    shipped = read_learned(WEIGHTS_DIR / "russian.npz", v)[1]
    fitted = tmp_path / "d" / "russian" / "round-0.npz"
    counts, tables = read_learned(fitted, v)
    assert len(tables) == layout(v, True).rows
    small = layout(v, False).rows
    learnt = np.count_nonzero(tables[small:].any(axis=1))
    assert learnt > 20, f"the large regions learnt from the games (a few: 50 games): {learnt}"
    assert np.abs(tables[:small] - shipped).max() > 0, "the small ones went on from the shipped weights"
    with np.load(fitted) as f:
        assert len(f["big_rows"]) < (layout(v, True).rows - small) / 10, "only the patterns seen are stored"
    assert load_evaluator(v, fitted).geometry[0, G_BIG_REGIONS] == 6


@pytest.mark.parametrize("big", [False, True], ids=["small", "large"])
def test_the_fit_finds_what_decides_the_games(big):
    """Results planted by a rule the counts cannot see (a man on one square) are learnt by the patterns."""
    from helpers import random_positions

    from engine.training.fit import design, fit, loss, sigmoid, start_model
    from engine.training.selfplay import Samples

    v = variant("english")
    positions = random_positions(["english"], 3000, 11, (4, 30))
    u = np.uint64
    samples = Samples(np.array([p.white for p in positions], dtype=u), np.array([p.black for p in positions], dtype=u),
                      np.array([p.kings for p in positions], dtype=u), np.array([int(p.turn) for p in positions],
                                                                                dtype=np.int8),
                      np.zeros(len(positions), dtype=np.int16), np.zeros(len(positions), dtype=np.float32))
    outpost = np.array([bool(p.white & ~p.kings & v.bit(18)) for p in positions])  # a white man on 18
    rng = np.random.default_rng(3)
    results = (rng.random(len(positions)) < sigmoid(np.where(outpost, 300.0, -300.0) / 300)).astype(np.float32)
    d = design(v, samples, big)
    model = start_model(v, big)
    model.counts[:] = 0
    before = loss(model, d, results, 300)
    fit(model, d, results, 300, 20, 1, batch=512)
    after = loss(model, d, results, 300)
    z = model.evaluate(d)
    assert after < before - 0.015
    assert z[outpost].mean() > z[~outpost].mean() + 40


def test_a_round_that_loses_its_match_is_not_kept(tmp_path, capsys):
    from engine.training.pipeline import last_kept, run
    from engine.training.plan import Plan

    judged = []

    def judge(new, old, pdn):  # the match's verdict, given: the real match is played in the tests above
        judged.append((new.name, old.name))
        return {"match": "+0 =0 -2", "kept": False}

    plan = Plan("russian", rounds=2, games=2 * CHUNK, nodes=300, epochs=1)
    out = tmp_path / "russian.npz"
    run(plan, tmp_path / "d", judge, out, jobs=2)  # both cores: the suite runs one test at a time
    assert judged == [("round-0.npz", "start.npz"), ("round-1.npz", "start.npz")], "round 1 went on from the start"
    assert not out.exists() and "no round was kept" in capsys.readouterr().out
    assert last_kept(tmp_path / "d" / "russian", 2).name == "start.npz"
    figures = json.loads((tmp_path / "d" / "russian" / "rounds.json").read_text())
    assert [figures[r]["kept"] for r in ("0", "1")] == [False, False] and figures["0"]["positions"] > 0
