"""Puzzle training on the page, through its API against a real bot core and database (tests/test_web_browser_puzzles.py
has what a person sees): the first result on each puzzle rated and kept in the person's history, retries and streaks
unrated, the next puzzle near their rating of the theme they chose and not one they had, a streak that climbs, and a
database that does not answer costing the rating, never the puzzle."""

from __future__ import annotations

import asyncio

from bot.core.puzzles import puzzle_set, starting_strength
from bot.store import SaveFailed
from bot.web.site import GUEST_COOKIE
from engine import game_type
from test_web import site  # noqa: F401 (the fixture)
from test_web_puzzles import api, deepest


def wrong_move(puzzle) -> str:
    """A legal first move of ``puzzle`` that is not its answer."""
    gt = game_type(puzzle.variant)
    start = gt.read_position(puzzle.position)
    right = gt.parse_move(start, puzzle.solution[0])
    return next(gt.write_move(start, m) for m in gt.legal_moves(start) if m != right)


async def post(client, path: str, body: dict) -> dict:
    response = await client.post(path, json=body)
    assert response.status == 200, await response.text()
    return await response.json()


async def solve(client, puzzle, streak: bool = False) -> dict:
    """Play the whole answer; the last answer (solved)."""
    for n in range(1, puzzle.solver_moves + 1):
        shown = await post(client, api(puzzle), {"moves": list(puzzle.solution[0:2 * n:2]), "streak": streak})
    assert shown["verdict"] == "solved"
    return shown


async def test_the_first_result_on_a_puzzle_is_rated_and_kept_and_retries_are_not(site):
    chat, client = site
    puzzle = deepest()
    wrong = await post(client, api(puzzle), {"moves": [wrong_move(puzzle)]})
    assert wrong["verdict"] == "wrong" and wrong["rating"]["before"] == 1500 > wrong["rating"]["after"]
    guest = client.session.cookie_jar.filter_cookies(client.make_url("/"))[GUEST_COOKIE].value
    again = await post(client, api(puzzle), {"moves": [wrong_move(puzzle)]})
    assert again["verdict"] == "wrong" and "rating" not in again  # tried again: nothing more counts
    assert "rating" not in await solve(client, puzzle)
    shown = await (await client.post(api(puzzle) + "/solution")).json()
    assert shown["verdict"] == "shown" and "rating" not in shown

    other = next(p for p in puzzle_set("english").values() if p.id != puzzle.id)
    solved = await solve(client, other)
    assert solved["rating"]["before"] == wrong["rating"]["after"] < solved["rating"]["after"]
    given_up = next(p for p in puzzle_set("international").values())
    lost = await (await client.post(api(given_up) + "/solution")).json()
    assert lost["rating"] == {"before": 1500, "after": lost["rating"]["after"]} and lost["rating"]["after"] < 1500

    mine = await (await client.get("/api/me")).json()
    assert [(h["path"], h["solved"], h["rating"]) for h in mine["puzzles"]["history"]] == [
        (f"/puzzle/international/{given_up.id}", False, lost["rating"]["after"]),
        (f"/puzzle/english/{other.id}", True, solved["rating"]["after"]),
        (f"/puzzle/english/{puzzle.id}", False, wrong["rating"]["after"])]
    assert [(r["game"], r["rating"].split()[0], r["puzzles"]) for r in mine["puzzles"]["ratings"]] == [
        ("English", str(solved["rating"]["after"]), 2),
        ("International", str(lost["rating"]["after"]), 1)]
    assert (await chat.store.puzzle_rating(chat.pages.guild, "english", f"web:{guest}"))[1] == 2
    # another browser is another person, with a rating of its own
    client.session.cookie_jar.clear()
    fresh = await post(client, api(puzzle), {"moves": [wrong_move(puzzle)]})
    assert fresh["rating"]["before"] == 1500


async def test_the_next_puzzle_is_near_the_persons_rating_of_their_theme_and_not_one_they_had(site):
    chat, client = site
    themes = chat.core.puzzle_themes("english")
    theme = min(themes, key=themes.get)  # the rarest, so that the person soon has them all
    had = set()
    for _ in range(themes[theme]):
        response = await client.get(f"/puzzle/english/random?theme={theme}", allow_redirects=False)
        assert response.status == 302 and response.headers["Location"].endswith(f"?theme={theme}")
        found = puzzle_set("english")[response.headers["Location"].split("/")[-1].split("?")[0]]
        assert found.theme == theme and found.id not in had
        had.add(found.id)
        await post(client, api(found), {"moves": [wrong_move(found)]})
    again = await client.get(f"/puzzle/english/random?theme={theme}", allow_redirects=False)
    assert again.status == 302  # all had: any of them again, rather than none
    missing = await client.get("/puzzle/english/random?theme=nonsense", allow_redirects=False)
    assert missing.status == 404


async def test_a_streak_climbs_from_easy_to_hard_the_same_for_its_seed_and_is_never_rated(site):
    chat, client = site

    async def rung(n: int, seed: int = 7) -> dict:
        response = await client.get(f"/api/streak/english?rung={n}&seed={seed}")
        assert response.status == 200
        return await response.json()

    first, again, last = await rung(0), await rung(0), await rung(29)
    assert first["id"] == again["id"] and set(first) >= {"board", "entry", "legal", "solver"}
    ease = {p.id: starting_strength(p).rating for p in puzzle_set("english").values()}
    assert ease[first["id"]] < ease[last["id"]]
    assert (await rung(500))["id"] in puzzle_set("english")  # beyond the top: still the hardest
    assert {(await rung(0, seed))["id"] for seed in range(8)} != {first["id"]}  # another seed, another streak
    climbed = await solve(client, puzzle_set("english")[first["id"]], streak=True)
    assert "rating" not in climbed
    # a streak's puzzle is had: tried again without the streak's word, it is never rated (no free win after a free
    # look at the answer), nor when asked twice at once
    assert "rating" not in await solve(client, puzzle_set("english")[first["id"]])
    other = next(p for p in puzzle_set("english").values() if p.id != first["id"])
    shown = await (await client.post(api(other) + "/solution", json={"streak": True})).json()
    assert shown["verdict"] == "shown" and "rating" not in shown
    assert "rating" not in await solve(client, other)
    fresh = [p for p in puzzle_set("english").values() if p.id not in (first["id"], other.id)][0]
    both = await asyncio.gather(*(post(client, api(fresh), {"moves": [wrong_move(fresh)]}) for _ in range(2)))
    assert sum("rating" in answer for answer in both) == 1
    elsewhere = await client.post(api(fresh), json={"moves": [wrong_move(fresh)]}, headers={"Origin": "https://x.example"})
    assert elsewhere.status == 403
    assert (await (await client.get("/api/streak/english?rung=x")).json())["error"]
    assert (await client.get("/puzzle/english/streak")).status == 200


async def test_a_database_that_does_not_answer_costs_the_rating_never_the_puzzle(site):
    chat, client = site
    puzzle = deepest()

    async def down(*args, **kwargs):
        raise SaveFailed("the database did not answer within 5 s")

    chat.store.tried_puzzle = down
    chat.store.puzzle_rating = down
    wrong = await post(client, api(puzzle), {"moves": [wrong_move(puzzle)]})
    assert wrong["verdict"] == "wrong" and "rating" not in wrong
    assert wrong["unrated"] == "The database is not answering, so this puzzle did not count for your puzzle rating."
    assert (await solve(client, puzzle))["verdict"] == "solved"
    response = await client.get("/puzzle/english/random", allow_redirects=False)
    assert response.status == 302 and response.headers["Location"].split("/")[-1] in puzzle_set("english")


async def test_a_persons_page_puzzles_and_games_show_in_their_chat_rating(site):
    """Signed in with Discord, a person's page results are kept under their Discord id: the chat's `rating` gives
    them beside their server's."""
    from chat import ANA
    from bot.core.training import first_result

    chat, _ = site
    puzzle = deepest()
    assert await first_result(chat.store, "web", ANA, puzzle, True) is not None  # as the page keeps a solve
    await chat.say(ANA, "rating", channel="r1")
    said = str(chat.replies[-1].text)
    assert "has no rated games here yet" in said and "On the web page: English puzzles: " in said, said
    assert "(1 puzzle)" in said.split("On the web page:")[1]
