"""``spellstack bench --tournament``: a small run of each of its modes, as a user runs them,
reporting the same games in one process and in workers, and the memory of games in flight."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _bench(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "spellstack", "bench", "--tournament", *args],
                          cwd=ROOT, text=True, capture_output=True, timeout=600, check=False)


@pytest.mark.slow
def test_throughput_in_one_process_and_in_workers_on_the_same_games() -> None:
    done = _bench("--games", "6", "--jobs", "2")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    # Six games need four entrants (4 * 3 / 2); a drawn game is played again, so at least six.
    assert re.search(r"tournament: \d+ games \(4 random entrants on gruul and orzhov", out), out
    assert "spellstack bench's games, one after another:" in out
    assert re.search(r"tournament in 1 process: [\d.]+ games/s = [\d.]+x its games one after "
                     r"another, [\d.]+x bench's games/s; \d+ decisions/s", out), out
    assert re.search(r"tournament in 2 worker processes: [\d.]+ games/s = [\d.]+x 1 process", out)
    assert re.search(r"the parent's share .*: [\d.]+% of one core, [\d.]+ ms a game", out), out
    assert re.search(r"worker start-up: [\d.]+ s CPU each", out), out
    assert re.search(r"where the time goes \(round 1\): [\d.]+ s in 2 worker processes .* = "
                     r"start-up [-+][\d.]+ s \+ the parent [-+][\d.]+ s \+ the games' CPU .* "
                     r"\+ idle cores [-+][\d.]+ s", out), out
    assert re.search(r"with no core idle \(CPU time alone: .*\): [\d.]+x, medians", out), out
    assert re.search(r"load average before each run \(1, 5, 15 min\): 1 process [\d.]+ [\d.]+ [\d.]+", out)
    assert "same games in every run: yes" in out
    assert "round 1/1: tournament in 2 worker processes" in done.stderr


@pytest.mark.slow
def test_any_number_of_workers_against_one_process() -> None:
    done = _bench("--games", "6", "--jobs", "3")
    assert done.returncode == 0, done.stderr
    assert re.search(r"tournament in 3 worker processes: [\d.]+ games/s = [\d.]+x 1 process", done.stdout)
    assert re.search(r"against [\d.]+ s / 3 = ", done.stdout), done.stdout
    assert "same games in every run: yes" in done.stdout


@pytest.mark.slow
def test_games_in_flight_and_their_memory() -> None:
    done = _bench("--concurrent", "10", "--games", "10")
    assert done.returncode == 0, done.stderr
    assert re.search(r"games in flight at most: 10; resident memory: [\d.]+ MB at most", done.stdout)


@pytest.mark.slow
def test_it_does_not_go_with_the_other_modes() -> None:
    done = _bench("--kernel")
    assert done.returncode == 2
    assert "--kernel and --tournament can't be combined" in done.stderr
