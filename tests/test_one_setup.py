"""A game is set up in one place: outside the rules kernel, only ``GameSetup.build``
(``actors/_setup.py``) calls ``new_game``; every other part of spellstack describes its game as
a ``GameSetup``."""

from __future__ import annotations

import ast
from pathlib import Path

import spellstack

ROOT = Path(spellstack.__file__).parent
SETUP = ROOT / "actors" / "_setup.py"


def new_game_calls(source: str, module: str) -> list[str]:
    """Each call of ``new_game`` (by name or as an attribute) in ``source``, as
    ``module:line``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call):
            called = node.func
            name = (called.id if isinstance(called, ast.Name)
                    else called.attr if isinstance(called, ast.Attribute) else "")
            if name == "new_game":
                found.append(f"{module}:{node.lineno}")
    return found


def test_only_game_setup_calls_new_game_outside_the_rules() -> None:
    calls = []
    for path in sorted(ROOT.rglob("*.py")):
        if path == SETUP or (ROOT / "rules") in path.parents:
            continue
        calls += new_game_calls(path.read_text("utf-8"), str(path.relative_to(ROOT)))
    assert calls == []
    assert len(new_game_calls(SETUP.read_text("utf-8"), "actors/_setup.py")) == 1


def test_the_search_finds_a_call_by_name_or_by_attribute() -> None:
    """The test above can fail: both ways of calling it are found."""
    source = "from x import new_game\nnew_game(a, b, 1)\nimport rules\nrules.new_game(a, b, 1)\nnew_games(1)\n"
    assert new_game_calls(source, "m") == ["m:2", "m:4"]
