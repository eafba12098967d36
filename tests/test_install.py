"""As an operator installs the bot for a service: ``pip install .`` gives a package that holds every file the bot
reads (weights, puzzle sets, the web page, the levels' ratings) and the commands ``draughts-bot`` and
``draughts-engine``, the same as ``python -m bot`` and ``python -m engine``."""

from __future__ import annotations

import configparser
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import platformdirs
import pytest

from engine.draughts.endgames import default_directory, directory_for

ROOT = Path(__file__).resolve().parents[1]


def tracked() -> list[str]:
    return subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """The package ``pip install .`` installs, built once from the project's own files only (nothing a build or a
    run left in the checkout)."""
    tmp_path = tmp_path_factory.mktemp("wheel")
    source = tmp_path / "source"
    for name in tracked():
        if (ROOT / name).is_file():
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, source / name)
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", str(tmp_path),
                            str(source)], capture_output=True, text=True, timeout=300)
    assert built.returncode == 0, built.stderr
    [found] = tmp_path.glob("*.whl")
    return found


def test_the_package_holds_every_file_the_bot_reads_and_names_its_two_commands(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    package = [name for name in tracked() if name.startswith(("engine/", "bot/", "renders/"))]
    data = [name for name in package if not name.endswith(".py")]
    assert data and [name for name in data if name not in names] == []
    assert {name for name in names if name.endswith(".py")} <= set(package)  # and nothing else
    [entry_points] = [name for name in names if name.endswith(".dist-info/entry_points.txt")]
    scripts = configparser.ConfigParser()
    scripts.read_string(zipfile.ZipFile(wheel).read(entry_points).decode())
    assert dict(scripts["console_scripts"]) == {"draughts-bot": "bot.__main__:main",
                                                "draughts-engine": "engine.__main__:run"}


def test_the_installed_commands_answer_as_the_modules_do():
    here = Path(sys.executable).parent  # ./run-tests installs the project into this environment
    for command, module in (("draughts-bot", "bot"), ("draughts-engine", "engine")):
        installed = subprocess.run([str(here / command), "--help"], capture_output=True, text=True, timeout=120)
        plain = subprocess.run([sys.executable, "-m", module, "--help"], capture_output=True, text=True, timeout=120)
        assert installed.returncode == plain.returncode == 0 and installed.stdout == plain.stdout, installed.stderr


def test_an_installed_engine_keeps_its_endgame_databases_in_the_users_data_directory(wheel, tmp_path):
    # installed as pip installs it, into a site-packages folder that an upgrade replaces (or a read-only one)
    site = tmp_path / "venv" / "lib" / "site-packages"
    installed = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-index",
                                "--target", str(site), str(wheel)], capture_output=True, text=True, timeout=300)
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
    assert directory == tmp_path / "data" / "draughts-bot" / "egtb"  # Linux's XDG data directory
    assert asked({**env, "ENGINE_EGTB_DIR": str(tmp_path / "mine")})[1] == tmp_path / "mine"


def test_the_endgame_databases_stay_where_they_were_in_a_checkout_and_engine_egtb_dir_wins(monkeypatch, tmp_path):
    monkeypatch.delenv("ENGINE_EGTB_DIR")  # tests/conftest.py points it at an empty folder
    assert default_directory() == ROOT / "data" / "egtb"  # ./run-bot: what is built here is not lost
    installed = tmp_path / "lib" / "python3.11" / "site-packages" / "engine" / "draughts" / "endgames.py"
    assert directory_for(installed, {}) == Path(platformdirs.user_data_dir("draughts-bot", appauthor=False)) / "egtb"
    for module in (ROOT / "engine" / "draughts" / "endgames.py", installed):
        assert directory_for(module, {"ENGINE_EGTB_DIR": str(tmp_path / "mine")}) == tmp_path / "mine"
    monkeypatch.setenv("ENGINE_EGTB_DIR", str(tmp_path / "mine"))
    assert default_directory() == tmp_path / "mine"
