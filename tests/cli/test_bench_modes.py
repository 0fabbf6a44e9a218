"""``spellstack bench --trace``, ``--jobs`` and ``--concurrent``: each plays the bench's games
(the same games as one at a time in one process) and reports what it measured."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import pytest

from spellstack.harness import (
    Outcome,
    bench_concurrent,
    bench_jobs,
    bench_trace,
    play_games,
    resident_kb,
)

TABLE = Path(__file__).with_name("bench_games.json")


def _recorded(seeds: range) -> list[tuple[object, ...]]:
    """The recorded table's games, as ``Outcome.game`` gives them."""
    rows = {row["seed"]: row for row in json.loads(TABLE.read_text(encoding="utf-8"))}
    return [(s, rows[s]["winner"], rows[s]["reason"], rows[s]["turns"], rows[s]["decisions"],
             rows[s]["auto_passes"], rows[s]["final_hash"]) for s in seeds]


def test_trace_plays_each_game_traced_and_untraced_and_deletes_the_trace(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    out: list[str] = []
    plain, traced = bench_trace(range(2), out, progress=False)
    assert [o.game() for o in plain] == [o.game() for o in traced] == _recorded(range(2))
    assert plain == traced  # messages too: tracing adds no message to the channels
    assert list(tmp_path.iterdir()) == []
    assert out[0].startswith("trace: 2 games (gruul vs orzhov, seeds 0..1)")
    assert out[1].startswith("untraced: ") and out[2].startswith("traced: ")
    kb = float(out[2].split(" decisions/s, ")[1].split(" kB of trace per game")[0])
    assert kb > 10  # every message of a game is in its trace
    assert out[3].startswith("tracing overhead: ") and out[3].endswith("same games: yes")


@pytest.mark.slow
def test_jobs_play_the_same_games_per_seed_as_one_process() -> None:
    seeds = range(10, 14)
    out: list[str] = []
    runs = bench_jobs(seeds, 2, 1, False, out, progress=False)
    here = play_games(seeds, kernel=False)
    assert sorted(runs) == [1, 2]
    assert runs[1] == runs[2] == [here]
    assert [o.game() for o in here] == _recorded(seeds)
    assert out[0].startswith("jobs: 4 games (gruul vs orzhov, seeds 10..13) through the actors "
                             "in worker processes")
    assert out[1].startswith("jobs 1: ") and out[2].startswith("jobs 2: ")
    for line, n in ((out[1], 1), (out[2], 2)):
        cores = float(line.rsplit("cores obtained ", 1)[1])
        assert 0 < cores <= n * 1.05  # the workers' CPU time over the wall time
    assert out[3].startswith("speed-up: ") and out[3].endswith("every run: yes")


def test_jobs_of_the_kernel_driver_repeat_each_run() -> None:
    out: list[str] = []
    runs = bench_jobs(range(2), 1, 2, True, out, progress=False)
    assert sorted(runs) == [1]
    assert len(runs[1]) == 2
    assert [[o.game() for o in run] for run in runs[1]] == [_recorded(range(2))] * 2
    assert all(o.messages == 0 for o in runs[1][0])  # no actors: no message crossed a channel
    assert "median of 2 runs each" in out[0] and "(runs: " in out[1]


def test_concurrent_plays_all_its_games_at_once() -> None:
    out: list[str] = []
    outcomes, peak = bench_concurrent(range(20, 26), 6, out, progress=False)
    assert peak == 6
    assert [o.seed for o in outcomes] == list(range(20, 26))
    assert [o.game() for o in outcomes] == _recorded(range(20, 26))
    assert out[1].startswith("games in flight at most: 6 ")
    assert out[2].startswith("resident memory: ") and "per game in flight" in out[2]


def test_concurrent_keeps_at_most_n_games_in_flight() -> None:
    out: list[str] = []
    outcomes, peak = bench_concurrent(range(5), 2, out, progress=False)
    assert peak == 2
    assert [o.game() for o in outcomes] == _recorded(range(5))
    assert "up to 2 in flight" in out[0]


def test_resident_memory_is_read() -> None:
    assert resident_kb() > 1024  # a Python process with the engine loaded is over 1 MB


def test_an_outcome_is_the_same_game_whatever_its_message_count() -> None:
    a = Outcome(1, "gruul", "x", 3, 4, 5, 6, "h")
    assert a.game() == Outcome(1, "gruul", "x", 3, 4, 5, 0, "h").game()
    assert a.label() == "gruul"
    assert Outcome(1, None, "engine error: sba: boom", 3, 4, 5, 6, "h").label() == "engine error"
    assert Outcome(1, None, "104.4a", 3, 4, 5, 6, "h").label() == "draw"
