"""The examples in docs/stdio-bots.md run as written and print what the page shows."""

from __future__ import annotations

import ast
import contextlib
import io
import os
import re
import shlex
import shutil
import sys
from pathlib import Path

import msgpack
import pytest

from spellstack.cli import main
from spellstack.protocol import Concede, SubmitAction, SubmitAnswer, decode_from_player

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "stdio-bots.md"


def _blocks(lang: str) -> list[str]:
    return re.findall(rf"```{lang}\n(.*?)```", DOC.read_text("utf-8"), re.S)


@pytest.fixture
def checkout(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A working folder holding the examples, with this Python first on PATH as python3 (the
    page's "activated virtual environment")."""
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    # A script, not a link: a virtual environment's Python linked from elsewhere would not
    # find its environment.
    launcher = bin_dir / "python3"
    launcher.write_text(f'#!/bin/sh\nexec {shlex.quote(sys.executable)} "$@"\n', encoding="utf-8")
    launcher.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _command(block: str, command: str = "tournament") -> list[str]:
    [line] = [line for line in block.splitlines() if line.strip()]
    args = shlex.split(line)
    assert args[:2] == ["spellstack", command]
    return args[1:]


def test_the_example_command_prints_what_the_page_shows(checkout: Path) -> None:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main([*_command(_blocks("sh")[0]), "--quiet"])
    assert code == 0
    assert out.getvalue() == _blocks("text")[0]


def test_the_one_game_example_ends_as_the_page_shows(checkout: Path) -> None:
    """``spellstack play`` with the example bot as an entrant: the page shows how it ends."""
    [block] = [b for b in _blocks("sh") if b.startswith("spellstack play ")]
    [ending] = [b for b in _blocks("text") if b.startswith("Winner: ")]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(_command(block, "play"))
    assert code == 0
    lines = out.getvalue().splitlines()
    assert lines[0] == "spellstack play: stdio_bot-gruul (gruul) vs random-orzhov (orzhov), seed 1"
    assert "\n".join(lines[-2:]) + "\n" == ending


def test_the_memory_limit_example_plays_its_tournament(checkout: Path) -> None:
    """The page's command with --bot-memory plays to its standings."""
    [second] = [b for b in _blocks("sh") if "--bot-memory" in b]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main([*_command(second), "--quiet"])
    assert code == 0
    assert "stdio_bot-gruul" in out.getvalue()


def test_a_missing_program_is_refused_as_the_page_shows(checkout: Path, capsys: pytest.CaptureFixture[str]) -> None:
    [shown] = [b.strip() for b in _blocks("text") if "no file './mybot'" in b]
    assert main(["tournament", "--entrant", "stdio:./mybot@gruul", "--entrant", "random@gruul"]) == 2
    assert capsys.readouterr().err.strip() == shown


def test_the_messages_shown_are_messages_a_player_may_send() -> None:
    [block] = _blocks("python")
    shown = [ast.literal_eval(part) for part in re.split(r"\n(?=\{)", block.strip())]
    decoded = [decode_from_player(msgpack.packb(message)) for message in shown]
    assert [type(m) for m in decoded] == [SubmitAction, SubmitAnswer, Concede]


def test_the_hello_table_says_the_protocol_version_and_what_the_seed_is() -> None:
    from spellstack.protocol._codec import PROTOCOL_VERSION

    text = DOC.read_text("utf-8")
    [row] = [line for line in text.splitlines() if line.startswith("| `protocol` |")]
    assert row.endswith(f"the `v` of every message ({PROTOCOL_VERSION}) |")
    [seed] = [line for line in text.splitlines() if line.startswith("| `seed` |")]
    assert "secret key" in seed and "tells nothing of the game's seed" in seed
