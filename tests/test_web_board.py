"""The analysis board's API against a real bot core and search process (tests/test_web_browser_board.py has what a
person sees): moves replayed from any start, refusals that change nothing, a position set up by hand, the engine's
look for White with its best line, one look at a time per person and a few in all, and a game's position opened on
the board."""

from __future__ import annotations

import asyncio
from urllib.parse import parse_qs, urlsplit

from bot.web.board_routes import BOARD_LOOKS, LOOK_BUSY, ONE_AT_A_TIME
from bot.web.site import SITE
from engine import game_type
from test_web import site  # noqa: F401 (the fixture)
from test_web_browser_layout import people_game


async def board(client, body: dict, path: str = "/api/board"):
    response = await client.post(path, json=body)
    return response.status, await response.json()


async def test_moves_are_replayed_from_any_start_and_a_refused_one_changes_nothing(site):
    chat, client = site
    status, shown = await board(client, {"variant": "english"})
    gt = game_type("english")
    assert status == 200 and shown["fen"] == gt.write_position(gt.new_game().position) and len(shown["entries"]) == 1
    assert sorted(m["text"] for m in shown["legal"]) == sorted(gt.write_move(gt.new_game().position, m)
                                                               for m in gt.legal_moves(gt.new_game().position))
    status, shown = await board(client, {"variant": "english", "moves": ["11-15", "23-19"]})  # as typed
    assert status == 200 and shown["moves"] == ["11-15", "23-19"] and len(shown["entries"]) == 3
    assert shown["entries"][2]["move"]["text"] == "23-19" and shown["entries"][2]["turn"] == "Black"
    status, refused = await board(client, {"variant": "english", "moves": ["11-15", "11-16"]})
    assert status == 400 and refused["error"].endswith("The board stays as it was.") and set(refused) == {"error"}
    status, refused = await board(client, {"variant": "international", "start": "W:W99:B1"})
    assert status == 400 and "not a position of this variant" in refused["error"]
    for body in ({"variant": "chess"}, {"variant": "english", "moves": "11-15"}, {"variant": "english", "start": 5},
                 {"variant": "english", "moves": ["1" * 101]}, []):
        status, refused = await board(client, body)
        assert status == 400 and "analysis board's question" in refused["error"], body
    # a finished position: no moves, and how it ended
    status, over = await board(client, {"variant": "english", "start": "B:W18:B14", "moves": ["14x23"]})
    assert status == 200 and over["legal"] == [] and over["over"]


async def test_a_position_set_up_by_hand_is_its_fen(site):
    chat, client = site
    status, answer = await board(client, {"variant": "english", "turn": "Black",
                                          "pieces": [[7, 0, "W"], [0, 1, "b"], [2, 1, "B"]]}, "/api/board/setup")
    assert status == 200
    gt = game_type("english")
    position = gt.read_position(answer["fen"])
    assert position.turn.name == "BLACK" and sorted(gt.pieces(position)) == [((0, 1), "b"), ((2, 1), "B"),
                                                                              ((7, 0), "W")]
    status, refused = await board(client, {"variant": "english", "turn": "White", "pieces": [[0, 0, "w"]]},
                                  "/api/board/setup")  # a light square
    assert status == 400 and "cannot be set up" in refused["error"]
    status, refused = await board(client, {"variant": "tablut", "turn": "White", "pieces": []}, "/api/board/setup")
    assert status == 400


async def test_the_engine_looks_for_white_one_position_at_a_time_per_person_and_a_few_in_all(site):
    chat, client = site
    status, seen = await board(client, {"variant": "english", "start": "W:W27,K10:B3,6"}, "/api/board/eval")
    assert status == 200 and ("score" in seen or "winner" in seen)
    assert seen["line"] and seen["best_path"] and -1 <= seen["chances"] <= 1
    status, black = await board(client, {"variant": "english", "start": "B:WK18,K22,27:B3"}, "/api/board/eval")
    assert status == 200 and (black.get("score", 0) > 0 or black.get("winner") == "White")  # still White's view
    assert black["chances"] > 0.5

    looking = client.app[SITE].looking
    first = asyncio.ensure_future(board(client, {"variant": "international"}, "/api/board/eval"))
    while not looking:
        await asyncio.sleep(0.001)
    status, refused = await board(client, {"variant": "english"}, "/api/board/eval")
    assert status == 429 and refused["error"] == ONE_AT_A_TIME
    assert (await first)[0] == 200 and not looking
    looking.update(f"10.0.0.{n}" for n in range(BOARD_LOOKS))  # a crowd's looks under way: the rest wait outside
    status, refused = await board(client, {"variant": "english"}, "/api/board/eval")
    assert status == 503 and refused["error"] == LOOK_BUSY
    looking.clear()


async def test_a_games_position_opens_on_the_board(site):
    chat, client = site
    game_id = await people_game(chat, 6)
    await chat.core.start()
    ref = chat.pages.game_path(game_id).split("/")[-1]
    response = await client.get(f"/analysis/g/{ref}?ply=4", allow_redirects=False)
    assert response.status == 302
    asked = {k: v[0] for k, v in parse_qs(urlsplit(response.headers["Location"]).query).items()}
    record = (await chat.pages.find(game_id)).game
    assert asked["variant"] == "english" and len(asked["moves"].split()) == 4
    status, shown = await board(client, {"variant": "english", "start": asked["start"],
                                         "moves": asked["moves"].split()})
    assert status == 200 and shown["fen"] == record.type.write_position(record.positions[4])
    assert (await client.get(f"/analysis/g/{game_id}-nokey", allow_redirects=False)).status == 404
    assert (await client.get("/analysis")).status == 200
