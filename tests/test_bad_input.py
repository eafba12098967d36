"""Whatever a player types, the engine answers with its own friendly errors and nothing else."""

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import VARIANTS, FenError, Game, MoveError, parse_fen, variant

# Text that looks like moves and FENs often enough to reach the deeper checks.
_pieces = st.sampled_from(["1", "11", "15", "32", "33", "50", "51", "c3", "d4", "e5", "j10", "k1", "-", "x", ":",
                           " ", "W", "B", "K", ",", "!", "I play ", "0", "99", "a", "\n", "é"])
_text = st.one_of(st.text(max_size=40), st.lists(_pieces, max_size=12).map("".join))


@settings(max_examples=300, deadline=None)
@given(name=st.sampled_from(sorted(VARIANTS)), text=_text)
def test_any_text_as_a_move(name, text):
    game = Game(variant(name))
    before = list(game.positions)
    try:
        game.play_text(text)
    except MoveError as e:
        assert str(e)
        assert game.positions == before  # nothing changed
    else:
        assert len(game.positions) == 2


@settings(max_examples=300, deadline=None)
@given(name=st.sampled_from(sorted(VARIANTS)), text=_text)
def test_any_text_as_a_fen(name, text):
    try:
        parse_fen(variant(name), text)
    except FenError as e:
        assert str(e)
