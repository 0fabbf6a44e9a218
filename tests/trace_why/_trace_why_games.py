"""Helpers of the ``replay`` and ``trace why`` tests: the counterspell war of
examples/counterspell_war.py, and the raw lines of a trace."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
WAR_SEED = 1
"""The seed whose game has a counterspell war (a Counterspell countered by a Counterspell) and a
Lightning Bolt whose only target is returned to its owner's hand in response."""


def load_example() -> ModuleType:
    """examples/counterspell_war.py, imported from its file."""
    spec = importlib.util.spec_from_file_location("counterspell_war", ROOT / "examples" / "counterspell_war.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def raw_lines(path: Path) -> list[dict[str, Any]]:
    """Every line of a trace file as JSON, in order."""
    return [json.loads(line) for line in path.read_text("utf-8").splitlines()]


def events(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The GameEvent lines."""
    return [r for r in lines if r.get("kind") == "GameEvent"]


DECK = load_example().DECK
"""The example's deck (both players')."""
