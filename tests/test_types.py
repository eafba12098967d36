"""The engine, the renderer and the bot type-check (mypy), so value types and APIs stay what they say."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_engine_renders_and_bot_type_check():
    r = subprocess.run([sys.executable, "-m", "mypy", "engine", "renders", "bot"], cwd=ROOT, capture_output=True, text=True,
                       timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr
