"""docs/security.md names, beside each promise, the tests that keep it: each named file (and
test, where one is named) exists, so the page can't point at a test that was renamed away."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "security.md"
CITED = re.compile(r"(tests/[\w/]+\.py)(?:::(\w+))?")


def cited(text: str) -> list[tuple[str, str]]:
    """Each ``tests/...py`` (with ``::name`` if given) the text names."""
    return [(m.group(1), m.group(2) or "") for m in CITED.finditer(text)]


def missing(text: str, root: Path) -> list[str]:
    """The cited files or tests that don't exist under ``root``."""
    gone: list[str] = []
    for file, name in cited(text):
        path = root / file
        if not path.is_file():
            gone.append(file)
        elif name and not re.search(rf"def {name}\b", path.read_text("utf-8")):
            gone.append(f"{file}::{name}")
    return gone


def test_every_test_the_security_page_cites_exists() -> None:
    text = PAGE.read_text("utf-8")
    assert len(cited(text)) >= 10
    assert missing(text, ROOT) == []


def test_the_check_names_a_missing_file_and_a_missing_test() -> None:
    text = "kept by `tests/nowhere/test_gone.py` and `tests/test_docs_security.py::test_not_here`"
    assert missing(text, ROOT) == ["tests/nowhere/test_gone.py",
                                   "tests/test_docs_security.py::test_not_here"]
