"""Every card key (``CARD_KEYS``, ``rules/definitions/_card_keys.py``) against the card loader,
the cards and the card format's page.

The loader reads a card's table into the card format's dataclasses (``CardTable``, and
``MultiFaceTable`` for a card of another layout, in ``cards/_format.py``): their fields are the
keys it takes, and it refuses any other. The registry and those fields must name the same keys,
in the same order, with the same TOML types; every key must be used by a card (of the package's
data files or of a test's), and the card format's page must list it. The last section adds a key
to the registry, and takes one out, and sees the checks report it.
"""

from __future__ import annotations

import dataclasses
import re
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any, get_type_hints

import pytest

from spellstack.cards import load_card_file
from spellstack.cards._format import CardTable, MultiFaceTable
from spellstack.cards._reference import value_type
from spellstack.rules import CARD_KEYS, CardDefinitionError, CardKey
from spellstack.rules.definitions import VALUE_TYPES
from tests.registries.registry_samples import Missing

ROOT = Path(__file__).resolve().parents[2]
CARD_FILES = sorted([*(ROOT / "spellstack" / "cards" / "data").glob("*.toml"),
                     *(ROOT / "tests").rglob("*.toml")])
DOC = ROOT / "docs" / "card-format.md"


def loader_keys() -> dict[str, Any]:
    """Each key the loader takes in a card's table, with its type hint: a card's or a face's
    (``CardTable``), then those only a card of another layout has (``MultiFaceTable``)."""
    keys: dict[str, Any] = {}
    for cls in (CardTable, MultiFaceTable):
        hints = get_type_hints(cls, include_extras=True)
        for f in dataclasses.fields(cls):
            keys.setdefault(f.name, hints[f.name])
    return keys


def loader_missing() -> Missing:
    """The registered keys the loader does not read, and the keys it reads that are not
    registered, the registry as it stands now."""
    read = loader_keys()
    missing = {key: "registered, but the loader's tables have no such field"
               for key in CARD_KEYS if key not in read}
    missing.update({key: "read by the loader, but not registered" for key in read
                    if key not in CARD_KEYS})
    return missing


def type_missing() -> Missing:
    """The keys whose registered type is not what the loader reads them as."""
    read = loader_keys()
    return {key: f"registered as {entry.type}, read as {value_type(read[key])}"
            for key, entry in CARD_KEYS.items() if key in read and value_type(read[key]) != entry.type}


def card_tables(data: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """Each card's and token's table in a parsed card file, and each face's."""
    for kind in ("card", "token"):
        for table in data.get(kind, ()):
            yield table
            yield from table.get("face", ())


def key_users() -> dict[str, set[str]]:
    """Each key written by a card of a card file in the package's data or the tests, with the
    files that write it."""
    users: dict[str, set[str]] = {}
    for path in CARD_FILES:
        for table in card_tables(tomllib.loads(path.read_text("utf-8"))):
            for key in table:
                users.setdefault(key, set()).add(str(path.relative_to(ROOT)))
    return users


def unused() -> Missing:
    """The registered keys no card file writes."""
    users = key_users()
    return {key: "no card uses it" for key in CARD_KEYS if key not in users}


def docs_missing() -> Missing:
    """The registered keys the card format's page does not list in its table of card keys."""
    text = DOC.read_text("utf-8")
    return {key: "not listed" for key in CARD_KEYS if f"\n| `{key}` | " not in text}


def test_the_registry_names_the_loaders_keys() -> None:
    assert not loader_missing()
    # In the loader's field order: the card format's page lists them so.
    assert list(CARD_KEYS) == list(loader_keys())


def test_each_keys_type_is_what_the_loader_reads() -> None:
    assert {entry.type for entry in CARD_KEYS.values()} <= set(VALUE_TYPES)
    assert not type_missing()


def test_every_key_names_its_rule_and_meaning() -> None:
    # test_only serves no rule of the game: it keeps a card out of decks.
    for key, entry in CARD_KEYS.items():
        assert re.fullmatch(r"\d{3}\.\d+[a-z]?", entry.rule) or key == "test_only", (key, entry.rule)
        assert entry.means and entry.means == entry.means.strip(), key


def test_every_key_is_used_by_a_card() -> None:
    assert len(CARD_FILES) > 10  # the walk found the data files
    assert not unused()


def test_the_card_format_page_lists_every_key() -> None:
    assert not docs_missing()


@pytest.mark.parametrize("where", ["card", "face"])
def test_a_key_not_registered_fails_naming_file_card_and_key(where: str, tmp_path: Path) -> None:
    bears = 'name = "Grizzly Bears"\ncost = "{1}{G}"\ntype = "Creature — Bear"\npt = "2/2"\n'
    if where == "card":
        text = f"[[card]]\n{bears}hourglass = 3\n"
    else:
        text = ('[[card]]\nname = "Fire // Ice"\nlayout = "split"\n'
                f'  [[card.face]]\n  {bears.replace(chr(10), chr(10) + "  ")}hourglass = 3\n'
                '  [[card.face]]\n  name = "Ice"\n  cost = "{1}{U}"\n  type = "Instant"\n')
    path = tmp_path / "cards.toml"
    path.write_text(text, "utf-8")
    assert "hourglass" not in CARD_KEYS
    with pytest.raises(CardDefinitionError,
                       match=f"^{re.escape(str(path))}: card 'Grizzly Bears': .*'hourglass'"):
        load_card_file(path)


# ---------------------------------------------------------------------- the checks see a change


def test_a_key_added_to_the_registry_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(CARD_KEYS, "hourglass",
                        CardKey("integer", "714.3a", "it enters with this many sand counters"))
    assert "hourglass" in loader_missing()
    assert "hourglass" in unused()
    assert "hourglass" in docs_missing()


@pytest.fixture
def registry_order_kept() -> Iterator[None]:
    """Puts the registry back as it was, in its order (``monkeypatch.delitem`` would put a key
    it deleted back at the end, and the card format's page lists the keys in registry order)."""
    saved = dict(CARD_KEYS)
    yield
    for key in list(CARD_KEYS):
        del CARD_KEYS[key]
    for key, entry in saved.items():
        CARD_KEYS[key] = entry


@pytest.mark.usefixtures("registry_order_kept")
def test_a_key_taken_out_of_the_registry_is_reported() -> None:
    del CARD_KEYS["loyalty"]
    assert loader_missing() == {"loyalty": "read by the loader, but not registered"}


def test_a_key_registered_with_another_type_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(CARD_KEYS, "loyalty", CardKey("string", "209.1", "printed loyalty"))
    assert type_missing() == {"loyalty": "registered as string, read as integer"}
