"""``spellstack tournament --serve``: the tournament listens for its remote entrants, tells each
its token, and plays them game by game; options that can't go with it are refused in a line."""

from __future__ import annotations

from pathlib import Path

import pytest

from spellstack.cli import main


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
