"""``spellstack play --entrant [NAME=]BOT@DECK`` (twice): any two bots a tournament takes play
one game, told as ``--deck``'s random bots are: a stdio program, a Python file's class (in a bot
process of its own, or in process with ``--trust``), a built-in bot.

The bot processes make these tests take real time, a second or so each: a class bot's process
imports the engine (checked once when the spec is read, then once for the game)."""

from __future__ import annotations

import contextlib
import io
import json
import sys
from pathlib import Path

import pytest

from spellstack.cli import main

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = f"stdio:{sys.executable} {ROOT / 'examples' / 'stdio_bot.py'}"
"""The example stdio bot, run by this Python (which has msgpack)."""

BOT_FILE = '''
from spellstack import Action, default_answer


class LandsFirst:
    """Plays a land when it can; everything else as the default answer (passing)."""

    def decide(self, view, decision):
        if decision.kind == "priority":
            lands = [o for o in decision.actions if o.kind == "play"]
            if lands:
                return Action("play", lands[0].object_id)
        return default_answer(decision)
'''
"""A bot class in a file of its own, written with the front door's names only."""


def _play(*args: str) -> tuple[int, list[str]]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(["play", *args])
    return code, out.getvalue().splitlines()


def _header(trace: Path) -> dict[str, object]:
    with trace.open(encoding="utf-8") as lines:
        header: dict[str, object] = json.loads(next(lines))
    return header


def test_a_stdio_program_plays_the_random_bot(tmp_path: Path) -> None:
    trace = tmp_path / "game.jsonl"
    code, lines = _play("--entrant", f"{EXAMPLE}@gruul", "--entrant", "random@orzhov", "--trace", str(trace))
    assert code == 0
    assert lines[0] == "spellstack play: stdio_bot-gruul (gruul) vs random-orzhov (orzhov), seed 1"
    assert lines[1] == "turn 1: stdio_bot-gruul"
    assert "  stdio_bot-gruul plays Mountain" in lines  # the program's own play
    assert lines[-3].startswith("Winner: ") and "forfeit" not in lines[-3], lines[-3]
    header = _header(trace)
    assert header["players"] == ["stdio_bot-gruul", "random-orzhov"]
    assert header["entrants"] == {"stdio_bot-gruul": "seat played by its caller",
                                  "random-orzhov": "spellstack.bots._random.RandomBot"}
    # The same seed and bots: the same game.
    assert _play("--entrant", f"{EXAMPLE}@gruul", "--entrant", "random@orzhov")[1] == lines[:-1]


@pytest.mark.parametrize("trust", [False, True])
def test_a_python_file_s_class_plays_named_as_given(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                     trust: bool) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bots").mkdir()
    (tmp_path / "bots" / "lands.py").write_text(BOT_FILE, encoding="utf-8")
    code, lines = _play("--entrant", "lands=bots/lands.py:LandsFirst@gruul", "--entrant", "heuristic@dimir",
                        "--seed", "3", "--trace", "game.jsonl", *(["--trust"] if trust else []))
    assert code == 0
    assert lines[0] == "spellstack play: lands (gruul) vs heuristic-dimir (dimir), seed 3"
    assert "  lands plays Mountain" in lines
    assert "forfeit" not in lines[-3], lines[-3]
    # In process (--trust) its class is the trace's entrant; otherwise its bot process plays it.
    entrant = _header(tmp_path / "game.jsonl")["entrants"]["lands"]  # type: ignore[index]
    assert entrant.endswith(".LandsFirst") if trust else entrant == "seat played by its caller"


def test_deck_is_still_two_random_bots_named_alice_and_bob() -> None:
    code, lines = _play("--deck", "dimir", "--deck", "gruul", "--seed", "2")
    assert code == 0
    assert lines[0] == "spellstack play: alice (dimir) vs bob (gruul), seed 2"
    # The same game as the same two random bots given as entrants, but for the names.
    _, named = _play("--entrant", "alice=random@dimir", "--entrant", "bob=random@gruul", "--seed", "2")
    assert named == lines


@pytest.mark.parametrize(("args", "says"), [
    (("--entrant", "random@gruul"), "spellstack play: give --entrant exactly twice (or not at all), got 1"),
    (("--entrant", "random@gruul", "--entrant", "random@gruul"),
     "spellstack play: both entrants are named 'random-gruul'; name them: NAME=BOT@DECK"),
    (("--entrant", "nosuch@gruul", "--entrant", "random@dimir"),
     "spellstack play: entrant 'nosuch@gruul': bot 'nosuch': not a built-in bot and no ':CLASS'"),
    (("--entrant", "stdio:./missing@gruul", "--entrant", "random@dimir"),
     "spellstack play: entrant 'stdio:./missing@gruul': bot 'stdio:./missing': no file './missing'"),
    (("--entrant", "random@nodeck", "--entrant", "random@dimir"), "spellstack play: entrant 'random@nodeck': deck: "),
])
def test_bad_entrants_are_one_line_errors(capsys: pytest.CaptureFixture[str], args: tuple[str, ...], says: str) -> None:
    assert main(["play", *args]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    err = captured.err
    assert err.startswith(says) and err.count("\n") == 1, err


def test_deck_and_entrant_do_not_go_together(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["play", "--deck", "gruul", "--entrant", "random@dimir"])
    assert stopped.value.code == 2
    assert "argument --entrant: not allowed with argument --deck" in capsys.readouterr().err
