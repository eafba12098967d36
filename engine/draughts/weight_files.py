"""The draughts evaluation's weight files: the hand-set weights (``weights/<variant>.json``) and the learned ones
(``weights/<variant>.npz``, made by ``python -m engine train``), read into an ``Evaluator`` and written, each
file whole or not at all. ``engine.draughts.evaluation`` says what the weights mean and adds them up."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

from engine.draughts import network
from engine.draughts.evaluation import Evaluator
from engine.draughts.evaluation_tables import (BIG_PATTERNS, COUNTS, FEATURES, FINE, HAND, PATTERNS, PHASES, START,
                                               W_KING, W_MAN, layout, weights_vector)
from engine.draughts.variants import Variant

WEIGHTS_DIR = Path(__file__).with_name("weights")


def load_evaluator(variant: Variant, learned: Path | None = None,
                   overrides: dict | None = None) -> Evaluator:
    """The variant's shipped evaluation; ``learned`` names another learned weights file (``.npz``), and
    ``overrides`` hand-set weights (``man`` and ``king`` set the men's and kings' learned weights too)."""
    weights = hand_weights(variant, overrides)
    path = learned or WEIGHTS_DIR / f"{variant.name}.npz"
    counts, small, big = _read_file(path, variant)
    for name, feature in (("man", "men"), ("king", "kings")):
        if name in (overrides or {}):
            counts[FEATURES.index(feature)] = weights[HAND[name]]
    ev = Evaluator.build(variant, weights, counts, small, big)
    net = network.read_network(path, variant)
    return ev if net is None else replace(ev, net=net[0], net_out=net[1])


def starting_evaluator(variant: Variant) -> Evaluator:
    """The training's starting point: hand-set man and king, ``START``'s rough counts, patterns at zero."""
    return Evaluator.of(variant, hand_weights(variant), *start_learned(variant))


def hand_weights(v: Variant, overrides: dict | None = None) -> np.ndarray:
    """The weight vector with the variant's hand-set weights (and ``overrides``), its learned part empty."""
    data = json.loads((WEIGHTS_DIR / f"{v.name}.json").read_text())
    data.update(overrides or {})
    return weights_vector(data)


def start_counts(weights: np.ndarray) -> np.ndarray:
    """The counts' weights the training starts from [COUNTS, PHASES], in hundredths of a man."""
    counts = np.zeros((COUNTS, PHASES))
    for name, value in {**START, "men": weights[W_MAN], "kings": weights[W_KING]}.items():
        counts[FEATURES.index(name)] = value
    return counts


def start_learned(v: Variant, big: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """(counts, tables) the training starts from, in hundredths of a man: ``start_counts``, patterns at zero
    (the large regions' too if ``big``), the tables flat as ``layout`` lays them out."""
    return start_counts(hand_weights(v)), np.zeros((layout(v, big).rows, PHASES))


def read_learned(path: Path, v: Variant) -> tuple[np.ndarray, np.ndarray]:
    """(counts, tables) from a learned weights file, in hundredths of a man, the tables flat as ``layout`` lays
    them out (with the large regions' if the file has them); ValueError if it does not fit."""
    counts, flat, big = _read_file(path, v)
    if big is not None:
        rows, values = big
        large = np.zeros((layout(v, True).rows - len(flat), PHASES))
        large[rows] = values
        flat = np.concatenate([flat, large])
    return counts, flat


def _read_file(path: Path, v: Variant) -> tuple[np.ndarray, np.ndarray, tuple[np.ndarray, np.ndarray] | None]:
    """(counts, the small regions' tables [rows, PHASES], the large regions' seen rows and weights or None) from a
    learned weights file, in hundredths of a man, the large ones left sparse; ValueError if it does not fit."""
    with np.load(path) as f:
        counts, tables = f["counts"], f["tables"]
        big = (f["big_rows"].astype(np.int64), f["big_values"]) if "big_rows" in f else None
    small = layout(v, False)
    if counts.shape != (COUNTS, PHASES) or tables.shape != (small.small, PATTERNS, PHASES):
        raise ValueError(f"{path} does not hold {v.name} weights of this evaluation's shape")
    if big is not None:
        rows, values = big
        if len(rows) != len(values) or (len(rows) and (rows.min() < 0
                                                       or rows.max() >= layout(v, True).rows - small.rows)):
            raise ValueError(f"{path} does not hold {v.name} weights of this evaluation's shape")
        big = (rows, values.astype(np.float64) / FINE)
    return counts.astype(np.float64), tables.reshape(-1, PHASES).astype(np.float64), big


def write_learned(path: Path, counts: np.ndarray, tables: np.ndarray, made_by: str) -> None:
    """Save learned weights (hundredths of a man, rounded to FINE) with the command that made them; the file
    appears whole (written aside, then moved into place), so an interruption never leaves half of one.

    ``tables`` are flat as ``layout`` lays them out, or [regions, PATTERNS, PHASES] for the small regions alone.
    The small regions' tables are stored whole; of the large regions' only the rows with a weight (those the
    training saw), as row numbers and FINE integers."""
    flat = np.rint(np.asarray(tables, dtype=np.float64).reshape(-1, PHASES) * FINE)
    if np.abs(flat).max(initial=0) >= 2 ** 15:
        raise ValueError("a learned pattern weight is beyond the table's range")
    # 8x8 has 9 small regions and 6 large, 10x10 16 and 8
    sizes = ((9, 6), (16, 8))
    small = next((k * PATTERNS for k, b in sizes if len(flat) in (k * PATTERNS, k * PATTERNS + b * BIG_PATTERNS)), None)
    if small is None:
        raise ValueError(f"pattern tables of {len(flat)} rows are no board's")
    arrays: dict[str, Any] = {
        "counts": np.rint(counts * FINE).astype(np.float32) / FINE,
        "tables": flat[:small].reshape(-1, PATTERNS, PHASES).astype(np.int16).astype(np.float32) / FINE,
        "features": np.array(FEATURES), "made_by": np.array(made_by)}
    if len(flat) > small:
        large = flat[small:]
        rows = np.flatnonzero(np.any(large != 0, axis=1))
        arrays.update(big_rows=rows.astype(np.int32), big_values=large[rows].astype(np.int16))
    part = path.with_name(path.stem + ".part.npz")
    np.savez_compressed(part, **arrays)
    part.replace(path)
