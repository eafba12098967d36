"""Every game keeps the game interface's promises, seen only through ``engine.game_type``: what the bot, the renders
and the search rely on, checked on random games of each."""

import random

import pytest

from engine import NAMES, Limits, MoveError, Searcher, game_type
from renders import RenderOptions, render_png, text_diagram


@pytest.mark.parametrize("name", NAMES)
def test_moves_and_positions_read_back_as_written(name):
    game = game_type(name)
    rng = random.Random(7)
    record = game.new_game()
    while record.result() is None and len(record.moves) < 40:
        position = record.position
        for move in game.legal_moves(position):
            assert game.parse_move(position, game.write_move(position, move, full=True)) == move
        assert len(game.legal_texts(position)) == len(game.legal_moves(position))
        assert game.read_position(game.write_position(position)) == position
        record.play(rng.choice(record.legal_moves()))
    assert record.positions[-1] == game.make(record.positions[-2], record.moves[-1])
    again = game.new_game(game.write_position(record.positions[10]))
    assert again.position == record.positions[10], "a game can start from any position written"


@pytest.mark.parametrize("name", NAMES)
def test_a_bad_move_is_refused_with_the_legal_ones_and_changes_nothing(name):
    record = game_type(name).new_game()
    with pytest.raises(MoveError) as refused:
        record.play_text("a1-a1")
    assert refused.value.legal and record.moves == []
    record.play_text(record.type.legal_texts(record.position)[0])
    record.undo()
    assert record.moves == [] and record.position == record.type.start()


@pytest.mark.parametrize("name", NAMES)
def test_a_finished_game_has_a_result_its_record_names(name):
    game = game_type(name)
    rng = random.Random(3)
    record = game.new_game()
    while record.result() is None:
        record.play(rng.choice(record.legal_moves()))
    result = record.result()
    assert result is not None
    with pytest.raises(MoveError, match="the game is over"):
        record.play_text(game.legal_texts(record.position)[0] if game.legal_moves(record.position) else "a1-a2")
    text = game.record_text(record, {"White": "ana", "Black": "ben"})
    assert '[White "ana"]' in text and text.rstrip().endswith(game.score_text(result.winner))


@pytest.mark.parametrize("name", NAMES)
def test_every_game_is_drawn_and_searched_through_the_interface(name):
    game = game_type(name)
    record = game.new_game()
    record.play(record.legal_moves()[0])
    png = render_png(game, record.position, RenderOptions(width=240), last_move=record.moves[-1],
                     before=record.positions[-2])
    assert png.startswith(b"\x89PNG")
    diagram = text_diagram(game, record.position, last_move=record.moves[-1])
    assert "[" in diagram and diagram.endswith(f"{record.turn} to move")
    found = Searcher(game, tt_mb=1).search(record.position, Limits(depth=3), record.history())
    assert found.move in game.legal_moves(record.position)
