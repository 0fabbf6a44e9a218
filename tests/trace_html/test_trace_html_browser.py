"""The page of a real game opened in a real headless Chromium: it shows the players, the turns
and a known cast, clicking a line shows its payload, the keys step through the lines, the
console logs no error. A screenshot of it is kept (its path printed)."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import pytest

from tests.trace import trace_helpers as helpers

if os.environ.get("CI") != "true":  # under CI a missing selenium fails
    pytest.importorskip("selenium", reason="selenium is not installed (pip install -e '.[test]')")

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions as ec
from selenium.webdriver.support.ui import WebDriverWait

pytestmark = pytest.mark.slow  # each test drives a headless Chromium

WAIT = 60
"""Seconds the browser is given for anything (it waits for the condition, not the time)."""


def _open(browser: Any, trace: Path, page: Path, *extra: str) -> None:
    code, _, err = helpers.run_cli("trace", "html", str(trace), "-o", str(page), *extra)
    assert code == 0, err
    browser.get(page.as_uri())
    WebDriverWait(browser, WAIT).until(
        lambda d: d.execute_script("return document.body.dataset.ready") == "1")


def _selected(browser: Any) -> int:
    return int(browser.find_element(By.CSS_SELECTOR, "#rows .row.sel").get_attribute("data-i"))


def test_the_page_of_a_game_in_chromium(browser: Any, html_traces: list[Path], tmp_path: Path) -> None:
    browser.get_log("browser")  # what an earlier page logged
    _open(browser, html_traces[0], tmp_path / "game.html")
    text = browser.find_element(By.TAG_NAME, "body").text
    assert "alice" in text and "bob" in text
    assert "Turn 1: alice" in text and "Turn 2: bob" in text and "Turn 31: alice" in text
    assert "alice: cast Shock → alice" in text
    # the life chart: a line per player
    assert len(browser.find_elements(By.CSS_SELECTOR, "#chart svg path")) >= 2

    cast = browser.find_element(By.XPATH, "//div[contains(@class,'row')][contains(., 'alice: cast Shock')]")
    cast.click()
    WebDriverWait(browser, WAIT).until(ec.text_to_be_present_in_element((By.ID, "payload"), "SubmitAction"))
    payload = browser.find_element(By.ID, "payload").text
    body = json.loads(payload[payload.index("{"):])
    assert body["kind"] == "SubmitAction" and body["sender"] == "player:alice"
    assert body["payload"]["action"]["kind"] == "cast"
    assert "alice" in browser.find_element(By.ID, "board").text

    first = _selected(browser)
    browser.find_element(By.TAG_NAME, "body").send_keys("j")
    WebDriverWait(browser, WAIT).until(lambda d: _selected(d) == first + 1)
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_UP)
    WebDriverWait(browser, WAIT).until(lambda d: _selected(d) == first)
    assert len(browser.find_elements(By.CSS_SELECTOR, "#rows .row.sel")) == 1

    shot = tmp_path / "trace-page.png"
    assert browser.save_screenshot(str(shot))
    print(f"screenshot: {shot}")
    errors = [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]
    assert errors == []


def test_as_bob_the_page_draws_bobs_view(browser: Any, html_traces: list[Path], tmp_path: Path) -> None:
    browser.get_log("browser")
    _open(browser, html_traces[0], tmp_path / "bob.html", "--as", "bob")
    buttons = [b.text for b in browser.find_elements(By.CSS_SELECTOR, "#boardbar button")]
    assert buttons == ["bob's view"]
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.END)
    WebDriverWait(browser, WAIT).until(lambda d: "bob's hand" in d.find_element(By.ID, "board").text.lower())
    assert "as bob" in browser.find_element(By.ID, "summary").text
    assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []


def test_a_long_game_renders_in_time(browser: Any, tmp_path: Path) -> None:
    trace = tmp_path / "long.jsonl"
    code, _, err = helpers.run_cli("play", "--seed", "5", "--trace", str(trace))
    assert code == 0, err
    messages = len(trace.read_bytes().splitlines()) - 2
    assert messages > 2000
    _open(browser, trace, tmp_path / "long.html")
    rows = len(browser.find_elements(By.CSS_SELECTOR, "#rows .row"))
    assert rows > 500
    timing = browser.execute_script(
        "const n = performance.getEntriesByType('navigation')[0];"
        "const p = performance.getEntriesByName('first-contentful-paint')[0];"
        "return [n.domContentLoadedEventEnd, p ? p.startTime : null];")
    size = (tmp_path / "long.html").stat().st_size
    print(f"long game: {messages} messages, {rows} lines, {size // 1024} KiB, DOMContentLoaded {timing[0]:.0f} ms, "
          f"first contentful paint {timing[1]} ms")
    assert 0 < timing[0] < 10_000


def test_headings_and_folded_runs_in_chromium(browser: Any, match_trace: Path, tmp_path: Path) -> None:
    browser.get_log("browser")
    _open(browser, match_trace, tmp_path / "match.html")
    headings = [h.text for h in browser.find_elements(By.CSS_SELECTOR, "#rows .heading")]
    assert headings[:4] == ["Before the game", "starting player", "opening hands and mulligans", "Turn 1: bob"]
    assert any(re.fullmatch(r"precombat main \(\d+\)", h) for h in headings)

    fold = browser.find_elements(By.CSS_SELECTOR, "#rows .row.fold")[0]
    i = int(fold.get_attribute("data-i"))
    box = browser.find_element(By.ID, f"unfolded-{i}")
    assert not box.is_displayed() and fold.get_attribute("aria-expanded") == "false"
    fold.click()  # a click selects the run and opens it: a line per pass
    WebDriverWait(browser, WAIT).until(lambda d: box.is_displayed())
    passes = box.find_elements(By.CSS_SELECTOR, ".subrow")
    assert len(passes) >= 2 and fold.get_attribute("aria-expanded") == "true"
    assert all("can only pass" in p.text for p in passes)
    browser.find_element(By.ID, "rows").send_keys(Keys.ENTER)  # Enter closes it, and opens it again
    WebDriverWait(browser, WAIT).until(lambda d: not box.is_displayed())
    browser.find_element(By.ID, "rows").send_keys(Keys.ENTER)
    WebDriverWait(browser, WAIT).until(lambda d: box.is_displayed())
    assert _selected(browser) == i
    assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []
