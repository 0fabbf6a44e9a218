"""The page of a trace cut short (``head -c``), opened in a real headless Chromium: its header
and the end of its log say where the trace ends, and nothing fails."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from tests.trace import trace_helpers as helpers

if os.environ.get("CI") != "true":  # under CI a missing selenium fails
    pytest.importorskip("selenium", reason="selenium is not installed (pip install -e '.[test]')")

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

pytestmark = pytest.mark.slow  # drives a headless Chromium

WAIT = 60
"""Seconds the browser is given to draw the page (it waits for the page, not the time)."""


def test_the_page_of_a_trace_cut_short_says_where_it_ends(browser: Any, html_traces: list[Path],
                                                          tmp_path: Path) -> None:
    browser.get_log("browser")  # what an earlier page logged
    cut = tmp_path / "cut.jsonl"
    cut.write_bytes(html_traces[0].read_bytes()[:300_000])
    records = helpers.raw_records(html_traces[0])[1:]
    last = cut.read_bytes().count(b"\n") - 1  # the header's line, then one per record
    turn = max(r["payload"]["turn"] for r in records[:last] if r["kind"] == "GameEvent")
    page = tmp_path / "cut.html"
    code, _, err = helpers.run_cli("trace", "html", str(cut), "-o", str(page))
    assert code == 0 and "is cut off" in err
    browser.get(page.as_uri())
    WebDriverWait(browser, WAIT).until(lambda d: d.execute_script("return document.body.dataset.ready") == "1")
    summary = browser.find_element(By.ID, "summary").text
    assert f"no result: the trace ends at turn {turn}, cut after record {last}" in summary, summary
    rows = browser.find_element(By.ID, "rows")
    end = rows.find_elements(By.XPATH, "./*")[-1]
    assert end.text == f"the trace ends here without a result (cut after record {last})"
    assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []
