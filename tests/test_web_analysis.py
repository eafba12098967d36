"""A finished game's analysis on the web page's server: ``/api/analysis/REF`` before and after asking, a game still
on refused, a post from another site refused, and who the page asks as (against a real core and search process;
tests/test_web_browser_analysis.py has the page in the browser)."""

from __future__ import annotations

import asyncio

import pytest_asyncio
from aiohttp.test_utils import TestClient, TestServer

from bot.web.server import make_app
from chat import ANA, BEN, config
from engine import Color
from engine.games import GAMES
from renders.graph import JUDGEMENT_COLOURS, white_chances
from test_web import WebChat, web_site

NODES = 3000  # a quick analysis: these tests are about the page, not the judgements' depth
GIVEN_AWAY = "9-14 23-18 14x23 26x19 11-16 30-26"
"""An English game where White's last move gives a man away: judged a blunder even at ``NODES`` (27-23 was
better)."""


@pytest_asyncio.fixture(loop_scope="session")
async def site(pool):
    async with web_site(pool, config(analysis_nodes=NODES)) as served:
        yield served


async def play_given_away(chat: WebChat, channel: str = "c1", moves: str = GIVEN_AWAY) -> int:
    """Ana (Black) and ben (White) play ``moves`` in ``channel``; the game's id (still on)."""
    await chat.say(ANA, "challenge @ben english black casual", channel=channel, mentions=(BEN,))
    await chat.say(BEN, "accept", channel=channel)
    table = chat.table(channel)
    for move in moves.split():
        replies = await chat.say(table.seats[table.game.turn].user, move, channel)
        assert not replies[0].private, replies[0].text
    return table.id


async def given_away(chat: WebChat, channel: str = "c1") -> int:
    """The game of ``GIVEN_AWAY``, which ben then resigns; its id."""
    game = await play_given_away(chat, channel)
    await chat.say(BEN, "resign", channel)
    assert not chat.on(channel)
    return game


def api(chat: WebChat, game: int) -> str:
    return chat.pages.game_path(game).replace("/g/", "/api/analysis/")


async def until_done(client: TestClient, path: str, timeout: float = 60.0) -> dict:
    """Poll the analysis as the page does until it is done; its answer."""
    async with asyncio.timeout(timeout):
        while True:
            response = await client.get(path)
            assert response.status == 200, await response.text()
            shown = await response.json()
            if shown["status"] == "done":
                return shown
            assert shown["status"] == "running"
            await asyncio.sleep(0.1)


async def test_a_finished_games_analysis_before_and_after_asking(site, pool):
    chat, client = site
    game = await given_away(chat)
    path = api(chat, game)
    before = await (await client.get(path)).json()
    assert before == {"status": "none", "done": 0, "total": 7, "analysis": None, "players": None,
                      "colours": JUDGEMENT_COLOURS}
    asked = await client.post(path, json={})
    assert asked.status == 200 and (await asked.json())["status"] in ("running", "done")
    shown = await until_done(client, path)
    assert shown["done"] == shown["total"] == 7

    analysis = shown["analysis"]
    assert analysis["game"] == "english" and analysis["nodes"] == NODES
    moves = analysis["moves"]
    assert [m["ply"] for m in moves] == [1, 2, 3, 4, 5, 6]  # numbered as the page's move list
    assert [m["played"] for m in moves] == GIVEN_AWAY.split()
    blunder = moves[-1]
    assert blunder["mover"] == "White" and blunder["judgement"] in ("mistake", "blunder")
    assert blunder["mark"] == {"mistake": "?", "blunder": "??"}[blunder["judgement"]]
    assert blunder["line"][0] == blunder["best"] != "30-26"
    assert blunder["after"] < blunder["before"]  # White's blunder: worse for White, in men
    english = GAMES["english"]
    record = english.new_game()
    for move in GIVEN_AWAY.split():
        record.play(english.parse_move(record.position, move))
    best = english.parse_move(record.positions[5], blunder["best"])
    assert blunder["path"] == [list(cell) for cell in english.path(best)]  # the arrow's cells, from the start
    assert all(m["path"] is None for m in moves if m["judgement"] is None)
    # each position's White winning chances, as the chat's graph maps the scores (and White is worse at the end)
    stored = chat.replies  # the chat was not asked: the page's request is answered on the page only
    assert not [r for r in stored if r.analysis is not None]
    kept = await chat.core.analysis(game, "g")
    assert kept.analysis is not None
    # every score for White, as lidraughts and the rest of the page give them: a Black move's too
    for move, judged in zip(moves, kept.analysis.moves):
        side = 1 if judged.mover is Color.WHITE else -1
        assert (move["before"], move["after"]) == (side * judged.before / 100, side * judged.after / 100)
    assert any(judged.mover is Color.BLACK and judged.before for judged in kept.analysis.moves)
    assert analysis["chances"] == [round(white_chances(s, english.chances_scale), 4) for s in kept.analysis.scores]
    assert analysis["chances"][-1] < -0.2 and all(-1 <= c <= 1 for c in analysis["chances"])
    white = shown["players"]["White"]
    assert white["blunders"] + white["mistakes"] >= 1 and 0 <= white["accuracy"] < 100
    assert set(shown["players"]) == {"White", "Black"}

    again = await client.post(path, json={})  # asking again answers at once, from the database
    assert (await again.json())["status"] == "done" and not chat.core.state.analyses
    restarted = WebChat(chat.store, pool, config(analysis_nodes=NODES))  # and so does a new process
    later = TestClient(TestServer(make_app(restarted.pages)))
    await later.start_server()
    try:
        after = await (await later.get(path)).json()
        assert after["status"] == "done" and after["analysis"] == analysis
    finally:
        await later.close()
        await restarted.core.close()


async def test_a_game_still_on_is_not_analysed(site):
    chat, client = site
    game = await play_given_away(chat, "c2", "9-14 23-18")
    path = api(chat, game)
    for response in (await client.get(path), await client.post(path, json={})):
        assert response.status == 409
        assert "still being played" in (await response.json())["error"]
    assert not chat.core.state.analyses
    assert (await client.get(f"/api/analysis/{game}-{'A' * 12}")).status == 404  # the watching key is needed
    assert (await client.post("/api/analysis/99999-x", json={})).status == 404
    await chat.say(ANA, "resign", "c2")


async def test_a_post_from_another_site_is_refused(site):
    chat, client = site
    game = await given_away(chat, "c3")
    path = api(chat, game)
    response = await client.post(path, json={}, headers={"Origin": "http://evil.example"})
    assert response.status == 403 and "own page" in (await response.json())["error"]
    assert not chat.core.state.analyses
    assert (await (await client.get(path)).json())["status"] == "none"
    unreadable = await client.post(path, data="{not json", headers={"Content-Type": "application/json"})
    assert unreadable.status == 400 and not chat.core.state.analyses


async def test_the_page_asks_as_the_seats_player_else_as_its_guest(site, monkeypatch):
    chat, client = site
    game = await given_away(chat, "c4")
    path = api(chat, game)
    askers = []
    ask = chat.core.ask_analysis

    async def recorded(game_id, guild, asker):
        askers.append((guild, asker))
        return await ask(game_id, guild, asker)

    monkeypatch.setattr(chat.core, "ask_analysis", recorded)
    secret = chat.pages.seat_path(game, Color.WHITE, BEN).split("#seat=")[1]
    await client.post(path, json={"seat": secret})
    await client.post(path, json={"seat": secret[:-2] + "xx"})  # not this game's secret: the guest
    client.session.cookie_jar.clear()
    await client.post(path)  # no body, no cookie: the guest again, the same one (its address, not a cookie)
    assert askers[0] == ("g", BEN)
    assert askers[1][1].id == "web:127.0.0.1" and askers[1][1] == askers[2][1]
    await until_done(client, path)


async def test_one_address_may_ask_a_few_times_a_minute(site):
    from bot.web.game_routes import ANALYSES_PER_MINUTE

    chat, client = site
    game = await given_away(chat, "c5")
    path = api(chat, game)
    answers = [await client.post(path, json={}) for _ in range(ANALYSES_PER_MINUTE + 1)]
    assert all(a.status in (200, 409) for a in answers[:-1])  # asked, then "under way" or done
    assert answers[-1].status == 429 and "wait a minute" in (await answers[-1].json())["error"]
    await until_done(client, path)


async def test_practice_on_the_page_is_for_the_games_players_once_it_is_analysed(site):
    from bot.web.practice_routes import NOT_ANALYSED, NOT_YOURS

    chat, client = site
    game = await given_away(chat, "p1")
    practice = chat.pages.game_path(game).replace("/g/", "/api/practice/")
    ben = chat.pages.seat_path(game, Color.WHITE, BEN).split("#seat=")[1]
    refused = await client.post(practice, json={"seat": ben})
    assert refused.status == 409 and (await refused.json())["error"] == NOT_ANALYSED  # not analysed yet
    await client.post(api(chat, game), json={})
    await until_done(client, api(chat, game))
    for body in ({}, {"seat": "forged"}, {"seat": 5}, []):  # a watcher, a forged seat: not theirs to practise
        refused = await client.post(practice, json=body)
        assert refused.status in (400, 403) and (await refused.json())["error"] == NOT_YOURS, body
    spots = (await (await client.post(practice, json={"seat": ben})).json())["spots"]
    assert spots and all(s["judgement"] in ("mistake", "blunder") and s["legal"] for s in spots)
    assert all("best" not in s and "line" not in s for s in spots)  # the answer is not sent before a try
    spot = spots[0]
    for body in ({"ply": spot["ply"] + 1, "move": spot["legal"][0]["text"]}, {"ply": spot["ply"], "move": "1-2"}):
        refused = await client.post(practice, json={"seat": ben, **body})
        assert refused.status == 400, body
    tried = next(m for m in spot["legal"] if m["text"] != spot["played"])
    judged = await (await client.post(practice, json={"seat": ben, "ply": spot["ply"], "move": tried["text"]})).json()
    assert isinstance(judged["good"], bool) and judged["best"] and judged["best_path"]
    assert judged["best"] in judged["words"] or judged["good"]
    elsewhere = await client.post(practice, json={"seat": ben}, headers={"Origin": "https://x.example"})
    assert elsewhere.status == 403


async def test_practice_of_a_game_that_ended_before_its_first_move_is_refused_in_words(site):
    chat, client = site
    await chat.say(ANA, "challenge @ben english black casual", channel="p2", mentions=(BEN,))
    await chat.say(BEN, "accept", channel="p2")
    game = chat.table("p2").id
    await chat.say(BEN, "resign", channel="p2")
    practice = chat.pages.game_path(game).replace("/g/", "/api/practice/")
    ben = chat.pages.seat_path(game, Color.WHITE, BEN).split("#seat=")[1]
    refused = await client.post(practice, json={"seat": ben})
    assert refused.status == 409 and (await refused.json())["error"]
