"""docs/chat.md's hosting example runs as written: a program of its own, which plays a game to
its end (a few commands, then ``concede``) and finishes in seconds."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "chat.md"


def _hosting_example() -> str:
    section = DOC.read_text("utf-8").split("## Hosting games from asyncio", 1)[1]
    match = re.search(r"```python\n(.*?)```", section, re.S)
    assert match is not None, "no python block in the hosting section"
    return match.group(1)


def test_the_hosting_example_plays_to_the_end(tmp_path: Path) -> None:
    script = tmp_path / "host_example.py"
    script.write_text(_hosting_example(), encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join((str(ROOT / "src"), str(ROOT)))}
    # Real time: the example is a program of its own, run as a user runs it. It takes about a
    # second; the limit allows for a busy machine, far short of one 120 s time-out of the seat.
    done = subprocess.run([sys.executable, str(script)], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=20)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert "alice> concede" in lines
    assert lines[-1].startswith("bot wins: alice conceded"), lines[-1]  # info.reason
