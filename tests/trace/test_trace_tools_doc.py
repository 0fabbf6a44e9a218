"""docs/trace-tools.md runs as written: its ``sh`` commands run, and each ``console`` block's
command prints exactly the output the page shows after it (stdout, then stderr).

To bring the page up to date after a change of output, run this file with
``SPELLSTACK_WRITE_DOCS=1``: it writes each command's output into the page instead."""

from __future__ import annotations

import os
import re
import shlex
from pathlib import Path

import pytest

from tests.trace.trace_helpers import run_cli

PAGE = Path(__file__).resolve().parents[2] / "docs" / "trace-tools.md"
CONSOLE = re.compile(r"^```console\n\$ (?P<cmd>[^\n]+)\n(?P<out>.*?)^```$", flags=re.S | re.M)


def _argv(command: str) -> list[str]:
    words = shlex.split(command)
    assert words[0] == "spellstack", command
    return words[1:]


def _printed(command: str) -> str:
    _, out, err = run_cli(*_argv(command))
    return out + err


@pytest.mark.slow
def test_the_page_runs_as_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    text = PAGE.read_text("utf-8")
    setup = re.findall(r"^```sh\n(.*?)^```$", text, flags=re.S | re.M)
    assert setup, "the page plays no game"
    for block in setup:
        for command in block.splitlines():
            code, _, err = run_cli(*_argv(command))
            assert code == 0, err
    blocks = list(CONSOLE.finditer(text))
    assert len(blocks) >= 5
    if os.environ.get("SPELLSTACK_WRITE_DOCS"):
        PAGE.write_text(CONSOLE.sub(lambda m: f"```console\n$ {m['cmd']}\n{_printed(m['cmd'])}```",
                                    text), "utf-8")
        return
    for m in blocks:
        assert _printed(m["cmd"]) == m["out"], m["cmd"]
