"""Games through the bot core, as people in a channel play them."""

import json

import pytest

from bot.store import SqliteStore
from chat import ANA, BEN, EVE, Chat, config
from engine import Color


@pytest.fixture
def chat(pool):
    return Chat(SqliteStore(":memory:"), pool)


async def test_a_whole_game_against_the_bot(chat):
    await chat.say(ANA, "new english level 6 time 0.05")
    table = chat.table()
    assert table.seats[Color.BLACK].user == ANA  # English: Black moves first, and the person moves first
    while chat.on("c1"):
        await chat.play_any(ANA)
        await chat.core.settle()
    final = chat.replies[-1]
    assert "wins" in final.text or "Draw" in final.text
    assert final.pdn and "[Black \"ana\"]" in final.pdn
    assert await chat.store.active_games() == []
    bot_moves = [r for r in chat.replies if r.text.startswith("I played")]
    assert bot_moves and all(r.board is not None for r in bot_moves)
    # the bot's moves are stored: the PDN holds every move of the game
    assert table.game.result() is not None or "resigned" in final.text


async def test_a_challenge_accepted_and_played_to_a_result(chat):
    await chat.say(ANA, "challenge @ben russian white", mentions=(BEN,))
    assert "ana challenges ben" in chat.replies[-1].text and chat.replies[-1].mentions == (BEN,)
    refused = await chat.say(EVE, "accept")
    assert refused[0].private and "for ben" in refused[0].text
    await chat.say(BEN, "accept")
    table = chat.table()
    assert table.seats[Color.WHITE].user == ANA and table.seats[Color.BLACK].user == BEN and table.rated
    while chat.on("c1"):
        mover = ANA if table.game.turn == Color.WHITE else BEN
        await chat.play_any(mover)
    result = table.game.result()
    assert result is not None and chat.replies[-1].text.startswith(("Draw", "ana", "ben"))
    board = await chat.say(ANA, "leaderboard russian")
    assert "ana" in board[0].text and "ben" in board[0].text
    rating = await chat.say(BEN, "rating")
    assert "Russian, correspondence:" in rating[0].text and "(1 game)" in rating[0].text  # (an untimed game)


async def test_a_bot_match_plays_to_the_end(chat):
    await chat.say(EVE, "watch international 1 2 delay 0 time 0.05")
    assert "Bot match" in chat.replies[-1].text
    table = chat.table()
    await chat.core.settle()
    assert not chat.on("c1")
    final = chat.replies[-1]
    assert final.pdn and ("wins" in final.text or "Draw" in final.text)
    moves = [r for r in chat.replies if "played" in r.text]
    assert len(moves) == len(table.game.moves) > 0  # every move announced
    assert all(r.board is not None for r in moves)


async def test_stop_ends_a_bot_match_and_only_its_starter_may(chat):
    await chat.say(EVE, "watch english 6 6 delay 5 time 0.05")
    refused = await chat.say(ANA, "stop")
    assert refused[0].private and "Only eve" in refused[0].text
    await chat.say(EVE, "stop")
    assert not chat.on("c1") and "stopped" in chat.replies[-1].text
    await chat.core.settle()


async def test_resign_draw_and_takeback_between_people(chat):
    await chat.say(ANA, "challenge @ben english black casual", mentions=(BEN,))
    await chat.say(BEN, "accept")
    table = chat.table()
    await chat.play_any(ANA)  # Black (ana) moves first in English
    await chat.play_any(BEN)
    await chat.say(ANA, "takeback")
    assert len(table.game.moves) == 2  # asked, not yet taken back
    await chat.say(BEN, "accept")
    assert len(table.game.moves) == 0 and table.game.turn == Color.BLACK  # ana's move and ben's reply
    await chat.say(ANA, "draw")
    stranger = await chat.say(EVE, "accept")
    assert stranger[0].private and "not playing" in stranger[0].text
    await chat.say(BEN, "decline")
    assert "declines the draw" in chat.replies[-1].text and chat.on("c1")
    await chat.say(BEN, "draw")
    await chat.say(ANA, "draw")
    assert chat.replies[-1].text.startswith("Draw (agreed)")
    await chat.say(ANA, "challenge @ben", mentions=(BEN,))
    await chat.say(BEN, "accept")
    await chat.say(BEN, "resign")
    assert "wins: ben resigned" in chat.replies[-1].text and "Ratings:" in chat.replies[-1].text


async def test_takebacks_and_hints_against_the_bot(pool):
    chat = Chat(SqliteStore(":memory:"), pool, config(takebacks=1))
    await chat.say(ANA, "new brazilian level 6")
    table = chat.table()
    no_move = await chat.say(ANA, "takeback")
    assert "no move to take back" in no_move[0].text
    hint = await chat.say(ANA, "hint")
    assert hint[0].private and hint[0].text.startswith("Try ")
    await chat.play_any(ANA)
    await chat.core.settle()
    assert len(table.game.moves) == 2
    await chat.say(ANA, "takeback")
    assert len(table.game.moves) == 0 and "0 takebacks left" in chat.replies[-1].text
    await chat.play_any(ANA)
    await chat.core.settle()
    refused = await chat.say(ANA, "takeback")
    assert "used your 1 takeback" in refused[0].text and len(table.game.moves) == 2
    declined = await chat.say(ANA, "draw")  # level 6 at move 2 sees no reason to agree (a noisy level might)
    assert "decline" in declined[0].text and chat.on("c1")


async def test_no_hints_in_rated_games(chat):
    await chat.say(ANA, "new english rated")
    refused = await chat.say(ANA, "hint")
    assert refused[0].private and "rated" in refused[0].text


async def test_an_idle_player_is_reminded_then_loses(pool):
    chat = Chat(SqliteStore(":memory:"), pool, config(remind_after=60, abandon_after=600))
    await chat.say(ANA, "challenge @ben english black", mentions=(BEN,))
    await chat.say(BEN, "accept")
    for player in (ANA, BEN, ANA):
        await chat.play_any(player)
    chat.clock.now += 61
    await chat.core.tick()
    assert "ben, it is your move" in chat.replies[-1].text and chat.replies[-1].mentions == (BEN,)
    await chat.core.tick()
    assert sum("it is your move" in t for t in chat.texts()) == 1  # one reminder
    chat.clock.now += 600
    await chat.core.tick()
    assert "ana (Black) wins: ben abandoned the game" in chat.replies[-1].text


async def test_a_game_without_a_first_move_is_aborted_unrated(pool):
    chat = Chat(SqliteStore(":memory:"), pool, config(abandon_after=600))
    await chat.say(ANA, "challenge @ben english black", mentions=(BEN,))
    await chat.say(BEN, "accept")
    chat.clock.now += 601
    await chat.core.tick()
    assert "aborted" in chat.replies[-1].text and "Ratings" not in chat.replies[-1].text
    assert "No rated" in (await chat.say(ANA, "leaderboard"))[0].text


async def test_a_challenge_expires(chat):
    await chat.say(ANA, "challenge")
    chat.clock.now += 301
    await chat.core.tick()
    assert "expired" in chat.replies[-1].text
    late = await chat.say(BEN, "accept")
    assert late[0].private and "no challenge" in late[0].text


async def test_reading_commands_moves_board_pdn_games_help(chat):
    await chat.say(ANA, "new international level 1")
    moves = await chat.say(ANA, "moves")
    assert moves[0].private and "31-26" in moves[0].text
    board = await chat.say(BEN, "board")
    assert board[0].board is not None and board[0].board.position == chat.table().game.position
    await chat.say(ANA, "32-28")
    await chat.core.settle()
    pdn = await chat.say(BEN, "pdn")
    assert "1. 32-28" in pdn[0].pdn and '[Result "*"]' in pdn[0].pdn
    games = await chat.say(BEN, "games", channel="c2")
    assert "#c1: International: ana (White) vs Bot level 1 (Black)" in games[0].text
    helped = await chat.say(BEN, "help takeback")
    assert helped[0].private and "takeback" in helped[0].text
    full = (await chat.say(BEN, "help"))[0].text
    assert all(f"`{word}" in full for word in ("watch", "leaderboard", "resign", "new", "challenge", "stop"))


async def test_a_tablut_game_against_the_bot(chat):
    await chat.say(ANA, "new tablut level 6 black time 0.05")
    assert "Tablut: Bot level 6 (White) vs ana (Black)" in chat.replies[-1].text
    table = chat.table()
    await chat.core.settle()
    assert table.game.moves and "I played" in chat.replies[-1].text  # White (the bot) opened
    wrong = await chat.say(ANA, "e5-e6")
    assert wrong[0].private and "no Black piece on e5" in wrong[0].text and "Legal moves:" in wrong[0].text
    moves = await chat.say(ANA, "moves")
    assert "d1-" in moves[0].text or "a4-" in moves[0].text
    while chat.on("c1"):
        await chat.play_any(ANA)
        await chat.core.settle()
    final = chat.replies[-1]
    assert "wins: the king" in final.text or "Draw" in final.text or "no legal move" in final.text
    assert final.pdn and '[Game "Tablut (Ashton rules)"]' in final.pdn and final.replay is table.game
    assert await chat.store.active_games() == []


async def test_a_game_on_travels_as_a_copy_that_later_moves_leave_alone(chat):
    from bot.tables import LiveGame

    await chat.say(ANA, "challenge @ben international casual", mentions=(BEN,))
    await chat.say(BEN, "accept")
    for _ in range(3):
        await chat.play_any(chat.table().to_move.user)
    await chat.say(chat.table().to_move.user, "draw")
    shown = chat.core.live("c1")
    assert shown is not None and shown.draw_offer is not None and len(shown.game.moves) == 3
    await chat.play_any(chat.table().to_move.user)  # the game plays on: the copy stays as it was shown
    assert len(shown.game.moves) == 3 and len(chat.table().game.moves) == 4

    sent = json.loads(json.dumps(shown.to_json()))  # as it travels between processes
    back = LiveGame.from_json(sent)
    assert (back.id, back.guild, back.channel, back.kind, back.seats, back.draw_offer, back.title()) == (
        shown.id, shown.guild, shown.channel, shown.kind, shown.seats, shown.draw_offer, shown.title())
    assert back.game.moves == shown.game.moves and back.game.position == shown.game.position
    later = chat.core.live("c1").to_json()
    grown = LiveGame.from_json(later, known=back.game)  # only the new move is played on a copy of what was known
    assert len(grown.game.moves) == 4 and len(back.game.moves) == 3
    assert grown.game.positions[:4] == back.game.positions
    taken_back = LiveGame.from_json(sent, known=grown.game)  # a takeback: a known game that is longer is not used
    assert taken_back.game.moves == shown.game.moves
    with pytest.raises(ValueError):
        LiveGame.from_json({**sent, "moves": sent["moves"] + ["not a move"]})
