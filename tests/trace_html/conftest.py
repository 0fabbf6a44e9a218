"""Traces of real games and their pages for the tests of ``spellstack trace html``, and a
headless Chromium to open the pages in (Debian's ``chromium`` and ``chromium-driver``)."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.trace import trace_helpers as helpers


@pytest.fixture(scope="session")
def html_traces(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """One trace per game of ``trace_helpers.GAMES`` (the first: ``play --seed 1``'s)."""
    paths: list[Path] = helpers.make_traces(tmp_path_factory.mktemp("html-traces"))
    return paths


@pytest.fixture(scope="session")
def match_trace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A game started the way a match's is: bob, the second seat, chose to play first."""
    return helpers.make_match_game_trace(tmp_path_factory.mktemp("html-match") / "match.jsonl")


def _missing(reason: str) -> None:
    """Fail under CI (``CI=true``), where the browser must be there; skip elsewhere."""
    if os.environ.get("CI") == "true":
        pytest.fail(f"CI=true, but {reason}")
    pytest.skip(reason)


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """A headless Chromium driven by Selenium through Debian's chromedriver."""
    chromium, driver_path = shutil.which("chromium"), shutil.which("chromedriver")
    if chromium is None or driver_path is None:
        _missing("no chromium or chromedriver on PATH (apt-get install chromium chromium-driver)")
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        _missing("selenium is not installed (pip install -e '.[test]')")
    options = webdriver.ChromeOptions()
    options.binary_location = str(chromium)
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--window-size=1400,900", "--disable-extensions"):
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(options=options, service=Service(executable_path=str(driver_path)))
    driver.set_page_load_timeout(120)
    try:
        yield driver
    finally:
        driver.quit()
