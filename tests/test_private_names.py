"""No module of spellstack imports another module's private name: a name starting with ``_``
stays in the module that defines it. What another module needs is given a public name there
(a private *module*, ``from . import _bench``, is fine: the rule is about names)."""

from __future__ import annotations

import ast
import importlib.util
from collections.abc import Callable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "spellstack"


def private_names_imported(source: str, package: str,
                           is_module: Callable[[str], bool]) -> list[tuple[int, str]]:
    """Each ``from M import _name`` in ``source`` (a module of ``package``) where ``M._name`` is
    not itself a module (``is_module``), as (line, "M._name"); dunder names (``__version__``)
    are public by convention and left out."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.ImportFrom):
            continue
        base = node.module or ""
        if node.level:
            base = importlib.util.resolve_name("." * node.level + base, package)
        for alias in node.names:
            name = alias.name
            if name.startswith("_") and not name.endswith("__") and not is_module(f"{base}.{name}"):
                found.append((node.lineno, f"{base}.{name}"))
    return found


def _is_module(dotted: str) -> bool:
    """Whether ``dotted`` names a module or package: a file of the source tree for spellstack's
    own, otherwise whatever the import system finds."""
    parts = dotted.split(".")
    if parts[0] == "spellstack":
        path = ROOT.joinpath("src", *parts)
        return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()
    try:
        return importlib.util.find_spec(dotted) is not None
    except (ImportError, ValueError):
        return False  # its parent is no package: then it is a name


@pytest.mark.slow
def test_no_module_imports_a_private_name_of_another() -> None:
    paths = sorted(PACKAGE.rglob("*.py"))
    assert len(paths) > 100  # the walk found the package
    problems: list[str] = []
    for path in paths:
        package = ".".join(path.relative_to(PACKAGE.parent).parts[:-1])  # an __init__.py's too
        for line, name in private_names_imported(path.read_text("utf-8"), package, _is_module):
            problems.append(f"{path.relative_to(ROOT)}:{line}: imports {name}")
    assert problems == []


def test_the_check_finds_private_names_and_passes_private_modules() -> None:
    source = ("from ._actions import _pay, plan_cost\n"
              "from ..mana._symbols import _PHYREXIAN_LIFE\n"
              "from .. import _version, __version__\n")
    found = private_names_imported(source, "spellstack.rules.casting", _is_module)
    assert found == [(1, "spellstack.rules.casting._actions._pay"),
                     (2, "spellstack.rules.mana._symbols._PHYREXIAN_LIFE"),
                     (3, "spellstack.rules._version")]
    assert private_names_imported("from . import _bench, _nothing\n", "spellstack.cli",
                                  _is_module) == [(1, "spellstack.cli._nothing")]
