"""Board images: pixels at known square centres, sizes, orientation, themes, GIF replays, text diagrams."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from engine import Game, game_type, legal_moves, parse_fen, start_position, variant
from renders import RenderOptions, render_gif, render_png, text_diagram
from renders.drawing import layout
from renders.themes import THEMES, blend

TOLERANCE = 8


def image(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def near(a, b, tol=TOLERANCE) -> bool:
    return all(abs(x - y) <= tol for x, y in zip(a, b))


def png(position, *args, **kw) -> bytes:
    """``render_png`` of a draughts position (its game is its variant's)."""
    return render_png(game_type(position.variant.name), position, *args, **kw)


def centre(v, square, opts=RenderOptions()):
    game = game_type(v.name)
    return layout(game.grid(opts.labels), opts.width, opts.flipped).centre(game.cell(square))


def corner(v, square, opts=RenderOptions()):
    """A point at the middle of a square's top edge: its own colour, clear of pieces, numbers and path lines."""
    game = game_type(v.name)
    lay = layout(game.grid(opts.labels), opts.width, opts.flipped)
    x, y = lay.origin(game.cell(square))
    return x + lay.cell // 2, y + 2


@pytest.mark.parametrize("theme_name", sorted(THEMES))
def test_men_kings_and_empty_squares(theme_name):
    th = THEMES[theme_name]
    v = variant("international")
    opts = RenderOptions(theme=theme_name)
    img = image(png(parse_fen(v, "W:W31,K44:B12,K7"), opts))
    assert near(img.getpixel(centre(v, 31, opts)), th.white_piece)
    assert near(img.getpixel(centre(v, 12, opts)), th.black_piece)
    assert near(img.getpixel(centre(v, 44, opts)), th.white_crown), "a White king carries the crown mark"
    assert near(img.getpixel(centre(v, 7, opts)), th.black_crown)
    assert near(img.getpixel(centre(v, 25, opts)), th.dark)


def test_last_move_is_highlighted_along_its_path_and_captures_show_as_ghosts():
    th = THEMES["wood"]
    v = variant("english")
    game = Game(v, "B:W19,K27,26:B14,K9,15")
    before = game.position
    (move,) = legal_moves(before)  # 15x24x31, taking 19 and 27, crowned
    game.play(move)
    img = image(png(game.position, last_move=move, before=before))
    for sq in (15, 24, 31):
        assert near(img.getpixel(corner(v, sq)), th.highlight), sq
    assert near(img.getpixel(corner(v, 23)), th.dark)
    assert near(img.getpixel(centre(v, 31)), th.black_crown)
    # the ghosts, at points beside the path line that crosses them
    cell = layout(game_type(v.name).grid("numbers"), 720, False).cell
    x, y = centre(v, 19)
    assert near(img.getpixel((x + cell // 7, y - cell // 7)), blend(th.white_piece, th.dark, th.ghost_alpha))
    x, y = centre(v, 27)
    assert near(img.getpixel((x + cell // 10, y + cell // 10)), blend(th.white_crown, th.dark, th.ghost_alpha))


def test_flipped_board_shows_the_other_side_at_the_bottom():
    th = THEMES["wood"]
    v = variant("international")
    pos = parse_fen(v, "W:W46:B5")
    plain, flipped = RenderOptions(), RenderOptions(flipped=True)
    a, b = image(png(pos, plain)), image(png(pos, flipped))
    assert centre(v, 46, plain) == centre(v, 5, flipped)
    assert near(a.getpixel(centre(v, 46, plain)), th.white_piece)
    assert near(b.getpixel(centre(v, 46, plain)), th.black_piece), "where White's man stood, Black's now stands"


def test_legal_destinations_of_one_piece():
    th = THEMES["wood"]
    v = variant("russian")
    pos = start_position(v)
    c3 = v.parse_square("c3")
    img = image(png(pos, destinations_of=c3))
    for name in ("b4", "d4"):
        assert near(img.getpixel(centre(v, v.parse_square(name))), th.target)
    assert near(img.getpixel(centre(v, v.parse_square("f4"))), th.dark)


@pytest.mark.parametrize("name", ["english", "international", "russian", "brazilian"])
def test_sizes_fit_a_phone_and_stay_small(name):
    v = variant(name)
    rng = random.Random(1)
    game = Game(v)
    for _ in range(30):
        game.play(rng.choice(game.legal_moves()))
    data = png(game.position, RenderOptions(caption="Alice vs Dambot · move 15"), last_move=game.moves[-1],
               before=game.positions[-2])
    img = Image.open(io.BytesIO(data))
    assert 640 <= img.width <= 800 and img.height <= 900
    assert len(data) <= 150_000


def test_gif_has_one_frame_per_ply_plus_the_start():
    v = variant("english")
    rng = random.Random(2)
    game = Game(v)
    for _ in range(12):
        game.play(rng.choice(game.legal_moves()))
    gif = Image.open(io.BytesIO(render_gif(game)))
    assert gif.n_frames == len(game.moves) + 1
    durations = []
    for i in range(gif.n_frames):
        gif.seek(i)
        durations.append(gif.info["duration"])
    assert durations[-1] > durations[0], "a pause on the last frame"


def test_bad_options_are_refused():
    with pytest.raises(ValueError, match="unknown theme"):
        RenderOptions(theme="neon")
    with pytest.raises(ValueError, match="labels"):
        RenderOptions(labels="roman")


def test_text_diagram_marks_the_last_move():
    v = variant("english")
    game = Game(v, "B:W19,K27,26:B14,K9,15")
    (move,) = legal_moves(game.position)
    game.play(move)
    text = text_diagram(game.type, game.position, last_move=move)
    assert "[ B]" in text and "[15]" in text and "[24]" in text
    assert text.count(" x ") == 2, "both captured pieces are marked"
    assert text.endswith("White to move")
    rows = text_diagram(game_type("russian"), start_position(variant("russian")), flipped=True).splitlines()
    assert rows[0].startswith(" 1") and rows[-2].split() == list("hgfedcba")


def test_a_nine_by_nine_board_with_special_squares_fits_the_same_renderer():
    """Tablut's board (its own issue) is a Grid with every cell playable and marked cells."""
    from renders.drawing import draw_scene
    from renders.scene import Grid, Scene

    th = THEMES["wood"]
    cells = frozenset((r, c) for r in range(9) for c in range(9))
    camps = ((3, 0), (4, 0), (5, 0), (4, 1))
    grid9 = Grid(9, cells, (), "abcdefghi", tuple(str(9 - r) for r in range(9)),
                 (((4, 4), "throne"),) + tuple((cell, "camp") for cell in camps) + (((0, 1), "escape"),))
    img = draw_scene(Scene(grid9, (((4, 2), "w"), ((4, 0), "b"))), th, 720, False)
    lay = layout(grid9, 720, False)
    assert img.width <= 800
    x, y = lay.origin((4, 4))
    assert near(img.getpixel((x + lay.cell // 2, y + 2)), blend(th.highlight, th.light, 0.5)), "the throne"
    x, y = lay.origin((5, 0))
    assert near(img.getpixel((x + lay.cell // 2, y + lay.cell // 2)), blend(th.dark, th.light, 0.5)), "a camp"
    assert near(img.getpixel(lay.centre((4, 2))), th.white_piece)


def test_the_empty_board_is_drawn_once_per_theme_size_and_side():
    from renders.drawing import empty_board, palette, sprite

    v = variant("brazilian")
    opts = RenderOptions(theme="contrast", width=700)
    png(start_position(v), opts)
    before = (empty_board.cache_info().misses, palette.cache_info().misses, sprite.cache_info().misses)
    game = Game(v)
    for _ in range(6):
        game.play(game.legal_moves()[0])
        png(game.position, opts, last_move=game.moves[-1], before=game.positions[-2])
    after = (empty_board.cache_info().misses, palette.cache_info().misses, sprite.cache_info().misses)
    assert after[:2] == before[:2], "no board or palette drawn again"
    png(start_position(v), RenderOptions(theme="contrast", width=700, flipped=True))
    assert empty_board.cache_info().misses == before[0] + 1, "the other side is a board of its own"



def test_a_standings_table_grows_with_its_rows_and_cuts_a_long_name_to_its_column():
    import io

    from PIL import Image

    from renders import render_table
    from renders.table import MAX_ROWS, ROW

    def size(png):
        return Image.open(io.BytesIO(png)).size

    rows = [[str(k), f"player {k}", str(10 - k)] for k in range(1, 6)]
    short = size(render_table("Standings", ["#", "Player", "Points"], rows))
    longer = size(render_table("Standings", ["#", "Player", "Points"], rows + [["6", "eve", "0"]]))
    assert longer[1] - short[1] == ROW and longer[0] == short[0]
    named = size(render_table("Standings", ["#", "Player", "Points"], [["1", "a" * 300, "3"]]))
    assert named[0] < 400  # the name is cut, not the image stretched
    many = size(render_table("Standings", ["#", "Player"], [[str(k), "x"] for k in range(100)]))
    assert many[1] == size(render_table("Standings", ["#", "Player"], [[str(k), "x"] for k in range(MAX_ROWS)]))[1]
