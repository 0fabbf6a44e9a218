"""Games on a Dask cluster (``--backend dask``): the same rows and results as in one process,
however the games are batched and whatever dies; clear refusals of clusters that can't be used.

The tests that use a cluster run in real time: one local cluster of two worker processes,
started once for the module, serves them (a cluster takes seconds to start)."""

from __future__ import annotations

import logging
import os
import socket
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import replace
from pathlib import Path

import dask
import pytest
import trio
from distributed import LocalCluster

from spellstack.cards import load_cards, load_deck
from spellstack.cli import main
from spellstack.cli._tournament import SEED_WARNING
from spellstack.tournament import (
    Batch,
    Dask,
    GameRow,
    GameSpec,
    WorkerEntrant,
    _dask,
    keyed_seed,
    play_batch,
    play_spec,
)
from spellstack.tournament._ipc import seats_of
from spellstack.tournament._workers import WorkerSetupError

pytestmark = pytest.mark.slow  # each test starts a Dask cluster (worker processes)

CARDS = load_cards()
ENTRANTS = tuple(WorkerEntrant(name, "random", load_deck(name, CARDS)) for name in ("gruul", "dimir", "orzhov"))
KILLER = WorkerEntrant("killer", "tests.tournament.dask_exit_bot:DaskExitBot", ENTRANTS[0].deck, trusted=True)
"""Ends any Dask worker process it plays in (trusted: it plays in the worker itself)."""
ROOT = Path(__file__).resolve().parents[2]
TOURNAMENT = ["tournament", "--entrant", "random@gruul", "--entrant", "random@dimir",
              "--entrant", "random@orzhov", "--best-of", "3", "--seed", "4", "--quiet"]
"""A small tournament, as the command line takes it."""

KEY = b"3" * 16
"""The tests' key."""


def spec(k: int, entrants: tuple[int, int]) -> GameSpec:
    """Match ``k``'s first game of round 2 of a tournament of key KEY, as the runner makes it."""
    game_id = f"r2-m{k}-g1"
    return GameSpec(game_id, 2, k, 1, keyed_seed(KEY, game_id), entrants,
                    tuple(keyed_seed(KEY, game_id, seat) for seat in range(2)), None)


SPECS = [spec(k, pair) for k, pair in enumerate([(0, 1), (1, 2), (2, 0), (1, 0), (0, 2), (2, 1), (0, 1)], 1)]


def untimed(rows: Sequence[GameRow]) -> list[GameRow]:
    return [replace(row, seconds=0.0) for row in rows]


async def one_at_a_time(specs: Sequence[GameSpec]) -> list[GameRow]:
    """Each game's row from ``play_spec``, played alone, one after another."""
    seats = seats_of(ENTRANTS)
    return untimed([await play_spec(s, seats) for s in specs])


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    """The address of a local cluster of two worker processes, set up as the command's own."""
    with dask.config.set(_dask.LOCAL_CLUSTER_CONFIG):
        cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                               dashboard_address=None, silence_logs=logging.ERROR)
    try:
        yield str(cluster.scheduler_address)
    finally:
        cluster.close()


@pytest.fixture(autouse=True)
def workers_find_the_tests(monkeypatch: pytest.MonkeyPatch) -> None:
    """Worker processes import the test bots from ``tests``, wherever pytest runs."""
    paths = (str(ROOT / "src"), str(ROOT), os.environ.get("PYTHONPATH"))
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(p for p in paths if p))


def games(db: Path) -> list[tuple[object, ...]]:
    """Every game row of the database, but its seconds."""
    with sqlite3.connect(db) as conn:
        conn.row_factory = sqlite3.Row
        return [tuple(row[k] for k in row.keys() if k != "seconds")
                for row in conn.execute("SELECT * FROM games ORDER BY tournament, game_id")]


def command(folder: Path, *args: str) -> tuple[int, str]:
    """The command's exit code and stdout, run in a process of its own in ``folder``."""
    folder.mkdir()
    paths = (str(ROOT / "src"), str(ROOT), os.environ.get("PYTHONPATH"))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in paths if p)}
    done = subprocess.run([sys.executable, "-m", "spellstack", *args], cwd=folder, env=env,
                          capture_output=True, text=True, timeout=300, check=False)
    return done.returncode, done.stdout


# play_batch, in this process.

def test_a_batch_gives_each_game_the_row_it_gives_alone() -> None:
    rows = play_batch(Batch(ENTRANTS, tuple(SPECS), concurrency=3))
    assert untimed(rows) == trio.run(one_at_a_time, SPECS)
    assert [r.game_id for r in rows] == [s.game_id for s in SPECS]
    again = play_batch(Batch(ENTRANTS, tuple(reversed(SPECS[:3])), concurrency=1))
    assert untimed(again) == untimed(reversed(rows[:3]))


def test_a_batch_keeps_its_games_traces(tmp_path: Path) -> None:
    play_batch(Batch(ENTRANTS, tuple(SPECS[:2]), trace_dir=tmp_path / "made" / "here"))
    assert sorted(p.name for p in (tmp_path / "made" / "here").iterdir()) == ["r2-m1-g1.jsonl", "r2-m2-g1.jsonl"]


def test_a_batch_another_process_cannot_play_is_refused() -> None:
    missing = (*ENTRANTS, WorkerEntrant("ghost", "no_such_bot_module:Bot", ENTRANTS[0].deck))
    with pytest.raises(WorkerSetupError, match="no_such_bot_module"):
        play_batch(Batch(missing, tuple(SPECS[:1])))
    with pytest.raises(WorkerSetupError, match=r"the tournament 0\.0\.0-other: install the same version"):
        play_batch(Batch(ENTRANTS, tuple(SPECS[:1]), version="0.0.0-other"))


# A batch's rows fetched from Dask (``Dask._ended``), with a stand-in future.

class _LostRows:
    """A Dask future whose batch ended but whose rows are lost ``lost`` times (the worker that
    held them died), each time computed again (``pending``) unless ``then`` says otherwise."""

    def __init__(self, lost: int, rows: list[GameRow], then: str = "pending") -> None:
        self.lost, self.rows, self.then = lost, rows, then
        self.status = "finished"
        self.asked = 0

    def result(self, timeout: float) -> list[GameRow]:
        self.asked += 1
        if self.lost:
            self.lost -= 1
            self.status = self.then
            raise TimeoutError(f"timed out after {timeout} s.")
        self.status = "finished"
        return self.rows


class _Ending:
    """What ``Dask._ended`` reads of its executor: whether it closed, and the trio run's token
    (here: the settled outcome is recorded)."""

    def __init__(self, closed: bool = False) -> None:
        self._closed = closed
        self._token = self
        self._settle = None  # handed to the token with the outcome, not called here
        self.settled: list[object] = []

    def run_sync_soon(self, fn: object, group: object, future: object, outcome: object) -> None:
        self.settled.append(outcome)


def test_rows_lost_with_a_killed_worker_are_waited_for_while_dask_computes_them_again() -> None:
    rows = untimed(play_batch(Batch(ENTRANTS, tuple(SPECS[:1]))))
    ending, future = _Ending(), _LostRows(2, rows)
    Dask._ended(ending, [], future)  # type: ignore[arg-type]
    assert ending.settled == [rows] and future.asked == 3
    # Not computed again (failed, or the executor closed meanwhile): the timeout is the outcome.
    for ending, future in ((_Ending(), _LostRows(1, rows, then="error")), (_Ending(closed=True), _LostRows(1, rows))):
        Dask._ended(ending, [], future)  # type: ignore[arg-type]
        assert future.asked == 1 and len(ending.settled) == 1
        assert isinstance(ending.settled[0], TimeoutError)


# The executor, on the module's cluster.

async def play_all(executor: Dask, specs: Sequence[GameSpec]) -> list[GameRow]:
    """Every spec's row (timing zeroed), all given to the executor at once."""
    rows: dict[str, GameRow] = {}

    async def one(s: GameSpec) -> None:
        rows[s.game_id] = replace(await executor.play(s), seconds=0.0)

    with trio.fail_after(120):
        async with trio.open_nursery() as nursery:
            for s in specs:
                nursery.start_soon(one, s)
    return [rows[s.game_id] for s in specs]


async def test_batches_of_any_size_give_the_same_rows(scheduler: str) -> None:
    executor = await Dask.start(ENTRANTS, scheduler=scheduler, concurrency=2, batch_size=3)
    try:
        assert (executor.workers, executor.capacity) == (2, 4)
        rows = await play_all(executor, SPECS)
    finally:
        await executor.aclose()
    # Seven games at once: two full batches, and one that went when no more came.
    assert executor.batches == 3
    assert rows == await one_at_a_time(SPECS)
    with pytest.raises(trio.ClosedResourceError, match="closed"):
        await executor.play(SPECS[0])


async def test_a_game_that_kills_its_workers_is_given_up_alone(scheduler: str) -> None:
    entrants = (*ENTRANTS, KILLER)
    deadly, innocent = spec(1, (3, 0)), spec(2, (0, 1))
    executor = await Dask.start(entrants, scheduler=scheduler, concurrency=2)
    try:
        lost, kept = await play_all(executor, [deadly, innocent])
    finally:
        await executor.aclose()
    assert [kept] == await one_at_a_time([innocent])
    assert (lost.winner, lost.turns, lost.final_hash) == (-1, 0, "")
    assert lost.reason.startswith("engine error: worker process died 3 times playing this game "
                                  "(last: Dask worker tcp://")
    # Both went as one batch, which failed; then each alone.
    assert executor.batches == 3


async def test_a_bot_that_does_not_load_on_the_workers_stops_the_tournament(scheduler: str) -> None:
    ghost = WorkerEntrant("ghost", "no_such_bot_module:Bot", ENTRANTS[0].deck)
    executor = await Dask.start((*ENTRANTS, ghost), scheduler=scheduler, concurrency=2)
    try:
        with pytest.raises(WorkerSetupError, match=r"a Dask worker refused the tournament: .*no_such_bot_module"):
            await executor.play(SPECS[0])
    finally:
        await executor.aclose()


# The command.

def test_a_tournament_on_a_cluster_gives_the_results_of_one_process(
        scheduler: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    assert main([*TOURNAMENT, "--db", "one.db", "--results", "one.json", "--jobs", "1"]) == 0
    alone = capsys.readouterr().out
    assert main([*TOURNAMENT, "--db", "dask.db", "--results", "dask.json", "--backend", "dask",
                 "--scheduler", scheduler, "--concurrency", "2"]) == 0
    clustered = capsys.readouterr().out
    assert clustered.replace("dask.", "one.") == alone
    assert (tmp_path / "dask.json").read_bytes() == (tmp_path / "one.json").read_bytes()
    assert games(tmp_path / "dask.db") == games(tmp_path / "one.db") != []
    # Resumed on the cluster: nothing left to play, the same results.
    assert main([*TOURNAMENT, "--db", "dask.db", "--results", "again.json", "--backend", "dask",
                 "--scheduler", scheduler, "--resume"]) == 0
    assert (tmp_path / "again.json").read_bytes() == (tmp_path / "one.json").read_bytes()


def test_the_command_starts_and_stops_its_own_cluster(tmp_path: Path) -> None:
    chatty = ["--entrant", "chatty=tests.tournament.chatty_bot:ChattyBot@gruul", "--trust"]
    code, alone = command(tmp_path / "one", *TOURNAMENT, *chatty, "--jobs", "2", "--results", "r.json")
    assert code == 0
    began = time.monotonic()
    code, clustered = command(tmp_path / "dask", *TOURNAMENT, *chatty, "--backend", "dask",
                              "--results", "r.json")
    assert code == 0
    # A bot's prints in the cluster's workers go to stderr, as in worker processes: stdout
    # is the report, the same as ever.
    assert clustered == alone and "hello from a bot" not in clustered
    assert (tmp_path / "dask" / "r.json").read_bytes() == (tmp_path / "one" / "r.json").read_bytes()
    assert time.monotonic() - began < 120


# Refusals.

def free_port() -> int:
    """A local port nothing listens on (as far as anyone can know)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.mark.parametrize(("args", "error"), [
    (["--scheduler", "tcp://127.0.0.1:8786"], "--scheduler is for --backend dask"),
    (["--backend", "dask", "--scheduler", "tcp://127.0.0.1:8786", "--jobs", "3"],
     "--jobs starts a local Dask cluster's workers; with --scheduler the games go to the "
     "workers that joined that scheduler"),
    (["--backend", "dask", "--scheduler", " "], "--scheduler: an empty address"),
    (["--backend", "dask", "--scheduler", "nonsense"],
     "cannot reach the Dask scheduler at 'nonsense': missing port number in address 'nonsense'"),
    (["--backend", "dask", "--scheduler", "udp://10.0.0.5:8786"],
     "cannot reach the Dask scheduler at 'udp://10.0.0.5:8786': unknown address scheme 'udp'"),
])
def test_a_scheduler_that_cannot_be_used_is_one_line(
        args: list[str], error: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*TOURNAMENT, "--db", str(tmp_path / "t.db"), *args]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    # A run from --seed starts with its warning, once the command line has been checked.
    err = err.removeprefix(SEED_WARNING.format(seed=4) + "\n")
    assert err.startswith(f"spellstack tournament: {error}") and err.count("\n") == 1


def test_an_unreachable_scheduler_is_given_up_in_time(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(_dask, "CONNECT_TIMEOUT", 1.0)
    address = f"tcp://127.0.0.1:{free_port()}"
    began = time.monotonic()
    assert main([*TOURNAMENT, "--db", str(tmp_path / "t.db"), "--backend", "dask", "--scheduler", address]) == 2
    assert time.monotonic() - began < 20
    err = capsys.readouterr().err.removeprefix(SEED_WARNING.format(seed=4) + "\n")
    assert err == (f"spellstack tournament: cannot reach the Dask scheduler at {address!r}: "
                   f"Timed out trying to connect to {address} after 1 s\n")


def test_without_dask_the_backend_says_how_to_install_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)
    assert main([*TOURNAMENT, "--db", str(tmp_path / "t.db"), "--backend", "dask"]) == 2
    err = capsys.readouterr().err.removeprefix(SEED_WARNING.format(seed=4) + "\n")
    assert err.startswith("spellstack tournament: --backend dask needs Dask (")
    assert err.endswith("): pip install 'spellstack[dask]'\n")
