"""The web page against hostile pages, forms and requests, and against a database that does not answer (no
browser here; tests/test_web.py has the protocol as the page uses it)."""

from __future__ import annotations

import asyncio
import logging
import random

import pytest

from bot.web import views
from chat import ANA
from engine.games import GAMES
from test_web import open_page, receive, site  # noqa: F401 (site: the fixture)

PYTHON_WORDS = ("invalid literal", "attribute", "int()", "float", "NoneType", "Traceback", "object", "base 10")


def errors_logged(caplog) -> list[logging.LogRecord]:
    """What was logged as a fault of this server: records at WARNING and above, and any with a traceback."""
    return [r for r in caplog.records if r.levelno >= logging.WARNING or r.exc_info]


# a seat's page sends moves only


async def test_a_seats_page_cannot_send_chat_commands_as_moves(site):
    chat, client = site
    await chat.say(ANA, "new english level 1 time 0.05")
    table = chat.table()
    ws, _ = await open_page(chat, client, seated=True)
    before = len(chat.replies)
    for text in ("pdn", "resign", "help", "board", "draw", "takeback", "new russian", "11-15 resign", "games"):
        await ws.send_json({"type": "move", "text": text, "ply": 0})
        assert "not a move" in (await receive(ws, "notice"))["text"], text
    await asyncio.sleep(0.2)
    assert len(chat.replies) == before  # nothing reached the chat
    assert chat.on("c1") and table.game.moves == []  # not resigned, nothing played
    legal = table.game.type.write_move(table.game.position, table.game.legal_moves()[0], full=True)
    await ws.send_json({"type": "move", "text": legal, "ply": 0})  # a move still moves
    assert (await receive(ws, "update"))["from"] == 1
    await ws.close()


def test_every_move_the_page_offers_passes_the_servers_check_and_reads_back_as_itself():
    """The board sends the texts ``views.legal`` gave it; the hub passes on only texts that are moves."""
    rng = random.Random(30)
    for game_type in GAMES.values():  # a random game of each, captures and crowned pieces' moves among them
        record = game_type.new_game()
        while record.result() is None and len(record.moves) < 100:
            legal = record.legal_moves()
            for move, offered in zip(legal, views.legal(game_type, record.position)):
                assert game_type.is_move_text(offered["text"]), (game_type.name, offered["text"])
                assert game_type.parse_move(record.position, offered["text"]) == move
            record.play(rng.choice(legal))


# the front page's form


@pytest.mark.parametrize("body", [
    "[1,2]", '"str"', "null", "5", "{not json", "[" * 2000 + "]" * 2000,
    '{"kind": "bot", "variant": "english", "level": Infinity}',
    '{"kind": "bot", "variant": "english", "level": NaN}',
    '{"kind": "bot", "variant": "english", "level": "3 time 9"}',
    '{"kind": "bot", "variant": "english", "level": 2.5}',
    '{"kind": "bot", "variant": "english", "level": true}',
    '{"kind": "bot", "variant": "english", "time": "1 level 6"}',
    '{"kind": "bot", "variant": "english", "time": -Infinity}',
    '{"kind": "bot", "variant": "english", "time": -1}',
    '{"kind": "bot", "variant": "english", "time": null}',
    '{"kind": "bot", "variant": "english", "colour": ["white"]}',
    '{"kind": "match", "variant": "english", "levels": [Infinity, 3]}',
    '{"kind": "match", "variant": "english", "levels": 3}',
    '{"kind": "match", "variant": "english", "levels": [3]}',
    '{"kind": "match", "variant": "english", "delay": "fast"}',
    '{"kind": "match", "variant": "english", "delay": 1e400}',
    '{"kind": "chess", "variant": "english"}',
    '{"kind": "bot", "variant": ["english"]}',
])
async def test_a_bad_form_gets_a_400_that_a_person_can_read_and_nothing_is_logged_as_a_fault(site, caplog, body):
    chat, client = site
    caplog.set_level(logging.INFO)
    response = await client.post("/api/new", data=body, headers={"Content-Type": "application/json"})
    assert response.status == 400, await response.text()
    error = (await response.json())["error"]
    assert error.endswith(".") and not any(word in error for word in PYTHON_WORDS), error
    assert not errors_logged(caplog)
    assert chat.hub.web_games() == 0


async def test_a_bad_form_says_which_field_is_wrong(site):
    chat, client = site

    async def error(form: dict) -> str:
        response = await client.post("/api/new", json={"kind": "bot", "variant": "english", **form})
        assert response.status == 400
        return (await response.json())["error"]

    assert "level" in await error({"level": "3 time 9"})
    assert "seconds" in await error({"time": "1 level 6"})
    assert "levels" in await error({"kind": "match", "levels": [7, 3]})
    assert "between moves" in await error({"kind": "match", "delay": "fast"})
    assert "The time per move must be between" in await error({"time": 0.001})  # the core's own words on range
