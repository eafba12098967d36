"""As an operator installs the bot for a service: ``pip install .`` gives a package that holds every file the bot
reads (weights, puzzle sets, the web page, the levels' ratings) and the commands ``draughts-bot`` and
``draughts-engine``, the same as ``python -m bot`` and ``python -m engine``."""

from __future__ import annotations

import configparser
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_package_holds_every_file_the_bot_reads_and_names_its_two_commands(tmp_path):
    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    source = tmp_path / "source"  # the project's own files only: nothing a build or a run left in the checkout
    for name in tracked:
        if (ROOT / name).is_file():
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, source / name)
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", str(tmp_path),
                            str(source)], capture_output=True, text=True, timeout=300)
    assert built.returncode == 0, built.stderr
    [wheel] = tmp_path.glob("*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    package = [name for name in tracked if name.startswith(("engine/", "bot/", "renders/"))]
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
