"""The bot's parts on their own: settings, ratings, the database, the search pool, the terminal chat."""

import asyncio
import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bot import config as settings
from bot.pool import PoolBusy
from bot.ratings import NOMINAL, Rating, level_rating, update
from bot.store import MIGRATIONS, VERSION, SqliteStore, StoreError
from bot.translation import render, tr
from bot.user_text import plain
from bot.worker import Job
from engine import start_position, to_fen, variant
from engine.search import History
from helpers import seed_ratings

ROOT = Path(__file__).resolve().parent.parent


def test_settings_come_from_the_environment_over_dotenv(tmp_path):
    dotenv = tmp_path / ".env"
    dotenv.write_text("# comment\nDISCORD_TOKEN='secret-token'\nBOT_WORKERS=3\nexport BOT_MOVE_TIME=0.5\n")
    config = settings.load({"BOT_WORKERS": "2"}, dotenv)
    assert (config.token, config.workers, config.move_time) == ("secret-token", 2, 0.5)
    assert "secret-token" not in repr(config)
    assert settings.load({}, None).workers == max(1, (os.cpu_count() or 2) - 1)


def test_a_dotenv_line_may_end_in_a_comment(tmp_path):
    dotenv = tmp_path / ".env"
    dotenv.write_text("BOT_WORKERS=2  # two\nBOT_THREADS=yes # in threads\nDISCORD_TOKEN='se#cret'  # quoted\n"
                      "BOT_DATABASE=games.sqlite3#not-a-comment\n")
    config = settings.load({}, dotenv)
    assert (config.workers, config.threads, config.token) == (2, True, "se#cret")
    assert config.database == "games.sqlite3#not-a-comment"  # a # within a word is part of the value


def test_a_dotenv_line_without_an_equals_sign_is_refused_by_its_number_never_its_text(tmp_path):
    dotenv = tmp_path / ".env"
    for text, number in (("BOT_WORKERS=2\nMTIzNDU2Nzg5.pasted-token\n", 2), ("BOT_WORKERS\n", 1),
                         ("DISCORD_TOKEN=abc\nDISCORD\n", 2), ("# the token\nDISCORD_TOKEN pasted-token\n", 2),
                         ("=pasted-token\n", 1)):
        dotenv.write_text(text)
        with pytest.raises(settings.ConfigError, match=rf"\.env:{number}: expected KEY=VALUE") as refused:
            settings.load({}, dotenv)
        assert "pasted-token" not in str(refused.value)


@pytest.mark.parametrize("env, expected", [
    ({"BOT_WORKERS": "two"}, "BOT_WORKERS must be a whole number"), ({"BOT_WORKERS": "0"}, "at least 1"),
    ({"BOT_SEARCH_THREADS": "0"}, "BOT_SEARCH_THREADS must be 1 to"),
    ({"BOT_SEARCH_THREADS": str((os.cpu_count() or 1) + 1)}, "this machine's cores"),
    ({"BOT_MOVE_TIME": "-1"}, "BOT_MOVE_TIME must not be negative"), ({"BOT_LOG_LEVEL": "loud"}, "BOT_LOG_LEVEL"),
    ({"BOT_ENDGAME_PIECES": "6"}, "BOT_ENDGAME_PIECES must be 0 \\(no databases\\) or 2 to 5"),
])
def test_bad_settings_name_the_key(env, expected):
    with pytest.raises(settings.ConfigError, match=expected):
        settings.load(env, None)


def test_the_operator_may_ask_for_the_5_piece_databases():
    assert settings.load({"BOT_ENDGAME_PIECES": "5"}, None).endgame_pieces == 5


def test_env_example_lists_every_setting():
    example = (ROOT / ".env.example").read_text()
    for key in settings.KEYS.values():
        assert f"\n{key}=" in example or example.startswith(f"{key}=") or f"# {key}=" in example, key


def test_glicko2_matches_glickmans_worked_example():
    # Glickman, "Example of the Glicko-2 system" (2013): 1500/200/0.06 after 1400/30 won, 1550/100 and 1700/300 lost
    new = update(Rating(1500, 200, 0.06), [(Rating(1400, 30), 1), (Rating(1550, 100), 0), (Rating(1700, 300), 0)])
    assert new.rating == pytest.approx(1464.06, abs=0.02) and new.rd == pytest.approx(151.52, abs=0.01)
    assert new.volatility == pytest.approx(0.05999, abs=1e-5)


def test_a_win_raises_a_rating_and_a_loss_lowers_it():
    assert update(Rating(), [(Rating(), 1)]).rating > 1500 > update(Rating(), [(Rating(), 0)]).rating
    assert update(Rating(), [(Rating(), 0.5)]).rating == pytest.approx(1500)


def test_the_bots_levels_are_rated_by_their_measured_ladder():
    table = json.loads((ROOT / "bot" / "level_ratings.json").read_text())
    measured = [name for name in table if not name.startswith("_")]
    assert {"english", "international"} <= set(measured)
    for name in measured:
        ratings = [level_rating(name, n).rating for n in range(1, 7)]
        assert ratings == [table[name][str(n)] for n in range(1, 7)]
        assert ratings[0] == 600 and all(b > a for a, b in zip(ratings, ratings[1:])), "each level above the last"
        assert name in table["_made_by"], "how it was measured"
    assert level_rating("tablut", 6).rating == NOMINAL[6], "no ladder measured: the nominal guess"


async def test_an_old_database_migrates_forward_and_keeps_its_games(tmp_path):
    path = tmp_path / "old.sqlite3"
    db = sqlite3.connect(path)
    db.executescript(MIGRATIONS[0].sqlite + "; PRAGMA user_version = 1;")
    db.execute("INSERT INTO games (guild, channel, variant, start_fen, kind, seats, settings, status, created, updated)"
               " VALUES ('g', 'c', 'english', 'B:W21-32:B1-12', 'bot', '{}', '{}', 'active', 0, 0)")
    db.execute("INSERT INTO moves VALUES (1, 0, '11-15', 0)")
    db.commit()
    db.close()
    store = SqliteStore(str(path))
    assert await store.version() == VERSION == 14
    assert (await store.active_games())[0].moves == ["11-15"]
    assert (await store.active_games())[0].clocks == [None]  # (an untimed move, as every old one was)
    assert await store.add_move(1, 0, 1, "23-19") == 1  # an old game starts counting its writes at version 0
    assert await store.board_message(1) is None  # a game from before v3 has no board on record
    await store.set_board_message(1, "42")
    assert await store.board_message(1) == "42"
    await seed_ratings(store, "g", "english", [("u", "ana", Rating(1600, 100, 0.06))])
    assert await store.rating("g", "english", "u") == (Rating(1600, 100, 0.06), 1)


def test_a_database_from_a_newer_bot_is_refused(tmp_path):
    path = tmp_path / "new.sqlite3"
    sqlite3.connect(path).execute(f"PRAGMA user_version = {VERSION + 1}").connection.close()
    with pytest.raises(StoreError, match="newer than this bot"):
        SqliteStore(str(path))


def _job(budget: float) -> Job:
    return Job("english", to_fen(start_position(variant("english"))), History(), 6, budget)


async def test_jobs_from_many_channels_take_turns(pool):
    order: list[str] = []

    async def ask(channel: str) -> None:
        await pool.think(channel, _job(0.1))
        order.append(channel)

    tasks = [asyncio.create_task(ask("busy")) for _ in range(3)]
    await asyncio.sleep(0.01)
    tasks.append(asyncio.create_task(ask("quiet")))
    await asyncio.gather(*tasks)
    assert order.index("quiet") == 1  # after the busy channel's first job, not after all three


async def test_a_full_queue_says_busy(pool):
    saved, pool.queue_limit = pool.queue_limit, 1
    try:
        first = asyncio.create_task(pool.think("a", _job(0.2)))
        second = asyncio.create_task(pool.think("b", _job(0.2)))
        await asyncio.sleep(0.01)
        with pytest.raises(PoolBusy):
            await pool.think("c", _job(0.2))
        assert (await first).move and (await second).move
    finally:
        pool.queue_limit = saved


async def test_a_search_running_alone_gets_the_spare_threads_and_one_with_others_waiting_does_not(pool):
    saved, pool.threads = pool.threads, 2
    try:
        alone = await pool.think("a", _job(0.2))
        assert alone.threads == 2 and alone.move
        answers = await asyncio.gather(*[pool.think(f"threads {c}", _job(0.2)) for c in "abc"])
        # the first starts alone; of the two left waiting, the one started first has the other still waiting
        assert answers[0].threads == 2 and sorted(a.threads for a in answers[1:]) == [1, 2]
    finally:
        pool.threads = saved


def test_the_terminal_chat_plays_from_piped_input(tmp_path):
    env = dict(os.environ, BOT_DATABASE=str(tmp_path / "bot.sqlite3"), BOT_IMAGE_DIR=str(tmp_path / "boards"),
               BOT_MOVE_TIME="0.1", BOT_WORKERS="1")
    env.pop("DISCORD_TOKEN", None)
    run = subprocess.run([sys.executable, "-m", "bot"], input="new english level 6\n11-15\nhelp\nhelp my_cmd\n",
                         capture_output=True, text=True, env=env, cwd=tmp_path, timeout=120)
    out = run.stdout
    assert run.returncode == 0, run.stderr
    assert "you played 11-15" in out and "I played" in out and "Commands:" in out
    assert out.index("you played 11-15") < out.index("I played") < out.index("Commands:")
    assert "no command 'my_cmd'" in out  # words come back as typed, without the escapes Discord needs
    assert (tmp_path / "boards" / "game-1.png").read_bytes().startswith(b"\x89PNG")
    assert " b " in out and " w " in out  # the text diagrams
    again = subprocess.run([sys.executable, "-m", "bot"], input="board\n", capture_output=True, text=True,
                           env=env, cwd=tmp_path, timeout=120)
    assert "Restored game 1" in again.stdout and "you, your move" in again.stdout


def test_the_terminal_chat_speaks_the_language_of_lang(tmp_path):
    env = dict(os.environ, BOT_DATABASE=str(tmp_path / "bot.sqlite3"), BOT_IMAGE_DIR=str(tmp_path / "boards"),
               BOT_MOVE_TIME="0.1", BOT_WORKERS="1", LANG="ru_RU.UTF-8")
    for name in ("DISCORD_TOKEN", "BOT_LANGUAGE", "LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        env.pop(name, None)
    run = subprocess.run([sys.executable, "-m", "bot"], input="new english level 6\n11-15\nresign\n",
                         capture_output=True, text=True, env=env, cwd=tmp_path, timeout=120)
    out = run.stdout
    assert run.returncode == 0, run.stderr
    for english in (tr("Type `help` for the commands, `new` to play me, `as NAME` to type as someone else."),
                    tr("{name} played {move}.", name="you", move="11-15")):
        russian = plain(render(english, "ru"))
        assert russian != plain(english) and russian in out
    assert "you played" not in out and "I played" not in out and "Мой ход" in out
    assert "сдался(-ась)" in out  # the resignation, and the result
