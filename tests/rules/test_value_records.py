"""Records (``rules.base.Record``): frozen values whose copies are themselves and which pickle
through their constructors, in pure Python and in the compiled build alike."""

from __future__ import annotations

import copy
import pickle

import pytest

from spellstack.cards import load_cards
from spellstack.rules.base import Record, builder
from spellstack.rules.mana import ManaCost, parse_mana_cost
from spellstack.rules.state import (
    AbilityRef,
    Characteristics,
    ContinuousEffect,
    DelayedTrigger,
    PendingTrigger,
    Shield,
    StartSettings,
)

SAMPLES: list[Record] = [
    ContinuousEffect(7, 3, "pump", (("power", 2), ("words", ("a", "b"))), (101, 102), 100, "Giant Growth", 1),
    Shield(8, "regeneration", 101, 2, "Drudge Skeletons"),
    PendingTrigger(0, 101, "Blood Artist", 1, subject=102),
    DelayedTrigger(9, 1, 101, "Soul Shepherd", 2, "end_step", ("Soul Shepherd", 1, 0)),
    StartSettings(chooser=1, mulligans=False),
    parse_mana_cost("{2}{G/W}{U/P}{X}"),
    AbilityRef("Blood Artist", "triggered", 1),
    Characteristics("Blood Artist", "Blood Artist", parse_mana_cost("{1}{B}"), 2, ("B",), ("Creature",),
                    ("Vampire",), (), ("flying",), (AbilityRef("Blood Artist", "triggered", 1),), 0, 1, None,
                    1, (("Vampire", "Human"),)),
]


# Card definitions and their abilities are records too: Dryad Arbor's mana ability has fields
# outside its constructor (derived as it is made), which a pickle makes again.
_ARBOR = load_cards()["Dryad Arbor"]
_SHOCK = load_cards()["Burst Lightning"].spell
assert _SHOCK is not None
SAMPLES += [_ARBOR, _ARBOR.activated[0], _SHOCK, _SHOCK.targets[0]]


@pytest.mark.parametrize("record", SAMPLES, ids=lambda r: type(r).__name__)
def test_a_copy_of_a_record_is_itself_and_a_pickle_is_an_equal_one(record: Record) -> None:
    assert copy.copy(record) is record
    assert copy.deepcopy({"in": [record]})["in"][0] is record
    back = pickle.loads(pickle.dumps(record))
    assert type(back) is type(record)
    assert back == record and hash(back) == hash(record)


def test_a_fast_constructor_builds_a_record_like_its_class() -> None:
    fields = (7, 3, "pump", (), (101,), 100, "Giant Growth", 1, "end_of_turn", 0)
    made = builder(ContinuousEffect)(*fields)
    assert type(made) is ContinuousEffect
    assert made == ContinuousEffect(*fields)


def test_a_mana_cost_keeps_its_symbols_through_a_pickle() -> None:
    cost = parse_mana_cost("{1}{B}{B}")
    back = pickle.loads(pickle.dumps(cost))
    assert isinstance(back, ManaCost) and back.mana_value() == 3 and str(back) == "{1}{B}{B}"


def test_a_mana_ability_pickled_derives_its_mana_again() -> None:
    ability = pickle.loads(pickle.dumps(_ARBOR.activated[0]))
    assert ability.is_mana_ability and ability.mana_produces == ("G",) and ability.tap_mana == ("G",)
