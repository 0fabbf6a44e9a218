"""Finished games written in batches: when a batch goes (``RowWriter``), a batch all or nothing
(``ResultsStore.record_many``), and a tournament killed with rows waiting loses only those,
which ``--resume`` plays again to the same results."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import textwrap
from collections.abc import Sequence
from pathlib import Path

import pytest

from spellstack.tournament import GameRow, ResultsStore, RowWriter, StoreError

ROOT = Path(__file__).resolve().parents[2]


def _row(n: int) -> GameRow:
    return GameRow(f"r{n}-m1-g1", n, 1, 1, 1000 + n, (0, 1), (7, 8), 0, 0, (0, 0), 0, "won", 9, 30,
                   "ab")


class _Clock:
    """A clock that moves only when told."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_the_first_row_goes_at_once_and_the_next_wait_until_a_second_has_passed() -> None:
    batches: list[list[str]] = []
    clock = _Clock()
    writer = RowWriter(lambda rows: batches.append([r.game_id for r in rows]), seconds=1.0,
                       clock=clock)
    writer.record(_row(1))
    assert batches == [["r1-m1-g1"]]
    clock.now += 0.4
    writer.record(_row(2))
    clock.now += 0.5
    writer.record(_row(3))
    assert batches == [["r1-m1-g1"]] and len(writer.waiting) == 2
    clock.now += 0.1  # a second since the last batch: this row goes, with those waiting
    writer.record(_row(4))
    assert batches == [["r1-m1-g1"], ["r2-m1-g1", "r3-m1-g1", "r4-m1-g1"]]
    clock.now += 5.0  # games that end seldom are each written as they end
    writer.record(_row(5))
    assert batches[-1] == ["r5-m1-g1"] and not writer.waiting
    assert (writer.batches, writer.written) == (3, 5)


def test_what_waits_for_the_rows_is_done_once_they_are_written_in_order() -> None:
    events: list[str] = []
    clock = _Clock()
    writer = RowWriter(lambda rows: events.append(f"wrote {len(rows)}"), clock=clock)
    writer.record(_row(1))
    writer.after(lambda: events.append("game 1 done"))  # written already: said at once
    writer.record(_row(2))
    writer.after(lambda: events.append("game 2 done"))
    writer.after(lambda: events.append("the total changed"))  # after what waits before it
    assert events == ["wrote 1", "game 1 done"]
    clock.now += 2.0
    writer.record(_row(3))
    writer.after(lambda: events.append("game 3 done"))
    assert events == ["wrote 1", "game 1 done", "wrote 2", "game 2 done", "the total changed",
                      "game 3 done"]


def test_a_full_batch_goes_before_its_second_and_the_rest_at_the_end() -> None:
    batches: list[int] = []
    writer = RowWriter(lambda rows: batches.append(len(rows)), rows=3, seconds=60.0, clock=_Clock())
    for n in range(1, 9):
        writer.record(_row(n))
    assert batches == [1, 3, 3] and len(writer.waiting) == 1
    writer.flush()
    writer.flush()  # nothing waits: no empty batch
    assert batches == [1, 3, 3, 1] and writer.written == 8


def test_rows_a_write_failed_on_wait_for_the_next_one() -> None:
    written: list[Sequence[GameRow]] = []
    fail = [True]

    def write(rows: Sequence[GameRow]) -> None:
        if fail[0]:
            raise StoreError("t.db: the disk is full")
        written.append(rows)

    writer = RowWriter(write, clock=_Clock())
    with pytest.raises(StoreError, match="the disk is full"):
        writer.record(_row(1))
    assert writer.waiting == [_row(1)] and writer.written == 0
    fail[0] = False
    writer.flush()
    assert written == [(_row(1),)] and not writer.waiting


@pytest.mark.parametrize(("rows", "seconds", "message"), [
    (0, 1.0, "a batch holds at least 1 row, not 0"),
    (5, -1.0, "a batch's seconds can't be negative, got -1.0"),
])
def test_a_bad_batch_size_is_refused(rows: int, seconds: float, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        RowWriter(lambda rows: None, rows=rows, seconds=seconds)


def _stored(db: Path) -> list[str]:
    with sqlite3.connect(db) as conn:
        return [game for (game,) in conn.execute("SELECT game_id FROM games ORDER BY round")]


def test_a_batch_that_fails_midway_leaves_none_of_its_rows(tmp_path: Path) -> None:
    store = ResultsStore(tmp_path / "t.db")
    try:
        store.open_tournament({"format": "test"}, ("a", "b"), resume=False, key=b"k" * 32, explicit=True)
        store.record_many([_row(1), _row(2)])
        # The third row is there already: the batch fails on it, after writing the one before.
        with pytest.raises(StoreError, match=r"can't write game r2-m1-g1 .*; 2 games of this "
                                             r"tournament are recorded, and --resume goes on"):
            store.record_many([_row(3), _row(2), _row(4)])
        assert store.recorded == 2
        store.record_many([_row(3)])  # the file is still in use after a failed batch
        assert store.recorded == 3
    finally:
        store.close()
    assert _stored(tmp_path / "t.db") == ["r1-m1-g1", "r2-m1-g1", "r3-m1-g1"]


_PLAY = textwrap.dedent("""
    import os, sys, trio
    from pathlib import Path
    from spellstack.cards import load_cards
    from spellstack.tournament import TournamentSettings, parse_entrant, play_tournament
    from spellstack.tournament import _play

    cards = load_cards()
    entrants = tuple(parse_entrant(f"{n}=random@{d}", cards)
                     for n, d in (("a", "gruul"), ("b", "dimir"), ("c", "orzhov"), ("d", "gruul")))
    settings = TournamentSettings(entrants, "round-robin", 1, 5, repeat=2)
    kill_at = int(sys.argv[3])

    class Killed(_play.RowWriter):
        # The real writer, killed as the kill_at-th game ends: its row, and any waiting, unwritten.
        ended = 0

        def record(self, row):
            Killed.ended += 1
            if Killed.ended == kill_at:
                os._exit(9)
            super().record(row)

    _play.RowWriter = Killed

    def progress(done, total, row):
        if row is not None:
            print(row.game_id, flush=True)

    # An hour between batches: the first game is written as it ends, the rest wait for the end.
    trio.run(lambda: play_tournament(settings, db=Path(sys.argv[1]), resume=sys.argv[2] == "resume",
                                     progress=progress, batch_seconds=3600))
""")


def _play(db: Path, how: str, kill_at: int = 0) -> subprocess.CompletedProcess[str]:
    """Twelve best-of-one games played in another process, killed as the ``kill_at``-th ends."""
    return subprocess.run([sys.executable, "-c", _PLAY, str(db), how, str(kill_at)], cwd=ROOT,
                          text=True, capture_output=True, timeout=300, check=False)


@pytest.mark.slow
def test_a_tournament_killed_with_rows_waiting_loses_only_those_and_resumes_to_the_same_end(
        tmp_path: Path) -> None:
    killed = _play(tmp_path / "part.db", "new", kill_at=5)
    assert killed.returncode == 9, killed.stderr
    said = killed.stdout.split()
    held = _stored(tmp_path / "part.db")
    # The first game was written as it ended and shown; games 2 to 4 waited for a batch and
    # were lost with the process, unshown (a game is shown once it is written).
    assert said == held and len(held) == 1, (held, said)
    resumed = _play(tmp_path / "part.db", "resume")
    assert resumed.returncode == 0, resumed.stderr
    assert sorted(resumed.stdout.split()) == sorted(set(_stored(tmp_path / "part.db")) - set(held))
    whole = _play(tmp_path / "whole.db", "new")
    assert whole.returncode == 0, whole.stderr
    query = ("SELECT game_id, seed, winner, reason, turns, decisions, final_hash FROM games "
             "ORDER BY round, match, number")
    with sqlite3.connect(tmp_path / "part.db") as part, sqlite3.connect(tmp_path / "whole.db") as one:
        assert part.execute(query).fetchall() == one.execute(query).fetchall()
    assert len(_stored(tmp_path / "whole.db")) >= 12
