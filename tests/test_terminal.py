"""The terminal chat typed at a terminal: lines are answered as a channel answers messages, each on its own."""

from __future__ import annotations

import asyncio
import io
import time
from pathlib import Path

import pytest

from bot.config import ConfigError, load
from bot.core import Core
from bot.store import SqliteStore
from bot.terminal import CHANNEL, Terminal, chat
from bot.translation import language_of
from chat import config


class SlowStore(SqliteStore):
    """A database that takes ``delay`` seconds to take a move, as one that is frozen does until it gives up."""

    delay = 3.0

    async def add_move(self, game: int, version: int, ply: int, move: str, clocks: list[float] | None = None) -> int:
        await asyncio.sleep(self.delay)
        return await super().add_move(game, version, ply, move, clocks)


class Typed(io.TextIOBase):
    """A terminal: each line comes after a pause, as a person types it."""

    encoding = "utf-8"

    def __init__(self, *lines: tuple[float, str]):
        self.lines = lines

    def isatty(self) -> bool:
        return True

    def __iter__(self):
        for pause, line in self.lines:
            time.sleep(pause)  # read_lines reads in a thread of its own
            yield line + "\n"


async def test_help_typed_while_a_move_waits_on_the_database_is_answered_at_once(pool, tmp_path):
    out = io.StringIO()
    terminal = Terminal(tmp_path, out=out)
    core = Core(config(), SlowStore(":memory:"), pool, terminal.send)
    started = time.monotonic()
    await chat(core, terminal, Typed((0, "challenge @ben white casual"), (0, "as ben"), (0, "accept"),
                                     (0.3, "9-13"), (0.3, "help")))
    text = out.getvalue()
    assert "Commands:" in text and "ben played 9-13" in text
    assert text.index("Commands:") < text.index("ben played 9-13")
    assert time.monotonic() - started < 2 * SlowStore.delay  # one wait on the database, not one per line
    await core.close()


async def test_with_bot_language_ru_the_terminal_answers_a_game_in_russian(pool, tmp_path):
    out = io.StringIO()
    terminal = Terminal(tmp_path, out=out, language=language_of(load({"BOT_LANGUAGE": "ru"}, dotenv=None).language))
    core = Core(config(), SqliteStore(":memory:"), pool, terminal.send)
    await chat(core, terminal, Typed((0, "challenge @ben white casual"), (0, "as ben"), (0, "accept"),
                                     (0, "9-13"), (0, "moves"), (0, "resign")))
    text = out.getvalue()
    assert "ben: ход 9-13." in text and "you, ваш ход (Белые)." in text  # names and moves as typed
    assert "\nХод: Белые\n" in text and "White to move" not in text  # the diagram's last line too
    assert "(для ben) Возможные ходы (Белые): 21-17, 22-17" in text  # the moves of the side to move, privately
    assert "ben сдался(-ась)" in text and "Победа: you (Белые)" in text
    await core.close()


def test_bot_language_must_be_one_the_bot_speaks():
    with pytest.raises(ConfigError, match="BOT_LANGUAGE must be one of en, nl, fr, ru, pt_BR"):
        load({"BOT_LANGUAGE": "de"}, dotenv=None)


async def test_a_blitz_game_in_the_terminal_shows_both_clocks_and_is_lost_by_the_side_whose_time_runs_out(
        pool, tmp_path):
    from chat import Clock

    out = io.StringIO()
    terminal = Terminal(tmp_path, out=out)
    clock = Clock()
    core = Core(config(), SqliteStore(":memory:"), pool, terminal.send, clock=clock)
    await chat(core, terminal, Typed((0, "challenge @ben white 1+0"), (0, "as ben"), (0, "accept"), (0, "9-13"),
                                     (0, "as you"), (0, "22-18")))
    text = out.getvalue()
    assert "Clocks: 1+0 (bullet)." in text and "Clocks: White 1:00, Black 1:00" in text  # under the text board
    assert core.game_in(CHANNEL) is not None
    clock.now += 61  # ben, Black, thinks too long
    await core.tick()
    assert "you (White) wins: ben ran out of time." in out.getvalue()
    assert core.game_in(CHANNEL) is None
    await core.close()
