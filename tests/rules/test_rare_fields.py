"""Rare fields (``rare_fields``): out of the slots while left at their defaults, and otherwise
a dataclass like any other."""

from __future__ import annotations

import ast
import copy
import hashlib
import pickle
import sys
from dataclasses import MISSING, dataclass, field, fields, replace
from pathlib import Path
from typing import Any

import pytest

import spellstack.rules.state
from spellstack.bots import RandomBot
from spellstack.cards import DECKS, load_cards, load_deck
from spellstack.rules import GameObject, new_game, play_sync, view_for
from spellstack.rules.base import is_compiled_class, rare_builder, rare_fields, reset_rare
from spellstack.rules.state import NO_COUNTERS


@rare_fields("note", "marks")
@dataclass
class _Card:
    name: str
    tapped: bool = False
    note: str = ""
    marks: tuple[int, ...] = ()
    seen: list[int] = field(default_factory=list)


@dataclass(slots=True)
class _SlottedCard:
    name: str
    tapped: bool = False
    note: str = ""
    marks: tuple[int, ...] = ()
    seen: list[int] = field(default_factory=list)


def test_a_rare_field_left_at_its_default_takes_no_room_in_the_instance() -> None:
    card = _Card("Bear")
    assert card.__dict__ == {}
    assert (card.note, card.marks, card.seen) == ("", (), [])
    assert "note" not in _Card.__slots__ and "tapped" in _Card.__slots__  # type: ignore[attr-defined]


def test_a_rare_field_given_a_value_keeps_it_in_the_instance_alone() -> None:
    card, other = _Card("Bear", note="exiled"), _Card("Elk")
    card.marks = (1, 2)
    assert (card.note, card.marks) == ("exiled", (1, 2))
    assert (other.note, other.marks) == ("", ())
    assert card.__dict__ == {"note": "exiled", "marks": (1, 2)}


def test_deleting_a_rare_field_puts_it_back_to_its_default() -> None:
    card = _Card("Bear", note="exiled")
    del card.note
    assert card.note == "" and card.__dict__ == {} and card == _Card("Bear")


def test_a_value_equal_to_the_default_but_another_object_is_kept() -> None:
    card = _Card("Bear", note="", marks=[])  # type: ignore[arg-type]
    assert card.marks == [] and card.__dict__ == {"marks": []}


def test_the_class_is_still_the_dataclass_it_was() -> None:
    card = _Card("Bear", True, "exiled", (3,), [1])
    assert [f.name for f in fields(card)] == ["name", "tapped", "note", "marks", "seen"]
    assert card == _Card("Bear", True, "exiled", (3,), [1]) and card != _Card("Bear")
    assert repr(card) == "_Card(name='Bear', tapped=True, note='exiled', marks=(3,), seen=[1])"
    assert replace(card, note="").note == "" and replace(card, note="").marks == (3,)
    assert pickle.loads(pickle.dumps(card)) == card and copy.deepcopy(card) == card
    assert _Card("Bear").seen is not _Card("Bear").seen


def test_an_instance_at_its_defaults_is_no_larger_than_the_slotted_dataclass() -> None:
    # Two rare fields pay for the instance's dictionary pointers (16 bytes), no more.
    assert sys.getsizeof(_Card("Bear")) <= sys.getsizeof(_SlottedCard("Bear"))


COMPILED_OBJECTS = is_compiled_class(GameObject)
"""The compiled build's ``GameObject`` is the class as declared: every field an attribute."""


def test_a_game_object_keeps_its_rare_fields_out_of_its_slots_unless_compiled() -> None:
    obj = GameObject(100, 100, "Forest", 0, 0, "hand")
    if COMPILED_OBJECTS:
        assert not hasattr(obj, "__dict__") and obj.targets == () and obj.cast_from == ""
        obj.deathtouch_damage = True
        reset_rare(obj, "deathtouch_damage", False)
        assert obj == GameObject(100, 100, "Forest", 0, 0, "hand")
        return
    assert obj.__dict__ == {} and obj.targets == () and obj.cast_from == ""
    assert "targets" not in GameObject.__slots__  # type: ignore[attr-defined]
    # Less than its fields alone would take as slots (8 bytes each), headers left out.
    assert sys.getsizeof(obj) < 8 * len(fields(GameObject))


def test_resetting_a_rare_field_empties_its_place_or_assigns_the_default() -> None:
    card = _Card("Bear", note="exiled")
    reset_rare(card, "note", "")
    assert card.__dict__ == {} and card == _Card("Bear")
    reset_rare(card, "note", "")  # at its default already: nothing to do
    assert card.__dict__ == {}
    slotted = _SlottedCard("Bear", note="exiled")  # no dictionary, as a compiled class
    reset_rare(slotted, "note", "")
    assert slotted == _SlottedCard("Bear")


@dataclass
class _AsCompiled:
    """Stands for a class of the compiled build (which mypyc marks with ``__mypyc_attrs__``)."""

    __mypyc_attrs__ = ("name", "note")
    name: str
    note: str = ""


def test_a_compiled_class_is_left_as_it_is_and_built_by_its_own_constructor() -> None:
    assert is_compiled_class(_AsCompiled) and not is_compiled_class(_Card)
    assert rare_fields("note")(_AsCompiled) is _AsCompiled
    made = rare_builder(_AsCompiled, ("note", "name"))("exiled", "Bear")
    assert type(made) is _AsCompiled and made == _AsCompiled("Bear", "exiled")
    assert rare_builder(_AsCompiled, ("name", "note")) is _AsCompiled  # its leading fields: itself
    with pytest.raises(TypeError, match=r"rare_builder\(_AsCompiled\): no field 'colour'"):
        rare_builder(_AsCompiled, ("name", "colour"))


def test_the_written_out_constructor_of_a_game_object_is_the_dataclass_s() -> None:
    # Read from the source, so that the compiled build (which runs it) is checked too.
    source = Path(spellstack.rules.state.__file__).with_name("_state.py").read_text()
    cls = next(node for node in ast.parse(source).body
               if isinstance(node, ast.ClassDef) and node.name == "GameObject")
    init = next(node for node in cls.body if isinstance(node, ast.FunctionDef) and node.name == "__init__")
    params = [a.arg for a in init.args.args[1:]]
    defaults = [NO_COUNTERS if isinstance(d, ast.Name) and d.id == "NO_COUNTERS" else ast.literal_eval(d)
                for d in init.args.defaults]
    every = fields(GameObject)
    assert params == [f.name for f in every]
    assert [(n, d) for n, d in zip(params[len(params) - len(defaults):], defaults, strict=True)] == [
        (f.name, f.default) for f in every if f.default is not MISSING]
    assigned = [(stmt.targets[0].attr, stmt.value.id) for stmt in init.body  # type: ignore[attr-defined]
                if isinstance(stmt, ast.Assign)]
    assert assigned == [(name, name) for name in params]


def _every_field_set() -> GameObject:
    """A game object whose every field holds a value of its own, none its default."""
    values: dict[str, Any] = {}
    for i, f in enumerate(fields(GameObject)):
        default = f.default
        values[f.name] = (
            {"+1/+1": i, "-1/-1": 1} if f.name == "counters"
            else not default if isinstance(default, bool)
            else f"text{i}" if isinstance(default, str) or f.name in ("name", "zone")
            else (i, i + 1) if isinstance(default, tuple)
            else 1000 + i)
    return GameObject(**values)


def _canonical_by_the_fields(obj: GameObject) -> tuple[Any, ...]:
    """``GameObject.canonical`` as the fields say it: each in order, the counters sorted, those
    from ``modes`` on left out while all are at their defaults."""
    every = fields(GameObject)
    values = tuple(tuple(sorted(obj.counters.items())) if f.name == "counters" else getattr(obj, f.name)
                   for f in every)
    cast_at = [f.name for f in every].index("modes")
    tail_at_defaults = all(values[i] == every[i].default for i in range(cast_at, len(every)))
    return values[:cast_at] if tail_at_defaults else values


def test_a_game_object_s_canonical_form_is_every_field_in_order_counters_sorted() -> None:
    # The written-out form against the fields themselves (the compiled build's is checked too):
    # every field set, then each field alone set (its place in the tuple, a flag's too).
    full = _every_field_set()
    assert full.canonical() == _canonical_by_the_fields(full)
    assert len(full.canonical()) == len(fields(GameObject))
    base = GameObject(1, 2, "Bear", 0, 1, "library")
    assert base.canonical() == _canonical_by_the_fields(base)
    for f in fields(GameObject):
        one = replace(base, **{f.name: getattr(full, f.name)})
        assert one.canonical() == _canonical_by_the_fields(one) != base.canonical(), f.name


def test_a_game_object_s_canonical_text_is_the_repr_of_its_canonical_form() -> None:
    # The state hash reads ``canonical_text``: every field set, each field alone, and values
    # beyond the table of small ints and names that need escaping.
    full = _every_field_set()
    base = GameObject(1, 2, "Bear", 0, 1, "library")
    objects = [full, base, *(replace(base, **{f.name: getattr(full, f.name)}) for f in fields(GameObject))]
    objects += [replace(base, id=4095, card=4096, owner=-1, damage=10 ** 20, protector=-7),
                replace(base, name="Sigarda's Aid", zone='say "hi"\n', ability_kind="\u00e9\u2014\t"),
                replace(base, counters={"lore": 3, "+1/+1": 2}, targets=(100, -1), modes=(0,)),
                replace(base, divide=((100, 2), (101, 1)), merged=((5, "Bear", True),))]
    for obj in objects:
        assert obj.canonical_text() == repr(obj.canonical()), obj


@pytest.mark.parametrize("decks", [(0, 1), (2, 0)])
def test_a_state_s_canonical_text_is_the_repr_of_its_canonical_form_all_game_long(
        decks: tuple[int, int]) -> None:
    cards = load_cards()
    game = new_game(cards, [(f"P{d}", load_deck(DECKS[d], cards).cards) for d in decks], 5)
    bots = [RandomBot(11), RandomBot(12)]
    checked = [0]

    def look(g: object) -> None:
        st = game.state
        assert st.canonical_text() == repr(st.canonical())
        checked[0] += 1

    play_sync(game, lambda d: bots[d.player].decide(view_for(game, d.player), d), look)
    st = game.state
    assert checked[0] > 20 and st.game_over
    assert st.state_hash() == hashlib.blake2b(repr(st.canonical()).encode(), digest_size=16).hexdigest()
    for count in (0, 1):  # no object, one object: a tuple of none or one reads differently
        st = copy.deepcopy(game.state)
        st.objects = dict(list(st.objects.items())[:count])
        assert st.canonical_text() == repr(st.canonical())


def test_a_game_object_copies_and_pickles_to_an_equal_one_with_its_own_values() -> None:
    obj = GameObject(100, 100, "Bear", 0, 1, "battlefield", 3, counters={"+1/+1": 2}, targets=(7,))
    for made in (copy.deepcopy(obj), pickle.loads(pickle.dumps(obj))):
        assert type(made) is GameObject and made == obj and made.canonical() == obj.canonical()
        assert made.counters is not obj.counters
        if not COMPILED_OBJECTS:
            assert made.__dict__ == {"targets": (7,)}  # the defaults still out of its dictionary
    assert copy.copy(obj).counters is obj.counters  # a shallow copy shares them


def test_a_rare_field_needs_a_plain_default() -> None:
    with pytest.raises(TypeError, match=r"_Bad\.seen: a rare field needs a plain default"):
        @rare_fields("seen")
        @dataclass
        class _Bad:
            seen: list[int] = field(default_factory=list)
    with pytest.raises(TypeError, match="_Worse: no field 'colour'"):
        @rare_fields("colour")
        @dataclass
        class _Worse:
            name: str = ""


@pytest.mark.skipif(COMPILED_OBJECTS, reason="compiled, a game object has no dictionary")
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_game_objects_keep_only_values_other_than_the_defaults_in_their_dictionaries(seed: int) -> None:
    # Each object or last known information a game keeps pays for a dictionary only for a rare
    # field that is not its default: one that was set back to it is deleted (``rare_fields``).
    cards = load_cards()
    game = new_game(cards, [(name, load_deck(deck, cards).cards)
                            for name, deck in (("Ann", DECKS[0]), ("Ben", DECKS[1]))], seed)
    bots = [RandomBot(seed * 2 + 1), RandomBot(seed * 2 + 2)]
    stored: list[tuple[int, str]] = []

    def look(g: object) -> None:
        st = game.state
        for obj in (*st.objects.values(), *st.lki.values()):
            stored.extend((obj.id, name) for name, value in obj.__dict__.items()
                          if value == getattr(GameObject, name))

    play_sync(game, lambda d: bots[d.player].decide(view_for(game, d.player), d), look)
    assert game.state.lki and stored == []


def test_a_rare_builder_builds_what_the_class_builds() -> None:
    build = rare_builder(_Card, ("name", "note"))
    card = build("Bear", "exiled")
    assert type(card) is _Card and card == _Card("Bear", note="exiled")
    assert card.__dict__ == {"note": "exiled"} and card.seen == [] and card.seen is not build("Elk", "").seen
    assert build("Elk", "").__dict__ == {}  # the default left out of the dictionary
    made = rare_builder(GameObject, ("id", "card", "name", "owner", "controller", "zone",
                                     "timestamp", "is_token"))(100, 100, "Forest", 0, 1, "hand", 7, True)
    assert made == GameObject(100, 100, "Forest", 0, 1, "hand", 7, True)
    assert made.canonical() == GameObject(100, 100, "Forest", 0, 1, "hand", 7, True).canonical()


def test_a_rare_builder_refuses_what_is_no_field_and_a_class_without_rare_fields() -> None:
    with pytest.raises(TypeError, match=r"rare_builder\(_Card\): no field 'colour'"):
        rare_builder(_Card, ("name", "colour"))
    with pytest.raises(TypeError, match=r"rare_builder\(_SlottedCard\): not a rare_fields class"):
        rare_builder(_SlottedCard, ("name",))
