"""The trace page in a headless Chromium: finding things (the first line selected on load, a
line's address, jumping to a turn, searching the lines, a card's printed text), the board's
printed P/T off the battlefield, the chart and line numbers of a long game, one heading over
the scrolled rows (halfway down the long game too), and one column on a narrow screen, the
selected line inside it. Screenshots of the long game at 1400 and 400 px are kept under the
tests' tmp_path (their paths printed)."""

from __future__ import annotations

import itertools
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest

from tests.trace import trace_helpers as helpers

if os.environ.get("CI") != "true":  # under CI a missing selenium fails
    pytest.importorskip("selenium", reason="selenium is not installed (pip install -e '.[test]')")

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.select import Select
from selenium.webdriver.support.ui import WebDriverWait

pytestmark = pytest.mark.slow  # each test drives a headless Chromium

WAIT = 60
"""Seconds the browser is given for anything (it waits for the condition, not the time)."""


def _page(trace: Path, page: Path) -> Path:
    code, _, err = helpers.run_cli("trace", "html", str(trace), "-o", str(page))
    assert code == 0, err
    return page


def _open(browser: Any, url: str) -> None:
    browser.get("about:blank")  # a new document even when only the address's #fragment differs
    browser.get(url)
    WebDriverWait(browser, WAIT).until(lambda d: d.execute_script("return document.body.dataset.ready") == "1")


def _selected(browser: Any) -> str:
    """The number (or range) of the selected line."""
    rows = browser.find_elements(By.CSS_SELECTOR, "#rows .row.sel")
    assert len(rows) == 1
    text: str = rows[0].find_element(By.CSS_SELECTOR, ".num").get_attribute("textContent")
    return text


def _hash(browser: Any) -> str:
    return str(browser.execute_script("return location.hash"))


@pytest.fixture(scope="module")
def seed1_page(html_traces: list[Path], tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The page of ``play --seed 1``."""
    return _page(html_traces[0], tmp_path_factory.mktemp("seed1") / "game.html")


@pytest.fixture(scope="module")
def long_page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The page of an 80-turn game: ``play --deck orzhov --deck dimir --seed 6``."""
    folder = tmp_path_factory.mktemp("long")
    code, _, err = helpers.run_cli("play", "--deck", "orzhov", "--deck", "dimir", "--seed", "6",
                                   "--trace", str(folder / "t.jsonl"))
    assert code == 0, err
    return _page(folder / "t.jsonl", folder / "long.html")


@pytest.fixture
def narrow(browser: Any) -> Iterator[Any]:
    """The browser 400 px wide, as a phone is; its size again after."""
    size = browser.get_window_size()
    browser.set_window_size(400, 800)
    try:
        yield browser
    finally:
        browser.set_window_size(size["width"], size["height"])


def test_the_first_line_is_selected_and_a_line_has_an_address(browser: Any, seed1_page: Path) -> None:
    url = seed1_page.as_uri()
    _open(browser, url)
    assert _selected(browser) == browser.find_element(By.CSS_SELECTOR, "#rows .row .num").text
    assert "Select a line" not in browser.find_element(By.ID, "payload").text
    assert _hash(browser) == "#line=3"

    _open(browser, url + "#line=449")
    assert _selected(browser) == "449"
    assert "Savannah Lions deals 2 damage to Raging Goblin" in browser.find_element(By.ID, "payload").text
    # a record folded into a run of passes: the run's line
    _open(browser, url + "#line=4")
    assert _selected(browser) == "3-4"
    # a number no line has (5 and 6 are records of no line): the next line after it
    _open(browser, url + "#line=5")
    assert _selected(browser) == "7" and _hash(browser) == "#line=7"
    # selecting a line writes its number in the address; a new address selects its line
    browser.find_element(By.TAG_NAME, "body").send_keys("j")
    WebDriverWait(browser, WAIT).until(lambda d: _hash(d) == "#line=8")
    browser.execute_script("location.hash = '#line=432'")
    WebDriverWait(browser, WAIT).until(lambda d: _selected(d) == "432")


def test_jump_to_a_turn_and_search_the_lines(browser: Any, seed1_page: Path) -> None:
    _open(browser, seed1_page.as_uri())
    Select(browser.find_element(By.ID, "turn")).select_by_visible_text("Turn 11: alice")
    WebDriverWait(browser, WAIT).until(lambda d: "turn 11" in d.find_element(By.ID, "payload").text)
    box = browser.find_element(By.ID, "search")
    box.send_keys("serra angel")
    marks = browser.find_elements(By.CSS_SELECTOR, "#rows .row.match mark")
    assert marks and all(m.get_attribute("textContent").lower() == "serra angel" for m in marks)
    matching = [r.find_element(By.CSS_SELECTOR, ".num").get_attribute("textContent") for r in
                browser.find_elements(By.CSS_SELECTOR, "#rows .row.match")]
    assert len(matching) >= 3
    numbers = [int(n.split("-")[0]) for n in matching]
    box.send_keys(Keys.ENTER)  # the next match after the selected line (in turn 11)
    first = _selected(browser)
    assert first in matching and int(first.split("-")[0]) > 417
    box.send_keys(Keys.ENTER)
    second = _selected(browser)
    assert matching.index(second) == matching.index(first) + 1
    browser.find_element(By.ID, "prev").click()
    assert _selected(browser) == first
    assert "of" in browser.find_element(By.ID, "matches").text
    # typing in the box does not step through the lines (j, k are letters there)
    box.send_keys("jk")
    assert _selected(browser) == first
    assert numbers == sorted(numbers)


def test_the_board_shows_printed_cards(browser: Any, seed1_page: Path) -> None:
    _open(browser, seed1_page.as_uri() + "#line=449")
    board = browser.find_element(By.ID, "board").text
    # bob's graveyard: creature cards with their printed P/T, as on the battlefield
    assert "Serra Angel 4/4" in board and "Elvish Visionary 1/1" in board
    assert "0/0" not in board
    angel = browser.find_element(By.CSS_SELECTOR, "#board .card[data-card='Serra Angel']")
    assert "{3}{W}{W}" in angel.get_attribute("title") and "Flying, vigilance" in angel.get_attribute("title")
    angel.click()
    assert browser.find_element(By.ID, "card").text.splitlines() == [
        "Serra Angel {3}{W}{W}", "Creature — Angel · 4/4", "Flying, vigilance"]


def test_a_long_games_chart_and_line_numbers(browser: Any, long_page: Path) -> None:
    browser.get_log("browser")  # what an earlier page logged
    _open(browser, long_page.as_uri() + "#line=3635")
    assert _selected(browser) == "3635-3636"
    # turn labels: none overlapping another, and many of them
    boxes = browser.execute_script(
        "return [...document.querySelectorAll('#chart text.tlabel')].map((t) => {"
        "const b = t.getBoundingClientRect(); return [b.left, b.right]; })")
    assert len(boxes) >= 10
    assert all(a[1] <= b[0] for a, b in itertools.pairwise(boxes)), boxes
    # each number and range on one line: as tall as a single number's cell
    # (the passes of a folded run, hidden until it is opened, have no box)
    heights = browser.execute_script(
        "return [...document.querySelectorAll('#rows .num')].filter((n) => n.getClientRects().length)"
        ".map((n) => n.getClientRects()[0].height)")
    assert len(heights) > 1000
    assert max(heights) < 1.5 * min(heights)
    assert "alice's life" in browser.find_element(By.ID, "chartlegend").text
    assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []


def test_poison_has_its_own_scale_and_legend(browser: Any, seed1_page: Path) -> None:
    _open(browser, seed1_page.as_uri())
    legend = browser.find_element(By.ID, "chartlegend").text
    assert "bob's poison (right scale)" in legend and "alice's life (left scale)" in legend
    scale = [t.text for t in browser.find_elements(By.CSS_SELECTOR, "#chart text.poison")]
    assert scale == ["10", "0"]


def test_one_opaque_heading_over_the_scrolled_rows(browser: Any, seed1_page: Path) -> None:
    _open(browser, seed1_page.as_uri() + "#line=611")
    browser.execute_script("document.getElementById('rows').scrollTop += 1")
    where = browser.find_element(By.ID, "where")
    WebDriverWait(browser, WAIT).until(lambda d: where.is_displayed() and " · " in where.text)
    assert where.text.startswith("Turn 14: bob · ")
    # whatever row sits under it, the heading is what shows at each point of its box
    hit = browser.execute_script(
        "const w = document.getElementById('where').getBoundingClientRect();"
        "return [0.05, 0.1, 0.15, 0.2, 0.5].map((f) => document.elementFromPoint(w.left + f * w.width,"
        " w.top + w.height / 2).id)")
    assert hit == ["where"] * 5
    assert browser.execute_script("return getComputedStyle(document.getElementById('where')).backgroundColor"
                                  ) == "rgb(233, 237, 241)"
    # no other heading sticks at the top
    stuck = browser.execute_script(
        "return [...document.querySelectorAll('#rows .heading')].filter("
        "(h) => getComputedStyle(h).position === 'sticky').length")
    assert stuck == 0


def test_under_500_px_one_column_and_no_horizontal_scroll(narrow: Any, seed1_page: Path) -> None:
    _open(narrow, seed1_page.as_uri() + "#line=449")
    assert narrow.execute_script("return document.documentElement.scrollWidth <= window.innerWidth")
    log = narrow.find_element(By.ID, "timeline").rect
    detail = narrow.find_element(By.ID, "detail").rect
    assert detail["y"] >= log["y"] + log["height"] - 1  # the board under the log
    text = narrow.find_element(By.CSS_SELECTOR, "#rows .row.sel .text")
    assert text.rect["width"] > 100 and "Savannah Lions" in text.text


def test_under_500_px_each_lane_heading_shows_its_whole_name(narrow: Any, seed1_page: Path) -> None:
    _open(narrow, seed1_page.as_uri())
    heads = narrow.find_elements(By.CSS_SELECTOR, "#lanes span.who")
    assert [h.text for h in heads] == ["alice", "bob", "game"]
    for head in heads:  # nothing of the name is cut off by its narrow lane
        cut = narrow.execute_script(
            "const e = arguments[0]; return [e.scrollWidth > e.clientWidth, "
            "e.scrollHeight > e.clientHeight];", head)
        assert cut == [False, False], head.text


def _data(page: Path) -> dict[str, Any]:
    """The page's data (its ``trace-data`` script)."""
    found = re.search(r'id="trace-data">(.*?)</script>', page.read_text("utf-8"), re.S)
    assert found is not None
    data: dict[str, Any] = orjson.loads(found.group(1))
    return data


def _screenshot(browser: Any, path: Path, width: int) -> None:
    """Keep a screenshot of the page at ``path`` (printed), ``width`` px wide."""
    assert browser.save_screenshot(str(path))
    print(f"screenshot: {path}")
    png = path.read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and int.from_bytes(png[16:20], "big") == width


def test_the_turn_box_lands_on_turn_40_of_the_long_game(browser: Any, long_page: Path, tmp_path: Path) -> None:
    lines = _data(long_page)["lines"]
    assert max(row[1] for row in lines) == 80
    first = next(i for i, row in enumerate(lines) if row[1] == 40)  # turn 40's first line
    _open(browser, long_page.as_uri())
    [option] = [o for o in Select(browser.find_element(By.ID, "turn")).options if o.text.startswith("Turn 40: ")]
    Select(browser.find_element(By.ID, "turn")).select_by_visible_text(option.text)
    WebDriverWait(browser, WAIT).until(lambda d: _selected(d) == str(lines[first][0]))
    # the line is in sight, under the heading of turn 40
    inside = browser.execute_script(
        "const r = document.querySelector('#rows .row.sel').getBoundingClientRect(),"
        " box = document.getElementById('rows').getBoundingClientRect();"
        "return r.top >= box.top && r.bottom <= box.bottom")
    assert inside
    WebDriverWait(browser, WAIT).until(lambda d: d.find_element(By.ID, "where").text.startswith("Turn 40: "))
    _screenshot(browser, tmp_path / "long-game-1400px.png", 1400)


def test_search_finds_every_serra_angel_line(browser: Any, long_page: Path) -> None:
    lines = _data(long_page)["lines"]
    having = [str(row[0]) for row in lines if "serra angel" in row[7].lower()]
    assert len(having) >= 10
    _open(browser, long_page.as_uri())
    browser.find_element(By.ID, "search").send_keys("Serra Angel")
    found = [r.find_element(By.CSS_SELECTOR, ".num").get_attribute("textContent")
             for r in browser.find_elements(By.CSS_SELECTOR, "#rows .row.match")]
    assert found == having
    assert browser.find_element(By.ID, "matches").text == f"{len(having)} matches"
    # stepping through the matches visits each of them, in order
    box = browser.find_element(By.ID, "search")
    visited = []
    for _ in having:
        box.send_keys(Keys.ENTER)
        visited.append(_selected(browser))
    assert visited == having


def test_the_lines_that_name_serra_angel_are_trace_shows(long_page: Path) -> None:
    # The page's lines are trace show's: as many name Serra Angel in each (the count the search
    # above is checked against is not the page's own alone).
    trace = long_page.parent / "t.jsonl"
    code, out, _ = helpers.run_cli("trace", "show", str(trace))
    assert code == 0
    shown = [line for line in out.splitlines() if "Serra Angel" in line and not line.startswith(("==", "--"))]
    assert len(shown) == sum("Serra Angel" in row[7] for row in _data(long_page)["lines"])


def test_at_400_px_the_selected_line_lies_inside_the_screen(narrow: Any, long_page: Path, tmp_path: Path) -> None:
    _open(narrow, long_page.as_uri() + "#line=3635")
    assert _selected(narrow) == "3635-3636"
    box = narrow.execute_script(
        "const t = document.querySelector('#rows .row.sel .text').getBoundingClientRect();"
        "return [t.left, t.right, t.width, window.innerWidth, document.documentElement.scrollWidth]")
    left, right, width, screen, scroll = box
    assert 0 <= left < right <= screen and width > 100, box
    assert scroll <= screen  # no horizontal scroll
    _screenshot(narrow, tmp_path / "long-game-400px.png", 400)


def test_scrolled_halfway_one_heading_shows_at_the_top(browser: Any, long_page: Path) -> None:
    _open(browser, long_page.as_uri())
    browser.execute_script("const r = document.getElementById('rows'); r.scrollTop = r.scrollHeight / 2")
    where = browser.find_element(By.ID, "where")
    WebDriverWait(browser, WAIT).until(lambda d: where.is_displayed() and " · " in where.text)
    # Every point of the band at the top of the rows, as tall as the heading: the headings there
    # (the sticky one, or a turn or step heading of the rows) are one.
    shown = browser.execute_script(
        "const rows = document.getElementById('rows').getBoundingClientRect(),"
        " h = document.getElementById('where').getBoundingClientRect().height, seen = new Set();"
        "for (const fy of [0.1, 0.5, 0.9]) for (const fx of [0.02, 0.1, 0.3, 0.6, 0.9]) {"
        " const e = document.elementFromPoint(rows.left + fx * rows.width, rows.top + fy * h);"
        " const head = e && e.closest('#where, .heading'); if (head) seen.add(head.id || head.textContent); }"
        "return [...seen]")
    assert shown == ["where"]
    # and it names the turn of the first row under it
    turn = browser.execute_script(
        "const w = document.getElementById('where').getBoundingClientRect().bottom;"
        "const row = [...document.querySelectorAll('#rows .row')].find((r) => r.getBoundingClientRect().top >= w);"
        "return row.dataset.i")
    row = _data(long_page)["lines"][int(turn)]
    assert where.text.startswith(f"Turn {row[1]}: ")
