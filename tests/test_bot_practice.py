"""`practice`: the positions of a person's own analysed games where they made a mistake or a blunder, found again;
the engine's move counts, a move that loses as much does not; only that person answers, and a position practised
is not given again while there are others."""

from __future__ import annotations

import pytest

from bot.ending import Ending
from bot.store import SqliteStore
from chat import ANA, BEN, Chat, config
from engine import Color, Termination, game_type
from engine.analysis import analyse

NODES = 30_000
# White to play has the shot 24-19 (Black must take, and White takes back more); Ana played 24-20 and let it go.
SHOT = "W:W17,21,23,24,25,26,27,28,29,30,31:B1,2,4,5,6,8,9,10,14,15,16"


async def analysed_game(chat: Chat, moves: str = "24-20") -> int:
    """A finished game of Ana's (White) against the bot from ``SHOT``, analysed at ``NODES``; its id."""
    gt = game_type("english")
    record = gt.new_game(SHOT)
    store = chat.store
    game = await store.create_game("g", "c9", "english", SHOT, "bot",
                                   {"white": {"user": [ANA.id, ANA.name]}, "black": {"level": 3}}, {"budget": 0.1})
    version = 0
    for ply, text in enumerate(moves.split()):
        move = gt.parse_move(record.position, text)
        version = await store.add_move(game, version, ply, gt.write_move(record.position, move, full=True))
        record.play(move)
    await store.finish_game(game, version, Ending(Color.BLACK, Termination.RESIGNED), "ana resigned",
                            '[Result "0-2"]\n\n0-2')
    await store.save_analysis(game, NODES, analyse(record, NODES).to_json())
    return game


@pytest.fixture
def chat(pool):
    return Chat(SqliteStore(":memory:"), pool, config(analysis_nodes=NODES))


async def test_practice_gives_back_a_blunder_and_the_engines_move_counts(chat):
    refused = await chat.say(ANA, "practice")
    assert refused[0].private and "nothing to practise yet" in refused[0].text
    game = await analysed_game(chat)
    [posted] = await chat.say(ANA, "practice")
    assert posted.text.startswith(f"Practice for ana, from game {game} (move 1): you played 24-20 here, a blunder.")
    assert posted.board.position == game_type("english").read_position(SHOT)
    other = await chat.say(BEN, "24-19")
    assert other[0].private and "ana's: only they answer it" in other[0].text
    [solved] = await chat.say(ANA, "24-19")
    assert solved.text == "24-19: the engine's move. Well found!"
    assert not chat.core.state.puzzles
    assert "nothing to practise" not in (await chat.say(ANA, "practice"))[0].text  # all seen: given again


async def test_a_move_that_loses_as_much_does_not_count(chat):
    await analysed_game(chat)
    await chat.say(ANA, "practice")
    [failed] = await chat.say(ANA, "24-20")
    assert failed.text.startswith("24-20 is not it (a blunder") and failed.text.endswith("The engine's move: 24-19.")
    assert (await chat.store.puzzle_rating("g", "english", ANA.id))[1] == 0  # practice is not rated


async def test_only_the_players_own_games(chat):
    await analysed_game(chat)
    refused = await chat.say(BEN, "practice")
    assert refused[0].private and "nothing to practise yet" in refused[0].text
