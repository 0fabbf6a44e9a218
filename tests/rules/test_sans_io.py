"""The rules kernel is sans-IO: importing it loads neither trio, msgpack nor structlog."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "src" / "spellstack" / "rules"
FORBIDDEN = frozenset({"trio", "msgpack", "structlog"})

PROBE = ("import spellstack.rules, sys; "
         "print(sorted(m for m in sys.modules if m.split('.')[0] in {'trio','msgpack','structlog'}))")


def loaded_after(statement: str) -> list[str]:
    """Forbidden modules in ``sys.modules`` after running ``statement`` in a fresh interpreter."""
    probe = PROBE.replace("import spellstack.rules", statement)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join((str(ROOT / "src"), str(ROOT)))}
    done = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    result = ast.literal_eval(done.stdout.strip().splitlines()[-1])
    assert isinstance(result, list)
    return result


def test_importing_the_kernel_loads_no_io_library() -> None:
    assert loaded_after("import spellstack.rules") == []


def test_the_probe_sees_an_io_import() -> None:
    # The same probe, with an I/O library imported, must report it (else the test above is void).
    assert "msgpack" in loaded_after("import spellstack.rules, msgpack")


def forbidden_imports(source: str) -> list[str]:
    """Top-level names of forbidden modules a source imports, however it spells the import."""
    found: list[str] = []
    for node in ast.walk(ast.parse(source)):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        elif (isinstance(node, ast.Call) and node.args
              and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)
              and (getattr(node.func, "id", "") == "__import__"
                   or getattr(node.func, "attr", "") == "import_module")):
            names = [node.args[0].value]
        found.extend(n for n in names if n.split(".")[0] in FORBIDDEN)
    return found


RULES_SOURCES = sorted(RULES.rglob("*.py"))


def test_there_are_kernel_sources() -> None:
    assert len(RULES_SOURCES) > 10
    assert RULES / "__init__.py" in RULES_SOURCES


@pytest.mark.parametrize("path", RULES_SOURCES, ids=lambda p: p.name)
def test_kernel_source_imports_no_io_library(path: Path) -> None:
    assert forbidden_imports(path.read_text("utf-8")) == []


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("import trio", ["trio"]),
        ("import os, structlog.stdlib", ["structlog.stdlib"]),
        ("from msgpack import packb", ["msgpack"]),
        ("def f():\n    import trio.lowlevel as ll\n", ["trio.lowlevel"]),
        ("if TYPE_CHECKING:\n    from trio import Nursery\n", ["trio"]),
        ("m = __import__('msgpack')", ["msgpack"]),
        ("import importlib\nm = importlib.import_module('structlog')", ["structlog"]),
        ("import triohelper\nfrom .trio import x\nimport hashlib", []),
    ],
)
def test_the_scanner_finds_io_imports(source: str, expected: list[str]) -> None:
    assert forbidden_imports(source) == expected
