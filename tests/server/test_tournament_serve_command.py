"""``spellstack tournament --serve``: the tournament listens for its remote entrants, tells each
its token, and plays them game by game; options that can't go with it are refused in a line."""

from __future__ import annotations

import re
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from spellstack.cli import main
from tests.tournament.tournament_processes import ROOT, start_cli


@pytest.mark.parametrize(("args", "said"), [
    (["--entrant", "a=remote@gruul", "--entrant", "random@dimir"],
     "entrant 'a=remote@gruul': bot 'remote' is a client that connects over the network: it needs a server"),
    (["--serve", "8765", "--entrant", "random@gruul", "--entrant", "random@dimir"],
     "--serve: no remote entrant to serve (give one as NAME=remote@DECK)"),
    (["--serve", "8765", "--jobs", "2", "--entrant", "a=remote@gruul", "--entrant", "random@dimir"],
     "--serve: remote entrants play in the tournament's own process: no --jobs, no --backend dask"),
    (["--grace", "5", "--entrant", "random@gruul", "--entrant", "random@dimir"],
     "--grace is for --serve (a tournament with remote entrants)"),
    (["--serve", "host:port", "--entrant", "a=remote@gruul", "--entrant", "random@dimir"],
     "--serve 'host:port': [HOST:]PORT, such as 127.0.0.1:8765 or 8765"),
    (["--serve", "70000", "--entrant", "a=remote@gruul", "--entrant", "random@dimir"],
     "--serve '70000': a host and a port from 0 to 65535"),
])
def test_options_that_can_t_go_with_remote_entrants_are_refused_in_one_line(
        args: list[str], said: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tournament", *args, "--db", str(tmp_path / "r.db")]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith(f"spellstack tournament: {said}") and err.count("\n") == 1, err
    assert not (tmp_path / "r.db").exists()


@pytest.mark.slow
def test_the_example_bot_plays_a_remote_entrant_to_the_tournament_s_end(tmp_path: Path) -> None:
    tokens = tmp_path / "tokens"
    with start_cli("--serve", "127.0.0.1:0", "--tokens", str(tokens), "--entrant", "mine=remote@gruul",
                   "--entrant", "random@dimir", "--seed", "7", "--best-of", "3", "--quiet",
                   "--db", str(tmp_path / "r.db")) as tournament:
        assert tournament.stdout is not None
        listening = tournament.stdout.readline()
        [port] = re.findall(r"^spellstack tournament: listening on ws://127\.0\.0\.1:(\d+) for 1 remote entrant$",
                            listening.rstrip("\n"))
        assert stat.S_IMODE(tokens.stat().st_mode) == 0o600
        [(name, token)] = [line.split(" ") for line in tokens.read_text("utf-8").splitlines()]
        assert name == "mine" and len(token) == 43 and token not in listening
        began = time.monotonic()
        bot = subprocess.run([sys.executable, str(ROOT / "examples" / "remote_bot.py"), f"ws://127.0.0.1:{port}",
                              "--entrant", token], capture_output=True, text=True, timeout=120, check=True)
        out, err = tournament.communicate(timeout=120)
    assert tournament.returncode == 0, err
    lines = bot.stdout.splitlines()
    assert lines[0] == "remote bot: entrant mine, deck gruul" and lines[-1] == "remote bot: the tournament is over"
    games = [line for line in lines if line.startswith("remote bot: mine against random-dimir")]
    assert 2 <= len(games) <= 3 and time.monotonic() - began < 120
    assert "best of 3, seed 7:" in out and "mine" in out and token not in out + err
