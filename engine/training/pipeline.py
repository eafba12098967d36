"""``python -m engine train``: rounds of self-play and fitting, resumable at any moment.

Round ``r`` plays its games with the last kept weights (round 0 with the
starting evaluation), then fits new weights, starting from those, to the
positions of its own games and the round before, and measures them twice:
the loss on games kept out of the fit, and a match at level 6 against the
weights its games were played with. A round whose weights do not score
above half is not kept. Games are played in chunks by worker processes
(``jobs``, one core each); each chunk is a file that appears whole, and the
match's games are written as they end, so an interrupted run goes on where
it stopped when started again with the same settings (a run can also be
given more rounds later). The data stay in the data folder (``train-data/``
by default, outside the repository's files), with each round's figures in
``rounds.json``; the last kept weights are written to the engine's weights
file with the command that made them.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict
from pathlib import Path

import numpy as np

from engine.draughts.evaluation import Evaluator, learned_positions
from engine.draughts.evaluation_tables import layout
from engine.draughts.weight_files import WEIGHTS_DIR, read_learned, start_learned, starting_evaluator, write_learned
from engine.draughts.variants import Variant, variant
from engine.progress import progress_bar
from engine.training.fit import Model, best_scale, design, fit, loss, start_model, targets
from engine.training.plan import Plan
from engine.training.selfplay import Samples, play_games

CHUNK = 25  # games a file
VALIDATION = 10  # every tenth chunk (the second, the twelfth...) is kept out of the fit, to measure it


Judge = Callable[[Path, Path, Path], dict]
"""Weighs a round: (its weights, the weights its games were played with, a file for its games) -> figures, with
"kept": whether the new weights did better (``engine.tools.match.round_judge`` plays a match)."""


def run(plan: Plan, data: Path, judge: Judge, out: Path | None = None, jobs: int = 2) -> Path:
    """Carry the plan out (or on), write the weights file and return its path."""
    folder = data / plan.variant
    folder.mkdir(parents=True, exist_ok=True)
    saved = folder / "plan.json"
    if saved.exists():  # settings added since the run began take their defaults; rounds and the match may change
        free = {"rounds": plan.rounds, "match_games": plan.match_games, "match_time": plan.match_time}
        earlier = {**asdict(Plan(plan.variant)), **json.loads(saved.read_text()), **free}
        if earlier != asdict(plan):
            raise ValueError(f"{folder} holds a run with other settings ({saved.read_text().strip()}); use another "
                             "--data folder, or the same settings (any number of rounds) to go on with it")
    saved.write_text(json.dumps(asdict(plan)) + "\n")
    kept = folder / "start.npz"
    if not kept.exists():
        part = folder / "start.part.npz"
        if plan.start == "shipped":
            shutil.copyfile(WEIGHTS_DIR / f"{plan.variant}.npz", part)
        else:
            write_learned(part, *start_learned(variant(plan.variant)), "the training's starting point")
        part.replace(kept)
    figures = _figures(folder)
    for r in range(plan.rounds):
        weights = folder / f"round-{r}.npz"
        match = folder / f"round-{r}-match.pdn"
        if not weights.exists():
            _play(plan, folder / f"round-{r}", kept, r, jobs)
            match.unlink(missing_ok=True)  # the games of a match judged weights fitted before, if any
            model, figures[str(r)] = _fit(plan, folder, r, kept)
            _save_figures(folder, figures)  # before the weights: weights without figures are a run's from before
            write_learned(weights, model.counts, model.tables, plan.command + f"  (round {r})")
        if str(r) not in figures:  # fitted before rounds were judged: it was kept then
            figures[str(r)] = {"kept": True, "judged": False}
            _save_figures(folder, figures)
        if "kept" not in figures[str(r)]:
            figures[str(r)].update(judge(weights, kept, match))
            _save_figures(folder, figures)
        if figures[str(r)]["kept"]:
            kept = weights
    target = out or WEIGHTS_DIR / f"{plan.variant}.npz"
    if kept.name == "start.npz":
        print(f"no round was kept: {target} is left as it is")
        return target
    counts, tables = read_learned(kept, variant(plan.variant))
    write_learned(target, counts, tables, plan.command)
    print(f"weights written to {target} (from {kept.stem})")
    return target


def _play(plan: Plan, folder: Path, learned: Path | None, r: int, jobs: int) -> None:
    folder.mkdir(exist_ok=True)
    size = {c: min(plan.games, (c + 1) * CHUNK) - c * CHUNK for c in range(-(-plan.games // CHUNK))}
    chunks = [c for c in size if not (folder / f"games-{c:05d}.npz").exists()]
    done = plan.games - sum(size[c] for c in chunks)
    seed = plan.seed * 1000 + r
    show = progress_bar(count=lambda n, total: f"{n}/{total} games")
    show(f"round {r}: games", done, plan.games)
    with ProcessPoolExecutor(max_workers=max(1, jobs)) as pool:
        futures = {pool.submit(_play_chunk, plan.variant, learned, c, min(plan.games, (c + 1) * CHUNK), plan.nodes,
                               seed, folder): c for c in chunks}
        for future in futures:
            done += future.result()
            show(f"round {r}: games", done, plan.games)


def _play_chunk(name: str, learned: Path | None, chunk: int, end: int, nodes: int, seed: int, folder: Path) -> int:
    games = range(chunk * CHUNK, end)
    play_games(name, learned, games, nodes, seed).save(folder / f"games-{chunk:05d}.npz")
    return len(games)


def samples(folders: list[Path], validation: bool, ev: Evaluator) -> Samples:
    """The positions of the games in ``folders`` that the learned weights score: those kept out of the fit
    (``validation``) or the others."""
    files = sorted(f for folder in folders for f in folder.glob("games-*[0-9].npz")
                   if (int(f.stem.split("-")[1]) % VALIDATION == 1) == validation)
    if not files:
        raise ValueError("too few games to fit and to measure the fit: play at least two chunks "
                         f"({2 * CHUNK} games) a round")
    samples = Samples.join([Samples.load(f) for f in files])
    learned = learned_positions(samples.white, samples.black, samples.kings, ev.weights, ev.geometry)
    return Samples(*(getattr(samples, name)[learned] for name in ("white", "black", "kings", "turn", "score",
                                                                     "result")))


def _figures(folder: Path) -> dict:
    path = folder / "rounds.json"
    return json.loads(path.read_text()) if path.exists() else {}


def _save_figures(folder: Path, figures: dict) -> None:
    part = folder / "rounds.part.json"
    part.write_text(json.dumps(figures, indent=1) + "\n")
    part.replace(folder / "rounds.json")


def last_kept(folder: Path, r: int) -> Path:
    """The weights round ``r`` of the run in ``folder`` plays and fits from: the last kept round's before it, or
    the run's starting point."""
    figures = _figures(folder)
    kept = [i for i in range(r) if figures.get(str(i), {}).get("kept")]
    return folder / (f"round-{kept[-1]}.npz" if kept else "start.npz")


def _fit(plan: Plan, folder: Path, r: int, previous: Path) -> tuple[Model, dict]:
    v = variant(plan.variant)
    rounds = [folder / f"round-{i}" for i in range(max(0, r - 1), r + 1)]
    ev = starting_evaluator(v)  # the hand-set weights say which positions are scored by hand
    train, held = samples(rounds, False, ev), samples(rounds, True, ev)
    big = plan.patterns == "large"
    start = start_model(v, big)
    model = fitted_from(previous, v, big)
    d_train, d_held = design(v, train, big), design(v, held, big)
    scale = best_scale(model, d_train, train)
    y_train = targets(train, scale, plan.result_share)
    y_held = targets(held, scale, plan.result_share)
    before = loss(model, d_held, y_held, scale)
    show = progress_bar(count=lambda n, total: f"{n}/{total} epochs")
    show(f"round {r}: fit", 0, plan.epochs)

    def on_epoch(epoch: int, value: float) -> None:
        show(f"round {r}: fit, loss {value:.4f}", epoch, plan.epochs)
    fit(model, d_train, y_train, scale, plan.epochs, plan.seed * 1000 + r,
        prior=(start.counts, plan.prior), on_epoch=on_epoch, small_rows=layout(v, False).rows)
    after = loss(model, d_held, y_held, scale)
    print(f"round {r}: {len(train)} positions, {len(held)} held out; scale {scale:.0f}; held-out loss "
          f"{before:.4f} -> {after:.4f}")
    return model, {"positions": len(train), "held_out": len(held), "loss_before": round(before, 5),
                   "loss_after": round(after, 5)}


def fitted_from(path: Path, v: Variant, big: bool) -> Model:
    """The model a fit starts from: the weights in ``path``, with the large regions' tables at zero where they
    have none if ``big``, and without them if not (a fit of the small ones alone)."""
    model = Model(*read_learned(path, v))
    rows = start_model(v, big).tables.shape[0]
    if len(model.tables) < rows:
        model.tables = np.concatenate([model.tables, np.zeros((rows - len(model.tables), model.tables.shape[1]))])
    model.tables = model.tables[:rows]
    return model
