"""The acceptance scenarios in tests/scenarios are exact copies of ../shared/scenarios (when
the shared folder is beside the checkout), and expected_failures.toml lists only files that
exist."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from spellstack.scenarios import EXPECTED_FAILURES

HERE = Path(__file__).resolve().parent
SHARED = HERE.parents[2] / "shared" / "scenarios"
ENGINE = "engine"
"""Engine scenarios written for this project: they have no shared original."""


def _shared() -> Path:
    """The shared scenarios; skips the comparison in a checkout with no shared folder beside it."""
    if not SHARED.is_dir():
        pytest.skip(f"no shared folder beside the checkout ({SHARED} is absent): nothing to "
                    "compare the scenario copies with")
    return SHARED


def _files(folder: Path, *, copies: bool) -> dict[str, bytes]:
    """Relative path -> content of every file below ``folder`` (``copies``: only the scenario
    copies in tests/scenarios, not its engine scenarios, tests or expected failures)."""
    out = {}
    for path in sorted(folder.rglob("*")):
        rel = path.relative_to(folder)
        if not path.is_file():
            continue
        if copies and (rel.parts[0] == ENGINE or path.suffix != ".toml"
                       or rel.as_posix() == EXPECTED_FAILURES):
            continue
        if "__pycache__" in rel.parts:
            continue
        out[rel.as_posix()] = path.read_bytes()
    return out


def test_every_shared_scenario_has_an_identical_copy_here_and_no_copy_is_extra() -> None:
    shared = _files(_shared(), copies=False)
    here = _files(HERE, copies=True)
    assert shared, f"no scenario files in {SHARED}"
    missing = sorted(set(shared) - set(here))
    assert not missing, f"in {SHARED} but not copied to {HERE}: {missing}"
    extra = sorted(set(here) - set(shared))
    assert not extra, (f"in {HERE} but not in {SHARED} (engine scenarios belong in "
                       f"{ENGINE}/): {extra}")
    changed = sorted(name for name in shared if shared[name] != here[name])
    assert not changed, f"differ from their original in {SHARED}: {changed}"


def test_every_expected_failure_names_an_existing_scenario() -> None:
    listed = tomllib.loads((HERE / EXPECTED_FAILURES).read_text("utf-8"))  # empty, once all pass
    gone = sorted(name for name in listed if not (HERE / name).is_file())
    assert not gone, f"{EXPECTED_FAILURES} lists files that do not exist: {gone}"
