"""The web page against hostile pages, forms and requests, and against a database that does not answer (no
browser here; tests/test_web.py has the protocol as the page uses it)."""

from __future__ import annotations

import asyncio
import random

from bot.web import views
from chat import ANA
from engine.games import GAMES
from test_web import open_page, receive, site  # noqa: F401 (site: the fixture)

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
