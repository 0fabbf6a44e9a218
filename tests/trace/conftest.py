"""Traces of real games for the trace tools' tests (``trace_helpers.GAMES``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.trace.trace_helpers import Run, make_match_game_trace, make_traces, run_cli


@pytest.fixture(scope="session")
def cli() -> Run:
    return run_cli


@pytest.fixture(scope="session")
def traces(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """One trace per game of ``GAMES``."""
    return make_traces(tmp_path_factory.mktemp("traces"))


@pytest.fixture(scope="session")
def game(traces: list[Path]) -> Path:
    """The trace of ``spellstack play --seed 1``."""
    return traces[0]


@pytest.fixture(scope="session")
def match_game(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A game started the way a match's is: bob, the second seat, chose to play first."""
    return make_match_game_trace(tmp_path_factory.mktemp("match") / "match.jsonl")
