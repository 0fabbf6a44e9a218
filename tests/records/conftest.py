"""The games of ``spellstack play`` the record tests read, each played once per session."""

from __future__ import annotations

import pytest

from tests.records.record_games import Played, play_cli


@pytest.fixture(scope="session")
def seed6(tmp_path_factory: pytest.TempPathFactory) -> Played:
    """``spellstack play --deck orzhov --deck dimir --seed 6``: 80 turns, 158 answers."""
    return play_cli(tmp_path_factory.mktemp("seed6"), "--deck", "orzhov", "--deck", "dimir", "--seed", "6")


@pytest.fixture(scope="session")
def seed1(tmp_path_factory: pytest.TempPathFactory) -> Played:
    """``spellstack play --seed 1``."""
    return play_cli(tmp_path_factory.mktemp("seed1"), "--seed", "1")
