"""The pool's names shipped with the package (spellstack/cards/pool_names.toml) are those of
the pool copy, tests/cards/pool.toml; ``python tests/cards/test_pool_names.py`` writes them
again from it."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

HERE = Path(__file__).resolve().parent
POOL = HERE / "pool.toml"
NAMES = HERE.parents[1] / "src" / "spellstack" / "cards" / "pool_names.toml"


def render(pool_text: str) -> str:
    """The pool_names.toml a pool file gives: its card, face and token names in pool order."""
    pool = tomllib.loads(pool_text)
    cards = [c["name"] for c in pool.get("card", [])]
    faces = [f["name"] for c in pool.get("card", []) for f in c.get("face", [])]
    tokens = [t["name"] for t in pool.get("token", [])]
    lines = ["# The required card pool's names, written from the pool by",
             "# tests/cards/test_pool_names.py (which checks they agree). Don't edit by hand.", ""]
    for key, names in (("cards", cards), ("faces", faces), ("tokens", tokens)):
        lines.append(f"{key} = [")
        lines.extend(f"    {json.dumps(n, ensure_ascii=False)}," for n in names)
        lines.append("]")
    return "\n".join(lines) + "\n"


def test_the_shipped_pool_names_are_the_pool_copys() -> None:
    assert NAMES.read_text("utf-8") == render(POOL.read_text("utf-8")), (
        f"{NAMES} does not list the names in {POOL}: run python {Path(__file__).name} to "
        "write it again")


def test_the_names_file_parses_to_the_pool_names() -> None:
    from spellstack.cards import POOL_NAMES

    pool = tomllib.loads(POOL.read_text("utf-8"))
    assert POOL_NAMES.cards == frozenset(c["name"] for c in pool["card"])
    assert POOL_NAMES.tokens == frozenset(t["name"] for t in pool["token"])
    assert "Fire" in POOL_NAMES.faces and "Mulldrifter" in POOL_NAMES.cards


def test_a_changed_pool_changes_the_rendering() -> None:
    # The comparison above can fail: one more card in the pool gives another file.
    text = POOL.read_text("utf-8")
    assert render(text + '\n[[card]]\nname = "Black Lotus"\ntype = "Artifact"\n') != render(text)


if __name__ == "__main__":
    NAMES.write_text(render(POOL.read_text("utf-8")), "utf-8")
    print(f"wrote {NAMES}")
