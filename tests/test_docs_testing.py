"""The example test in docs/testing.md runs as written and passes, its setup is the TOML the
page shows, and it can fail."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from spellstack.scenarios import ScenarioError
from spellstack.testing import Table

DOC = Path(__file__).resolve().parents[1] / "docs" / "testing.md"


def _block(lang: str) -> str:
    [text] = re.findall(rf"```{lang}\n(.*?)```", DOC.read_text("utf-8"), re.S)
    return text


def _tests(source: str) -> dict[str, Any]:
    """The example's module namespace, and its test functions."""
    namespace: dict[str, Any] = {"__name__": "test_shock"}
    exec(compile(source, "test_shock.py", "exec"), namespace)
    return namespace


def _test_functions(namespace: dict[str, Any]) -> list[Callable[[], None]]:
    tests = [f for name, f in namespace.items() if name.startswith("test_") and callable(f)]
    assert tests
    return tests


def test_the_example_passes_as_written() -> None:
    for test in _test_functions(_tests(_block("python"))):
        test()


def test_the_example_table_is_the_setup_the_page_shows() -> None:
    table = _tests(_block("python"))["TABLE"]
    assert isinstance(table, Table)
    assert table.setup() == tomllib.loads(_block("toml"))


def test_the_example_can_fail() -> None:
    # Without the damage already marked, Shock's 2 damage does not kill the 3/3.
    source = _block("python").replace(', damage=1', '')
    assert source != _block("python")
    [test] = _test_functions(_tests(source))
    with pytest.raises(AssertionError):
        test()


def test_the_error_the_page_shows_is_the_one_given() -> None:
    [shown] = re.findall(r"`(table: setup\.alice\.hand\[0\]: )\.\.\.`", DOC.read_text("utf-8"))
    with pytest.raises(ScenarioError) as info:
        Table("alice", "bob").hand("alice", "No Such Card").game()
    assert str(info.value).startswith(shown)
