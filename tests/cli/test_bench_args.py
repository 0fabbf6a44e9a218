"""``spellstack bench``'s modes from the command line: each prints its report, and bad values
or modes that don't go together are one-line errors (exit 2)."""

from __future__ import annotations

import pytest

from spellstack.cli import main


def _main(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["bench", *args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("args, needle", [
    (("--jobs", "0"), "--jobs must be at least 1, got 0"),
    (("--concurrent", "0"), "--concurrent must be at least 1, got 0"),
    (("--jobs", "2", "--repeat", "0"), "--repeat must be at least 1, got 0"),
    (("--games", "-3"), "--games must be at least 1, got -3"),
    (("--kernel", "--trace"), "--kernel and --trace can't be combined"),
    (("--kernel", "--concurrent", "5"), "--kernel and --concurrent can't be combined"),
    (("--jobs", "2", "--concurrent", "5"), "--jobs and --concurrent can't be combined"),
    (("--trace", "--jobs", "2"), "--trace and --jobs can't be combined"),
    (("--jobs", "2", "--profile"), "--jobs and --profile can't be combined"),
    (("--concurrent", "2", "--profile"), "--concurrent and --profile can't be combined"),
    (("--layers", "--kernel"), "--layers and --kernel can't be combined"),
    (("--kernel", "--messages"), "--kernel and --messages can't be combined"),
    (("--repeat", "3",), "--repeat applies to --jobs and --tournament only"),
])
def test_bad_arguments_are_one_line_errors(capsys: pytest.CaptureFixture[str],
                                           args: tuple[str, ...], needle: str) -> None:
    code, out, err = _main(capsys, *args)
    assert (code, out) == (2, "")
    assert err == f"spellstack bench: {needle}\n"


@pytest.mark.parametrize("args, needles", [
    (("--kernel", "--games", "2"), ("kernel: 2 games", "decisions/s: ", "per-decision cost: ")),
    (("--concurrent", "2"), ("concurrent: 2 games", "games in flight at most: 2 ",
                             "resident memory: ")),
    (("--trace", "--games", "1", "--seed", "4"), ("trace: 1 game (", "tracing overhead: ")),
    (("--messages", "--games", "1"), ("messages: 1 game (", "message cycle alone: ",
                                      "full games: ", "within the 10x target: ")),
    (("--profile", "--kernel", "--games", "1"), ("profile: 1 game (", "kernel rules ",
                                                 "top 15 functions")),
])
@pytest.mark.slow
def test_each_mode_prints_its_report_after_the_machine(
        capsys: pytest.CaptureFixture[str], args: tuple[str, ...],
        needles: tuple[str, ...]) -> None:
    code, out, err = _main(capsys, *args)
    assert code == 0, err
    assert out.startswith("machine: ")
    for needle in needles:
        assert needle in out
    assert "games\n" in err  # progress goes to stderr
