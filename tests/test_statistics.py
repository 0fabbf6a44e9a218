"""Every ``statistics()`` of spellstack returns a frozen, slotted dataclass (as trio's objects
do), and every place that builds one names each field: a counter added, moved or reordered
can't be passed as another."""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

import pytest

import spellstack
from spellstack.actors import ChannelStatistics, CoordinatorStatistics, PlayerStatistics
from spellstack.chat import HostStatistics
from spellstack.tournament import TournamentStatistics

ROOT = Path(spellstack.__file__).parent
KINDS = (ChannelStatistics, CoordinatorStatistics, PlayerStatistics, HostStatistics, TournamentStatistics)
NAMES = frozenset(k.__name__ for k in KINDS)


def builds(source: str) -> list[tuple[str, int, int]]:
    """Each call of a statistics class in ``source``: (its name, line, values by position)."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
            if name in NAMES:
                out.append((name, node.lineno, len(node.args)))
    return out


def positional_builds(source: str, module: str) -> list[str]:
    """Each call of a statistics class in ``source`` that passes a value by position."""
    return [f"{module}:{line}: {name} built with {n} positional values" for name, line, n in builds(source) if n]


def test_every_statistics_value_is_frozen_and_slotted() -> None:
    for kind in KINDS:
        params = kind.__dataclass_params__  # type: ignore[attr-defined]
        assert dataclasses.is_dataclass(kind) and params.frozen and "__slots__" in vars(kind), kind


@pytest.mark.slow
def test_every_statistics_value_is_built_by_keyword() -> None:
    found: list[str] = []
    built: set[str] = set()
    for path in sorted(ROOT.rglob("*.py")):
        text = path.read_text("utf-8")
        found += positional_builds(text, str(path.relative_to(ROOT.parent)))
        built |= {name for name, _, _ in builds(text)}
    assert found == []
    assert built == NAMES  # the scan saw each of them built


def test_the_check_finds_a_positional_build() -> None:
    source = "s = HostStatistics(1, games=2)\nt = actors.PlayerStatistics(requests_received=1)\n"
    assert positional_builds(source, "x.py") == ["x.py:1: HostStatistics built with 1 positional values"]
