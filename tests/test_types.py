"""The engine, the renderer and the bot type-check (mypy), so value types and APIs stay what they say; the engine's
public modules (what a library user imports) pass mypy's strict mode, as its ``py.typed`` promises."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# The modules a user of the engine library imports; the compiled kernels, training and tools behind them are the
# engine's own business (checked by the plain run below).
PUBLIC = ["engine/__init__.py", "engine/board.py", "engine/game.py", "engine/games.py", "engine/errors.py",
          "engine/records.py", "engine/analysis.py", "engine/progress.py", "engine/draughts/__init__.py",
          "engine/draughts/game.py", "engine/draughts/position.py", "engine/draughts/variants.py",
          "engine/draughts/notation.py", "engine/draughts/fen.py", "engine/draughts/pdn.py",
          "engine/draughts/rules.py", "engine/search/__init__.py", "engine/search/searcher.py",
          "engine/search/levels.py", "engine/tablut/__init__.py", "engine/tablut/game.py", "engine/tools/hub.py",
          "engine/outside", "renders"]


def mypy(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "mypy", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=600)


def test_engine_renders_and_bot_type_check():
    r = mypy("engine", "renders", "bot")
    assert r.returncode == 0, r.stdout + r.stderr


def test_the_engine_s_public_modules_pass_strict_mode():
    # follow-imports=silent: the modules behind them are read for their types, their own errors not reported here
    r = mypy("--strict", "--follow-imports=silent", "--cache-dir", ".mypy_cache/strict", *PUBLIC)
    assert r.returncode == 0, r.stdout + r.stderr
