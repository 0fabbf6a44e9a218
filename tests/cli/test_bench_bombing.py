"""``spellstack bench --bombing KIND``: honest games beside a bomber, against alone (the figure
is a benchmark's, read by people; here only that it runs, and that the honest games are
untouched)."""

from __future__ import annotations

import re

import pytest

from spellstack.cli import main


@pytest.mark.parametrize("kind", ["objects", "structure"])
def test_the_bombing_bench_reports_a_ratio_and_untouched_honest_games(
        kind: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--bombing", kind, "--games", "2"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"decisions/s beside the bomber, \d+ alone: \d+\.\d\dx", out), out
    assert "honest forfeits beside the bomber: 0; games whose end differs from alone: 0" in out


def test_bombing_takes_no_other_mode(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--bombing", "objects", "--kernel"]) == 2
    assert "can't be combined" in capsys.readouterr().err
