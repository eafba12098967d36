"""A finished game's analysis on its page, in a real headless Chromium (tests/test_web_browser.py has the browser):
the Analyse button, the bar filling, then the graph, the marks in the move list, a click on the graph moving the
replay, and at the judged move the better move's arrow on the board with its line; a stored analysis shown at
once; none on a game still on."""

from __future__ import annotations

import asyncio

import pytest_asyncio

from chat import BEN, config
from engine import Color
from renders.graph import JUDGEMENT_COLOURS
from test_web_analysis import NODES, play_given_away
from test_web_browser_layout import box
from test_web_browser import Browser, pytestmark, serving  # noqa: F401 (pytestmark: the skip without a browser)

# Records, from the moment it runs, each time the page shows the analysis's bar: its value, its maximum and its
# size on the screen (the page may go from the bar to the graph quicker than a test looks).
WATCH_THE_BAR = """
window.barsSeen = [];
const seen = () => {
  const bar = document.getElementById('analysis-progress');
  if (bar) { const box = bar.getBoundingClientRect(); barsSeen.push([bar.value, bar.max, box.width, box.height]); }
};
new MutationObserver(seen).observe(document.getElementById('analysis'), {childList: true, subtree: true});
"""


@pytest_asyncio.fixture(loop_scope="session")
async def served_analysis(pool):
    async with serving(pool, config(analysis_nodes=NODES)) as site:
        yield site


def displayed(b: Browser, selector: str) -> bool:
    """Whether the page shows an element (there, not hidden, and of some size)."""
    return bool(b.js(f"const e = document.querySelector({selector!r}); if (!e) return false; "
                     "const box = e.getBoundingClientRect(); "
                     "return e.checkVisibility() && box.width > 0 && box.height > 0;"))


def wait_for(b: Browser, selector: str, timeout: float = 30.0) -> None:
    b.wait(lambda s: displayed(b, selector), timeout)


def click(b: Browser, selector: str, x_fraction: float | None = None) -> None:
    """Click an element like a person (at ``x_fraction`` of its width, on its middle line, if given)."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By

    element = b.driver.find_element(By.CSS_SELECTOR, selector)
    b.js(f"document.querySelector({selector!r}).scrollIntoView({{block: 'center'}})")
    if x_fraction is None:
        ActionChains(b.driver).move_to_element(element).click().perform()
    else:
        offset = round(element.rect["width"] * (x_fraction - 0.5))  # from the element's centre
        ActionChains(b.driver).move_to_element_with_offset(element, offset, 0).click().perform()


async def test_a_finished_game_is_analysed_from_its_page(served_analysis):
    chat, base, browser = served_analysis
    game = await play_given_away(chat)
    b = await browser()
    await asyncio.to_thread(b.open, base + chat.pages.seat_path(game, Color.WHITE, BEN))  # ben's seat link
    await asyncio.to_thread(b.wait, lambda s: len(s["entries"]) == 7 and s["seat"] is not None)
    assert not await asyncio.to_thread(displayed, b, "#analysis")  # a game still on has no analysis
    await chat.say(BEN, "resign")
    await asyncio.to_thread(b.wait, lambda s: bool(s["status"]["result"]))

    await asyncio.to_thread(wait_for, b, "#analyse")
    await asyncio.to_thread(b.js, WATCH_THE_BAR)
    await asyncio.to_thread(click, b, "#analyse")
    await asyncio.to_thread(wait_for, b, "#analysis-graph")
    bars = await asyncio.to_thread(b.js, "return barsSeen")
    assert bars and bars[0][1] == 7 and bars[0][2] > 100 and bars[0][3] > 5  # a bar of 7 positions, on the screen
    assert not await asyncio.to_thread(displayed, b, "#analysis-progress")  # the bar gave way to the graph
    assert chat.core.state.analyses == {}
    shown = await asyncio.to_thread(b.js, "return analysis.state")
    blunder = shown["analysis"]["moves"][5]
    assert blunder["played"] == "30-26" and blunder["judgement"] in ("mistake", "blunder")

    # the marks beside the moves, coloured as the graph's dots; each side's figures
    marks = await asyncio.to_thread(b.js, "return [...document.querySelectorAll('#moves .move')].map(m => "
                                          "[Number(m.dataset.ply), m.querySelector('.judgement').textContent, "
                                          "getComputedStyle(m.querySelector('.judgement')).color])")
    judged = {ply: (mark, colour) for ply, mark, colour in marks if mark}
    assert set(judged) == {m["ply"] for m in shown["analysis"]["moves"] if m["judgement"]} and 6 in judged
    assert judged[6][0] == blunder["mark"]
    hex_colour = JUDGEMENT_COLOURS[blunder["judgement"]]
    assert judged[6][1] == "rgb({}, {}, {})".format(*(int(hex_colour[i:i + 2], 16) for i in (1, 3, 5)))
    rows = await asyncio.to_thread(b.js, "return [...document.querySelectorAll('#analysis-players .figures')]"
                                         ".map(r => [r.dataset.colour, r.querySelector('.name').textContent, "
                                         "[...r.querySelectorAll('.count')].map(c => c.textContent), "
                                         "r.querySelector('.accuracy').textContent, r.getBoundingClientRect().height])")
    assert [(colour, name) for colour, name, *_ in rows] == [("White", "ben"), ("Black", "ana")]
    for colour, _, counts, accuracy, height in rows:
        figures = shown["players"][colour]
        assert counts == [f"?! {figures['inaccuracies']}", f"? {figures['mistakes']}", f"?? {figures['blunders']}"]
        assert abs(int(accuracy.rstrip("%")) - figures["accuracy"]) <= 0.5
        assert height < 40  # one line a side
    # each judged move's comment under it in the list, as lidraughts writes it
    comment = await asyncio.to_thread(b.js, "const c = document.querySelector('#moves .comment[data-ply=\"6\"]'); "
                                            "return c && c.offsetHeight > 0 ? c.textContent : null")
    assert comment == f"{blunder['judgement'].capitalize()}. Best move was {blunder['line'][0]}."
    # the graph full width under the board
    graph, board = await asyncio.to_thread(box, b, "#analysis-graph"), await asyncio.to_thread(box, b, "#board svg")
    assert graph["top"] >= board["bottom"] and abs(graph["width"] - board["width"]) < 2
    dot = "#analysis-graph circle.point[data-ply='6']"
    assert await asyncio.to_thread(b.js, f"return document.querySelector(\"{dot}\").getAttribute('fill')") == hex_colour

    # a click on the graph goes to that position: at the third's x, then on the blunder's dot
    await asyncio.to_thread(b.key, "\ue011")  # Home
    await asyncio.to_thread(b.wait, lambda s: s["view"] == 0)
    margin = await asyncio.to_thread(b.js, "return GRAPH_MARGIN / GRAPH_WIDTH")  # the graph's margin, of its width
    await asyncio.to_thread(click, b, "#analysis-graph", margin + 3 / 6 * (1 - 2 * margin))
    await asyncio.to_thread(b.wait, lambda s: s["view"] == 3)
    await asyncio.to_thread(click, b, dot)
    await asyncio.to_thread(b.wait, lambda s: s["view"] in (-1, 6))  # the last position: the replay follows the end
    assert not await asyncio.to_thread(displayed, b, "#better-arrow")  # after the blunder: no arrow
    assert "◀ shows the better move" in await asyncio.to_thread(b.text, "better-line")

    # the position before the blunder: the better move drawn on the board, its line written out
    await asyncio.to_thread(b.key, "\ue012")  # ArrowLeft
    await asyncio.to_thread(b.wait, lambda s: s["view"] == 5)
    await asyncio.to_thread(wait_for, b, "#better-arrow")
    better = await asyncio.to_thread(b.text, "better-line")
    assert f"Better: {' '.join(blunder['line'])}" in better and "30-26" in better
    start, end = await asyncio.to_thread(b.js, """
        const centre = (cell) => {
          const box = document.querySelector(`#board rect[data-cell="${cell.join(',')}"]`).getBoundingClientRect();
          return [box.x + box.width / 2, box.y + box.height / 2];
        };
        const path = analysis.state.analysis.moves[5].path;
        return [centre(path[0]), centre(path[path.length - 1])];""")
    arrow = await asyncio.to_thread(b.js, "const box = document.getElementById('better-arrow').getBoundingClientRect();"
                                          "return [box.left, box.top, box.right, box.bottom];")
    slack = 40  # pixels: the arrow runs from the first cell's centre to the last's, its head beyond the line
    for x, y in (start, end):
        assert arrow[0] - slack <= x <= arrow[2] + slack and arrow[1] - slack <= y <= arrow[3] + slack
    on_top = await asyncio.to_thread(b.js, "const board = document.querySelector('#board svg'); "
                                           "const pieces = board.querySelectorAll('.piece'); "
                                           "return board.lastElementChild === document.getElementById('better-arrow') "
                                           "|| [...board.children].indexOf(document.getElementById('better-arrow')) > "
                                           "[...board.children].indexOf(pieces[pieces.length - 1]);")
    assert on_top  # drawn over the pieces

    # practice from ben's own mistakes: each position before one, his move judged as `practice` judges it in chat
    await asyncio.to_thread(click, b, "#practise")
    await asyncio.to_thread(b.wait, lambda s: b.js("return practising()") and b.text("status").startswith("Practice (1 of"))
    spot = await asyncio.to_thread(b.js, "return practiceSpot()")
    judged = next(m for m in shown["analysis"]["moves"] if m["ply"] == spot["ply"] + 1)
    assert judged["mover"] == "White" and judged["judgement"] in ("mistake", "blunder")
    assert await asyncio.to_thread(b.text, "better-line") == ""  # the answer is not shown before the move
    assert await asyncio.to_thread(b.js, "return document.querySelectorAll('#moves .comment').length") == 0
    best = next(m for m in spot["legal"] if m["path"] == judged["path"])  # (the better move's cells)
    assert not await asyncio.to_thread(b.js, "return document.getElementById('practice-next').disabled === false")
    for cell in best["path"]:
        await asyncio.to_thread(b.click_cell, cell)
    await asyncio.to_thread(b.wait, lambda s: b.text("status").endswith("Well found!"), 60)
    assert await asyncio.to_thread(displayed, b, "#better-arrow")  # the engine's move, on the board
    assert await asyncio.to_thread(b.js, "return document.getElementById('practice-next').disabled") is False
    await asyncio.to_thread(click, b, "#practice-stop")
    await asyncio.to_thread(b.wait, lambda s: not b.js("return practising()") and s["view"] == -1)
    assert await asyncio.to_thread(displayed, b, "#practise")

    logged = await asyncio.to_thread(b.driver.get_log, "browser")
    errors = [e["message"] for e in logged]
    assert not errors  # nothing refused by the Content-Security-Policy, no script error, no missing icon

    # a page opened later shows the stored analysis at once, without asking
    later = await browser()
    await asyncio.to_thread(later.open, base + chat.pages.game_path(game))
    await asyncio.to_thread(wait_for, later, "#analysis-graph", 10)
    assert not await asyncio.to_thread(displayed, later, "#analyse")
    assert await asyncio.to_thread(later.js, "return document.querySelector('#moves [data-ply=\"6\"] .judgement')"
                                             ".textContent") == blunder["mark"]
