"""``bench --tournament``'s account of where the time goes in worker processes (``Losses``),
checked against sums worked out by hand."""

from __future__ import annotations

import pytest

from spellstack.tournament import Losses, TournamentRun


def _run(jobs: int, seconds: float, parent: float, workers: float = 0.0) -> TournamentRun:
    return TournamentRun(jobs, 8, 400, seconds, 40_000, (), parent_cpu=parent, workers_cpu=workers)


def test_the_parts_are_start_up_the_parent_the_games_and_idle_cores() -> None:
    # One process: 20 s, 19 s of it CPU. Two workers: 11 s; parent 0.3 s CPU; workers 20.7 s CPU
    # of which 2 x 0.5 s start-up. By hand: 11 - 20 / 2 = 1.0 s lost = 0.5 start-up
    # + 0.3 / 2 = 0.15 parent + (20.7 - 1.0 - 19) / 2 = 0.35 games + ((22 - 0.3 - 20.7) - 1) / 2 = 0 idle.
    lost = Losses.of(_run(1, 20.0, 19.0), _run(2, 11.0, 0.3, 20.7), 0.5)
    assert lost.total == pytest.approx(1.0)
    assert (lost.start_up, lost.parent, lost.games, lost.idle) == pytest.approx((0.5, 0.15, 0.35, 0.0))


def test_a_tail_shows_as_idle_cores_and_the_parts_add_up() -> None:
    # Three workers, 8 s: 24 core-seconds, of which 0.6 parent and 19.4 workers (3 x 0.4 start-up):
    # 4 idle, against the one process's 1 s idle: (4 - 1) / 3 = 1.0 s. Games: (19.4 - 1.2 - 19) / 3.
    one, many = _run(1, 20.0, 19.0), _run(3, 8.0, 0.6, 19.4)
    lost = Losses.of(one, many, 0.4)
    assert lost.idle == pytest.approx(1.0)
    assert lost.games == pytest.approx(-0.8 / 3)
    assert lost.total == pytest.approx(8.0 - 20.0 / 3)
    assert lost.start_up + lost.parent + lost.games + lost.idle == pytest.approx(lost.total)
    assert many.parent_share == pytest.approx(0.075)
