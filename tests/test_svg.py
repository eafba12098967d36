"""Boards as SVG (``renders.svg``): the same picture as the PNG of the same position, seen in a real Chromium;
arrows and marked squares on top; shown by a notebook through IPython's display formatter."""

from __future__ import annotations

import io
import shutil
import xml.dom.minidom

import numpy as np
import pytest
from PIL import Image

from engine import Board, game_type
from renders import Arrow, RenderOptions, board_svg, render_png, render_svg
from renders.drawing import layout

CHROMIUM = shutil.which("chromium")
DRIVER = shutil.which("chromedriver")


def played(name: str, *moves: str) -> Board:
    board = Board(name)
    for text in moves:
        board.push_text(text)
    return board


def shapes(svg: str, tag: str) -> list[xml.dom.minidom.Element]:
    return list(xml.dom.minidom.parseString(svg).getElementsByTagName(tag))


def test_every_piece_is_drawn_where_the_game_puts_it_and_flipping_turns_the_board():
    board = played("international", "32-28", "19-23", "28x19", "14x23")
    svg = board_svg(board)
    men = [g for g in shapes(svg, "g") if g.getAttribute("opacity") == "1"]
    assert len(men) == 38  # 19 a side, after one capture each
    ghosts = [g for g in shapes(svg, "g") if g.getAttribute("opacity") == "0.35"]
    assert len(ghosts) == 1  # the man Black's last capture took, faded where it stood
    assert shapes(svg, "polyline")  # the last move's path
    turned = board_svg(board, RenderOptions(flipped=True))
    assert turned != svg and len(shapes(turned, "g")) == len(shapes(svg, "g"))
    contrast = board_svg(board, RenderOptions(theme="contrast"))
    assert "#565656" not in svg and "#606060" in contrast  # the theme's dark squares


def test_arrows_and_marked_squares_go_on_top_in_their_colours():
    svg = board_svg(Board("english"), arrows=[Arrow(11, 15), (22, 18, ), Arrow(9, 14, "red")], marks=[15, 18])
    arrows = [g for g in shapes(svg, "g") if g.getAttribute("opacity") == "0.75"]
    assert len(arrows) == 3 and 'stroke="red"' in svg
    rings = [r for r in shapes(svg, "rect") if r.getAttribute("fill") == "none"]
    assert len(rings) == 2


def test_kings_wear_crowns_and_tablut_has_its_marks():
    kings = board_svg(Board("english", "W:WK29:BK4"))
    assert len(shapes(kings, "polygon")) == 2
    tablut = render_svg(game_type("tablut"), game_type("tablut").start())
    assert len(shapes(tablut, "line")) == 2  # the throne's cross (a Tablut board has its throne, camps, escapes)


def test_a_notebook_shows_the_board_as_a_picture():
    formatter = pytest.importorskip("IPython.core.formatters").DisplayFormatter()
    data, _ = formatter.format(board_svg(played("english", "11-15")))
    assert data["image/svg+xml"].startswith("<svg") and "text/plain" in data


@pytest.mark.skipif(not (CHROMIUM and DRIVER), reason="no chromium and chromedriver here (see tests/test_web_browser.py)")
@pytest.mark.parametrize("name, moves, options", [
    ("international", ("32-28", "19-23", "28x19", "14x23"), RenderOptions()),
    ("russian", ("c3-d4", "f6-e5"), RenderOptions(theme="contrast", flipped=True)),
])
def test_chromium_draws_the_svg_as_the_png_of_the_same_position(tmp_path, name, moves, options):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By

    board = played(name, *moves)
    svg = board_svg(board, options)
    last = board.record.moves[-1]
    png = Image.open(io.BytesIO(render_png(board.game_type, board.position, options, last_move=last,
                                           before=board.record.positions[-2]))).convert("RGB")
    page = tmp_path / "board.html"
    page.write_text(f'<html><body style="margin:0">{svg}</body></html>')
    chrome = webdriver.ChromeOptions()
    chrome.binary_location = CHROMIUM
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                 "--window-size=900,1000", "--force-device-scale-factor=1", "--hide-scrollbars"):
        chrome.add_argument(flag)
    driver = webdriver.Chrome(service=Service(DRIVER), options=chrome)
    try:
        driver.get(page.as_uri())
        shot = Image.open(io.BytesIO(driver.find_element(By.TAG_NAME, "svg").screenshot_as_png)).convert("RGB")
    finally:
        driver.quit()
    assert shot.size == png.size
    # Every square's middle (a piece, a ghost, a highlighted square, an empty one) is the same colour in both
    # (looked at a little below the middle, clear of a crown and of the move's line).
    lay = layout(board.game_type.grid(options.labels), options.width, options.flipped)
    for row in range(lay.size):
        for col in range(lay.size):
            x, y = lay.centre((row, col))
            a, b = png.getpixel((x, y + lay.cell // 5)), shot.getpixel((x, y + lay.cell // 5))
            assert max(abs(p - q) for p, q in zip(a, b)) < 40, ((row, col), a, b)
    # And the whole pictures differ only along the edges of shapes and in the letters of two fonts.
    diff = np.abs(np.asarray(png, dtype=np.int16) - np.asarray(shot, dtype=np.int16))
    assert diff.mean() < 6  # of 255, over every pixel's channels
