"""A bot's processes end with its game, and with the tournament (or worker) that plays it,
however they try to leave (their own process group, ``setsid()``, a double fork, ignoring
SIGTERM and their stdin's end); a bot process starting them is not stopped when the thread
that started it ends; every bot process runs under its memory limit, and one over it forfeits
naming it.

Real processes and real time (the mock clock does not see other processes). Each wait for
other processes to end is short (at most 2 s, the promise tested); the waits for a
tournament to get going are bounded generously (they take a few seconds on a busy machine).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from spellstack.cards import load_cards
from spellstack.cli import main
from spellstack.tournament import Entrant, TournamentSettings, parse_entrant, play_tournament, untimed

# Slow: each test runs tournaments whose bots are processes (many of them over their limits).
pytestmark = [pytest.mark.skipif(not sys.platform.startswith("linux"),
                                 reason="the promise of reaching every descendant is Linux's"),
              pytest.mark.slow]

CARDS = load_cards()
HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
BOT = f"stdio:{sys.executable} {HERE / 'escaping_bot.py'}"
CLASSES = HERE / "hostile_class_bots.py"
START_LIMIT = 120.0
"""Generous seconds for a tournament process to start its bots (imports, cards, a bot host)."""


def _alive(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie, dead but not yet reaped, does not)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            return stat.read().rpartition(b")")[2].split()[0] != b"Z"
    except (FileNotFoundError, ProcessLookupError):
        return False


def _noted(folder: Path) -> list[int]:
    return sorted(int(p.stem) for p in folder.glob("*.pid"))


def _left_after(folder: Path, seconds: float) -> list[int]:
    """The noted processes still alive ``seconds`` from now (real time: they are other
    processes; the wait ends as soon as none is)."""
    end = time.monotonic() + seconds
    while True:
        alive = [pid for pid in _noted(folder) if _alive(pid)]
        if not alive or time.monotonic() >= end:
            return alive
        time.sleep(0.05)


@pytest.fixture
def pids(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A folder the test bots note their processes in; any left at the end are killed."""
    folder = tmp_path / "pids"
    folder.mkdir()
    monkeypatch.setenv("SPELLSTACK_TEST_PIDS", str(folder))
    yield folder
    for pid in _noted(folder):
        if _alive(pid):
            os.kill(pid, signal.SIGKILL)


def _entrants(*texts: str) -> tuple[Entrant, ...]:
    return tuple(parse_entrant(text, CARDS) for text in texts)


@pytest.mark.parametrize("jobs", [1, pytest.param(2, marks=pytest.mark.slow)])
async def test_children_of_bots_that_exit_mid_game_are_gone_within_1_s(jobs: int, pids: Path,
                                                                        tmp_path: Path) -> None:
    entrants = _entrants(f"stdio={BOT} child-exits@gruul", f"cls={CLASSES}:ForksThenExits@gruul",
                         "honest=random@dimir")
    played = await play_tournament(TournamentSettings(entrants, "round-robin", 1, 3), db=tmp_path / "r.db",
                                   jobs=jobs, concurrency=2)
    for row in played.rows:
        if 2 in row.entrants:  # against the honest bot: the quitter forfeited
            assert "forfeited: bot process exited with code 3" in row.reason, row.reason
    # The stdio bot noted itself and its child in each of its 2 games, the class bot its child
    # in its game against the honest bot at least (against the stdio bot, it may never come
    # to a priority decision: the stdio bot quits at its first request, a mulligan's perhaps).
    assert len(_noted(pids)) >= 2 * 2 + 1
    assert _left_after(pids, 1.0) == []


async def test_a_helper_that_calls_setsid_is_gone_when_its_bot_ends_normally(pids: Path, tmp_path: Path) -> None:
    entrants = _entrants(f"helper={BOT} setsid@gruul", "honest=random@dimir")
    played = await play_tournament(TournamentSettings(entrants, "round-robin", 2, 5), db=tmp_path / "r.db")
    assert played.rows and all("forfeit" not in row.reason for row in played.rows), played.rows
    assert len(_noted(pids)) == 2 * len(played.rows)  # the bot and its helper's child, per game
    assert _left_after(pids, 1.0) == []


def _start_killable(db: Path, jobs: int, *more: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "spellstack", "tournament", "--entrant", f"hang={BOT} hang@gruul",
         "--entrant", "honest=random@dimir", "--best-of", "1", "--db", str(db), "--jobs", str(jobs),
         "--quiet", *more], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def _kill_once_hung(proc: subprocess.Popen[bytes], pids: Path, before: int) -> None:
    """SIGKILL the tournament once its hung bot has started all 3 of its processes."""
    end = time.monotonic() + START_LIMIT
    while len(_noted(pids)) < before + 3:
        assert proc.poll() is None, "the tournament ended before its bot hung"
        assert time.monotonic() < end, f"the bot did not start within {START_LIMIT} s"
        time.sleep(0.05)
    proc.kill()
    proc.wait()


@pytest.mark.slow
@pytest.mark.parametrize("jobs", [1, 2])
def test_a_killed_tournament_leaves_no_bot_process(jobs: int, pids: Path, tmp_path: Path) -> None:
    db = tmp_path / "r.db"
    _kill_once_hung(_start_killable(db, jobs), pids, 0)
    # The bot ignores SIGTERM and the end of its stdin; its child and its setsid() helper's
    # child sleep: every one of them is gone within 2 s.
    assert _left_after(pids, 2.0) == []
    for cycle in range(1, 4):
        _kill_once_hung(_start_killable(db, jobs, "--resume"), pids, 3 * cycle)
        assert _left_after(pids, 2.0) == []
    assert len(_noted(pids)) == 12


def _parent(pid: int) -> int:
    with open(f"/proc/{pid}/stat", "rb") as stat:
        return int(stat.read().rpartition(b")")[2].split()[1])


@pytest.mark.slow
def test_a_killed_worker_leaves_no_bot_process(pids: Path, tmp_path: Path) -> None:
    proc = _start_killable(tmp_path / "r.db", 2)
    try:
        end = time.monotonic() + START_LIMIT
        while len(_noted(pids)) < 3:
            assert proc.poll() is None and time.monotonic() < end
            time.sleep(0.05)
        first = _noted(pids)
        bot = min(first)  # the bot noted itself before starting the others
        worker = bot
        while _parent(worker) != proc.pid:  # the tournament's child the bot runs under
            worker = _parent(worker)
        assert worker != bot
        os.kill(worker, signal.SIGKILL)
        end = time.monotonic() + 2.0  # real time: the promise is 2 s
        while any(_alive(pid) for pid in first) and time.monotonic() < end:
            time.sleep(0.05)
        assert [pid for pid in first if _alive(pid)] == []
    finally:
        proc.kill()
        proc.wait()


@pytest.mark.slow
def test_a_worker_stuck_in_a_trusted_bot_dies_with_its_tournament(pids: Path, tmp_path: Path) -> None:
    # A --trust bot spinning on a worker's event loop keeps the worker from reading its stdin;
    # the worker must go all the same, with the bot processes of its other games.
    proc = subprocess.Popen(
        [sys.executable, "-m", "spellstack", "tournament", "--entrant", f"spin={CLASSES}:Spins@gruul",
         "--entrant", "honest=random@dimir", "--best-of", "1", "--db", str(tmp_path / "r.db"), "--jobs", "2",
         "--trust", "--quiet"], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        end = time.monotonic() + START_LIMIT
        while not _noted(pids):
            assert proc.poll() is None and time.monotonic() < end
            time.sleep(0.05)
        [worker] = _noted(pids)  # the bot noted the process it spins in: a worker
        assert _parent(worker) == proc.pid
    finally:
        proc.kill()
        proc.wait()
    assert _left_after(pids, 2.0) == []


async def test_a_bot_plays_on_after_the_thread_that_started_it_ends(pids: Path, tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    # trio starts a process from a worker thread, which ends once idle: at once, here. A bot
    # tied to that thread's life (a parent-death signal set as it started) would be killed
    # then, early in its game.
    from trio._core import _thread_cache

    monkeypatch.setattr(_thread_cache, "IDLE_TIMEOUT", 0)
    starters: list[threading.Thread] = []

    class Recorded(subprocess.Popen):  # type: ignore[type-arg]
        """Popen, noting the thread each process is started from."""

        def __init__(self, *args: object, **kwargs: object) -> None:
            starters.append(threading.current_thread())
            super().__init__(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(subprocess, "Popen", Recorded)
    entrants = _entrants(f"example=stdio:{sys.executable} {ROOT / 'examples' / 'stdio_bot.py'}@gruul",
                         "honest=random@dimir")
    played = await play_tournament(TournamentSettings(entrants, "round-robin", 2, 5), db=tmp_path / "r.db")
    assert played.rows and all("forfeit" not in row.reason for row in played.rows), played.rows
    assert all(row.decisions > 20 for row in played.rows)  # whole games, long after the start
    assert len(starters) == len(played.rows)  # a bot process per game, each from a worker thread
    assert all(t is not threading.main_thread() and not t.is_alive() for t in starters)


@pytest.mark.parametrize(("bot", "memory", "limit"), [
    # Each holds the whole limit, which is over it whatever its process holds besides. Holding
    # 1,000 MiB is not: a bare Python interpreter with msgpack has about 8 MiB of data, under
    # 1 GiB in all, and a class bot's process about 24 MiB (25 pure Python, 24 with the
    # compiled build), within half a MiB of 1 GiB, over or under by build.
    pytest.param(f"{CLASSES}:Holds1GiB", None, 1024, marks=pytest.mark.slow),
    pytest.param(f"{BOT} hold {1024 << 20}", None, 1024, marks=pytest.mark.slow),
    (f"{CLASSES}:Holds400MB", 256 << 20, 256),
    (f"{BOT} hold 400000000", 256 << 20, 256),
])
async def test_a_bot_over_its_memory_limit_forfeits_naming_it(bot: str, memory: int | None, limit: int,
                                                              tmp_path: Path) -> None:
    settings = TournamentSettings(_entrants(f"holder={bot}@gruul", "honest=random@dimir"), "round-robin", 1, 2)
    if memory is not None:
        settings = replace(settings, bot_memory=memory)
    played = await play_tournament(settings, db=tmp_path / "r.db")
    [row] = played.rows
    assert f"holder forfeited: bot process went over its memory limit of {limit} MiB" in row.reason, row.reason


@pytest.mark.slow
@pytest.mark.parametrize("bot", [f"{CLASSES}:Holds1000MiB", f"{BOT} hold {1000 << 20}"])
async def test_a_bot_under_a_larger_limit_plays_on(bot: str, tmp_path: Path) -> None:
    settings = TournamentSettings(_entrants(f"holder={bot}@gruul", "honest=random@dimir"), "round-robin", 1, 2,
                                  bot_memory=4 << 30)
    played = await play_tournament(settings, db=tmp_path / "r.db")
    [row] = played.rows
    assert "forfeit" not in row.reason, row.reason


@pytest.mark.slow
async def test_the_default_limit_changes_no_normal_game(tmp_path: Path) -> None:
    # Bots that import spellstack (a class bot in its bot process) or not (the example stdio
    # bot): 50 games under the default limit are those of the same tournament without one.
    entrants = _entrants("cls=spellstack.bots:HeuristicBot@gruul",
                         f"example=stdio:{sys.executable} {ROOT / 'examples' / 'stdio_bot.py'}@dimir",
                         "rnd=random@orzhov")
    settings = TournamentSettings(entrants, "round-robin", 1, 9, repeat=17)
    limited = await play_tournament(settings, db=tmp_path / "limited.db", concurrency=4)
    unlimited = await play_tournament(replace(settings, bot_memory=0), db=tmp_path / "unlimited.db",
                                      concurrency=4)
    assert len(limited.rows) >= 50
    assert all("forfeit" not in row.reason for row in limited.rows)
    assert [untimed(r) for r in limited.rows] == [untimed(r) for r in unlimited.rows]


@pytest.mark.parametrize(("value", "said"), [
    ("lots", "not a size"),
    ("0", "a bot needs some memory"),
    ("-1G", "can't be negative"),
    ("-5", "can't be negative"),
    ("63M", "under the least a bot process may have, 64M"),
    ("2T", "over the most it may be, 1T"),
])
def test_a_bad_bot_memory_is_one_line(value: str, said: str, tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["tournament", f"--bot-memory={value}", "--db", str(tmp_path / "r.db"), "--quiet"])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert err == f"spellstack tournament: --bot-memory {value!r}: {err.split(': ', 2)[2]}"
    assert said in err and err.count("\n") == 1, err
    assert not (tmp_path / "r.db").exists()


def test_bot_memory_is_read_as_a_size(tmp_path: Path) -> None:
    from spellstack.cli._tournament import bot_memory

    assert bot_memory("512M") == 512 << 20
    assert bot_memory("2G") == 2 << 30
    assert bot_memory("1.5GiB") == 3 << 29
    assert bot_memory("65536k") == 64 << 20


@pytest.mark.slow
def test_bot_memory_reaches_the_bots_of_a_tournament_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["tournament", "--entrant", f"holder={CLASSES}:Holds400MB@gruul", "--entrant", "random@dimir",
                 "--best-of", "1", "--bot-memory", "256M", "--db", str(tmp_path / "r.db"), "--quiet", "--jobs", "2"])
    _, err = capsys.readouterr()
    assert code == 0, err
    assert ("spellstack tournament: holder forfeited its only game: bot process went over its memory limit "
            "of 256 MiB and exited with code 1") in err, err


def test_the_memory_limit_is_in_the_tournaments_key_only_when_not_the_default() -> None:
    # A database written before there was a limit holds tournaments played at the default:
    # they resume as before; another limit is another tournament (a bot may forfeit by it).
    settings = TournamentSettings(_entrants("a=random@gruul", "b=random@dimir"), "round-robin", 1, 1)
    assert "bot_memory" not in settings.as_dict()
    assert replace(settings, bot_memory=512 << 20).as_dict() == settings.as_dict() | {"bot_memory": 512 << 20}
