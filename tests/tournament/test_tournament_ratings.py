"""openskill Plackett-Luce ratings: the default start, one game by hand, order, determinism."""

from __future__ import annotations

import math
import os
import subprocess
import sys
from pathlib import Path

import pytest

from spellstack.tournament import Rating, ratings

ROOT = Path(__file__).resolve().parents[2]
NAMES = ["a", "b", "c", "d"]


def test_without_games_everyone_has_the_default() -> None:
    # mu 25, sigma 25/3, ordinal mu - 3 sigma = 0; all tied, so by index
    rows = ratings([], NAMES)
    assert [(r.entrant, r.name) for r in rows] == [(0, "a"), (1, "b"), (2, "c"), (3, "d")]
    assert all(r.mu == 25.0 and r.sigma == pytest.approx(25 / 3) and r.ordinal == pytest.approx(0.0)
               for r in rows)


def test_one_game_by_hand() -> None:
    # Before the game each sigma grows by tau = 25/300: sigma^2 = (25/3)^2 + (1/12)^2 = 69.451389.
    # beta = 25/6, c = sqrt(2 (69.451389 + 17.361111)) = sqrt(173.625) = 13.176684.
    # Equal mus: the winner's chance is 1/2, so mu moves by sigma^2 / c x (1 - 1/2) = 2.635389.
    # sigma: gamma = sigma / c = 0.632456; delta = gamma x sigma^2 / c^2 x (1/2 x 1/2)
    #   = 0.632456 x 0.4 x 0.25 = 0.063246; new sigma = 8.333750 x sqrt(1 - 0.063246) = 8.065901.
    winner, loser = ratings([(1, 0, 1.0)], ["a", "b"])
    assert (winner.entrant, loser.entrant) == (1, 0)
    assert winner.mu == pytest.approx(27.635389, abs=1e-6)
    assert loser.mu == pytest.approx(22.364611, abs=1e-6)
    assert winner.sigma == pytest.approx(8.065901, abs=1e-6) and loser.sigma == pytest.approx(winner.sigma)
    assert winner.ordinal == pytest.approx(winner.mu - 3 * winner.sigma)


def test_a_draw_is_a_tie() -> None:
    # Equal ratings and a tie: the mus stay at 25, the sigmas shrink as after a decisive game.
    first, second = ratings([(0, 1, 0.5)], ["a", "b"])
    assert first.mu == pytest.approx(25.0) and second.mu == pytest.approx(25.0)
    assert first.sigma == pytest.approx(8.065901, abs=1e-6)
    assert (first.entrant, second.entrant) == (0, 1)


GAMES = [(0, 1, 1.0), (2, 3, 0.5), (0, 2, 1.0), (3, 1, 0.0), (3, 0, 0.0), (1, 2, 0.5),
         (0, 1, 1.0), (2, 0, 0.0), (3, 2, 0.0)]


def test_the_entrant_that_won_every_game_is_first() -> None:
    # 0 won all five of its games; 3 won none (three lost, one drawn); 1 and 2 sit between.
    rows = ratings(GAMES, NAMES)
    assert rows[0].entrant == 0 and rows[-1].entrant == 3
    assert [r.ordinal for r in rows] == sorted((r.ordinal for r in rows), reverse=True)
    assert all(isinstance(r, Rating) and math.isfinite(r.mu) for r in rows)


def test_the_order_of_games_matters_and_is_kept() -> None:
    assert ratings(GAMES, NAMES) == ratings(list(GAMES), NAMES)
    assert ratings(GAMES, NAMES) != ratings(list(reversed(GAMES)), NAMES)


def test_the_same_ratings_in_every_process() -> None:
    code = ("from spellstack.tournament import ratings; "
            f"print(ratings({GAMES!r}, {NAMES!r}))")
    printed = set()
    for hash_seed in ("0", "99"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed, "PYTHONPATH": os.pathsep.join((str(ROOT / "src"), str(ROOT)))}
        done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                              timeout=60, check=True)
        printed.add(done.stdout.strip())
    assert printed == {str(ratings(GAMES, NAMES))}


def test_bad_games() -> None:
    with pytest.raises(ValueError, match=r"names entrant 4, but the entrants are 0\.\.3"):
        ratings([(4, 0, 1.0)], NAMES)
    with pytest.raises(ValueError, match=r"a score is 1, 0\.5 or 0"):
        ratings([(0, 1, 2.0)], NAMES)
