"""Past one machine, end to end: two real bot processes, on shards 0 and 1 of 2, around one real PostgreSQL
server, serving two servers of the Discord emulator, and the web tier's process (``python -m bot web``) serving
the page of every game to a real browser. Games are played on both shards, one of them from the browser as well as
in the chat; shard 0's process is killed with SIGKILL and started again; every game comes back exactly once, on the
process that runs its shard, and the open page follows its game."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
import threading
from pathlib import Path

import pytest
import pytest_asyncio

from bot.core.state import MOVED_ELSEWHERE
from bot.store.postgres import PostgresStore
from engine import game_type
from discord_emulator import ANA, BEN, GUILD, DiscordEmulator, components, text_of
from postgres import fresh_database
from test_web_browser import CHROMIUM, DRIVER, Browser, my_turn, play_by_clicking

TESTS = Path(__file__).resolve().parent
START = "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def settings(database: str, tmp: Path) -> dict[str, str]:
    """What every process of the bot here is started with."""
    return {**os.environ, "BOT_DATABASE": database, "BOT_WORKERS": "1", "BOT_SEARCH_THREADS": "1",
            "BOT_ENDGAME_PIECES": "0", "BOT_LOG_LEVEL": "INFO", "BOT_TT_MB": "8",
            "BOT_IMAGE_DIR": str(tmp / "boards"), "PYTHONPATH": str(TESTS.parent)}


class BotProcess:
    """``python -m bot --discord`` for some shards (or, with ``web``, ``python -m bot web``), its log lines
    collected as they come."""

    def __init__(self, emulator: DiscordEmulator | None, database: str, shards: str, tmp: Path, web_url: str = "",
                 web: bool = False):
        """``web_url``: the web tier's address, for the links the chat gives (the process serves its own page on a
        port of its own, as a chat process does)."""
        env = settings(database, tmp)
        if web:
            env.update(BOT_WEB="true", BOT_WEB_PORT=web_url.rsplit(":", 1)[1], BOT_WEB_URL=web_url)
            command = [sys.executable, "-m", "bot", "web"]
        else:
            assert emulator is not None
            env.update(DISCORD_TOKEN=emulator.token, BOT_SHARD_COUNT="2", BOT_SHARD_IDS=shards)
            if web_url:
                env.update(BOT_WEB="true", BOT_WEB_PORT=str(free_port()), BOT_WEB_URL=web_url)
            else:
                env.update(BOT_WEB="false")
            command = [sys.executable, str(TESTS / "emulated_bot.py"), emulator.api, emulator.gateway_url]
        self.lines: list[str] = []
        self.process = subprocess.Popen(command, env=env, cwd=tmp, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                        text=True)
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.append(line.rstrip())

    async def said(self, words: str, timeout: float = 90.0) -> str:
        """The first log line with ``words``, waiting for it."""
        for _ in range(int(timeout / 0.1)):
            found = [line for line in self.lines if words in line]
            if found:
                return found[0]
            if self.process.poll() is not None:
                break
            await asyncio.sleep(0.1)
        raise AssertionError(f"the bot never said {words!r}; its log:\n" + "\n".join(self.lines[-30:]))

    async def taken_back(self) -> str:
        """Its log line on the games it took back, once it is connected too: Discord sends nothing to a process
        before its session is up, so a test that acts on the line alone can lose its interaction."""
        line = await self.said("took back")
        await self.said("connected as")
        return line

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=30)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()


@pytest_asyncio.fixture(loop_scope="session")
async def emulator():
    emu = DiscordEmulator(two_servers=True)
    await emu.start()
    yield emu
    await emu.close()


def shown(stored: list[str]) -> list[str]:
    """Stored moves (full paths, "22x15x8") as a page's move list writes them ("22x8")."""
    record = game_type("english").new_game()
    for text in stored:
        record.play_text(text)
    return [record.type.write_move(before, move) for before, move in zip(record.positions, record.moves)]


def menu(message: dict) -> dict | None:
    return next((c for c in components(message) if c["type"] == 3), None)


async def play_from_the_menu(emu: DiscordEmulator, person: dict, channel: int) -> None:
    """``person`` picks the first move from the newest board's menu, and the bot answers."""
    since = len(emu.posts)
    board = [m for m in emu.posted(channel) if menu(m) is not None][-1]
    await emu.answer(await emu.choose(person, board, menu(board)["options"][0]["value"]))
    await emu.wait_for(lambda m: int(m["channel_id"]) == channel and "I played" in text_of(m), since,
                       what="the bot's answer", timeout=60)


@pytest.mark.skipif(not (CHROMIUM and DRIVER), reason="no chromium and chromedriver here (./run-tests installs them "
                                                     "as root)")
async def test_two_shards_and_the_web_tier_a_killed_shard_takes_its_games_back_and_the_open_page_follows(
        emulator, postgres_server, tmp_path):
    database = await fresh_database(postgres_server)
    web_url = f"http://127.0.0.1:{free_port()}"  # the one address of the site: the web tier's process
    first = BotProcess(emulator, database, "0", tmp_path, web_url)
    second = BotProcess(emulator, database, "1", tmp_path, web_url)
    web = BotProcess(None, database, "", tmp_path, web_url, web=True)
    processes = [first, second, web]
    browser: Browser | None = None
    try:
        assert "took back 0 unfinished games" in await first.taken_back()
        assert "took back 0 unfinished games" in await second.taken_back()
        await web.said(f"Web page: {web_url}/")
        here, there = emulator.channel("games"), emulator.channel("games-b")  # on shards 0 and 1
        for person, channel in ((ANA, here), (BEN, there)):
            await emulator.answer(await emulator.slash(person, channel, "new", level=1, time=0.05, colour="white"))
            await emulator.wait_for(lambda m, c=channel: int(m["channel_id"]) == c and "I played" in text_of(m),
                                    what="the bot's first move", timeout=60)
        await play_from_the_menu(emulator, BEN, there)

        # Ana's seat link, from shard 0's button, opens her game on the web tier's process
        board = [m for m in emulator.posted(here) if menu(m) is not None][-1]
        link = text_of(await emulator.answer(await emulator.press(ANA, board, "Play in browser"))).split()[-1]
        assert link.startswith(f"{web_url}/g/") and "#seat=" in link
        browser = await asyncio.to_thread(Browser)
        await asyncio.to_thread(browser.open, link)
        await asyncio.to_thread(play_by_clicking, browser, lambda legal: legal[0])  # played by shard 0
        state = await asyncio.to_thread(browser.wait, lambda s: len(s["entries"]) == 4 and my_turn(s))
        since = len(emulator.posts)
        await emulator.say(ANA, here, state["status"]["legal"][0]["text"])  # and a move typed in the chat
        await emulator.wait_for(lambda m: int(m["channel_id"]) == here and "I played" in text_of(m), since,
                                what="the bot's answer", timeout=60)
        await asyncio.to_thread(browser.wait, lambda s: len(s["entries"]) == 6 and my_turn(s))
        await asyncio.to_thread(browser.js, "window.neverReloaded = true")

        first.kill()  # shard 0's process dies mid-game: nothing of it is left running to finish its writes
        await play_from_the_menu(emulator, BEN, there)  # shard 1 plays on meanwhile
        again = BotProcess(emulator, database, "0", tmp_path, web_url)
        processes.append(again)
        assert "shards 0 of 2: took back 1 unfinished games" in await again.taken_back()
        # the open page goes on where it was, played by the new process
        await asyncio.to_thread(play_by_clicking, browser, lambda legal: legal[0])
        state = await asyncio.to_thread(browser.wait, lambda s: len(s["entries"]) == 8 and my_turn(s))
        assert await asyncio.to_thread(browser.js, "return window.neverReloaded === true")

        # every game exactly once, on its own shard's process, with nothing lost and nothing played twice
        assert len([m for m in emulator.posted(here) if "I played" in text_of(m)]) == 4
        assert len([m for m in emulator.posted(there) if "I played" in text_of(m)]) == 3
        assert [line for line in second.lines if "took back" in line][0].endswith("took back 0 unfinished games")
        assert len([line for line in second.lines if "took back" in line]) == 1
        store = await PostgresStore.connect(database)
        try:
            games = {g.channel: g.moves for g in await store.active_games()}
        finally:
            await store.close()
        assert set(games) == {str(here), str(there)}
        assert len(games[str(here)]) == 7 and len(games[str(there)]) == 5
        assert [entry["move"]["text"] for entry in state["entries"][1:]] == shown(games[str(here)])  # the page's, too
        web.process.terminate()  # as systemd stops it
        assert web.process.wait(timeout=30) == 0 and "The web page stops." in web.lines
    finally:
        if browser is not None:
            await asyncio.to_thread(browser.close)
        for process in processes:
            process.stop()


async def test_two_processes_that_both_hold_a_game_apply_exactly_one_move_of_it(emulator, postgres_server, tmp_path):
    database = await fresh_database(postgres_server)
    here = emulator.channel("games")
    store = await PostgresStore.connect(database)
    try:
        await store.create_game(str(GUILD), str(here), "english", START, "people",
                                {"white": {"user": [BEN["id"], "Ben"]}, "black": {"user": [ANA["id"], "Ana"]}},
                                {"budget": 1.0, "rated": False, "channel_name": "games"})
    finally:
        await store.close()
    # both claim shard 0 (the mistake a hand-over can make): both hold the game, and both read Ana's move
    one, two = BotProcess(emulator, database, "0", tmp_path), BotProcess(emulator, database, "0", tmp_path)
    try:
        for process in (one, two):
            assert "took back 1 unfinished games" in await process.taken_back()
        since = len(emulator.posts)
        await emulator.say(ANA, here, "11-15")
        await emulator.wait_for(lambda m: "Ana played 11-15" in text_of(m), since, what="the move", timeout=60)
        await emulator.wait_for(lambda m: MOVED_ELSEWHERE in text_of(m), since, what="the loser's note", timeout=60)
        await asyncio.sleep(1.0)
        posts = [text_of(m) for m in emulator.posted(here, since)]
        assert sum("Ana played 11-15" in t for t in posts) == 1 and sum(MOVED_ELSEWHERE in t for t in posts) == 1
        store = await PostgresStore.connect(database)
        try:
            assert [g.moves for g in await store.active_games()] == [["11-15"]]
        finally:
            await store.close()
    finally:
        for process in (one, two):
            process.stop()
