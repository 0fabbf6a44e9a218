"""The load benchmark (``spellstack bench --serve``): a small run reports every figure, and
the report's arithmetic is what it says (not its speed: that is the machine's)."""

from __future__ import annotations

import re

import pytest

from spellstack.cli import main
from spellstack.server import LoadReport, bench_load
from spellstack.server._load import _percentile


async def test_a_small_run_with_the_server_in_process_measures_every_figure() -> None:
    report = await bench_load(4, 3, 7, in_process=True)
    assert (report.games, report.connections, report.forfeits) == (3, 4, 0)
    assert report.decisions > 50 and report.seconds > 0
    assert 0 < report.round_trip_p50 <= report.round_trip_p99 < report.seconds
    assert report.peak_kb > 20_000  # this process, the engine and its bots in it


@pytest.mark.slow  # two Python processes start: about 3 s
def test_a_small_run_of_the_command_reports_every_figure(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--serve", "--connections", "4", "--games", "3", "--seed", "7"]) == 0
    machine, head, rates, trips, memory, forfeits = capsys.readouterr().out.splitlines()
    assert machine.startswith("machine: ")
    assert head == ("bench --serve: 3 games (seeds 7..9, gruul vs orzhov, random bots), 4 remote bot connections "
                    "at once (2 games), the server a process of its own on 127.0.0.1")
    found = re.fullmatch(r"([\d.]+) games/s, (\d+) decisions/s \((\d+) decisions in ([\d.]+) s\)", rates)
    assert found is not None, rates
    games_per_second, per_second, decisions, seconds = (float(g) for g in found.groups())
    assert decisions > 50 and games_per_second == pytest.approx(3 / seconds, rel=0.02)
    assert per_second == pytest.approx(decisions / seconds, rel=0.02, abs=1)
    found = re.fullmatch(r"decision round trip: p50 ([\d.]+) ms, p99 ([\d.]+) ms", trips)
    assert found is not None, trips
    assert 0 < float(found[1]) <= float(found[2])
    found = re.fullmatch(r"server peak resident memory: ([\d.]+) MB", memory)
    assert found is not None and 20 < float(found[1]) < 2000, memory  # a Python process with the engine
    assert forfeits == "games ended by a forfeit: 0"


def test_the_percentiles_are_nearest_rank_and_the_rates_per_second() -> None:
    values = [float(n) for n in range(1, 101)]
    assert (_percentile(values, 0.5), _percentile(values, 0.99), _percentile([3.0], 0.99)) == (50.0, 99.0, 3.0)
    assert _percentile([], 0.5) == 0.0
    report = LoadReport(games=10, connections=20, seconds=4.0, decisions=1000, round_trip_p50=0.0015,
                        round_trip_p99=0.0125, peak_kb=102400, forfeits=1)
    assert (report.games_per_second, report.decisions_per_second) == (2.5, 250.0)
    assert report.lines(5)[1:] == ["2.50 games/s, 250 decisions/s (1000 decisions in 4.00 s)",
                                   "decision round trip: p50 1.50 ms, p99 12.50 ms",
                                   "server peak resident memory: 100.0 MB",
                                   "games ended by a forfeit: 1"]


@pytest.mark.parametrize(("args", "error"), [
    (["--serve", "--connections", "3"], "--connections must be an even number of at least 2, got 3"),
    (["--connections", "4"], "--connections applies to --serve only"),
    (["--serve", "--kernel"], "--kernel and --serve can't be combined"),
])
def test_bench_serve_refuses_bad_arguments(args: list[str], error: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", *args]) == 2
    assert capsys.readouterr().err == f"spellstack bench: {error}\n"
