"""Games in worker processes: the same rows as in process, whatever dies.

The tests that start processes run in real time (a worker takes about a second to start)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace
from pathlib import Path

import pytest
import trio
import trio.testing

from spellstack.cards import load_cards, load_deck
from spellstack.seats import load_bot
from spellstack.tournament import Contestant, GameRow, GameSpec, keyed_seed
from spellstack.tournament._executors import InProcess
from spellstack.tournament._ipc import (
    MAX_FRAME,
    FrameError,
    FrameReader,
    decode_game,
    decode_row,
    decode_setup,
    encode_frame,
    game_message,
    row_message,
    setup_message,
)
from spellstack.tournament._workers import (
    EXIT_GRACE,
    WORKER_MODULE,
    Processes,
    WorkerEntrant,
    WorkerSetupError,
)

pytestmark = pytest.mark.slow  # each test starts worker processes

CARDS = load_cards()
GRUUL = load_deck("gruul", CARDS)
DIMIR = load_deck("dimir", CARDS)
EXIT_BOT = "tests.tournament.exit_bot:ExitBot"
ENTRANTS = (WorkerEntrant("gruul", "random", GRUUL), WorkerEntrant("dimir", "random", DIMIR),
            WorkerEntrant("quitter", EXIT_BOT, GRUUL, trusted=True))
"""Seat 2's bot ends any worker process it plays in."""
KEY = b"7" * 16
"""The tests' key."""


def spec(k: int, entrants: tuple[int, ...] = (0, 1)) -> GameSpec:
    """Match ``k``'s first game of round 1 of a tournament of key KEY, as the runner makes it."""
    game_id = f"r1-m{k}-g1"
    return GameSpec(game_id, 1, k, 1, keyed_seed(KEY, game_id), entrants,
                    tuple(keyed_seed(KEY, game_id, seat) for seat in range(len(entrants))), None)


SPECS = [spec(k) for k in range(1, 13)]
ROOT = Path(__file__).resolve().parents[2]
_REFERENCE: dict[GameSpec, GameRow] = {}


@pytest.fixture(autouse=True)
def workers_find_the_tests(monkeypatch: pytest.MonkeyPatch) -> None:
    """Worker processes import the quitter's bot from ``tests``, wherever pytest runs."""
    paths = (str(ROOT), os.environ.get("PYTHONPATH"))
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(p for p in paths if p))


async def reference(specs: Sequence[GameSpec]) -> dict[str, GameRow]:
    """Each game's row played in this process (``InProcess``), without its timing."""
    seats = [Contestant(e.name, e.deck, load_bot(e.bot, trust=True)) for e in ENTRANTS[:2]]
    here = InProcess(seats, concurrency=1)
    for s in specs:
        if s not in _REFERENCE:
            _REFERENCE[s] = replace(await here.play(s), seconds=0.0)
    return {s.game_id: _REFERENCE[s] for s in specs}


async def play_all(executor: Processes, specs: Sequence[GameSpec],
                   meanwhile: Callable[[trio.Event], Awaitable[None]] | None = None) -> dict[str, GameRow]:
    """Every spec's row (timing zeroed), ``executor.capacity`` games in flight at a time, as
    the runner plays them; ``meanwhile(first_row)`` runs beside them."""
    rows: dict[str, GameRow] = {}
    limiter = trio.CapacityLimiter(executor.capacity)
    first_row = trio.Event()

    async def one(s: GameSpec) -> None:
        async with limiter:
            rows[s.game_id] = replace(await executor.play(s), seconds=0.0)
        first_row.set()

    async with trio.open_nursery() as nursery:
        for s in specs:
            nursery.start_soon(one, s)
        if meanwhile is not None:
            await meanwhile(first_row)
    return rows


def gone(pid: int) -> bool:
    """The process has exited (or is a zombie nobody reaped)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return True
    return stat.rsplit(")", 1)[1].split()[0] == "Z"


async def exited(pid: int) -> None:
    """Wait until a process that is not our child exits (its pidfd turns readable)."""
    try:
        fd = os.pidfd_open(pid)
    except ProcessLookupError:
        return
    try:
        await trio.lowlevel.wait_readable(fd)
    finally:
        os.close(fd)


# The wire, in process.

def test_specs_rows_and_setups_survive_the_wire() -> None:
    row = GameRow("r2-m3-g2", 2, 3, 2, 2**63 - 1, (1, 0), (5, 6), 1, 0, (1, 0), 0,
                  "gruul wins: dimir has 0 or less life (704.5a)", 14, 311, "ab12", 1.25)
    assert decode_row(row_message(41, row)) == (41, row)
    game = GameSpec("r2-m3-g2", 2, 3, 2, 99, (1, 0), (5, 6), None)
    assert decode_game(game_message(7, game)) == (7, game)
    assert decode_game(game_message(8, replace(game, chooser=1)))[1].chooser == 1
    setup = decode_setup(setup_message(ENTRANTS, 3, Path("/tmp/traces")))
    assert setup.entrants == ENTRANTS
    assert setup.concurrency == 3
    assert setup.trace_dir == Path("/tmp/traces")


def test_a_row_with_a_wrong_field_is_refused() -> None:
    row = GameRow("r1-m1-g1", 1, 1, 1, 1, (0, 1), (2, 3), 0, 0, (0, 0), 0, "r", 14, 1, "h", 0.5)
    message = row_message(1, row)
    fields = message["row"]
    assert isinstance(fields, dict)
    broken = {**message, "row": {**fields, "turns": "14"}}
    with pytest.raises(FrameError, match="turns: not an integer: '14'"):
        decode_row(broken)
    with pytest.raises(FrameError, match="expected a 'row' message, got 'game'"):
        decode_row(game_message(1, SPECS[0]))


async def test_frames_are_read_whole_across_any_split() -> None:
    send, receive = trio.testing.memory_stream_one_way_pair()
    reader = FrameReader(receive)
    data = encode_frame({"t": "a", "x": [1, 2]}) + encode_frame({"t": "b"})
    assert data[:4] == bytes([0, 0, 0, 10])  # {"t": "a", "x": [1, 2]}: 10 bytes of msgpack
    assert data[14:] == b"\x00\x00\x00\x05\x81\xa1t\xa1b"  # a map of 1: "t" -> "b"
    for i in range(len(data)):
        await send.send_all(data[i:i + 1])
    assert await reader.receive() == {"t": "a", "x": [1, 2]}
    assert await reader.receive() == {"t": "b"}
    await send.aclose()
    assert await reader.receive() is None


@pytest.mark.parametrize(("data", "problem"), [
    (b"\x00\x00\x00\x05\x81\xa1t", "the stream ended inside a frame \\(7 bytes of it\\)"),
    ((MAX_FRAME + 1).to_bytes(4, "big"), f"a frame of {MAX_FRAME + 1} bytes"),
    (b"\x00\x00\x00\x06\xa5hello", "not a message \\(a map with a type 't'\\): 'hello'"),
    (b"\x00\x00\x00\x01\xc1", "not msgpack"),
])
async def test_a_malformed_stream_is_a_frame_error(data: bytes, problem: str) -> None:
    send, receive = trio.testing.memory_stream_one_way_pair()
    await send.send_all(data)
    await send.aclose()
    with pytest.raises(FrameError, match=problem):
        await FrameReader(receive).receive()


# Worker processes.

async def test_worker_rows_equal_in_process_rows() -> None:
    executor = Processes(ENTRANTS, jobs=2, concurrency=3)
    assert executor.capacity == 6
    pids: list[int] = []

    async def note_pids(first_row: trio.Event) -> None:
        await first_row.wait()
        pids.extend(executor.pids())

    try:
        with trio.fail_after(120):
            rows = await play_all(executor, SPECS, note_pids)
    finally:
        await executor.aclose()
    assert rows == await reference(SPECS)
    assert len(set(pids)) == 2 and os.getpid() not in pids
    assert executor.started == 2 and executor.replayed == 0


async def test_workers_write_the_traces_this_process_would(tmp_path: Path) -> None:
    (tmp_path / "workers").mkdir()
    (tmp_path / "here").mkdir()
    executor = Processes(ENTRANTS, jobs=2, concurrency=2, trace_dir=tmp_path / "workers")
    try:
        with trio.fail_after(120):
            await play_all(executor, SPECS[:3])
    finally:
        await executor.aclose()
    here = InProcess([Contestant(e.name, e.deck, load_bot(e.bot, trust=True)) for e in ENTRANTS[:2]], 1,
                     tmp_path / "here")
    for s in SPECS[:3]:
        await here.play(s)
    names = sorted(p.name for p in (tmp_path / "workers").iterdir())
    assert names == ["r1-m1-g1.jsonl", "r1-m2-g1.jsonl", "r1-m3-g1.jsonl"]
    for name in names:
        assert (tmp_path / "workers" / name).read_bytes() == (tmp_path / "here" / name).read_bytes()


async def test_a_bot_printing_to_stdout_breaks_no_frame() -> None:
    chatty = (WorkerEntrant("gruul", "tests.tournament.chatty_bot:ChattyBot", GRUUL, trusted=True), ENTRANTS[1])
    executor = Processes(chatty, jobs=1, concurrency=2)
    try:
        with trio.fail_after(120):
            rows = await play_all(executor, SPECS[:2])
    finally:
        await executor.aclose()
    assert rows == await reference(SPECS[:2])  # the same choices as the random bot's
    assert executor.started == 1


async def test_games_go_to_the_worker_with_the_fewest_in_flight() -> None:
    executor = Processes(ENTRANTS, jobs=3, concurrency=2)
    with trio.fail_after(120):
        await executor.start()  # no threads from now on: blocked means sent and waiting
        async with trio.open_nursery() as nursery:
            for s in SPECS[:5]:  # all at once: each must count the ones chosen before it
                nursery.start_soon(executor.play, s)
            await trio.testing.wait_all_tasks_blocked()
            burst = sorted(executor.in_flight().values())
            nursery.start_soon(executor.play, SPECS[5])
            await trio.testing.wait_all_tasks_blocked()
            then = sorted(executor.in_flight().values())
            nursery.cancel_scope.cancel()
    await executor.aclose()
    assert burst == [1, 2, 2]
    assert then == [2, 2, 2]


async def test_a_killed_worker_loses_only_time() -> None:
    executor = Processes(ENTRANTS, jobs=2, concurrency=3)
    killed: list[int] = []

    async def kill_a_busy_worker(first_row: trio.Event) -> None:
        await first_row.wait()
        busy = {pid: n for pid, n in executor.in_flight().items() if n > 0}
        assert busy
        pid = max(busy, key=lambda p: busy[p])
        os.kill(pid, signal.SIGKILL)
        killed.append(pid)

    try:
        with trio.fail_after(120):
            rows = await play_all(executor, SPECS, kill_a_busy_worker)
    finally:
        await executor.aclose()
    assert rows == await reference(SPECS)
    assert executor.started == 3
    assert executor.replayed >= 1
    assert killed[0] not in executor.pids()


async def test_a_game_whose_worker_dies_three_times_is_given_up() -> None:
    # The quitter's game ends its worker every time, and the games beside it with it; they
    # are played again and finish, each beside it once at most.
    executor = Processes(ENTRANTS, jobs=2, concurrency=4)
    quitter = spec(13, (0, 2))
    try:
        with trio.fail_after(120):
            rows = await play_all(executor, [quitter, *SPECS])
    finally:
        await executor.aclose()
    assert rows.pop("r1-m13-g1") == GameRow(
        "r1-m13-g1", 1, 13, 1, quitter.seed, (0, 2), quitter.bot_seeds, -1, -1, (0, 0), -1,
        "engine error: worker process died 3 times playing this game (last: exit code 3)", 0, 0, "")
    assert rows == await reference(SPECS)
    assert executor.replayed >= 2
    assert executor.started >= 4


async def test_a_cancelled_game_hands_its_reading_on() -> None:
    # Game 1 goes first, alone, so its call reads the worker; cancelled, it hands that on.
    executor = Processes(ENTRANTS, jobs=1, concurrency=3)
    rows: dict[str, GameRow] = {}

    async def one(s: GameSpec) -> None:
        rows[s.game_id] = replace(await executor.play(s), seconds=0.0)

    try:
        with trio.fail_after(120):
            await executor.start()  # no more threads (starting a process uses one): blocked means waiting
            async with trio.open_nursery() as nursery:
                first = trio.CancelScope()

                async def cancellable() -> None:
                    with first:
                        await one(SPECS[0])

                nursery.start_soon(cancellable)
                await trio.testing.wait_all_tasks_blocked()
                nursery.start_soon(one, SPECS[1])
                nursery.start_soon(one, SPECS[2])
                await trio.testing.wait_all_tasks_blocked()
                assert list(executor.in_flight().values()) == [3]
                first.cancel()
            await one(SPECS[3])
    finally:
        await executor.aclose()
    assert rows == await reference(SPECS[1:4])
    assert executor.started == 1 and executor.replayed == 0


FAKE_WORKER = """
import sys, time
sys.stdin.buffer.read(4)
sys.stdout.buffer.write(b"\\x00\\x00\\x00\\x06\\xa5hello")
sys.stdout.flush()
time.sleep(100)
"""
"""Reads the start of the setup, answers a frame that is no message, and hangs."""


async def test_a_worker_sending_a_malformed_frame_is_killed() -> None:
    executor = Processes(ENTRANTS, jobs=1, concurrency=1, command=[sys.executable, "-c", FAKE_WORKER])
    try:
        with trio.fail_after(2 * EXIT_GRACE):  # killed at once: not three times EXIT_GRACE
            row = await executor.play(SPECS[0])
    finally:
        await executor.aclose()
    assert row.reason == ("engine error: worker process died 3 times playing this game "
                          "(last: malformed frame: not a message (a map with a type 't'): 'hello')")
    assert executor.started == 3
    assert executor.pids() == []


async def test_a_refused_setup_stops_the_games() -> None:
    # The bot spec is checked only in the worker: it refuses the setup, once, not per game.
    unloadable = WorkerEntrant("ghost", "no_such_package_anywhere:Bot", GRUUL)
    executor = Processes([ENTRANTS[0], unloadable], jobs=1, concurrency=1)
    try:
        with trio.fail_after(60), pytest.raises(WorkerSetupError, match=(
                "a worker process refused the tournament: bot 'no_such_package_anywhere:Bot': "
                "no module 'no_such_package_anywhere'")):
            await executor.play(SPECS[0])
        with pytest.raises(WorkerSetupError, match="refused"):
            await executor.play(SPECS[1])
    finally:
        await executor.aclose()
    assert executor.started == 1


async def test_aclose_leaves_no_worker_alive() -> None:
    executor = Processes(ENTRANTS, jobs=2, concurrency=2)
    rows: dict[str, GameRow] = {}
    closed: list[str] = []
    first_row = trio.Event()
    pids: list[int] = []

    async def one(s: GameSpec) -> None:
        try:
            rows[s.game_id] = replace(await executor.play(s), seconds=0.0)
        except trio.ClosedResourceError:
            closed.append(s.game_id)
        first_row.set()

    with trio.fail_after(120):
        async with trio.open_nursery() as nursery:
            for s in SPECS[:8]:
                nursery.start_soon(one, s)
            await first_row.wait()
            pids.extend(executor.pids())
            await executor.aclose()
    assert len(pids) == 2
    assert all(not Path(f"/proc/{pid}").exists() for pid in pids)
    assert closed and len(rows) + len(closed) == 8
    expected = await reference(SPECS[:8])
    assert all(row == expected[game_id] for game_id, row in rows.items())
    with pytest.raises(trio.ClosedResourceError, match="worker processes are closed"):
        await executor.play(SPECS[0])


async def test_a_worker_stops_when_its_stdin_closes() -> None:
    process = await trio.lowlevel.open_process([sys.executable, "-m", WORKER_MODULE],
                                               stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert process.stdin is not None and process.stdout is not None
    frames = encode_frame(setup_message(ENTRANTS, 2, None))
    frames += b"".join(encode_frame(game_message(i, s)) for i, s in enumerate(SPECS))
    with trio.fail_after(120):
        await process.stdin.send_all(frames)
        await process.stdin.aclose()
        assert await process.wait() == 0
        reader = FrameReader(process.stdout)
        answered = 0
        while await reader.receive() is not None:
            answered += 1
    assert answered < len(SPECS)


async def test_no_worker_outlives_a_killed_tournament() -> None:
    parent = await trio.lowlevel.open_process(
        [sys.executable, str(Path(__file__).with_name("workers_parent.py"))], stdout=subprocess.PIPE)
    assert parent.stdout is not None
    try:
        with trio.fail_after(120):
            line = b""
            while not line.endswith(b"\n"):
                chunk = await parent.stdout.receive_some()
                assert chunk, "the tournament process ended before printing its workers"
                line += chunk
            pids = [int(p) for p in line.split()]
            assert len(pids) == 2 and not any(gone(pid) for pid in pids)
            parent.kill()
            assert await parent.wait() == -signal.SIGKILL
            for pid in pids:
                await exited(pid)
    finally:
        parent.kill()
        await parent.wait()
    assert all(gone(pid) for pid in pids)
