"""Traces of real games for the trace tools' tests (``trace_helpers.GAMES``)."""

from __future__ import annotations

from functools import partial
from pathlib import Path

import pytest
import trio
from trace_helpers import GAMES, NAMES, Run, run_cli

from spellstack import RandomBot, play_one_game


@pytest.fixture(scope="session")
def cli() -> Run:
    return run_cli


@pytest.fixture(scope="session")
def traces(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """One trace per game of ``GAMES``."""
    folder = tmp_path_factory.mktemp("traces")
    paths = []
    for seed, decks in GAMES:
        path = folder / f"seed{seed}.jsonl"
        if seed == 1:
            code, _, _ = run_cli("play", "--seed", "1", "--trace", str(path))
            assert code == 0
        else:
            bots = [RandomBot(2 * seed + 1), RandomBot(2 * seed + 2)]
            trio.run(partial(play_one_game, list(decks), bots, seed, names=NAMES, trace_path=path))
        paths.append(path)
    return paths


@pytest.fixture(scope="session")
def game(traces: list[Path]) -> Path:
    """The trace of ``spellstack play --seed 1``."""
    return traces[0]
