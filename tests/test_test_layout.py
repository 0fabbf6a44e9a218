"""The test folders are packages: every folder under tests/ has an ``__init__.py``, helpers are
imported by their package path (``tests.rules.mana_samples``), no test module imports another,
and collecting the suite puts at most one folder (the repository's root) on ``sys.path``."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent


def _folders() -> list[Path]:
    return [TESTS, *(p for p in sorted(TESTS.rglob("*")) if p.is_dir() and p.name != "__pycache__")]


def _modules() -> list[Path]:
    return sorted(p for p in TESTS.rglob("*.py") if "__pycache__" not in p.parts)


def _imported(path: Path) -> list[str]:
    """The absolute module names ``path`` imports (``from . import`` forms are named in full)."""
    names: list[str] = []
    package = ".".join(path.relative_to(ROOT).parent.parts)
    for node in ast.walk(ast.parse(path.read_text("utf-8"), str(path))):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parent, *([base] if base else [])])
            names.append(base)
            names += [f"{base}.{alias.name}" for alias in node.names]
    return names


def test_every_folder_under_tests_is_a_package() -> None:
    missing = [str(p.relative_to(ROOT)) for p in _folders() if not (p / "__init__.py").is_file()]
    assert missing == []


@pytest.mark.slow
def test_helpers_are_imported_by_package_path_and_no_test_imports_a_test() -> None:
    local = {p.stem for p in _modules() if p.name != "__init__.py"}
    problems: list[str] = []
    for path in _modules():
        for name in _imported(path):
            parts = name.split(".")
            if parts[0] in local:
                problems.append(f"{path.relative_to(ROOT)}: {name} (a bare name; use tests.…)")
            if parts[0] == "tests" and any(part.startswith("test_") for part in parts[1:]):
                problems.append(f"{path.relative_to(ROOT)}: {name} (a test module)")
    assert problems == []


def test_no_conftest_loads_a_module_by_file_path() -> None:
    loaders = [str(p.relative_to(ROOT)) for p in TESTS.rglob("conftest.py")
               if "spec_from_file_location" in p.read_text("utf-8")]
    assert loaders == []


@pytest.mark.slow
def test_collecting_the_suite_adds_at_most_one_folder_to_sys_path() -> None:
    # Collection only (no test runs): the paths pytest's import mode inserts while importing
    # every test module and conftest.py.
    script = (
        "import json, sys, pytest\n"
        "before = list(sys.path)\n"
        "code = pytest.main(['--collect-only', '-qq', '-p', 'no:cacheprovider', sys.argv[1]])\n"
        "print(json.dumps({'code': int(code), 'added': [p for p in sys.path if p not in before]}))\n"
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join((str(ROOT / "src"), str(ROOT)))}
    done = subprocess.run([sys.executable, "-c", script, str(TESTS)], cwd=ROOT, env=env,
                          capture_output=True, text=True, check=False)
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["code"] == 0, done.stdout[-2000:]
    assert len(report["added"]) <= 1, report["added"]
    assert all(Path(p).resolve() == ROOT for p in report["added"]), report["added"]
