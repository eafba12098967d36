"""The engine library's documentation (docs/library: a guide and the API reference from the docstrings) builds
with Sphinx without a warning, and its pages hold what a reader looks for."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_library_documentation_builds_without_warnings(tmp_path):
    # the command README.md gives, into a folder of the test's own
    built = subprocess.run([sys.executable, "-m", "sphinx", "-q", "-W", "--keep-going", "-b", "html",
                            str(ROOT / "docs" / "library"), str(tmp_path)], capture_output=True, text=True,
                           timeout=300)
    assert built.returncode == 0, built.stdout + built.stderr
    api = (tmp_path / "api.html").read_text()
    for name in ("engine.board.Board", "engine.board.Board.push_text", "engine.board.Board.to_tensor",
                 "engine.outside.hub.popen_hub", "engine.outside.simple.SimpleEngine", "engine.outside.dxp.DxpEngine",
                 "engine.search.searcher.Searcher", "renders.svg.board_svg"):
        assert f'id="{name}"' in api, name  # each documented where a reader finds it
    assert "python-chess" in (tmp_path / "guide.html").read_text()
