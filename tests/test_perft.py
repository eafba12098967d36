"""Move generation against published perft counts (see perft_data.py)."""

import pytest
from perft_data import POSITIONS, START

from engine import parse_fen, perft, start_position, variant

# Deepest depth checked in the default suite; deeper published depths are --bench.
DEFAULT_DEPTH = {"english": 10, "international": 8, "russian": 8, "brazilian": 8}


def _cases():
    for name, counts in START.items():
        for depth, count in enumerate(counts, start=1):
            marks = [pytest.mark.bench] if depth > DEFAULT_DEPTH[name] else []
            yield pytest.param(name, depth, count, id=f"{name}-{depth}", marks=marks)


@pytest.mark.parametrize("name,depth,count", list(_cases()))
def test_start_position(name, depth, count):
    assert perft(start_position(variant(name)), depth) == count


@pytest.mark.parametrize("name,fen,counts", POSITIONS, ids=[p[0] for p in POSITIONS])
def test_international_positions(name, fen, counts):
    pos = parse_fen(variant("international"), fen)
    assert [perft(pos, d) for d in range(1, len(counts) + 1)] == counts


def test_depth_zero_is_the_position_itself():
    assert perft(start_position(variant("english")), 0) == 1
