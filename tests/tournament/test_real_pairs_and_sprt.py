"""Game pairs and the SPRT on real games, through ``spellstack tournament`` as a user runs it
(real processes and real time: the games are the engine's, the bots the built-in ones).

The SPRT of ``heuristic@gruul`` against ``random@gruul`` with bounds [0, 10] stops with H1
accepted after 135 pairs (270 of its 600 games), at an LLR of 2.98; its ``--results`` are the
same byte for byte with two worker processes, and after ``kill -9`` of the whole run midway and
``--resume``, as are a pairs tournament's without an SPRT.

The built-in bots are played in process (in the tournament's process, or its workers' with
``--jobs``): a killed run has no bot process that could outlive it, so what is checked is that
none of its processes, the workers included, does.

About 70 s on two busy cores: the SPRT run three times and a small pairs tournament twice, each
in part."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from spellstack.tournament import SprtSettings, llr_pentanomial
from tests.tournament.tournament_processes import (
    LIMIT,
    child_pids,
    game_rows,
    run_cli,
    session_processes,
    start_cli,
    unwarned,
    wait_for_games,
)

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not sys.platform.startswith("linux"),
                                 reason="the processes left are read from Linux's /proc")]

SPRT = ("--entrant", "heuristic@gruul", "--entrant", "random@gruul", "--pairs", "--repeat", "300",
        "--sprt", "elo0=0", "elo1=10", "--seed", "1")
"""The test of the heuristic bot against the random one, with docs/tournaments.md's seed."""
PAIRS = ("--entrant", "heuristic@gruul", "--entrant", "random@dimir", "--entrant", "random@orzhov",
         "--pairs", "--repeat", "6", "--seed", "2")
"""A pairs tournament without an SPRT: 3 meetings of 6 pairs, 36 games."""
SPREAD = ("--jobs", "2", "--concurrency", "8")
"""Two worker processes, 8 games at once in each: games end out of schedule order."""
EXIT_LIMIT = 2.0
"""Seconds for a killed run's processes to be gone (real time: they are other processes)."""


@dataclass(frozen=True, slots=True)
class Run:
    """A tournament run to its end with ``--jobs 1``."""

    db: Path
    """Its results database."""
    results: Path
    """Its ``--results`` file."""
    stdout: str
    """What it printed."""


def _whole(folder: Path, args: tuple[str, ...]) -> Run:
    db, results = folder / "whole.db", folder / "whole.json"
    done = run_cli(*args, "--db", str(db), "--results", str(results), "--jobs", "1", "--quiet")
    assert done.returncode == 0, done.stderr
    return Run(db, results, done.stdout)


@pytest.fixture(scope="module")
def sprt_run(tmp_path_factory: pytest.TempPathFactory) -> Run:
    """The SPRT run, uninterrupted, in one process: what every other run must give."""
    return _whole(tmp_path_factory.mktemp("sprt"), SPRT)


def test_the_sprt_of_heuristic_against_random_accepts_h1_after_135_pairs(sprt_run: Run, tmp_path: Path) -> None:
    """Stopped with H1 accepted after 135 pairs, 270 games of the 600 scheduled, LLR 2.98
    (the first pair at which the LLR is past 2.944), heuristic-gruul's pairs 84 won twice,
    33 split and 18 lost twice."""
    doc = json.loads(sprt_run.results.read_text("utf-8"))
    sprt = doc["sprt"]
    assert (sprt["decision"], sprt["pairs"], sprt["games"]) == ("H1", 135, 270)
    assert round(sprt["llr"], 2) == 2.98 and round(sprt["upper"], 3) == 2.944
    assert sprt["games"] < 2 * 300
    assert len(doc["games"]) == 270 and doc["matches"][-1]["round"] == 135
    [pair_line] = doc["pairs"]
    assert pair_line["pentanomial"] == [18, 0, 33, 0, 84]
    head = sprt_run.stdout.splitlines()[0]
    assert head.endswith("seed 1: 270 games, stopped by the SPRT after 135 pairs "
                         f"(results in {sprt_run.db})")
    assert ("SPRT [0.00, 10.00] normalized, alpha 0.05, beta 0.05: LLR 2.98 (-2.94, 2.94): H1 accepted "
            "after 270 games (135 pairs)") in sprt_run.stdout.splitlines()
    # It stopped at the first pair past a bound: the LLR of pairs 1 to k, for every k before
    # 135, lies between the bounds. heuristic-gruul's games won in each pair, in schedule order:
    won = [m["wins"][m["players"].index("heuristic-gruul")] for m in doc["matches"]]
    assert [m["draws"] for m in doc["matches"]] == [0] * 135  # so 0, 1, 2 wins are LL, WL, WW
    counts = [0] * 5
    llrs = []
    for wins in won:
        counts[2 * wins] += 1
        llrs.append(llr_pentanomial(counts, SprtSettings(0, 10)))
    assert all(sprt["lower"] < llr < sprt["upper"] for llr in llrs[:-1])
    assert llrs[-1] == pytest.approx(sprt["llr"], abs=1e-9)
    # Two worker processes, 8 games at once in each: the same stop and the same file.
    spread = tmp_path / "spread.json"
    done = run_cli(*SPRT, "--db", str(tmp_path / "spread.db"), "--results", str(spread), *SPREAD, "--quiet")
    assert done.returncode == 0, done.stderr
    assert spread.read_bytes() == sprt_run.results.read_bytes()


def _gone_within(session: int, seconds: float) -> list[int]:
    """The session's processes still alive ``seconds`` from now (the wait ends as soon as none
    is)."""
    end = time.monotonic() + seconds
    while (left := session_processes(session)) and time.monotonic() < end:
        time.sleep(0.05)
    return left


def _kill_midway(args: tuple[str, ...], db: Path, results: Path, games: int) -> list[tuple[object, ...]]:
    """Start the tournament with two workers, SIGKILL its whole process group once ``games``
    games have ended, check that none of its processes is left; the rows it recorded."""
    # Each game written as it ends, so that the kill comes while games are still to be played.
    proc = start_cli(*args, "--db", str(db), "--results", str(results), *SPREAD, "--write-every", "0",
                     new_session=True)
    with proc:
        try:
            wait_for_games(proc, games)
            running = session_processes(proc.pid)
            workers = child_pids(proc.pid)
            assert len(workers) == 2 and set(workers) < set(running) and proc.pid in running
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=LIMIT)
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == -signal.SIGKILL
    assert _gone_within(proc.pid, EXIT_LIMIT) == []
    assert not results.exists() or results.stat().st_size == 0  # nothing written before the end
    return game_rows(db)


def _resume(args: tuple[str, ...], db: Path, results: Path, kept: int) -> subprocess.CompletedProcess[str]:
    done = run_cli(*args, "--db", str(db), "--results", str(results), *SPREAD, "--resume")
    assert done.returncode == 0, done.stderr
    found = unwarned(done.stderr).partition("\n")[0]
    assert found == f"spellstack tournament: resuming: {kept} games recorded; playing the rest"
    return done


def test_a_pairs_tournament_killed_midway_resumes_to_the_same_results(tmp_path: Path) -> None:
    whole = _whole(tmp_path, PAIRS)
    total = len(game_rows(whole.db))
    assert total == 36
    db, results = tmp_path / "part.db", tmp_path / "part.json"
    kept = _kill_midway(PAIRS, db, results, 12)
    assert 12 <= len(kept) < total
    done = _resume(PAIRS, db, results, len(kept))
    assert unwarned(done.stderr).count("\n[") == total - len(kept)  # only the missing games
    assert results.read_bytes() == whole.results.read_bytes()
    assert game_rows(db) == game_rows(whole.db)


def test_the_sprt_killed_midway_resumes_to_the_same_stop_and_results(sprt_run: Run, tmp_path: Path) -> None:
    db, results = tmp_path / "part.db", tmp_path / "part.json"
    kept = _kill_midway(SPRT, db, results, 100)
    assert 100 <= len(kept) < 270
    _resume(SPRT, db, results, len(kept))
    assert results.read_bytes() == sprt_run.results.read_bytes()
    # Both databases hold every game up to the stop; past it, whatever pairs were under way
    # when the test decided (a different number with other jobs): the games both hold agree.
    rows, reference = game_rows(db), game_rows(sprt_run.db)
    assert rows[:270] == reference[:270]
    both = {row[0] for row in rows} & {row[0] for row in reference}
    assert [r for r in rows if r[0] in both] == [r for r in reference if r[0] in both]
    # A database holding pairs past the stop, resumed: the same stop, and nothing to play.
    shutil.copy(sprt_run.db, tmp_path / "full.db")
    again = run_cli(*SPRT, "--db", str(tmp_path / "full.db"), "--results", str(tmp_path / "full.json"),
                    "--resume")
    assert again.returncode == 0, again.stderr
    assert (tmp_path / "full.json").read_bytes() == sprt_run.results.read_bytes()
    assert game_rows(tmp_path / "full.db") == reference
    assert "\n[" not in unwarned(again.stderr)  # no game played
