"""docs/tournaments.md's remote entrants run as written: the tournament listens and writes the
token, the example remote bot plays its entrant to the tournament's end and prints what the
page shows, and so does the tournament; the page's Python runs (its entrant never comes, and
forfeits)."""

from __future__ import annotations

import re
import shlex
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from tests.tournament.tournament_processes import ROOT, start_cli

DOC = ROOT / "docs" / "tournaments.md"
HEADING = "## Remote entrants: bots on other machines"


def _section() -> str:
    text = DOC.read_text("utf-8")
    start = text.index(HEADING + "\n")
    return text[start:text.index("\n## ", start + len(HEADING))]


def _blocks(lang: str) -> list[str]:
    return re.findall(rf"```{lang}\n(.*?)```", _section(), re.S)


@pytest.mark.slow
def test_the_example_bot_plays_a_remote_entrant_to_the_tournament_s_end(tmp_path: Path) -> None:
    serve, client = (shlex.split(block) for block in _blocks("sh"))
    assert serve[:2] == ["spellstack", "tournament"] and "127.0.0.1:8765" in serve
    args = [a.replace("127.0.0.1:8765", "127.0.0.1:0").replace("tokens.txt", str(tmp_path / "tokens.txt"))
            for a in serve[2:]]
    with start_cli(*args, "--quiet", "--db", str(tmp_path / "spellstack-tournament.db")) as tournament:
        assert tournament.stdout is not None
        listening = tournament.stdout.readline().rstrip("\n")
        [port] = re.findall(r"^spellstack tournament: listening on ws://127\.0\.0\.1:(\d+) for 1 remote entrant$",
                            listening)
        tokens = tmp_path / "tokens.txt"
        assert stat.S_IMODE(tokens.stat().st_mode) == 0o600
        [(name, token)] = [line.split(" ") for line in tokens.read_text("utf-8").splitlines()]
        assert name == "mine" and len(token) == 43
        assert client[:3] == ["python3", "examples/remote_bot.py", "ws://127.0.0.1:8765"] and client[-1] == "TOKEN"
        bot = subprocess.run([sys.executable, str(ROOT / client[1]), f"ws://127.0.0.1:{port}", *client[3:-1], token],
                             capture_output=True, text=True, timeout=120, check=True)
        out, err = tournament.communicate(timeout=120)
    assert tournament.returncode == 0, err
    played, report = _blocks("text")
    assert bot.stdout == played
    assert out == report.replace("spellstack-tournament.db", str(tmp_path / "spellstack-tournament.db"))
    assert token not in out + err + bot.stdout + bot.stderr


@pytest.mark.slow
def test_the_python_example_runs(tmp_path: Path) -> None:
    [code] = _blocks("python")
    assert code.count("port=8765") == 1 and code.count("grace=60") == 1
    script = tmp_path / "remote.py"
    script.write_text(code.replace("port=8765", "port=0").replace("grace=60", "grace=0.3"), "utf-8")
    env_path = str(ROOT / "src")
    done = subprocess.run([sys.executable, str(script)], cwd=tmp_path, capture_output=True, text=True, timeout=120,
                          env={"PYTHONPATH": env_path, "PATH": "/usr/bin:/bin"}, check=False)
    assert done.returncode == 0, done.stderr
    assert re.fullmatch(r"token: [A-Za-z0-9_-]{43}\n", done.stdout)
    assert (tmp_path / "remote.db").is_file()
