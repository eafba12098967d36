"""The evaluation graph: what a person sees in the PNG (its size, which side's area the curve ends in, the
judged moves' dots and where they stand, a forced win kept inside the picture)."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageColor

from engine import Color, game_type
from engine.analysis import Analysis, Judged, Player, analyse
from engine.search import WIN
from renders import JUDGEMENT_COLOURS, GraphOptions, graph_points, render_graph
from renders.graph import BLACK_AREA, PLOT, TICK_SPACING, WHITE_AREA, GraphLayout, move_numbers

TOLERANCE = 10


def image(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def near(a, b, tol=TOLERANCE) -> bool:
    return all(abs(x - y) <= tol for x, y in zip(a, b))


def judgement_rgb(name: str) -> tuple[int, int, int]:
    return ImageColor.getrgb(JUDGEMENT_COLOURS[name])[:3]


def game(scores, judgements=None, name="international", starts=None) -> Analysis:
    """An analysis with these scores (White's side, the start's first) and ``{ply: judgement}``; ``starts``: the
    side that makes the first move (the game's first player unless said)."""
    first = game_type(name).first if starts is None else starts
    other = Color.BLACK if first == Color.WHITE else Color.WHITE
    judgements = judgements or {}
    moves = tuple(Judged(ply, first if ply % 2 == 0 else other, "x", "y", ("y",), 0, 0, 0.0, judgements.get(ply), None)
                  for ply in range(len(scores) - 1))
    player = Player(0, 0, 0, 0, 100.0)
    return Analysis(name, 2000, tuple(scores), moves, {Color.WHITE: player, Color.BLACK: player})


def column(img: Image.Image, x: float) -> list[tuple[int, int, int]]:
    """The pixels of the plot's column at ``x``, top to bottom (the whole image height)."""
    return [img.getpixel((round(x), y)) for y in range(img.height)]


@pytest.mark.parametrize("size", [(600, 200), (320, 120), (1000, 320)])
def test_the_image_has_the_asked_size(size):
    width, height = size
    assert image(render_graph(game([0, 30, -20, 50]), GraphOptions(width, height))).size == size
    assert image(render_graph(game([0, 30, -20, 50]))).size == (600, 200), "the default size"


def test_sizes_out_of_range_are_refused():
    with pytest.raises(ValueError):
        GraphOptions(width=40)
    with pytest.raises(ValueError):
        GraphOptions(height=5000)


def test_white_gaining_steadily_ends_above_the_midline_in_whites_area():
    scores = [i * 20 for i in range(41)]
    img = image(render_graph(game(scores)))
    points = graph_points(game(scores), 600, 200)
    mid = GraphLayout(600, 200).mid
    x, y = points[-1]
    assert y < mid - 40, "well up: +8 men are most of White's winning chances"
    col = column(img, x - 2)
    assert near(col[round((y + mid) / 2)], WHITE_AREA), "between the midline and the curve: White's light area"
    assert near(col[round(mid) + 5], PLOT), "nothing below the midline"
    assert not any(near(p, BLACK_AREA) for p in col)
    assert [p[1] for p in points] == sorted((p[1] for p in points), reverse=True), "the curve only climbs"


def test_black_winning_ends_below_the_midline_in_blacks_area():
    scores = [-i * 40 for i in range(30)] + [-WIN]  # White to move at the end, and lost
    img = image(render_graph(game(scores)))
    x, y = graph_points(game(scores), 600, 200)[-1]
    mid = GraphLayout(600, 200).mid
    assert y > mid + 40
    col = column(img, x - 2)
    assert near(col[round((y + mid) / 2)], BLACK_AREA), "between the midline and the curve: Black's dark area"
    assert near(col[round(mid) - 5], PLOT), "nothing above the midline"
    assert not any(near(p, WHITE_AREA) for p in col)


def test_a_blunder_is_a_dot_in_the_blunder_colour_at_its_ply():
    scores = [0, 10, 0, 15, 5, 20, 10, -450, -440, -460, -430]
    analysis = game(scores, {6: "blunder", 2: "inaccuracy"})
    img = image(render_graph(analysis))
    points = graph_points(analysis, 600, 200)
    blunder = judgement_rgb("blunder")
    x, y = points[7]  # the position after the blundered move of ply 6
    assert near(img.getpixel((round(x), round(y))), blunder)
    row = [px for px in range(img.width) if near(img.getpixel((px, round(y))), blunder)]
    assert row and abs((row[0] + row[-1]) / 2 - x) <= 1.5, "the dot is centred on ply 7's x"
    assert row[-1] - row[0] < 3 * GraphLayout(600, 200).dot, "one dot"
    assert points[6][0] < row[0] and row[-1] < points[8][0], "between its neighbours' x"
    assert near(img.getpixel(tuple(map(round, points[3]))), judgement_rgb("inaccuracy"))
    for ply in (1, 5, 9):
        assert not any(near(img.getpixel(tuple(map(round, points[ply]))), judgement_rgb(name))
                       for name in JUDGEMENT_COLOURS), f"no judged move leads to position {ply}"


def test_the_legend_shows_every_judgements_colour_in_the_caption_bar():
    img = image(render_graph(game([0, 10, 20])))
    bar = [img.getpixel((x, y)) for x in range(img.width) for y in range(GraphLayout(600, 200).bar)]
    for name in JUDGEMENT_COLOURS:
        assert any(near(p, judgement_rgb(name), 4) for p in bar), name


def test_a_forced_win_stays_inside_the_image():
    scores = [0, 100, 300, 800, 30990]
    analysis = game(scores, {3: "blunder"})
    img = image(render_graph(analysis))
    lay = GraphLayout(600, 200)
    left, top, right, bottom = lay.box
    points = graph_points(analysis, 600, 200)
    for x, y in points:
        assert left + lay.dot <= x <= right - lay.dot and top + lay.dot <= y <= bottom - lay.dot
    x, y = points[-1]
    assert y == pytest.approx(lay.y(1.0)), "a forced win is drawn as certain"
    assert y < points[-2][1], "higher than +8 men"
    assert near(img.getpixel((round(x), round(y))), judgement_rgb("blunder"))
    assert near(img.getpixel((round(x), round(y - lay.dot / 2))), judgement_rgb("blunder")), "the whole dot"
    col = column(img, x - lay.dot - 2)
    assert not any(near(p, WHITE_AREA) for p in col[:top]), "the area stops at the plot's top"


def test_move_numbers_stand_where_their_moves_start_and_sparsely():
    english = game([0] * 41, name="english")  # Black moves first in English: move n starts at ply 2n - 2 all the same
    numbers = move_numbers(english, 600, 200)
    assert numbers and all(ply == 2 * n - 2 for n, ply in numbers)
    second = game([0] * 41, starts=Color.WHITE, name="english")  # from a position with White to move: 1... first
    numbers = move_numbers(second, 600, 200)
    assert numbers and all(ply == 2 * n - 3 for n, ply in numbers)
    long = game([0] * 201)
    xs = [x for x, _ in graph_points(long, 600, 200)]
    spots = [xs[ply] for _, ply in move_numbers(long, 600, 200)]
    assert len(spots) >= 5 and all(b - a >= TICK_SPACING for a, b in zip(spots, spots[1:]))


def test_a_game_without_moves_draws():
    assert image(render_graph(game([0]))).size == (600, 200)


def test_an_analysed_game():
    english = game_type("english")
    record = english.new_game()
    for move in ("11-15", "23-19", "8-11", "22-17", "15-18", "24-20"):
        record.play_text(move)
    analysis = analyse(record, nodes=2000)
    img = image(render_graph(analysis, GraphOptions(width=480, height=160)))
    assert img.size == (480, 160)
    points = graph_points(analysis, 480, 160)
    assert len(points) == len(record.moves) + 1
    for move in analysis.moves:
        if move.judgement is not None:
            assert near(img.getpixel(tuple(map(round, points[move.ply + 1]))), judgement_rgb(move.judgement))
