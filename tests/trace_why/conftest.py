"""Games for the ``replay`` and ``trace why`` tests, traced once per session."""

from __future__ import annotations

from pathlib import Path

import pytest
import trio

from tests.trace_why._trace_why_games import WAR_SEED, load_example


@pytest.fixture(scope="session")
def war_trace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The war game, with automatic passes."""
    path = tmp_path_factory.mktemp("war") / "war.jsonl"
    trio.run(lambda: load_example().play(WAR_SEED, path))
    return path


@pytest.fixture(scope="session")
def asked_trace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The same game with every grant of priority asked of the player (no automatic pass)."""
    path = tmp_path_factory.mktemp("asked") / "asked.jsonl"
    trio.run(lambda: load_example().play(WAR_SEED, path, auto_pass=False))
    return path
