"""The processes that play games run the cyclic garbage collector less often than Python's
default (``tune_collector``); a library import leaves its host's collector alone."""

from __future__ import annotations

import gc
import subprocess
import sys
from collections.abc import Iterator

import pytest

from spellstack._collector import COLLECTOR_THRESHOLDS, tune_collector
from spellstack.cli import main


@pytest.fixture
def default_collector() -> Iterator[None]:
    """Python's default thresholds for the test, this process's own again after it."""
    before = gc.get_threshold()
    gc.set_threshold(700, 10, 10)
    try:
        yield
    finally:
        gc.set_threshold(*before)


def test_the_thresholds_collect_young_objects_less_often_and_keep_the_older_defaults() -> None:
    young, middle, old = COLLECTOR_THRESHOLDS
    assert young > 700
    assert (middle, old) == (10, 10)


@pytest.mark.usefixtures("default_collector")
def test_tune_collector_sets_the_thresholds() -> None:
    tune_collector()
    assert gc.get_threshold() == COLLECTOR_THRESHOLDS
    assert gc.isenabled()


@pytest.mark.usefixtures("default_collector")
def test_the_command_line_tunes_the_collector_before_it_runs_a_command(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["cards", "--reference", "--search", "bolt"]) == 2
    assert "takes no --search" in capsys.readouterr().err
    assert gc.get_threshold() == COLLECTOR_THRESHOLDS


def test_importing_spellstack_leaves_the_host_collector_as_it_was() -> None:
    # A chat bot embeds the engine: its collector is its own.
    code = ("import gc; gc.set_threshold(123, 4, 5); import spellstack, spellstack.rules, "
            "spellstack.chat, spellstack.harness, spellstack.tournament; print(gc.get_threshold())")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         timeout=60)
    assert out.stdout.strip() == "(123, 4, 5)"
