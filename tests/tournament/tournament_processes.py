"""``spellstack tournament`` run as a user runs it: a process of this checkout's spellstack (its
``src`` first on ``PYTHONPATH``), its per-game lines on stderr, its database's rows, and the
processes it leaves."""

from __future__ import annotations

import os
import select
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LIMIT = 300.0
"""Generous seconds for one tournament process (they take a few)."""


def _command(args: tuple[str, ...]) -> list[str]:
    return [sys.executable, "-m", "spellstack", "tournament", *args]


def _env() -> dict[str, str]:
    """The environment with this checkout's ``src`` first on the path, whatever is installed."""
    path = [str(ROOT / "src"), *filter(None, [os.environ.get("PYTHONPATH")])]
    return os.environ | {"PYTHONPATH": os.pathsep.join(path)}


def run_cli(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    """Run ``spellstack tournament ARGS`` to its end."""
    return subprocess.run(_command(args), cwd=cwd, env=_env(), text=True, capture_output=True,
                          timeout=LIMIT, check=False)


def start_cli(*args: str, new_session: bool = False) -> subprocess.Popen[str]:
    """Start ``spellstack tournament ARGS``, its stdout and stderr piped; in a session (and a
    process group) of its own with ``new_session``, so that the group can be killed at once."""
    return subprocess.Popen(_command(args), cwd=ROOT, env=_env(), text=True, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, start_new_session=new_session)


def wait_for_games(proc: subprocess.Popen[str], games: int) -> list[str]:
    """Read the process's per-game lines on stderr until ``games`` games have ended."""
    assert proc.stderr is not None
    lines: list[str] = []
    deadline = time.monotonic() + LIMIT
    while True:
        ready, _, _ = select.select([proc.stderr], [], [], max(0.0, deadline - time.monotonic()))
        assert ready, f"no game ended in {LIMIT} s: {lines}"
        line = proc.stderr.readline()
        assert line, f"the tournament ended before {games} games: {lines}"
        lines.append(line)
        if line.startswith(f"[{games}/"):
            return lines


def game_rows(db: Path) -> list[tuple[object, ...]]:
    """Every game row of the database, in schedule order, without timings."""
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT game_id, round, match, number, seed, players, bot_seeds, "
                            "chooser, starting, mulligans, winner, reason, turns, decisions, "
                            "final_hash FROM games ORDER BY round, match, number").fetchall()


def unwarned(stderr: str) -> str:
    """Stderr without the warning a run from ``--seed`` starts with (checked where it is
    the subject: tests/tournament/test_keys.py)."""
    first, _, rest = stderr.partition("\n")
    assert first.startswith("spellstack tournament: warning: --seed "), stderr
    return rest


def child_pids(pid: int) -> list[int]:
    """The process's children (each thread's: trio starts processes from a worker thread)."""
    return sorted(int(child) for task in Path(f"/proc/{pid}/task").iterdir()
                  for child in (task / "children").read_text().split())


def session_processes(session: int) -> list[int]:
    """The live processes of a session (Linux's ``/proc``; a zombie, dead but not yet reaped,
    is not live)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_bytes().rpartition(b")")[2].split()
        except (FileNotFoundError, ProcessLookupError):
            continue  # it ended while the folder was read
        state, sid = fields[0], int(fields[3])
        if sid == session and state != b"Z":
            found.append(int(entry.name))
    return sorted(found)
