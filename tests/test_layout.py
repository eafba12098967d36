"""The layout keeps its promises: layers import downwards only, each game stays in its package, the tools stay
out of the library, and front ends ask the core instead of reading its games."""

import ast
import re
from pathlib import Path

from bot.core import __all__ as CORE_OFFERS

ROOT = Path(__file__).resolve().parents[1]


def imports(folder: str) -> list[tuple[Path, str]]:
    """(file, imported module) for every import in the Python files under ``folder``."""
    found = []
    for path in (ROOT / folder).rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                found += [(path, a.name) for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                found += [(path, node.module)] + [(path, f"{node.module}.{a.name}") for a in node.names]
    return found


def test_layers_import_downwards_only():
    """engine imports neither renders nor bot; renders never imports bot."""
    for folder, banned in {"engine": ("renders", "bot"), "renders": ("bot",)}.items():
        for path, name in imports(folder):
            assert name.split(".")[0] not in banned, f"{path.relative_to(ROOT)} imports {name}"


def test_each_game_and_the_tools_keep_to_their_own_package():
    banned = {"engine/draughts": ("engine.tablut", "engine.tools"), "engine/tablut": ("engine.tools",),
              "engine/search": ("engine.tools",), "renders": ("engine.draughts", "engine.tablut"),
              "bot": ("engine.draughts", "engine.tablut", "engine.tools")}
    for folder, modules in banned.items():
        for path, name in imports(folder):
            assert not name.startswith(modules), f"{path.relative_to(ROOT)} imports {name}"


def test_no_switch_on_the_game_outside_its_package():
    """The bot and the renders never ask which game they hold: no isinstance on a game's values, no name test."""
    switch = re.compile(r"isinstance\([^)]*(Position|Move|(?<!Live)Game)\b|== [\"']tablut[\"']|TABLUT\b")
    for folder in ("bot", "renders"):
        for path in (ROOT / folder).rglob("*.py"):
            for number, line in enumerate(path.read_text().splitlines(), 1):
                assert not switch.search(line), f"{path.relative_to(ROOT)}:{number}: {line.strip()}"


def test_front_ends_ask_the_core_and_never_read_its_games():
    """They see a game as the core's copy of it (``LiveGame``), never its ``Table``, which the core changes."""
    front_ends = [ROOT / "bot" / "terminal.py", *(ROOT / "bot" / "discord").glob("*.py"),
                  *(ROOT / "bot" / "web").glob("*.py")]
    for path in front_ends:
        text = path.read_text()
        assert ".state" not in text and "core.tables" not in text and "core.table(" not in text, path.name
        assert not re.search(r"\bTable\b", text), path.name


def test_front_ends_import_the_core_package_and_none_of_its_modules():
    """The terminal, Discord and the web page use what ``bot.core`` offers (``__all__``), not its internals."""
    found = []
    for folder in ("bot/discord", "bot/web"):
        found += imports(folder)
    found += [(path, name) for path, name in imports("bot") if path.name in ("terminal.py", "app.py")]
    assert found
    for path, name in found:
        assert not name.startswith("bot.core.") or name.split(".")[2] in CORE_OFFERS, \
            f"{path.relative_to(ROOT)} imports {name}"



def test_only_the_registry_writes_which_games_are_on():
    """The core's duties read the games on as a mapping; opening and closing one goes through the registry."""
    from bot.core.registry import Registry

    assert not hasattr(Registry, "__setitem__") and not hasattr(Registry, "__delitem__")
    assert "self.tables = Registry()" in (ROOT / "bot" / "core" / "state.py").read_text()
    for path in (ROOT / "bot").rglob("*.py"):
        if path.name != "registry.py":
            assert "_by_channel" not in path.read_text() and "_by_id" not in path.read_text(), path


def test_the_pages_and_the_relay_learn_what_happened_to_a_game_only_from_its_events():
    """No page update is guessed from a chat reply (as ``news_of`` did): the web's modules read of a reply only
    where it goes, its words and whether an event told them (a page's own ask is answered to its person), the
    board's game (to give a new game's links in the terminal) and the player whose games it lists (to link their
    page there); they hear of games through ``Core.follow`` and the web tier's events."""
    allowed = {"to", "private", "told", "text", "channel", "board", "in_language", "player", "tournament"}
    for path in (ROOT / "bot" / "web").glob("*.py"):
        text = path.read_text()
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "reply":
                assert node.attr in allowed, f"{path.relative_to(ROOT)}:{node.lineno} reads reply.{node.attr}"
        assert "core.live(" not in text and "news_of" not in text, path.name
    assert "core.follow(self.told)" in (ROOT / "bot" / "web" / "pages.py").read_text()
    assert "core.follow(self._told)" in (ROOT / "bot" / "web" / "relay.py").read_text()


def test_no_module_is_over_450_lines_unless_numba_needs_it_whole():
    """Small modules named for what they hold; a compiled kernel that numba's cache needs in one file says so in
    its first lines."""
    for path in [*(ROOT / "bot").rglob("*.py"), *(ROOT / "engine").rglob("*.py")]:
        text = path.read_text()
        if len(text.splitlines()) > 450:
            why = ast.get_docstring(ast.parse(text)) or ""
            assert "numba" in why and "one module" in why, \
                f"{path.relative_to(ROOT)} has {len(text.splitlines())} lines"


def test_each_duty_of_the_core_declares_the_part_of_its_state_it_uses():
    """The core's duties are handed the part of its state they use (``Needs``, a Protocol the type check holds them
    to); only the entry point (``core.py``) holds the whole ``State``."""
    duties = [path for path in (ROOT / "bot" / "core").glob("*.py")
              if path.name not in ("__init__.py", "core.py", "state.py", "registry.py")]
    assert len(duties) >= 10
    for path in duties:
        text = path.read_text()
        assert not re.search(r"\bState\b", text), f"{path.name} is handed the whole State"
        assert "s: Needs" in text or "s: Plays" in text or "s:" not in text, path.name
