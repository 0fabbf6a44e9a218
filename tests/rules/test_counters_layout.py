"""Objects without counters share one unchangeable empty mapping (memory per game in flight)."""

from __future__ import annotations

import copy
import pickle

import pytest

from spellstack.rules import NO_COUNTERS, GameState, create_object
from spellstack.rules.layers import add_counters
from spellstack.testing import deck_game

BEARS = ["Grizzly Bears"] * 40
"""Each player's deck: forty of one card."""
NAMES = ("Ann", "Ben")


def test_objects_without_counters_share_one_mapping() -> None:
    game = deck_game(BEARS, BEARS, names=NAMES, seed=3)
    objects = list(game.state.objects.values())
    assert len(objects) == 80 and all(o.counters is NO_COUNTERS for o in objects)
    assert NO_COUNTERS == {} and not NO_COUNTERS and NO_COUNTERS.get("+1/+1", 0) == 0


def test_the_shared_mapping_cannot_change() -> None:
    obj = next(iter(deck_game(BEARS, BEARS, names=NAMES, seed=3).state.objects.values()))
    with pytest.raises(TypeError, match="add_counters does"):
        obj.counters["+1/+1"] = 1
    with pytest.raises(TypeError, match="add_counters does"):
        obj.counters.update({"+1/+1": 1})
    with pytest.raises(TypeError, match="add_counters does"):
        obj.counters.setdefault("+1/+1", 1)
    assert NO_COUNTERS == {}


def test_the_first_counter_gives_the_object_its_own_dict() -> None:
    game = deck_game(BEARS, BEARS, names=NAMES, seed=3)
    obj = create_object(game, "Grizzly Bears", 0, "battlefield")
    other = create_object(game, "Grizzly Bears", 0, "battlefield")
    add_counters(game, obj, "+1/+1", 2)
    assert obj.counters == {"+1/+1": 2} and obj.counters is not NO_COUNTERS
    assert other.counters is NO_COUNTERS and NO_COUNTERS == {}
    add_counters(game, obj, "+1/+1", -2)
    assert obj.counters == {}


def test_copies_and_pickles_keep_the_shared_mapping_and_the_hash() -> None:
    state = deck_game(BEARS, BEARS, names=NAMES, seed=3).state
    for twin in (copy.deepcopy(state), pickle.loads(pickle.dumps(state)), copy.copy(state)):
        assert isinstance(twin, GameState)
        assert all(o.counters is NO_COUNTERS for o in twin.objects.values())
        assert twin.state_hash() == state.state_hash()
