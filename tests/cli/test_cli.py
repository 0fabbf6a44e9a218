"""The command line, run as a user runs it (a real subprocess)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "tests" / "scenarios"


def _run(*args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "spellstack", *args], cwd=ROOT, text=True,
                          capture_output=True, timeout=timeout, check=False)


def test_play_finishes_names_the_winner_and_is_reproducible(tmp_path: Path) -> None:
    first = _run("play", "--seed", "1", "--trace", str(tmp_path / "a.jsonl"))
    second = _run("play", "--seed", "1", "--trace", str(tmp_path / "b.jsonl"))
    assert first.returncode == 0, first.stderr
    assert "Winner: " in first.stdout
    assert "turn 2:" in first.stdout
    assert first.stdout.replace("a.jsonl", "b.jsonl") == second.stdout
    assert (tmp_path / "a.jsonl").read_bytes() == (tmp_path / "b.jsonl").read_bytes()
    other = _run("play", "--seed", "2")
    assert other.stdout != first.stdout


def test_play_rejects_an_unknown_deck() -> None:
    result = _run("play", "--deck", "nonsense", "--deck", "gruul")
    assert result.returncode == 2
    assert "nonsense" in result.stderr


def test_scenario_run_passes_the_suite_with_expected_failures() -> None:
    result = _run("scenario", "run", str(SCENARIOS))
    assert result.returncode == 0, result.stdout[-2000:]
    lines = result.stdout.splitlines()
    assert sum(line.startswith("PASS ") for line in lines) >= 10
    assert all(line.startswith(("PASS ", "XFAIL ")) for line in lines)


def test_scenario_run_json_and_failure_exit(tmp_path: Path) -> None:
    bad = tmp_path / "wrong.toml"
    bad.write_text('title = "wrong on purpose"\n[setup]\nplayers = ["a", "b"]\n'
                   '[[step]]\nexpect.life = { a = 19 }\n')
    result = _run("scenario", "run", "--json", str(bad))
    assert result.returncode == 1
    record = json.loads(result.stdout.splitlines()[0])
    assert record["status"] == "FAIL"
    assert "life.a: expected 19, got 20" in record["message"]


@pytest.mark.parametrize("content, needle", [
    ("title = 1\n", "title"),
    ('title = "x"\n[setup]\nplayers = ["a", "b"]\n[setup.a]\nhand = ["No Such Card"]\n',
     "No Such Card"),
    ('title = "x"\n[setup]\nplayers = ["a"]\n', "2 or more"),
    ("not toml [", "wrong.toml"),
])
def test_broken_scenario_files_get_clear_errors(tmp_path: Path, content: str, needle: str) -> None:
    bad = tmp_path / "wrong.toml"
    bad.write_text(content)
    result = _run("scenario", "run", str(bad))
    assert result.returncode == 1
    assert needle in result.stdout


def test_bench_runs_and_reports_the_floor() -> None:
    result = _run("bench", "--games", "3", "--seed", "5")
    assert result.returncode == 0, result.stderr
    for needle in ("games/s:", "decisions/s:", "messages per decision:", "floor:"):
        assert needle in result.stdout
