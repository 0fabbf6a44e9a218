"""The layers hold: ``lint-imports`` keeps every import-linter contract in pyproject.toml
(cli and the test kit, then the harness, scenarios, actors, bots, protocol and cards, the schema
engine, rules; a package imports only from the layers below it; the kernel's sub-packages
likewise, without circles; inside the actors, the coordinator above the seat channel above the
wire; the kernel imports no trio, msgpack or structlog; nothing imports
the test kit; deferred and TYPE_CHECKING imports included)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _lint_imports() -> str:
    name = "lint-imports"
    found = shutil.which(name, path=str(Path(sys.executable).parent)) or shutil.which(name)
    if found is None:
        pytest.skip(f"{name} is not installed (it comes with the [test] extra)")
    return found


def test_import_contracts_are_kept() -> None:
    result = subprocess.run([_lint_imports(), "--no-cache"], cwd=ROOT, capture_output=True,
                            text=True, timeout=300, check=False)
    output = result.stdout + result.stderr
    if result.returncode != 0:
        print(output)
    assert result.returncode == 0, output
    # Every contract is there and kept: a contract dropped from pyproject.toml fails here too.
    for name in ("spellstack's layers",
                 "rules: one sub-package per rules area, layered, no circles between them",
                 "rules: a sans-IO kernel (no trio, msgpack or structlog)",
                 "actors: the coordinator above the seat channel, above the wire",
                 "no part of spellstack imports spellstack.testing"):
        assert f"{name} KEPT" in output, output
