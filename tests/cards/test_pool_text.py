"""Every card and token the package defines is in the required pool (the copy in
tests/cards/pool.toml), with the pool's exact Oracle text, mana cost, type line,
power/toughness and colour."""

from __future__ import annotations

import dataclasses
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from spellstack.cards import load_cards
from spellstack.rules import CardDefinition, parse_mana_cost
from spellstack.rules.mechanics.dungeon import ROOMS

POOL = Path(__file__).resolve().parent / "pool.toml"
"""The repository's copy of ``../shared/cards/pool.toml`` (test_pool_copy.py compares them)."""

# 205.4a: the supertypes. Anything else left of the dash is a card type (205.2a).
SUPERTYPES = frozenset({"Basic", "Legendary", "Ongoing", "Snow", "World"})
WUBRG = "WUBRG"

CARDS: Mapping[str, CardDefinition] = load_cards()
POOL_TEST_ONLY = frozenset(c["name"] for c in tomllib.loads(POOL.read_text("utf-8")).get("card", [])
                           if c.get("test_only"))
"""The pool's own test-only cards (Sector Sculptor): pool cards, checked against the pool, that
no deck may use."""
CARD_NAMES = sorted(n for n, d in CARDS.items() if not d.is_token and (not d.test_only or n in POOL_TEST_ONLY)
                    and "Dungeon" not in d.card_types)
DUNGEON_NAMES = sorted(n for n, d in CARDS.items() if "Dungeon" in d.card_types)
TEST_ONLY_NAMES = sorted(n for n, d in CARDS.items() if d.test_only and n not in POOL_TEST_ONLY)
TOKEN_NAMES = sorted(n for n, d in CARDS.items() if d.is_token)


def _index(entries: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Pool entries by name; a multi-face card's faces also by their face names."""
    out: dict[str, dict[str, Any]] = {}
    for entry in entries:
        out[entry["name"]] = entry
        for face in entry.get("face", []):
            out.setdefault(face["name"], face)
    return out


@pytest.fixture(scope="module")
def pool() -> dict[str, dict[str, dict[str, Any]]]:
    """The pool's ``card`` and ``token`` tables, each by name."""
    data = tomllib.loads(POOL.read_text("utf-8"))
    return {"card": _index(data.get("card", [])), "token": _index(data.get("token", [])),
            "dungeon": _index(data.get("dungeon", []))}


def split_type_line(line: str) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    """``Legendary Creature — Dog`` -> (supertypes, card types, subtypes), in printed order;
    the word ``Token`` (a token's type line) is not a type."""
    left, _, right = line.partition("—")
    words = [w for w in left.split() if w != "Token"]
    supertypes = tuple(w for w in words if w in SUPERTYPES)
    types = tuple(w for w in words if w not in SUPERTYPES)
    return supertypes, types, tuple(right.split())


def expected_colors(entry: dict[str, Any]) -> tuple[str, ...]:
    """202.2/105.2: colours from the cost's mana symbols unless the pool says ``color``."""
    if "color" in entry:
        letters = set(entry["color"])
    else:
        cost = entry.get("cost", "")
        letters = {c for symbol in cost.split("}") for c in symbol if c in WUBRG}
    return tuple(c for c in WUBRG if c in letters)


def check_against_pool(defn: CardDefinition, entry: dict[str, Any]) -> None:
    assert defn.text == entry.get("text", ""), "Oracle text differs from the pool"
    cost = None if defn.mana_cost is None else str(defn.mana_cost)
    assert cost == entry.get("cost"), "mana cost differs from the pool"
    supertypes, types, subtypes = split_type_line(entry["type"])
    assert (defn.supertypes, defn.card_types, defn.subtypes) == (supertypes, types, subtypes), (
        f"type line differs from the pool's {entry['type']!r}")
    # 208.2a: a "*" is printed as None (a characteristic-defining ability sets it).
    pt = None if defn.power is None and defn.toughness is None and "Creature" not in (
        defn.card_types) else (f"{'*' if defn.power is None else defn.power}/"
                               f"{'*' if defn.toughness is None else defn.toughness}")
    assert pt == entry.get("pt"), "power/toughness differs from the pool"


def _entry(defn: CardDefinition, pool: dict[str, dict[str, dict[str, Any]]]) -> dict[str, Any]:
    """The pool entry a definition must match: a face's own (an adventurer's or a modal
    double-faced card's first face shares the card's name) or the card's."""
    entry = pool["token" if defn.is_token else "card"][defn.name]
    if "face" in entry and defn.layout != "split":
        entry = next(f for f in entry["face"] if f["name"] == defn.name)
    return entry


@pytest.mark.parametrize("name", CARD_NAMES)
def test_card_matches_pool(name: str, pool: dict[str, dict[str, dict[str, Any]]]) -> None:
    defn = CARDS[name]
    assert name in pool["card"], f"{name!r} ({defn.source}) is not a [[card]] in pool.toml"
    if defn.layout == "split" and defn.faces:
        # 709.4: the whole split card combines its halves, each checked on its own.
        halves = [CARDS[n] for n in defn.faces]
        assert defn.faces == tuple(f["name"] for f in pool["card"][name]["face"])
        assert defn.mana_cost is not None and defn.mana_cost.symbols == tuple(
            s for h in halves for s in (h.mana_cost.symbols if h.mana_cost else ()))
        return
    check_against_pool(defn, _entry(defn, pool))


@pytest.mark.parametrize("name", DUNGEON_NAMES)
def test_dungeon_matches_pool(name: str, pool: dict[str, dict[str, dict[str, Any]]]) -> None:
    # 309.4: its rooms, in order, with their exits (the mechanic's data) and their room
    # abilities' words (the card's triggered abilities, one per room in that order).
    assert name in pool["dungeon"], f"{name!r} is not a [[dungeon]] in pool.toml"
    rooms = pool["dungeon"][name]["rooms"]
    assert [(r.name, list(r.exits)) for r in ROOMS[name]] == [(r["name"], r["next"]) for r in rooms]
    assert CARDS[name].text.split("\n") == [f"{r['name']} — {r['text']}" for r in rooms]
    assert [(a.position, a.event) for a in CARDS[name].triggered] == [
        (i, "room_entered") for i in range(1, len(rooms) + 1)]


def test_every_pool_dungeon_is_defined(pool: dict[str, dict[str, dict[str, Any]]]) -> None:
    assert sorted(pool["dungeon"]) == DUNGEON_NAMES


@pytest.mark.parametrize("name", TOKEN_NAMES)
def test_token_matches_pool(name: str, pool: dict[str, dict[str, dict[str, Any]]]) -> None:
    defn = CARDS[name]
    assert name in pool["token"], f"token {name!r} ({defn.source}) is not a [[token]] in pool.toml"
    check_against_pool(defn, pool["token"][name])


@pytest.mark.parametrize("name", CARD_NAMES + TOKEN_NAMES)
def test_colors_match_pool(name: str, pool: dict[str, dict[str, dict[str, Any]]]) -> None:
    defn = CARDS[name]
    assert name in pool["token" if defn.is_token else "card"], f"{name!r} is not in pool.toml"
    entry = _entry(defn, pool)
    if defn.layout == "split" and defn.faces:  # 709.4: both halves' colours
        entry = {"cost": "".join(f.get("cost", "") for f in entry["face"])}
    assert tuple(c for c in WUBRG if c in defn.colors) == expected_colors(entry)
    assert len(set(defn.colors)) == len(defn.colors), "a colour is listed twice"


def test_the_package_defines_cards_and_tokens() -> None:
    # Guards the parametrized tests above against silently collecting nothing.
    assert CARD_NAMES, "load_cards() returned no cards"
    assert TOKEN_NAMES, "load_cards() returned no tokens"


def test_type_line_splitter() -> None:
    assert split_type_line("Legendary Creature — Dog") == (("Legendary",), ("Creature",), ("Dog",))
    assert split_type_line("Token Creature — Soldier") == ((), ("Creature",), ("Soldier",))
    assert split_type_line("Basic Land — Forest") == (("Basic",), ("Land",), ("Forest",))
    assert split_type_line("Sorcery") == ((), ("Sorcery",), ())
    assert split_type_line("Land Creature — Forest Dryad") == (
        (), ("Land", "Creature"), ("Forest", "Dryad"))


@pytest.mark.parametrize(
    ("change", "what"),
    [
        ({"text": "Trample"}, "Oracle text"),
        ({"mana_cost": parse_mana_cost("{2}{G}")}, "mana cost"),
        ({"mana_cost": None}, "mana cost"),
        ({"subtypes": ("Bear", "Warrior")}, "type line"),
        ({"supertypes": ("Legendary",)}, "type line"),
        ({"power": 3}, "power/toughness"),
    ],
)
def test_a_difference_is_noticed(change: dict[str, Any], what: str,
                                 pool: dict[str, dict[str, dict[str, Any]]]) -> None:
    # The comparison itself must be able to fail: one changed field of a real card.
    changed = dataclasses.replace(CARDS["Grizzly Bears"], **change)
    with pytest.raises(AssertionError, match=what):
        check_against_pool(changed, pool["card"]["Grizzly Bears"])


def test_test_only_cards_are_named_apart_from_the_pool(
        pool: dict[str, dict[str, dict[str, Any]]]) -> None:
    # A test-only card (for the tests of a rule no pool card exercises) is never mistaken for a
    # pool card: its name starts with "Test " and is no pool name.
    assert TEST_ONLY_NAMES
    assert all(n.startswith("Test ") and n not in pool["card"] for n in TEST_ONLY_NAMES)
