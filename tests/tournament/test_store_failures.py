"""Failures of the results database and the output files: each is one line naming the file and
the cause, exit 2, no traceback, and no recorded game is lost or changed. Failures that need a
full or read-only filesystem (or another user than root) are injected at the sqlite3 or OS
call they would fail in."""

from __future__ import annotations

import errno
import os
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from spellstack.cli import main
from spellstack.tournament import ResultsStore, _store
from spellstack.tournament._store import SCHEMA_VERSION

ROOT = Path(__file__).resolve().parents[2]
SMALL = ["tournament", "--entrant", "a=random@gruul", "--entrant", "b=random@dimir",
         "--entrant", "c=random@orzhov", "--best-of", "1", "--repeat", "2", "--seed", "5",
         "--quiet"]
"""Six best-of-one games."""


def _main(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    """Run the command in process: its exit code and stderr (without the --seed warning)."""
    code = main([*SMALL, *args])
    err = capsys.readouterr().err
    lines = [line for line in err.splitlines() if " warning: --seed " not in line]
    assert "Traceback" not in err
    return code, "\n".join(lines)


def _dump(db: Path) -> list[str]:
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        return list(conn.iterdump())


def _games(db: Path) -> int:
    with sqlite3.connect(db) as conn:
        count: int = conn.execute("SELECT COUNT(*) FROM games").fetchone()[0]
    return count


class _FullAfter(sqlite3.Connection):
    """A connection whose disk fills after ``LIMIT`` games were written through it."""

    LIMIT = 3
    written = 0

    def execute(self, sql: str, *args: Any) -> sqlite3.Cursor:  # type: ignore[override]
        if sql.startswith("INSERT INTO games"):
            if _FullAfter.written >= _FullAfter.LIMIT:
                raise sqlite3.OperationalError("database or disk is full")
            _FullAfter.written += 1
        return super().execute(sql, *args)


def _inject(monkeypatch: pytest.MonkeyPatch, factory: type[sqlite3.Connection]) -> None:
    real = sqlite3.connect

    def connect(*args: Any, **kwargs: Any) -> sqlite3.Connection:
        return real(*args, **kwargs, factory=factory)

    monkeypatch.setattr(_store.sqlite3, "connect", connect)


@pytest.mark.slow
def test_a_full_disk_mid_run_is_one_line_and_resume_goes_on(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "t.db"
    _FullAfter.written = 0
    with monkeypatch.context() as patch:
        _inject(patch, _FullAfter)
        code, err = _main(capsys, "--db", str(db))
    assert code == 2
    assert err.count("\n") == 0, err
    assert str(db) in err and "the disk is full" in err
    # Written in batches, each whole or not at all: the batch the disk filled in is not kept.
    kept_games = _games(db)
    assert 1 <= kept_games <= 3
    told = "1 game" if kept_games == 1 else f"{kept_games} games"
    assert f"{told} of this tournament are recorded, and --resume goes on from there" in err
    kept = _dump(db)
    code, _ = _main(capsys, "--db", str(db), "--resume", "--results", str(tmp_path / "r.json"))
    assert code == 0 and _games(db) == 6
    assert all(line in _dump(db) for line in kept if line.startswith("INSERT INTO \"games\""))
    code, _ = _main(capsys, "--db", str(tmp_path / "w.db"), "--results", str(tmp_path / "w.json"))
    assert (tmp_path / "w.json").read_bytes() == (tmp_path / "r.json").read_bytes()


@pytest.mark.slow
def test_a_second_run_of_a_tournament_is_refused_naming_the_first_s_process(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    many = [f"--entrant=e{i}=random@gruul" for i in range(8)]
    first = subprocess.Popen([sys.executable, "-m", "spellstack", "tournament", *many, "--repeat", "20",
                              "--db", str(db)], cwd=ROOT, text=True,
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        assert first.stderr is not None
        assert first.stderr.readline().startswith("[")  # it is playing (real time: a process)
        second = subprocess.run([sys.executable, "-m", "spellstack", "tournament", *many, "--repeat",
                                 "20", "--db", str(db)], cwd=ROOT, text=True, capture_output=True,
                                timeout=60, check=False)
        assert second.returncode == 2, second.stderr
        assert second.stderr.count("\n") == 1
        assert f"being played by another run (process {first.pid})" in second.stderr
        # Another tournament in the same file plays beside it.
        other = subprocess.run([sys.executable, "-m", "spellstack", "tournament", *many[:2],
                                "--best-of", "1", "--db", str(db), "--quiet"], cwd=ROOT, text=True,
                               capture_output=True, timeout=60, check=False)
        assert other.returncode == 0, other.stderr
    finally:
        first.kill()
        first.wait()
    # Killed, its lock went with it: --resume takes it up.
    started = time.monotonic()
    again = subprocess.run([sys.executable, "-m", "spellstack", "tournament", *many[:2], "--best-of",
                            "1", "--db", str(db), "--resume", "--quiet"], cwd=ROOT, text=True,
                           capture_output=True, timeout=60, check=False)
    assert again.returncode == 0, (again.stderr, time.monotonic() - started)


@pytest.mark.parametrize(("column", "value"), [("entrants", "[0, 1"), ("winner_seat", "x"),
                                               ("bot_seeds", '["a", 1]'), ("seconds", "soon")])
def test_a_row_that_can_t_be_read_is_named_and_nothing_changes(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                               column: str, value: str) -> None:
    db = tmp_path / "t.db"
    assert _main(capsys, "--db", str(db))[0] == 0
    with sqlite3.connect(db) as conn:
        conn.execute(f"UPDATE games SET {column} = ? WHERE game_id = 'r2-m1-g1'", (value,))
    before = _dump(db)
    for extra in (["--resume"], []):
        code, err = _main(capsys, "--db", str(db), *extra)
        assert code == 2 and err.count("\n") == 0, err
        assert f"game 'r2-m1-g1': column {column} can't be read" in err and str(db) in err
        assert _dump(db) == before


def test_tables_of_another_shape_or_a_newer_version_are_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    other = tmp_path / "other.db"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE games (tournament INTEGER, game_id TEXT, turn INTEGER)")
    code, err = _main(capsys, "--db", str(other))
    assert code == 2 and err.count("\n") == 0
    assert "its tables are games(tournament, game_id, turn)" in err
    newer = tmp_path / "newer.db"
    assert _main(capsys, "--db", str(newer))[0] == 0
    with sqlite3.connect(newer) as conn:
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    before = _dump(newer)
    code, err = _main(capsys, "--db", str(newer), "--resume")
    assert code == 2 and err.count("\n") == 0
    assert f"schema version {SCHEMA_VERSION + 1}, newer than this spellstack's" in err
    assert _dump(newer) == before


def test_a_database_of_the_version_before_opens_as_version_1(tmp_path: Path) -> None:
    db = tmp_path / "v1.db"
    with sqlite3.connect(db) as conn:
        conn.executescript((Path(__file__).parent / "v1_results.sql").read_text())
    store = ResultsStore(db)
    try:
        assert store.version == 1
        [held] = store.tournaments()
        assert (held.games, held.keyed, held.settings["seed"]) == (1, False, 1)
    finally:
        store.close()


def _read_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """As on a read-only filesystem: nothing can be written, the database only opened to read."""
    real = os.access

    def access(path: Any, mode: int, **kwargs: Any) -> bool:
        return False if mode & os.W_OK else real(path, mode, **kwargs)

    monkeypatch.setattr(_store.os, "access", access)


@pytest.mark.slow
def test_a_read_only_database_is_called_read_only(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    whole, part = tmp_path / "whole.db", tmp_path / "part.db"
    assert _main(capsys, "--db", str(whole))[0] == 0
    _FullAfter.written, _FullAfter.LIMIT = 0, 2
    with monkeypatch.context() as patch:
        _inject(patch, _FullAfter)
        assert _main(capsys, "--db", str(part))[0] == 2
    _FullAfter.LIMIT = 3
    dumps = {db: _dump(db) for db in (whole, part)}
    with monkeypatch.context() as patch:
        _read_only(patch)
        # Complete: nothing to write, so it is reported.
        code, err = _main(capsys, "--db", str(whole), "--resume")
        assert code == 0, err
        # Games to play: the first write is refused as read-only.
        code, err = _main(capsys, "--db", str(part), "--resume")
        # What --resume found, then the error in one line.
        note, _, err = err.partition("\n")
        held = _games(part)  # the batches written before the disk filled (at least the first game)
        told = "1 game" if held == 1 else f"{held} games"
        assert note == f"spellstack tournament: resuming: {told} recorded; playing the rest"
        assert code == 2 and err.count("\n") == 0, err
        assert "read-only" in err and "not a results database" not in err
        assert f"{told} of this tournament are recorded" in err
        # A new tournament: refused at the start.
        code, err = _main(capsys, "--db", str(whole), "--best-of", "3")
        assert code == 2 and "read-only" in err and "a new tournament can't be recorded" in err
    assert {db: _dump(db) for db in (whole, part)} == dumps


def test_output_paths_are_checked_before_the_first_game(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    a_file = tmp_path / "file"
    a_file.write_text("")
    code, err = _main(capsys, "--db", str(tmp_path / "t.db"), "--trace-dir", str(a_file / "traces"))
    assert code == 2 and err.count("\n") == 0 and "--trace-dir" in err and "can't be made" in err
    assert not (tmp_path / "t.db").exists()

    def refused(*args: Any, **kwargs: Any) -> Any:
        raise PermissionError(errno.EACCES, "Permission denied")

    with monkeypatch.context() as patch:
        patch.setattr("tempfile.mkstemp", refused)
        code, err = _main(capsys, "--db", str(tmp_path / "t.db"), "--results", str(tmp_path / "r.json"))
    assert code == 2 and err.count("\n") == 0
    assert "--results" in err and "can't be written (Permission denied)" in err
    assert not (tmp_path / "t.db").exists()


def test_a_results_file_that_fails_at_the_end_keeps_the_games(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "t.db"
    real: Callable[..., Any] = Path.open

    def full(self: Path, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
        if self.name == "r.json" and "w" in mode:
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(self, mode, *args, **kwargs)

    with monkeypatch.context() as patch:
        patch.setattr(Path, "open", full)
        code, err = _main(capsys, "--db", str(db), "--results", str(tmp_path / "r.json"))
    assert code == 2 and err.count("\n") == 0, err
    assert "--results" in err and "No space left on device" in err and f"kept in {db}" in err
    assert _games(db) == 6
