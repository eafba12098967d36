"""The README's Python example runs as written: a game, its legal moves and a search from one import line."""

import contextlib
import io
import re
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"


def test_the_engine_example_runs_and_prints_a_move():
    section = README.read_text().split("## The engine in Python", 1)[1]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    assert sum(1 for line in code.splitlines() if line.startswith(("import ", "from "))) == 1
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "README.md", "exec"), {})
    legal, found = out.getvalue().splitlines()
    assert "'22-18'" in legal, "Black played 11-15: White's replies are listed"
    move = found.split()[0]
    assert move.strip("'") in eval(legal), "the search's move is one of them"
