"""Rare fields (``rare_fields``): out of the slots while left at their defaults, and otherwise
a dataclass like any other."""

from __future__ import annotations

import copy
import pickle
import sys
from dataclasses import dataclass, field, fields, replace

import pytest

from spellstack.bots import RandomBot
from spellstack.cards import DECKS, load_cards, load_deck
from spellstack.rules import GameObject, new_game, play_sync, view_for
from spellstack.rules.base import rare_builder, rare_fields


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


def test_a_game_object_keeps_its_rare_fields_out_of_its_slots() -> None:
    obj = GameObject(100, 100, "Forest", 0, 0, "hand")
    assert obj.__dict__ == {} and obj.targets == () and obj.cast_from == ""
    assert "targets" not in GameObject.__slots__  # type: ignore[attr-defined]
    # Less than its fields alone would take as slots (8 bytes each), headers left out.
    assert sys.getsizeof(obj) < 8 * len(fields(GameObject))


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
