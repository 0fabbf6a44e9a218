"""Tests set up games with the test kit (``spellstack.testing``), not with factories of their
own: no test file defines a ``_game`` or ``make_game``, and the kit is in use."""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import pytest

TESTS = Path(__file__).parent
FACTORY_NAMES = {"_game", "make_game"}
"""The names the private game factories had before the kit."""


@cache
def _trees() -> dict[Path, ast.Module]:
    """Every Python file under tests/, parsed (once: both checks read them)."""
    return {path: ast.parse(path.read_text(encoding="utf-8"), str(path))
            for path in sorted(TESTS.rglob("*.py"))}


def _factories(tree: ast.Module) -> list[str]:
    return [f"{node.name} (line {node.lineno})" for node in ast.walk(tree)
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
            and node.name in FACTORY_NAMES]


def _imports_the_kit(tree: ast.Module) -> bool:
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module is not None and node.level == 0:
            if node.module == "spellstack.testing" or node.module.startswith("spellstack.testing."):
                return True
            if node.module == "spellstack" and any(a.name == "testing" for a in node.names):
                return True
        if isinstance(node, ast.Import) and any(a.name.startswith("spellstack.testing")
                                                for a in node.names):
            return True
    return False


@pytest.mark.slow
def test_no_test_file_defines_its_own_game_factory() -> None:
    found = {str(path.relative_to(TESTS)): names for path, tree in _trees().items()
             if (names := _factories(tree))}
    assert found == {}, f"use spellstack.testing (Table, deck_game) instead: {found}"


def test_the_checks_see_a_factory_and_an_import() -> None:
    # The two checks can fail: each finds what it looks for in a made-up module.
    tree = ast.parse("from spellstack.testing import Table\n\ndef make_game():\n    pass\n")
    assert _factories(tree) == ["make_game (line 3)"]
    assert _imports_the_kit(tree)
    assert not _imports_the_kit(ast.parse("from spellstack.rules import new_game\n"))
    assert _imports_the_kit(ast.parse("import spellstack.testing\n"))


def test_the_kit_is_in_use() -> None:
    users = sorted(str(path.relative_to(TESTS)) for path, tree in _trees().items()
                   if path.name.startswith("test_") and path != Path(__file__)
                   and _imports_the_kit(tree))
    assert len(users) >= 11, users
    assert not (TESTS / "rules" / "scenario_games.py").exists()
