"""What a front end asks the core, and the controls the core puts on its replies."""

import pytest

from bot.core.core import OUT_OF_DATE
from bot.store import SqliteStore
from bot.replies import Buttons, NO_GAME
from bot.tables import ColourChoice, Kind
from chat import ANA, BEN, EVE, Chat
from engine import Color, game_type


@pytest.fixture
def chat(pool):
    return Chat(SqliteStore(":memory:"), pool)


async def test_a_board_for_a_person_to_move_carries_the_game_buttons_and_the_legal_moves(chat):
    [reply] = await chat.say(ANA, "new english level 1")  # English: Black moves first, and ana plays Black
    table = chat.table()
    assert reply.controls is not None and reply.controls.buttons is Buttons.GAME
    assert reply.controls.game == table.id and reply.controls.ply == 0
    assert list(reply.controls.moves) == chat.core.legal_texts("c1") == list(table.game.type.legal_texts(table.game.position))
    assert chat.core.controls("c1") == reply.controls
    await chat.play_any(ANA)
    mine = [r for r in chat.replies if r.text.startswith("ana played")][-1]
    assert mine.controls is not None and mine.controls.moves == () and mine.controls.ply == 1  # the bot to move
    await chat.core.settle()
    bots = chat.replies[-1]
    assert bots.text.startswith("I played") and bots.controls is not None
    assert bots.controls.ply == 2 and bots.controls.moves == tuple(chat.core.legal_texts("c1"))


async def test_a_press_by_a_stranger_on_an_old_board_or_after_the_game_is_refused(chat):
    await chat.say(ANA, "challenge @ben", mentions=(BEN,))
    assert chat.core.may_press("c1", EVE, NO_GAME, None) is None  # the challenge's buttons: the core decides
    await chat.say(BEN, "accept")
    game = chat.core.game_in("c1")
    assert game is not None
    assert chat.core.may_press("c1", EVE, game, 0) == "You are not in this game."
    assert chat.core.may_press("c1", ANA, game, 0) is None
    first = chat.table().seats[chat.table().game.turn].user
    assert first is not None
    await chat.play_any(first)
    assert chat.core.may_press("c1", ANA, game, 0) == OUT_OF_DATE
    assert chat.core.may_press("c1", ANA, game, 1) is None and chat.core.may_press("c1", ANA, game, None) is None
    assert chat.core.may_press("c1", ANA, game + 1, 1) == "That game is over."
    await chat.say(ANA, "resign")
    assert chat.core.may_press("c1", ANA, game, 1) == "That game is over."
    assert chat.core.game_in("c1") is None and chat.core.legal_texts("c1") == [] and chat.core.controls("c1") is None


async def test_questions_and_offers_carry_answer_buttons_for_their_game(chat):
    [challenge] = await chat.say(ANA, "challenge", channel="c2")
    assert challenge.controls is not None and challenge.controls.buttons is Buttons.ANSWER
    assert challenge.controls.game == NO_GAME
    assert chat.core.has_game_or_challenge("c2") and not chat.core.has_game_or_challenge("c3")
    await chat.say(ANA, "challenge @ben black", mentions=(BEN,))
    assert chat.core.state.challenges["c1"].colour is ColourChoice.BLACK
    await chat.say(BEN, "accept")
    assert chat.table().kind is Kind.PEOPLE and chat.table().seats[Color.BLACK].user == ANA
    [offer] = await chat.say(BEN, "draw")
    assert offer.controls is not None and offer.controls.buttons is Buttons.ANSWER
    assert offer.controls.game == chat.core.game_in("c1")


async def test_a_bot_match_board_gets_no_controls(chat):
    [reply] = await chat.say(ANA, "watch english 1 1 delay 1 time 0.05")
    assert chat.table().kind is Kind.MATCH
    assert reply.board is not None and reply.controls is None and chat.core.controls("c1") is None
    await chat.say(ANA, "stop")
    assert chat.replies[-1].text == "Bot match stopped." and all(r.controls is None for r in chat.replies)
    assert chat.store.db.execute("SELECT reason, winner FROM games").fetchone() == ("stopped", None)


async def test_games_stored_with_the_database_words_come_back(tmp_path, pool):
    path = str(tmp_path / "bot.sqlite3")
    store = SqliteStore(path)
    english = game_type("english")
    fen = english.write_position(english.start())
    settings = {"budget": 0.05, "rated": False}  # an older row: no delay, channel name, takebacks or starter
    await store.create_game("g", "c1", "english", fen, "people", {"white": {"user": ["1", "ana"]},
                                                            "black": {"user": ["2", "ben"]}}, settings)
    await store.create_game("g", "c2", "english", fen, "match", {"white": {"level": 1}, "black": {"level": 1}}, settings)
    chat = Chat(store, pool)
    restored = await chat.core.start()
    assert [t.kind for t in restored] == [Kind.PEOPLE, Kind.MATCH]
    assert chat.table("c1").channel_name == "c1" and chat.core.controls("c2") is None
    await chat.say(ANA, "stop", channel="c2")  # anyone may stop a match that names no starter
    assert chat.replies[-1].text == "Bot match stopped."
    await chat.core.close()
    await store.close()
