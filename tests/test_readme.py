"""The README's Python example runs as written: a board, its moves, FEN, perft, PDN and a search, from one
import line."""

import contextlib
import io
import re
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"


def test_the_library_example_runs_and_prints_what_it_says():
    section = README.read_text().split("## The engine as a library", 1)[1]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    assert sum(1 for line in code.splitlines() if line.startswith(("import ", "from "))) == 1
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "README.md", "exec"), {})
    lines = out.getvalue().splitlines()
    assert "Black B:W28," in lines[0]  # after 32-28: Black's moves, Black to move, the FEN
    assert lines[1] == "None"  # the game goes on
    assert lines[2].startswith("4265 ") and '[White "Ana"]' in out.getvalue()  # perft 4 from the start, the PDN
    depths = [line for line in lines if line.startswith("SearchResult(")]
    assert depths and "depth=1," in depths[0]  # the search's iterations, as they came