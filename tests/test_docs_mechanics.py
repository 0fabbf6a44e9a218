"""docs/mechanics.md stays true: the code it shows is the Hourglass module's and the test card's,
word for word; the files it names exist; and its table of the files Hourglass touched has as
many rows as the count it gives."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "mechanics.md"
MODULE = ROOT / "src" / "spellstack" / "rules" / "mechanics" / "hourglass.py"
CARDS = ROOT / "src" / "spellstack" / "cards" / "data" / "test_only.toml"


def blocks(language: str) -> list[str]:
    """The page's fenced code blocks in ``language``."""
    return re.findall(rf"```{language}\n(.*?)```", PAGE.read_text("utf-8"), re.S)


def test_the_python_shown_is_the_modules_own() -> None:
    module = MODULE.read_text("utf-8")
    shown = blocks("python")
    assert len(shown) >= 6
    assert [b for b in shown if b not in module] == []


def test_the_card_shown_is_the_test_cards_data() -> None:
    (card,) = blocks("toml")
    assert card in CARDS.read_text("utf-8")


def test_every_file_named_exists() -> None:
    named = set(re.findall(r"`((?:src/spellstack|tests|docs)/[\w./-]+\.(?:py|toml|md))`", PAGE.read_text("utf-8")))
    assert len(named) >= 10
    assert sorted(p for p in named if not (ROOT / p).exists() and "NAME" not in p) == []


def test_the_files_touched_are_counted() -> None:
    text = PAGE.read_text("utf-8")
    section = text[text.index("## What adding Hourglass touched"):text.index("## Checklist")]
    rows = re.findall(r"^\| `([^`]+)` \|", section, re.M)
    count = int(re.search(r"\*\*(\d+) files\*\*", section).group(1))  # type: ignore[union-attr]
    assert count == len(rows) == len(set(rows))
    assert sum(r.startswith("src/spellstack/rules/") for r in rows) == 1  # one source module


def test_the_table_of_mechanics_lists_every_module() -> None:
    from spellstack.rules import MECHANIC_MODULES

    text = PAGE.read_text("utf-8")
    listed = re.findall(r"^\| `(\w+)\.py` \|", text[text.index("## Mechanics and their rules"):], re.M)
    assert sorted(listed) == sorted(MECHANIC_MODULES)
