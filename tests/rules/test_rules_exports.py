"""``spellstack.rules`` re-exports exactly what is used from it: every name in its ``__all__`` is
imported from ``spellstack.rules`` by a module of another package or by a test, so the list
can't grow stale (a name nobody imports from there stays in its sub-package)."""

from __future__ import annotations

import ast
import functools
import importlib.util
from pathlib import Path

import pytest

import spellstack.rules

ROOT = Path(__file__).resolve().parents[2]
KERNEL = "spellstack.rules"


def names_imported_from_the_kernel(source: str, package: str) -> set[str]:
    """The names a module of ``package`` with text ``source`` imports with
    ``from spellstack.rules import ...`` (or a relative import that means it)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.ImportFrom):
            continue
        base = node.module or ""
        if node.level:
            base = importlib.util.resolve_name("." * node.level + base, package)
        if base == KERNEL:
            found.update(alias.name for alias in node.names)
    return found


@functools.cache
def _users() -> dict[str, set[str]]:
    """Each name imported from the kernel's top level outside it, with who imports it."""
    users: dict[str, set[str]] = {}
    kernel = ROOT / "src" / "spellstack" / "rules"
    for path in sorted([*(ROOT / "src" / "spellstack").rglob("*.py"), *(ROOT / "tests").rglob("*.py")]):
        if kernel in path.parents:
            continue
        package = ".".join(path.relative_to(ROOT / "src" if "src" in path.relative_to(ROOT).parts[:1]
                                            else ROOT).parts[:-1])
        for name in names_imported_from_the_kernel(path.read_text("utf-8"), package):
            users.setdefault(name, set()).add(str(path.relative_to(ROOT)))
    return users


@pytest.mark.slow
def test_every_name_the_kernel_exports_is_used_outside_it() -> None:
    users = _users()
    assert len(users) > 50  # the walk found the importers
    unused = [name for name in spellstack.rules.__all__ if name not in users]
    assert not unused, f"in spellstack.rules.__all__ but imported from there by nobody: {unused}"


def test_what_is_imported_from_the_kernel_is_in_its_all() -> None:
    exported = set(spellstack.rules.__all__)
    modules = {name for name in _users() if importlib.util.find_spec(f"{KERNEL}.{name}")}
    stray = {name: sorted(who) for name, who in _users().items()
             if name not in exported and name not in modules}
    assert not stray, stray


def test_the_walk_reads_relative_imports_as_they_resolve() -> None:
    source = ("from ..rules import Game\nfrom ..rules.mana import ManaCost\n"
              "from spellstack.rules import view_for\nfrom .rules import Nothing\n")
    assert names_imported_from_the_kernel(source, "spellstack.cards") == {"Game", "view_for"}
