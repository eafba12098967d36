"""The puzzle pages and their API, against a real bot core (no browser here; tests/test_web_browser_puzzles.py
solves puzzles in one): the pages and their 404s, the answers to right, solving, wrong and illegal moves, and the
solution kept from the page until the puzzle is over."""

from __future__ import annotations

import json

from bot.core.daily import day_of, puzzle_of_the_day
from bot.core.puzzles import puzzle_set
from bot.web.puzzle_routes import BAD_ANSWER, NO_PUZZLE, PUZZLE_MOVES
from chat import ANA
from engine import game_type
from test_web import site  # noqa: F401 (the fixture)


def deepest():
    """The English puzzle with the most solver moves (the same one every time)."""
    return max(puzzle_set("english").values(), key=lambda p: (p.solver_moves, p.id))


def written(puzzle) -> list[str]:
    """The puzzle's whole line as players write it (the defender's replies as the page is told them)."""
    gt = game_type(puzzle.variant)
    here, words = gt.read_position(puzzle.position), []
    for text in puzzle.solution:
        move = gt.parse_move(here, text)
        words.append(gt.write_move(here, move))
        here = gt.make(here, move)
    return words


def api(puzzle, ref: str | None = None) -> str:
    return f"/api/puzzle/{puzzle.variant}/{ref or puzzle.id}"


async def answer(client, puzzle, moves: list[str]):
    """The API's answer to the solver's ``moves``: (status, JSON)."""
    response = await client.post(api(puzzle), json={"moves": moves})
    return response.status, await response.json()


async def test_the_puzzle_pages_and_their_friendly_404s(site):
    chat, client = site
    puzzle = deepest()
    for path in ("/puzzles", f"/puzzle/english/{puzzle.id}", "/puzzle/english/daily"):
        page = await client.get(path)
        assert page.status == 200 and page.content_type == "text/html", path
        assert "Content-Security-Policy" in page.headers
    assert b"puzzles.js" in await (await client.get("/puzzles")).read()
    assert b"puzzle.js" in await (await client.get(f"/puzzle/english/{puzzle.id}")).read()
    for path in ("/puzzle/english/00000000", f"/puzzle/russian/{puzzle.id}", "/puzzle/tablut/daily",
                 "/puzzle/chess/daily", "/puzzle/tablut/random", f"/puzzle/english/{puzzle.id.upper()}",
                 "/puzzle/english/%3Cscript%3E"):
        missing = await client.get(path, allow_redirects=False)
        assert missing.status == 404 and await missing.text() == NO_PUZZLE, path
    for path in (api(puzzle, "00000000"), "/api/puzzle/tablut/daily", "/api/streak/tablut"):
        missing = await client.get(path)
        assert missing.status == 404 and (await missing.json())["error"] == NO_PUZZLE, path
    assert (await client.post(api(puzzle, "00000000"), json={"moves": ["11-15"]})).status == 404
    assert (await client.post(f"/api/puzzle/english/{puzzle.id}x/solution")).status == 404

    listed = await (await client.get("/api/puzzles")).json()
    english = next(v for v in listed["variants"] if v["name"] == "english")
    assert english == {"name": "english", "title": game_type("english").title, "count": len(puzzle_set("english")),
                       "daily": "/puzzle/english/daily", "random": "/puzzle/english/random",
                       "streak": "/puzzle/english/streak", "themes": chat.core.puzzle_themes("english")}
    assert sum(english["themes"].values()) == english["count"] and "shot" in english["themes"]
    assert all(v["count"] > 0 for v in listed["variants"]) and "tablut" not in [v["name"] for v in listed["variants"]]
    assert set(chat.core.puzzle_variants()) == {v["name"] for v in listed["variants"]}

    random = await client.get("/puzzle/english/random", allow_redirects=False)
    assert random.status == 302
    target = random.headers["Location"]
    assert target.startswith("/puzzle/english/") and target.rsplit("/", 1)[1] in puzzle_set("english")
    assert (await client.get(target)).status == 200
    assert chat.pages.puzzle_url("english", puzzle.id) == f"http://bot.example/puzzle/english/{puzzle.id}"


async def test_the_page_starts_without_the_solution(site):
    chat, client = site
    puzzle = deepest()
    line = written(puzzle)
    page = await (await client.get(f"/puzzle/english/{puzzle.id}")).text()
    started = await (await client.get(api(puzzle))).json()
    assert set(started) == {"id", "variant", "path", "daily", "board", "themes", "theme", "solver", "entry", "legal"}
    assert started["id"] == puzzle.id and started["path"] == f"/puzzle/english/{puzzle.id}" and not started["daily"]
    gt = game_type("english")
    start = gt.read_position(puzzle.position)
    assert started["theme"] == puzzle.theme and started["solver"] == str(start.turn)
    assert len(started["entry"]["pieces"]) == len(gt.pieces(start)) and started["entry"]["move"] is None
    assert sorted(m["text"] for m in started["legal"]) == sorted(gt.write_move(start, m, full=True)
                                                                 for m in gt.legal_moves(start))
    assert " ".join(line) not in json.dumps(started)
    for move in set(puzzle.solution) | set(line[1:]):  # the page itself holds no puzzle at all
        assert move not in page
    assert started["legal"] and len(started["legal"]) > 1  # the answer is one legal move among others


async def test_a_right_move_gets_the_reply_and_the_last_one_solves_it(site):
    chat, client = site
    puzzle = deepest()
    line = written(puzzle)
    started = await (await client.get(api(puzzle))).json()
    legal = started["legal"]
    gt = game_type("english")
    record = gt.new_game(puzzle.position)
    moves: list[str] = []
    for n in range(puzzle.solver_moves):
        # the page sends the move clicked as the legal moves it was given write it
        due = gt.parse_move(record.position, puzzle.solution[2 * n])
        moves.append(next(m["text"] for m in legal if gt.parse_move(record.position, m["text"]) == due))
        record.play(due)
        if n < puzzle.solver_moves - 1:
            record.play_text(puzzle.solution[2 * n + 1])
        status, shown = await answer(client, puzzle, moves)
        assert status == 200, shown
        if n < puzzle.solver_moves - 1:
            assert shown["verdict"] == "right" and shown["reply"] == line[2 * n + 1]
            mine, reply = shown["entries"]
            assert mine["move"]["text"] == line[2 * n] and reply["move"]["text"] == line[2 * n + 1]
            assert "solution" not in shown and "line" not in shown  # still not over: no more of the line
            legal = shown["legal"]
            assert legal and reply["turn"] == "Black"
        else:
            assert shown["verdict"] == "solved" and shown["line"] == " ".join(line)
            assert len(shown["solution"]) == len(puzzle.solution) + 1
            assert [e["move"]["text"] for e in shown["solution"][1:]] == line
    assert chat.core.try_puzzle(puzzle, moves).verdict == "solved"
    assert not chat.replies  # nothing reached a chat


async def test_moves_as_typed_are_read_too(site):
    chat, client = site
    puzzle = deepest()
    line = written(puzzle)
    status, shown = await answer(client, puzzle, [line[0]])  # 27-24, as a person writes it
    assert status == 200 and shown["verdict"] == "right" and shown["reply"] == line[1]


async def test_a_wrong_move_is_shown_without_the_answer_and_the_solver_may_try_again(site):
    chat, client = site
    puzzle = deepest()
    line = written(puzzle)
    started = await (await client.get(api(puzzle))).json()
    gt = game_type("english")
    start = gt.read_position(puzzle.position)
    right = gt.parse_move(start, puzzle.solution[0])
    other = next(m["text"] for m in started["legal"] if gt.parse_move(start, m["text"]) != right)
    status, shown = await answer(client, puzzle, [other])
    assert status == 200 and shown["verdict"] == "wrong" and shown["entry"]["move"]["text"] == other
    assert " ".join(line) not in json.dumps(shown) and "solution" not in shown  # the answer is not given away
    for extra in ([other, other], [other, "1-5", "1-5"]):  # moves after the wrong one are not looked at
        status, shown = await answer(client, puzzle, extra)
        assert status == 200 and shown["verdict"] == "wrong" and shown["entry"]["move"]["text"] == other, extra
    status, again = await answer(client, puzzle, [puzzle.solution[0]])  # tried again: the right move goes on
    assert status == 200 and again["verdict"] == "right"

    # later in the line (the first of the solver's later moves with a choice): the wrong move is shown there
    record = gt.new_game(puzzle.position)
    for n in range(1, puzzle.solver_moves):
        record.play_text(puzzle.solution[2 * n - 2])
        record.play_text(puzzle.solution[2 * n - 1])
        if len(gt.legal_moves(record.position)) > 1:
            break
    else:
        raise AssertionError("no later move of the solver's has a choice")
    moves = list(puzzle.solution[0:2 * n:2])
    status, before = await answer(client, puzzle, moves)
    assert status == 200 and before["verdict"] == "right"
    due = gt.parse_move(record.position, puzzle.solution[2 * n])
    other = next(m["text"] for m in before["legal"] if gt.parse_move(record.position, m["text"]) != due)
    status, shown = await answer(client, puzzle, moves + [other])
    assert status == 200 and shown["verdict"] == "wrong" and shown["entry"]["move"]["text"] == other
    after = gt.make(record.position, gt.parse_move(record.position, other))
    assert len(shown["entry"]["pieces"]) == len(gt.pieces(after))


async def test_an_illegal_move_or_a_bad_answer_is_refused_and_changes_nothing(site):
    chat, client = site
    puzzle = deepest()
    for moves in (["1-2"], ["abc"], ["9-14"], [puzzle.solution[0], "1-5"]):
        status, shown = await answer(client, puzzle, moves)
        assert status == 400 and "not legal here" in shown["error"], moves
        assert "Traceback" not in shown["error"] and set(shown) == {"error"}
    status, shown = await answer(client, puzzle, ["1-2"])
    assert "There is no piece on 1" in shown["error"]
    for body in ({"moves": "27-24"}, {"moves": []}, {"moves": [27]}, {"moves": [""]}, {"move": ["27-24"]}, [],
                 {"moves": ["27-24"] * (PUZZLE_MOVES + 1)}, {"moves": ["1" * 101]}):
        response = await client.post(api(puzzle), json=body)
        assert response.status == 400 and (await response.json())["error"] == BAD_ANSWER, body
    for raw in (b"not json", b"\xff\xfe", b"[" * 3000):
        response = await client.post(api(puzzle), data=raw)
        assert response.status == 400 and (await response.json())["error"] == BAD_ANSWER
    status, shown = await answer(client, puzzle, [puzzle.solution[0]])  # the refusals left nothing behind
    assert status == 200 and shown["verdict"] == "right"


async def test_the_solution_button_and_the_daily_puzzle(site):
    chat, client = site
    puzzle = deepest()
    shown = await (await client.post(api(puzzle) + "/solution")).json()
    assert shown["verdict"] == "shown" and shown["line"] == " ".join(written(puzzle))
    assert len(shown["solution"]) == len(puzzle.solution) + 1

    today = puzzle_of_the_day("english", day_of(chat.clock())[0])
    daily = await (await client.get("/api/puzzle/english/daily")).json()
    assert daily["daily"] and daily["id"] == today.id == chat.core.daily_puzzle("english").id
    assert daily["path"] == f"/puzzle/english/{today.id}"
    status, first = await answer(client, today, [today.solution[0]])  # answered by its id
    assert status == 200 and first["verdict"] in ("right", "solved")
    # the chat's daily post that day is the same puzzle
    await chat.say(ANA, "daily here hour 0", manager=True, channel="d1")
    await chat.core.tick()
    posted = chat.core.state.puzzles["d1"].served
    assert posted.kind == "daily" and posted.puzzle == today.id
