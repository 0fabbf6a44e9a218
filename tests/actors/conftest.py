"""The ``trace`` fixture: the traced game that ``test_actors_trace_file.py`` and
``test_actors_trace_cycle.py`` check, played once per module (``traced_games.py``)."""

from __future__ import annotations

import pytest
import trio
from traced_games import Trace, _load, _play_traced


@pytest.fixture(scope="module")
def trace(tmp_path_factory: pytest.TempPathFactory) -> Trace:
    path = tmp_path_factory.mktemp("trace") / "t.jsonl"
    result = trio.run(_play_traced, path)
    return _load(path, result)
