"""The bot as an operator runs it: a real `python -m bot` process, killed, interrupted, fed bytes it cannot read.

Every test watches the bot's whole family of processes (its search
processes and multiprocessing's helper) and checks that none outlives it.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from bot.terminal import InputLost, Terminal, chat, read_lines

ROOT = Path(__file__).resolve().parent.parent


def stat_fields(pid: int) -> list[str] | None:
    """The fields of ``/proc/PID/stat`` after the command's name (the state first), or None once it is gone."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return stat[stat.rindex(")") + 2:].split()


def parent_of(pid: int) -> int | None:
    fields = stat_fields(pid)
    return None if fields is None else int(fields[1])


def alive(pid: int) -> bool:
    fields = stat_fields(pid)
    return fields is not None and fields[0] != "Z"  # a zombie has ended; it only waits to be reaped


def family(pid: int) -> set[int]:
    """The processes descended from ``pid``, now."""
    parents = {int(p): parent_of(int(p)) for p in os.listdir("/proc") if p.isdigit()}
    found, grew = set(), True
    while grew:
        more = {p for p, parent in parents.items() if parent == pid or parent in found} - found
        found |= more
        grew = bool(more)
    return found


def _hear_ctrl_c() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


class BotProcess:
    """``python -m bot --terminal`` in a directory of its own; its output collected as it comes."""

    def __init__(self, tmp: Path, *, encoding: str | None = None, session: bool = False, env: dict | None = None):
        env = {**os.environ, "BOT_DATABASE": str(tmp / "bot.sqlite3"), "BOT_IMAGE_DIR": str(tmp / "boards"),
               "BOT_WORKERS": "1", "PYTHONPATH": str(ROOT), **(env or {})}
        env.pop("DISCORD_TOKEN", None)
        if encoding:
            env["PYTHONIOENCODING"] = encoding
        # A session of its own is a terminal's foreground job, where Ctrl-C is heard: a suite started in the
        # background by a script (which ignores SIGINT, and children inherit that) must not make the bot deaf to it.
        self.proc = subprocess.Popen([sys.executable, "-m", "bot", "--terminal"], cwd=tmp, env=env,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     start_new_session=session, preexec_fn=_hear_ctrl_c if session else None)
        self.out, self.err = bytearray(), bytearray()
        self.seen: set[int] = set()  # every process of its family seen while it ran
        for stream, into in ((self.proc.stdout, self.out), (self.proc.stderr, self.err)):
            threading.Thread(target=self._collect, args=(stream, into), daemon=True).start()
        threading.Thread(target=self._watch, daemon=True).start()

    @staticmethod
    def _collect(stream, into: bytearray) -> None:
        while chunk := stream.read1(4096):
            into.extend(chunk)

    def _watch(self) -> None:
        while self.proc.poll() is None:
            self.seen |= family(self.proc.pid)
            time.sleep(0.05)

    def type(self, data: bytes) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def wait_for(self, text: str, timeout: float = 120.0) -> None:
        deadline = time.monotonic() + timeout
        while text.encode() not in self.out:
            assert time.monotonic() < deadline and self.proc.poll() is None, (text, self.out.decode(), self.err.decode())
            time.sleep(0.05)

    def searchers(self) -> set[int]:
        return family(self.proc.pid)

    def end(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(30)


def cpu_seconds(pid: int) -> float:
    """The processor time ``pid`` has used, user and system."""
    fields = stat_fields(pid)
    assert fields is not None, f"process {pid} is gone"
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def none_alive(pids: set[int], within: float) -> bool:
    deadline = time.monotonic() + within
    while any(alive(p) for p in pids):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.1)
    return True


def test_search_processes_end_when_the_bot_is_killed_mid_search(tmp_path):
    bot = BotProcess(tmp_path)
    try:
        bot.type(b"new english level 6 time 8\n11-15\n")
        bot.wait_for("you played 11-15")  # the bot is searching for 8 s now
        time.sleep(0.5)
        children = bot.searchers()
        assert children, "the bot has its search process and multiprocessing's helper"
        os.kill(bot.proc.pid, signal.SIGKILL)
        bot.proc.wait(10)
        assert none_alive(children, within=5.0), [p for p in children if alive(p)]
    finally:
        bot.end()


def test_a_timed_game_killed_mid_move_comes_back_with_both_clocks_as_they_were(tmp_path):
    import re

    clocks = re.compile(rb"Clocks: White (\S+), Black (\S+)")
    bot = BotProcess(tmp_path)
    try:
        bot.type(b"challenge @ben white 5+3\nas ben\naccept\n9-13\n")
        bot.wait_for("ben played 9-13")
        bot.wait_for("Clocks: White")
        before = clocks.findall(bytes(bot.out))[-1]
        time.sleep(2)  # White thinks, then the bot is killed
        os.kill(bot.proc.pid, signal.SIGKILL)
        bot.proc.wait(10)
    finally:
        bot.end()
    again = BotProcess(tmp_path)
    try:
        again.type(b"board\n")
        again.wait_for("Clocks: White")
        after = clocks.findall(bytes(again.out))[-1]
        assert before[0] in (b"5:00", b"4:59") and after == before, (before, after)  # nothing charged for the time away
    finally:
        again.end()


def test_an_unreadable_line_is_answered_and_the_chat_goes_on_then_exits_leaving_nothing(tmp_path):
    bot = BotProcess(tmp_path, encoding="utf-8:strict")  # as under a UTF-8 locale
    try:
        bot.type(b"new level 1 time 0.05\n\xff\xfe\n11-15\nboard\n")
        bot.proc.stdin.close()
        assert bot.proc.wait(120) == 0, bot.err.decode()
        out = bot.out.decode()
        assert "not readable text" in out and "you played 11-15" in out and "I played" in out
        assert out.index("not readable text") < out.index("you played 11-15")
        assert bot.seen, "the bot had its search process while it ran"
        assert none_alive(bot.seen, within=5.0)  # a normal exit leaves nothing behind
    finally:
        bot.end()


def test_ctrl_c_in_the_middle_of_a_search_stops_the_bot_quietly_and_leaves_nothing(tmp_path):
    # Its own process group, as a terminal's foreground job.
    bot = BotProcess(tmp_path, session=True, env={"BOT_MAX_MOVE_TIME": "60"})
    try:
        bot.type(b"new english level 6 time 60\n11-15\n")
        bot.wait_for("you played 11-15")  # the bot is searching for a minute now
        time.sleep(0.5)
        children = bot.searchers()
        os.killpg(bot.proc.pid, signal.SIGINT)  # what Ctrl-C sends: to every process of the group
        assert bot.proc.wait(20) == 0  # without waiting for the search to end
        err = bot.err.decode()
        assert "Bye" in err and "Traceback" not in err and "KeyboardInterrupt" not in err, err
        assert none_alive(children, within=5.0)
    finally:
        bot.end()


def test_ctrl_c_while_the_search_processes_start_is_quiet_too(tmp_path):
    bot = BotProcess(tmp_path, session=True)
    try:
        deadline = time.monotonic() + 60
        while b"Starting 1 search process" not in bot.err:  # they are importing the engine now, for about 1 s
            assert time.monotonic() < deadline
            time.sleep(0.01)
        time.sleep(0.1)
        os.killpg(bot.proc.pid, signal.SIGINT)
        assert bot.proc.wait(60) == 0
        err = bot.err.decode()
        assert "Bye" in err and "Traceback" not in err, err
    finally:
        bot.end()


class Broken(io.TextIOBase):
    """Standard input that gives ``lines``, then fails: a terminal gone away."""

    encoding = "utf-8"

    def __init__(self, lines: tuple[bytes, ...] = ()):
        self.lines = lines

    @property
    def buffer(self):
        return self

    def __iter__(self):
        yield from self.lines
        raise OSError(5, "Input/output error")


async def test_input_that_cannot_be_read_any_more_ends_the_chat_with_the_reason():
    queue: asyncio.Queue = asyncio.Queue()
    read_lines(queue, Broken((b"board\n",)))
    assert await asyncio.wait_for(queue.get(), 5) == "board"
    lost = await asyncio.wait_for(queue.get(), 5)
    assert isinstance(lost, InputLost) and "Input/output error" in str(lost)
    with pytest.raises(InputLost):  # the chat ends with it rather than waiting for ever
        await asyncio.wait_for(chat(None, Terminal(Path("."), out=io.StringIO()), Broken()), 5)  # type: ignore[arg-type]


def test_a_fresh_bot_builds_the_endgame_databases_in_the_background_and_plays_meanwhile(tmp_path):
    egtb = tmp_path / "egtb"
    bot = BotProcess(tmp_path, env={"BOT_ENDGAME_PIECES": "3", "ENGINE_EGTB_DIR": str(egtb)})
    try:
        bot.type(b"new english level 1\n")
        bot.wait_for("your move")  # the bot answers while the build runs
        assert b"Building the endgame databases up to 3 pieces" in bot.err
        deadline = time.monotonic() + 120
        while len(list(egtb.glob("*-3.json"))) < 4:
            assert time.monotonic() < deadline and bot.proc.poll() is None, bot.err.decode()
            time.sleep(0.2)
        bot.type(b"resign\n")
        bot.wait_for("you resigned")
    finally:
        bot.end()
    assert sorted(p.name for p in egtb.glob("*-3.json")) == [f"{n}-3.json" for n in
                                                             ("brazilian", "english", "international", "russian")]


def build_of(bot: BotProcess, name: str, written: Path, timeout: float = 120.0) -> int:
    """The id of the bot's endgame database build of game ``name``, once it has written ``written``."""
    deadline = time.monotonic() + timeout
    while True:
        for pid in bot.searchers() if written.exists() else ():
            with contextlib.suppress(OSError):
                words = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
                if b"egtb" in words and name.encode() in words:
                    return pid
        assert time.monotonic() < deadline and bot.proc.poll() is None, bot.err.decode()
        time.sleep(0.1)


@pytest.fixture(scope="module")
def built_before_international_4(tmp_path_factory) -> Path:
    """The databases a bot asked for 4 pieces builds before International's 4 (English's 4, 8 s; International's
    up to 3), built once for the tests that stop that build."""
    egtb = tmp_path_factory.mktemp("egtb")
    for name, pieces in (("english", "4"), ("international", "3")):
        subprocess.run([sys.executable, "-m", "engine", "egtb", "build", "--variant", name, "--pieces", pieces,
                        "--quiet"], env={**os.environ, "ENGINE_EGTB_DIR": str(egtb)}, check=True, timeout=300,
                       stdout=subprocess.DEVNULL)
    return egtb


@pytest.mark.parametrize("stop, everyone", [(signal.SIGKILL, False), (signal.SIGTERM, False), (signal.SIGTERM, True)],
                         ids=["SIGKILL", "SIGTERM", "SIGTERM to every process"])
def test_the_endgame_database_build_ends_with_the_bot_however_it_is_stopped(tmp_path, stop, everyone,
                                                                             built_before_international_4):
    # SIGTERM to the bot alone is how docker stops it; systemd sends it to every process of the service at once.
    egtb = tmp_path / "egtb"
    shutil.copytree(built_before_international_4, egtb)
    bot = BotProcess(tmp_path, env={"BOT_ENDGAME_PIECES": "4", "ENGINE_EGTB_DIR": str(egtb)})
    processes: set[int] = set()
    try:
        # International's 4 pieces: over 30 s of work without a word written, the bot's first build here
        build = build_of(bot, "international", egtb / "international-3.json")
        bot.type(b"new english level 6 time 0.1\n11-15\n")
        bot.wait_for("I played")  # the search process is up
        # and the build past its start-up (about half a second of work): it runs at a low priority, so on a
        # busy machine that can take many seconds, while a killed bot's processes must end within five
        deadline = time.monotonic() + 120
        while cpu_seconds(build) < 1.0:
            assert time.monotonic() < deadline and bot.proc.poll() is None, bot.err.decode()
            time.sleep(0.1)
        processes |= bot.searchers() | {bot.proc.pid}
        assert build in processes and len(processes) >= 3, processes  # the bot, its search process, the build
        for pid in processes if everyone else {bot.proc.pid}:
            os.kill(pid, stop)
        status = bot.proc.wait(30)
        assert none_alive(processes, within=5.0), [p for p in processes if alive(p)]
        if stop == signal.SIGTERM:  # stopped as cleanly as by Ctrl-C
            err = bot.err.decode()
            assert status == 0 and "Bye" in err and "Traceback" not in err, (status, err)
            assert "failed" not in err and "restarted" not in err, err  # a build ended by the signal is no failure
    finally:
        bot.end()
        for pid in processes:  # a build left running is this test's to end
            if alive(pid):
                os.kill(pid, signal.SIGKILL)



@pytest.mark.parametrize("order", ["together", "search_processes_first"])
def test_sigterm_to_every_process_of_the_bot_at_once_starts_nothing_and_leaves_nothing(tmp_path, order):
    # How systemd stops a service (KillMode=control-group): SIGTERM to all its processes at once, in no set order;
    # "search_processes_first" is the worst case of that, the bot hearing its signal a moment after the others (its
    # event loop busy). The search processes must not die of it and be replaced: the bot ends them itself.
    bot = BotProcess(tmp_path, session=True, env={"BOT_WORKERS": "2"})
    try:
        bot.type(b"new english level 6 time 8\n11-15\n")
        bot.wait_for("you played 11-15")  # the bot is searching for 8 s now
        time.sleep(0.5)
        before = bot.searchers()
        assert len(before) >= 3, before  # two search processes and multiprocessing's helper
        if order == "together":
            os.killpg(bot.proc.pid, signal.SIGTERM)
        else:
            for pid in before:
                os.kill(pid, signal.SIGTERM)
            time.sleep(0.2)
            os.kill(bot.proc.pid, signal.SIGTERM)
        seen = set(before)
        while bot.proc.poll() is None:  # closer than BotProcess's watch: a process started and ended at once counts
            seen |= family(bot.proc.pid)
            time.sleep(0.002)
        err = bot.err.decode()
        assert bot.proc.returncode == 0 and "Bye" in err and "Traceback" not in err, (bot.proc.returncode, err)
        assert "restarted" not in err and "died" not in err, err
        assert seen == before, f"started while stopping: {seen - before}"
        assert none_alive(seen, within=5.0), [p for p in seen if alive(p)]
    finally:
        bot.end()


def test_a_tournament_killed_mid_round_goes_on_after_a_restart_with_the_same_pairings_and_games(tmp_path):
    import re
    import sqlite3

    movers = re.compile(rb"\[Tournament #1, round 1, board \d\] English: .*?\. (\w+), your move")
    join = b"".join(b"as %s\ntournament join\n" % name for name in (b"ana", b"ben", b"eve", b"dan"))
    bot = BotProcess(tmp_path)
    try:
        bot.type(b"tournament swiss english 10+0 2 rounds casual\n" + join + b"as you\ntournament start\n")
        bot.wait_for("Round 1 of 2:")
        bot.wait_for("round 1, board 2]")
        first, second = movers.findall(bytes(bot.out))[:2]
        bot.type(b"as %s\n11-15\n" % first)  # typed in the tournament's channel: to their board
        bot.wait_for(f"{first.decode()} played 11-15")
        os.kill(bot.proc.pid, signal.SIGKILL)
        bot.proc.wait(10)
    finally:
        bot.end()
    again = BotProcess(tmp_path)
    try:
        again.type(b"tournament\n")
        again.wait_for("Under way: round 1.")
        again.type(b"as %s\nboard\n" % second)
        again.wait_for("your move")
        for name in (first, second):  # a player of each board gives up: the round is over
            again.type(b"as %s\nresign\n" % name)
        again.wait_for("Round 2 of 2:", timeout=60)  # paired by the restarted process's clock
    finally:
        again.end()
    db = sqlite3.connect(tmp_path / "bot.sqlite3")
    rooms = db.execute("SELECT channel, count(*) FROM games WHERE channel LIKE 'terminal~t1.1.%' GROUP BY channel")
    assert sorted(n for _, n in rooms) == [1, 1]  # each board of round 1 had one game, never started twice
    assert db.execute("SELECT count(*) FROM tournament_pairings").fetchone()[0] == 4
    moved = db.execute("SELECT count(*) FROM moves m JOIN games g ON g.id = m.game"
                       " WHERE g.channel LIKE 'terminal~t1.1.%'").fetchone()[0]
    assert moved == 1  # the move made before the kill was kept
