"""The examples in docs/soak.md run as written, and what it says of the options and of the CI
run is what the command and the tests do."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from spellstack.cli import build_parser, main

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "soak.md"


def _blocks(lang: str) -> list[str]:
    return re.findall(rf"```{lang}\n(.*?)```", DOC.read_text("utf-8"), re.S)


@pytest.mark.slow
def test_the_first_example_runs_and_passes(capsys: pytest.CaptureFixture[str]) -> None:
    first = shlex.split(_blocks("sh")[0])
    assert first[:2] == ["spellstack", "soak"]
    assert main(first[1:]) == 0
    out = capsys.readouterr().out
    assert "5 games" in out and "failures: 0" in out


def test_the_ci_command_is_the_one_the_tests_run() -> None:
    ci = shlex.split(_blocks("sh")[1])
    test = (ROOT / "tests" / "cli" / "test_soak.py").read_text("utf-8")
    quoted = ", ".join(f'"{w}"' for w in ci[2:])
    assert quoted in " ".join(test.split()), quoted


def test_the_failure_shown_is_in_the_reports_format() -> None:
    sample, _record = _blocks("text")
    assert re.fullmatch(r"  game \d+ \(game seed \d+\): \w+ at action \d+ \(turn \d+, \w+'s \w+\): .+\n"
                        r"    replay: spellstack soak --seed \d+ --start \d+ --games 1\n", sample)


def test_the_record_shown_is_in_the_reports_format() -> None:
    _sample, record = _blocks("text")
    assert re.fullmatch(r"10,000 games, [\d,]+ actions, [\d,]+ decisions, [\d,]+ turns, [\d,]+ refused actions\n"
                        r"ended: \d+ draw, \d+ won\n"
                        r"failures: 0\n"
                        r"time: [\d,.]+ s, [\d.]+ games/s, [\d,]+ actions/s, 2 jobs\n", record)


def test_the_options_table_gives_the_parsers_defaults() -> None:
    defaults = vars(build_parser().parse_args(["soak"]))
    rows = re.findall(r"^\| `(--[\w-]+) \w+` \| .*? \| (\d+) \|$", DOC.read_text("utf-8"), re.M)
    assert len(rows) == 7
    for option, default in rows:
        assert defaults[option[2:].replace("-", "_")] == default, option
