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
from typing import Annotated, Any, get_type_hints

import pytest

from spellstack.cards import load_card_file
from spellstack.cards._format import CardTable, MultiFaceTable
from spellstack.cards._reference import value_type
from spellstack.rules import CARD_KEYS, CardDefinitionError, CardKey
from spellstack.rules.base import AtLeast
from spellstack.rules.definitions import VALUE_TYPES
from spellstack.rules.legality import kinds_seen
from tests.registries.registry_samples import CARDS, Missing
from tests.registries.registry_samples import table as game_table

ROOT = Path(__file__).resolve().parents[2]
CARD_FILES = sorted([*(ROOT / "src" / "spellstack" / "cards" / "data").glob("*.toml"),
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


def format_keys() -> list[str]:
    """The registered keys of the card format's own tables (not a mechanic's), in order."""
    return [key for key, entry in CARD_KEYS.items() if not entry.mechanic]


def mechanic_keys() -> list[str]:
    """The registered keys of the mechanics, in order."""
    return [key for key, entry in CARD_KEYS.items() if entry.mechanic]


def loader_missing() -> Missing:
    """The registered keys the loader does not read, and the keys it reads that are not
    registered, the registry as it stands now. A mechanic's key is read by its entry
    (``reads_as``), never by a field of the format's tables."""
    read = loader_keys()
    missing = {key: "registered, but the loader's tables have no such field"
               for key in format_keys() if key not in read}
    missing.update({key: "a mechanic's key, but the loader's tables have a field of that name"
                    for key in mechanic_keys() if key in read})
    missing.update({key: "read by the loader, but not registered" for key in read
                    if key not in CARD_KEYS})
    return missing


def type_missing() -> Missing:
    """The keys whose registered type is not what the loader reads them as."""
    read = {**loader_keys(), **{key: CARD_KEYS[key].reads_as for key in mechanic_keys()}}
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
    # In the loader's field order, then the mechanics' keys: the card format's page lists them so.
    assert format_keys() == list(loader_keys())
    assert list(CARD_KEYS) == format_keys() + mechanic_keys()


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
        text = f"[[card]]\n{bears}clepsydra = 3\n"
    else:
        text = ('[[card]]\nname = "Fire // Ice"\nlayout = "split"\n'
                f'  [[card.face]]\n  {bears.replace(chr(10), chr(10) + "  ")}clepsydra = 3\n'
                '  [[card.face]]\n  name = "Ice"\n  cost = "{1}{U}"\n  type = "Instant"\n')
    path = tmp_path / "cards.toml"
    path.write_text(text, "utf-8")
    assert "clepsydra" not in CARD_KEYS
    with pytest.raises(CardDefinitionError,
                       match=f"^{re.escape(str(path))}: card 'Grizzly Bears': .*'clepsydra'"):
        load_card_file(path)


# ---------------------------------------------------------------------- the checks see a change


def test_a_key_added_to_the_registry_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(CARD_KEYS, "clepsydra",
                        CardKey("integer", "714.3a", "it enters with this many water counters"))
    assert "clepsydra" in loader_missing()
    assert "clepsydra" in unused()
    assert "clepsydra" in docs_missing()


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


# ---------------------------------------------------------------------- a mechanic's own key


def _dream_counters(n: int) -> dict[str, list[dict[str, Any]]]:
    """What ``clepsydra = N`` stands for in these tests: it enters with N dream counters."""
    return {"replacement": [{"event": "enters", "counters": {"dream": n}, "text": f"Clepsydra {n}"}]}


CLEPSYDRA = CardKey("integer", "714.3a", "it enters with this many dream counters",
                    mechanic="clepsydra", reads_as=Annotated[int, AtLeast(1)],
                    stands_for=_dream_counters, card_type="Artifact")
"""A mechanic's key, as a mechanic module would register it (the tests add it for a while)."""

JAR = '[[card]]\nname = "Probe Jar"\ntype = "Artifact"\ncost = "{2}"\ntext = "Clepsydra 3"\n'


def test_a_mechanics_key_is_read_by_its_entry_and_kept_on_the_card(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setitem(CARD_KEYS, "clepsydra", CLEPSYDRA)
    assert not loader_missing() and not type_missing()  # the loader takes it, read as an integer
    path = tmp_path / "jar.toml"
    path.write_text(f"{JAR}clepsydra = 3\n", "utf-8")
    jar = load_card_file(path)["Probe Jar"]
    assert jar.mechanic_keys == (("clepsydra", 3),)
    assert jar.mechanic_key("clepsydra") == 3 and jar.mechanic_key("persist") is None
    (enters,) = jar.replacements  # the data it stands for, quoting its Oracle words
    assert (enters.event, enters.counters, enters.text) == ("enters", (("dream", 3),), "Clepsydra 3")
    # A game with such a card knows it has one (a mechanic's actions look for none otherwise).
    game, _ = game_table({"players": ["alice", "bob"], "alice": {"battlefield": ["Probe Jar"]}},
                    {**CARDS, "Probe Jar": jar})
    assert "clepsydra" in kinds_seen(game)
    assert "clepsydra" not in kinds_seen(game_table({"players": ["alice", "bob"]})[0])


@pytest.mark.parametrize(("line", "error"), [
    ("clepsydra = 0", r"clepsydra: expected 1 or more, got 0"),
    ('clepsydra = "three"', r"clepsydra: .*int"),
])
def test_a_mechanics_key_with_a_bad_value_fails_naming_file_card_and_key(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, line: str, error: str) -> None:
    monkeypatch.setitem(CARD_KEYS, "clepsydra", CLEPSYDRA)
    path = tmp_path / "jar.toml"
    path.write_text(f"{JAR}{line}\n", "utf-8")
    with pytest.raises(CardDefinitionError, match=f"^{re.escape(str(path))}: card 'Probe Jar': {error}"):
        load_card_file(path)


def test_a_mechanics_key_on_a_card_without_its_card_type_fails(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setitem(CARD_KEYS, "clepsydra", CLEPSYDRA)
    path = tmp_path / "jar.toml"
    path.write_text(JAR.replace('"Artifact"', '"Enchantment"') + "clepsydra = 3\n", "utf-8")
    with pytest.raises(CardDefinitionError, match=r"'Probe Jar': clepsydra: .*Artifact card \(205\.2a\)"):
        load_card_file(path)


def test_a_mechanics_key_must_say_what_it_is_read_as() -> None:
    with pytest.raises(ValueError, match="read as"):
        CardKey("integer", "714.3a", "sand", mechanic="clepsydra")
    with pytest.raises(ValueError, match="only a mechanic's key"):
        CardKey("integer", "714.3a", "sand", reads_as=int)
