"""The command line, run as a user runs it (a real subprocess)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from spellstack.actors import GameClock
from spellstack.cards import _loader
from spellstack.cli import main
from spellstack.trace import read_trace

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "tests" / "scenarios"


def _run(*args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "spellstack", *args], cwd=ROOT, text=True,
                          capture_output=True, timeout=timeout, check=False)


@pytest.mark.slow
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


@pytest.mark.slow
def test_play_rejects_an_unknown_deck() -> None:
    result = _run("play", "--deck", "nonsense", "--deck", "gruul")
    assert result.returncode == 2
    assert "nonsense" in result.stderr


@pytest.mark.slow
def test_scenario_run_passes_the_suite_with_expected_failures() -> None:
    result = _run("scenario", "run", str(SCENARIOS))
    assert result.returncode == 0, result.stdout[-2000:]
    *lines, last = result.stdout.splitlines()
    assert sum(line.startswith("PASS ") for line in lines) >= 10
    assert all(line.startswith(("PASS ", "XFAIL ")) for line in lines)
    passed = sum(line.startswith("PASS ") for line in lines)
    xfailed = sum(line.startswith("XFAIL ") for line in lines)
    assert last == f"{passed} passed, 0 failed, {xfailed} xfailed"
    assert all("; fails: " in line for line in lines if line.startswith("XFAIL "))


@pytest.mark.slow
def test_scenario_run_json_and_failure_exit(tmp_path: Path) -> None:
    bad = tmp_path / "wrong.toml"
    bad.write_text('title = "wrong on purpose"\n[setup]\nplayers = ["a", "b"]\n'
                   '[[step]]\nexpect.life = { a = 19 }\n')
    result = _run("scenario", "run", "--json", str(bad))
    assert result.returncode == 1
    [line] = result.stdout.splitlines()  # one JSON object per scenario, nothing else
    record = json.loads(line)
    assert record["status"] == "FAIL"
    assert "life.a: expected 19, got 20" in record["message"]
    assert result.stderr == "0 passed, 1 failed, 0 xfailed\n"


@pytest.mark.parametrize("content, needle", [
    ("title = 1\n", "title"),
    ('title = "x"\n[setup]\nplayers = ["a", "b"]\n[setup.a]\nhand = ["No Such Card"]\n',
     "No Such Card"),
    ('title = "x"\n[setup]\nplayers = ["a"]\n', "2 or more"),
    ("not toml [", "wrong.toml"),
])
@pytest.mark.slow
def test_broken_scenario_files_get_clear_errors(tmp_path: Path, content: str, needle: str) -> None:
    bad = tmp_path / "wrong.toml"
    bad.write_text(content)
    result = _run("scenario", "run", str(bad))
    assert result.returncode == 1
    assert needle in result.stdout


@pytest.mark.slow
def test_bench_runs_and_reports_the_floor() -> None:
    result = _run("bench", "--games", "3", "--seed", "5")
    assert result.returncode == 0, result.stderr
    for needle in ("games/s:", "decisions/s:", "messages per decision:", "floor:"):
        assert needle in result.stdout


# --------------------------------------------------------------------------- bad input


def _main(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """Run the command line in this process: an exception escaping main() fails the test."""
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def _one_line_error(code: int, out: str, err: str, *needles: str) -> None:
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("spellstack"), err
    for needle in needles:
        assert needle in err


@pytest.mark.slow
def test_a_deck_file_that_is_not_utf8_is_a_one_line_error(tmp_path: Path) -> None:
    deck = tmp_path / "latin1.toml"
    deck.write_bytes('name = "Caf\u00e9"\n[cards]\nMountain = 40\n'.encode("latin-1"))
    result = _run("play", "--deck", str(deck), "--deck", "gruul")
    _one_line_error(result.returncode, result.stdout, result.stderr, "latin1.toml", "UTF-8")
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("make, needles", [
    (lambda tmp: tmp / "missing" / "game.jsonl", ("missing", "does not exist")),
    (lambda tmp: tmp, ("is a folder",)),
])
def test_a_trace_path_that_cannot_be_written_is_a_one_line_error(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], make: Any,
        needles: tuple[str, ...]) -> None:
    _one_line_error(*_main(capsys, "play", "--trace", str(make(tmp_path))), "--trace", *needles)


def test_a_folder_given_as_a_deck_is_a_one_line_error(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # A quoted path is cut in its middle past 60 characters: its end names the folder.
    _one_line_error(*_main(capsys, "play", "--deck", str(tmp_path), "--deck", "gruul"),
                    str(tmp_path)[-20:], "is a folder, not a deck file")


@pytest.mark.parametrize("args, needles", [
    (("play", "--deck", "gruul"), ("--deck exactly twice",)),
    (("bench", "--games", "0"), ("--games must be at least 1",)),
    (("scenario", "run", "no/such/place"), ("no/such/place", "no such file or folder")),
])
def test_bad_values_are_one_line_errors(capsys: pytest.CaptureFixture[str], args: tuple[str, ...],
                                        needles: tuple[str, ...]) -> None:
    _one_line_error(*_main(capsys, *args), *needles)


@pytest.mark.parametrize("clock, problem", [
    ("0", "BASE must be more than 0 seconds, got 0"),
    ("-1+1", "BASE must be more than 0 seconds, got -1"),
    ("60+-1", "INC must be 0 or more seconds, got -1"),
    ("fast", "expected BASE+INC in seconds (60+0.5; 60 for 60+0)"),
    ("", "expected BASE+INC in seconds"),
    ("inf", "BASE must be a finite number of seconds, got inf"),
])
def test_a_bad_clock_is_a_one_line_error(capsys: pytest.CaptureFixture[str], clock: str, problem: str) -> None:
    # ``--clock=VALUE``: argparse would read ``-1+1`` alone as an option.
    code, out, err = _main(capsys, "play", f"--clock={clock}")
    _one_line_error(code, out, err, f"spellstack play: --clock: clock {clock!r}: {problem}")


def test_play_with_a_clock_says_each_player_s_time_left(tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    trace = tmp_path / "t.jsonl"
    code, out, _ = _main(capsys, "play", "--seed", "2", "--clock", "600+1", "--trace", str(trace))
    assert code == 0
    left = re.fullmatch(r"time left: alice (\d+\.\d{3}) s, bob (\d+\.\d{3}) s",
                        out.splitlines()[-2])
    assert left is not None and all(600 < float(t) <= 700 for t in left.groups()), out
    seats = read_trace(trace).header.seats
    assert [s.clock for s in seats] == [GameClock(600, 1)] * 2


def test_bad_deck_files_are_one_line_errors(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    broken = tmp_path / "broken.toml"
    broken.write_text('name = "x"\n[cards\n')
    _one_line_error(*_main(capsys, "play", "--deck", str(broken), "--deck", "gruul"),
                    "broken.toml")
    huge = tmp_path / "huge.toml"
    huge.write_text('name = "huge"\n[cards]\nMountain = 100000000000\n')
    _one_line_error(*_main(capsys, "play", "--deck", str(huge), "--deck", "gruul"),
                    "more than 10000 cards")


def test_scenario_run_on_a_folder_without_scenarios_says_so(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "notes.txt").write_text("nothing here")
    _one_line_error(*_main(capsys, "scenario", "run", str(tmp_path)), "no scenario files")
    _one_line_error(*_main(capsys, "scenario", "run", str(tmp_path / "notes.txt")),
                    "not a scenario file")


def test_a_broken_expected_failures_file_is_a_one_line_error(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "s.toml").write_text('title = "t"\n[setup]\nplayers = ["a", "b"]\n')
    (tmp_path / "expected_failures.toml").write_bytes(b'"s.toml" = "caf\xe9"\n')
    _one_line_error(*_main(capsys, "scenario", "run", str(tmp_path)), "expected_failures.toml")


@pytest.fixture
def without_the_eldest_reborn(monkeypatch: pytest.MonkeyPatch) -> None:
    """The engine as it was before The Eldest Reborn (every pool card is implemented now), for a
    pool card the engine lacks."""
    cards = _loader.load_cards()
    monkeypatch.setattr(_loader, "_CACHE", {n: d for n, d in cards.items() if n != "The Eldest Reborn"})


@pytest.mark.parametrize("card, needle", [
    ("Grizly Bears", "deck 'typo': unknown card 'Grizly Bears' (did you mean 'Grizzly Bears'?)"),
    ("The Eldest Reborn", "deck 'typo': 'The Eldest Reborn' is a pool card not implemented yet"),
])
@pytest.mark.usefixtures("without_the_eldest_reborn")
def test_a_deck_card_the_engine_lacks_says_whether_it_is_unknown_or_not_implemented(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], card: str, needle: str) -> None:
    deck = tmp_path / "typo.toml"
    deck.write_text(f'name = "typo"\n[cards]\nForest = 40\n"{card}" = 4\n')
    _one_line_error(*_main(capsys, "play", "--deck", str(deck), "--deck", "gruul"), needle)


@pytest.mark.usefixtures("without_the_eldest_reborn")
def test_scenario_run_takes_the_expected_failures_of_a_folder_outside_tests(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "scenarios"
    folder.mkdir()
    (folder / "waits.toml").write_text('title = "waits for The Eldest Reborn"\n[setup]\n'
                                       'players = ["a", "b"]\n[setup.a]\nhand = ["The Eldest Reborn"]\n')
    (folder / "fine.toml").write_text('title = "fine"\n[setup]\nplayers = ["a", "b"]\n'
                                      '[[step]]\nexpect.life = { a = 20 }\n')
    listed = tmp_path / "elsewhere.toml"
    listed.write_text('"waits.toml" = "evoke"\n')
    code, out, _ = _main(capsys, "scenario", "run", str(folder))
    assert code == 1
    assert "FAIL waits for The Eldest Reborn: " in out
    code, out, _ = _main(capsys, "scenario", "run", str(folder), "--expected-failures", str(listed))
    assert code == 0, out
    assert out.splitlines() == [
        "PASS fine",
        f"XFAIL waits for The Eldest Reborn (waits for: evoke; fails: {folder / 'waits.toml'}: "
        "setup.a.hand[0]: 'The Eldest Reborn' is a pool card not implemented yet)",
        "1 passed, 0 failed, 1 xfailed"]
    # The file given replaces the folder's own list.
    (folder / "expected_failures.toml").write_text('"fine.toml" = "nothing"\n')
    code, out, _ = _main(capsys, "scenario", "run", str(folder), "--expected-failures", str(listed))
    assert (code, out.splitlines()[-1]) == (0, "1 passed, 0 failed, 1 xfailed")


@pytest.mark.parametrize("name, needle", [
    ("missing.toml", "no such expected failures file"),
    ("", "a folder, not an expected failures file"),
])
def test_a_bad_expected_failures_flag_is_a_one_line_error(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, needle: str) -> None:
    (tmp_path / "s.toml").write_text('title = "t"\n[setup]\nplayers = ["a", "b"]\n')
    _one_line_error(*_main(capsys, "scenario", "run", str(tmp_path / "s.toml"),
                           "--expected-failures", str(tmp_path / name)), needle)
