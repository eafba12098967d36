"""As an operator installs the bot for a service, and a programmer the engine alone.

``pip install ./packages/draughts-engine`` gives the engine library (rules, search, databases, board images) and
its command ``draughts-engine``; ``pip install ./packages/draughts-engine .`` adds the bot and ``draughts-bot``.
The two packages hold every file the program reads (weights, puzzle sets, the web page, the levels' ratings),
each file in one of them."""

from __future__ import annotations

import configparser
import importlib.metadata
import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import platformdirs
import pytest

from engine.draughts.endgames import default_directory, directory_for

ROOT = Path(__file__).resolve().parents[1]
ENGINE_PACKAGE = Path("packages") / "draughts-engine"


def tracked() -> list[str]:
    return subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()


@pytest.fixture(scope="module")
def wheels(tmp_path_factory) -> dict[str, Path]:
    """The two packages pip installs, by name (``engine``, ``bot``), built once from the project's own files only
    (nothing a build or a run left in the checkout)."""
    tmp_path = tmp_path_factory.mktemp("wheel")
    source = tmp_path / "source"
    for name in tracked():
        if (ROOT / name).is_file():
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, source / name)
    found = {}
    for kind, folder in (("engine", source / ENGINE_PACKAGE), ("bot", source)):
        out = tmp_path / kind
        built = subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps",
                                "-w", str(out), str(folder)], capture_output=True, text=True, timeout=300)
        assert built.returncode == 0, built.stderr
        [found[kind]] = out.glob("*.whl")
    return found


def commands(wheel: Path) -> dict[str, str]:
    names = zipfile.ZipFile(wheel).namelist()
    [entry_points] = [name for name in names if name.endswith(".dist-info/entry_points.txt")]
    scripts = configparser.ConfigParser()
    scripts.read_string(zipfile.ZipFile(wheel).read(entry_points).decode())
    return dict(scripts["console_scripts"])


def test_the_two_packages_hold_every_file_the_program_reads_once_and_name_their_commands(wheels):
    engine, bot = (set(zipfile.ZipFile(wheels[kind]).namelist()) for kind in ("engine", "bot"))
    ours = [name for name in tracked() if name.startswith(("engine/", "bot/", "renders/"))]
    for names, prefixes in ((engine, ("engine/", "renders/")), (bot, ("bot/",))):
        package = [name for name in ours if name.startswith(prefixes)]
        data = [name for name in package if not name.endswith(".py")]
        assert data and [name for name in data if name not in names] == []
        assert {name for name in names if not name.split("/")[0].endswith(".dist-info")} <= set(package)
    assert "engine/py.typed" in engine and "renders/py.typed" in engine  # type checkers read the engine's types
    assert commands(wheels["engine"]) == {"draughts-engine": "engine.__main__:run"}
    assert commands(wheels["bot"]) == {"draughts-bot": "bot.__main__:main"}


BOT_ONLY = {"discord.py", "aiohttp", "asyncpg", "python-dotenv", "networkx", "babel", "tqdm", "draughts-bot"}


def needed(name: str) -> set[str]:
    """Distribution ``name`` and all it requires (unconditionally), as installed in this environment."""
    found, todo = set(), [name]
    while todo:
        dist = importlib.metadata.distribution(todo.pop())
        if dist.metadata["Name"].lower() in found:
            continue
        found.add(dist.metadata["Name"].lower())
        todo += [re.match(r"[A-Za-z0-9._-]+", req)[0] for req in dist.requires or [] if ";" not in req]
    return found


def test_the_engine_alone_installs_without_the_bot_s_dependencies_and_plays_a_game(wheels, tmp_path):
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    python = venv / "bin" / "python"
    site = Path(subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                               capture_output=True, text=True, check=True).stdout.strip())
    # The engine's dependencies, no more, from this environment (linked, not downloaded: the tests need no network).
    libraries = needed("draughts-engine") - {"draughts-engine"}
    for name in libraries:
        dist = importlib.metadata.distribution(name)
        for top in {Path(f).parts[0] for f in dist.files or [] if Path(f).parts[0] != ".."}:
            if not (site / top).exists():
                (site / top).symlink_to(Path(str(dist.locate_file(top))))
    pip = [str(python), "-m", "pip", "--disable-pip-version-check"]
    installed = subprocess.run(pip + ["install", "--quiet", "--no-deps", "--no-index", str(wheels["engine"])],
                               capture_output=True, text=True, timeout=300)
    assert installed.returncode == 0, installed.stderr
    check = subprocess.run(pip + ["check"], capture_output=True, text=True, timeout=120)
    assert check.returncode == 0, check.stdout  # every requirement of the engine is met by these alone
    listed = subprocess.run(pip + ["list", "--format", "freeze"], capture_output=True, text=True, check=True)
    names = {line.split("==")[0].lower() for line in listed.stdout.splitlines()}
    assert {"draughts-engine", "numba", "numpy", "pillow"} <= names and not names & BOT_ONLY, names
    played = subprocess.run([str(python), "-c", GAME], cwd=tmp_path, capture_output=True, text=True, timeout=600,
                            env={**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "numba")})
    assert played.returncode == 0, played.stderr
    assert played.stdout.splitlines()[-1].startswith(("White wins", "Black wins", "Draw")), played.stdout
    assert (tmp_path / "final.png").read_bytes().startswith(b"\x89PNG")


GAME = """
import importlib.util, engine
from engine import Limits, Searcher, game_type
from renders import render_png
assert importlib.util.find_spec("bot") is None and "site-packages" in engine.__file__
english = game_type("english")
game = english.new_game()
searcher = Searcher(english, tt_mb=4)
while game.result() is None and len(game.moves) < 300:
    game.play(searcher.search(game.position, Limits(depth=4), game.history()).move)
print(len(game.moves), "plies")
open("final.png", "wb").write(render_png(english, game.position))
print(game.result() or "Draw: 300 plies played")
"""


def test_the_installed_commands_answer_as_the_modules_do():
    here = Path(sys.executable).parent  # ./run-tests installs the project into this environment
    for command, module in (("draughts-bot", "bot"), ("draughts-engine", "engine")):
        installed = subprocess.run([str(here / command), "--help"], capture_output=True, text=True, timeout=120)
        plain = subprocess.run([sys.executable, "-m", module, "--help"], capture_output=True, text=True, timeout=120)
        assert installed.returncode == plain.returncode == 0 and installed.stdout == plain.stdout, installed.stderr


def test_an_installed_engine_keeps_its_endgame_databases_in_the_users_data_directory(wheels, tmp_path):
    # installed as pip installs it, into a site-packages folder that an upgrade replaces (or a read-only one)
    site = tmp_path / "venv" / "lib" / "site-packages"
    installed = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-index",
                                "--target", str(site), str(wheels["engine"])], capture_output=True, text=True, timeout=300)
    assert installed.returncode == 0, installed.stderr
    env = {key: value for key, value in os.environ.items() if key != "ENGINE_EGTB_DIR"}
    env.update(PYTHONPATH=str(site), XDG_DATA_HOME=str(tmp_path / "data"))

    def asked(env: dict[str, str]) -> tuple[Path, Path]:
        """The installed engine's module and the folder it keeps its databases in."""
        answer = subprocess.run([sys.executable, "-c", "import engine.draughts.endgames as e; print(e.__file__); "
                                 "print(e.default_directory())"], cwd=tmp_path, env=env, capture_output=True,
                                text=True, timeout=120)
        assert answer.returncode == 0, answer.stderr
        module, directory = answer.stdout.splitlines()
        return Path(module), Path(directory)

    module, directory = asked(env)
    assert module.is_relative_to(site)  # the installed copy, not this checkout
    assert directory == tmp_path / "data" / "draughts-engine" / "egtb"  # Linux's XDG data directory
    assert asked({**env, "ENGINE_EGTB_DIR": str(tmp_path / "mine")})[1] == tmp_path / "mine"


def test_the_endgame_databases_stay_where_they_were_in_a_checkout_and_engine_egtb_dir_wins(monkeypatch, tmp_path):
    monkeypatch.delenv("ENGINE_EGTB_DIR")  # tests/conftest.py points it at an empty folder
    assert default_directory() == ROOT / "data" / "egtb"  # ./run-bot: what is built here is not lost
    installed = tmp_path / "lib" / "python3.11" / "site-packages" / "engine" / "draughts" / "endgames.py"
    assert directory_for(installed, {}) == Path(platformdirs.user_data_dir("draughts-engine", appauthor=False)) / "egtb"
    for module in (ROOT / "engine" / "draughts" / "endgames.py", installed):
        assert directory_for(module, {"ENGINE_EGTB_DIR": str(tmp_path / "mine")}) == tmp_path / "mine"
    monkeypatch.setenv("ENGINE_EGTB_DIR", str(tmp_path / "mine"))
    assert default_directory() == tmp_path / "mine"
