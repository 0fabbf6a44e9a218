"""The kernel's fast constructors of its frozen value types build exactly what the classes build."""

from __future__ import annotations

import copy
import dataclasses
import pickle
import sys
from collections.abc import Callable
from typing import Any

import pytest

from spellstack.protocol import PlayerChange, ViewDelta
from spellstack.protocol._views import new_change, new_delta
from spellstack.rules import ActionOption, Choice, Decision, Event, TargetRequirement
from spellstack.rules.base import Record, _builder, builder, native_builder
from spellstack.rules.replacement import MoveEvent
from spellstack.rules.state import new_action_option, new_choice, new_decision, new_event, new_target_requirement
from spellstack.rules.views import ClockState, ObjectMarks, ObjectView, PlayerPublic, PlayerView, StackItemView
from spellstack.rules.views._types import (
    new_object_marks,
    new_object_view,
    new_player_public,
    new_player_view,
    new_stack_item_view,
)
from spellstack.rules.zones._zones import _new_move
from spellstack.schema import from_trusted, from_wire

_REQ = TargetRequirement("target creature", 1, 1, (7, 9))
_OPTION = ActionOption("cast", 5, "Lightning Bolt", 0, (_REQ,), True, 3, False)
_MARKS = ObjectMarks(1, "alpha", ("Gemrazer", "Grizzly Bears"), (("final chapter", 3),))
_BEARS = ObjectView(7, "Grizzly Bears", 0, 1, ("Creature",), True, 1, 2, 2, (("+1/+1", 1),), 0,
                    True, False, True, _MARKS)
_ANN = PlayerPublic(0, "Ann", 20, 0, 7, 33, (_BEARS,), (("R", 1),), False)
CASES: list[tuple[type[Any], Callable[..., Any], tuple[Any, ...]]] = [
    (Event, new_event, ("draw", 1, 12, 1, "Ben draws a card", (1,))),
    (Choice, new_choice, (1, 0, "yes", 0)),
    (TargetRequirement, new_target_requirement, ("target creature", 1, 1, (7, 9))),
    (ActionOption, new_action_option, ("cast", 5, "Lightning Bolt", 0, (_REQ,), True, 3, False,
                                       "", (2,), ("two",), ("kicker",), "")),
    (Decision, new_decision, (4, 1, "priority", "117.1: Ben, you have priority", (), (_OPTION,), 0, 0,
                              ((1, 2),), ((3, 4),))),
    (MoveEvent, _new_move, (12, "hand", "battlefield", True, False, (("+1/+1", 2),), True,
                            "Shatterskull, the Hammer Pass", 7, 1, 2)),
    (ObjectMarks, new_object_marks, (1, "alpha", ("Gemrazer", "Grizzly Bears"), (("final chapter", 3),))),
    (ObjectView, new_object_view, (7, "Grizzly Bears", 0, 1, ("Creature",), True, 1, 2, 2,
                                   (("+1/+1", 1),), 3, True, False, True, _MARKS)),
    (PlayerPublic, new_player_public, (0, "Ann", 20, 1, 7, 33, (_BEARS,), (("R", 1),), False,
                                       (_BEARS,), "Tomb of Annihilation", "Trapped Entry",
                                       ("Lost Mine of Phandelver",))),
    (PlayerView, new_player_view, (0, 3, "main1", 1, 0, (_ANN,), (_BEARS,), (_BEARS,),
                                   (StackItemView(9, "Shock", 1, False, (7,)),), (), ClockState(30.0, 2.0))),
    (StackItemView, new_stack_item_view, (9, "Shock", 1, False, (7,))),
    (PlayerChange, new_change, (0, "Ann", 20, 1, 7, 33, (7,), (("R", 1),), False, (8,),
                                "Tomb of Annihilation", "Trapped Entry", ("Lost Mine of Phandelver",))),
    (ViewDelta, new_delta, (4, 3, 0, 3, "main1", 1, 0, (_BEARS,), (5,), (), (7,), None, (), None)),
]
NATIVE = {Event, ObjectMarks, ObjectView, PlayerChange, PlayerPublic, PlayerView, StackItemView,
          ViewDelta}
"""The classes whose fields a compiled constructor assigns natively (a compiled class's frozen
``__init__``, written by ``dataclasses``, stays interpreted)."""


@pytest.mark.parametrize(("cls", "new", "values"), CASES, ids=[c[0].__name__ for c in CASES])
def test_a_fast_constructor_builds_what_the_class_builds(cls: type[Any], new: Callable[..., Any],
                                                          values: tuple[Any, ...]) -> None:
    # The fast path (``builder``), not the class's own ``__init__``; a compiled class (the
    # optional mypyc build) is its own constructor, but for those in ``NATIVE``.
    compiled = not str(sys.modules[cls.__module__].__file__).endswith(".py")
    assert (new is cls) if compiled and cls not in NATIVE else (new is not cls)
    made, plain = new(*values), cls(*values)
    assert type(made) is cls
    assert made == plain and hash(made) == hash(plain) and repr(made) == repr(plain)
    assert tuple(getattr(made, f.name) for f in dataclasses.fields(cls)) == values
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(made, dataclasses.fields(cls)[0].name, values[0])


def test_an_event_made_by_the_class_still_takes_its_defaults() -> None:
    assert Event("lose", text="Ann loses") == new_event("lose", -1, 0, 0, "Ann loses", ())


@pytest.mark.parametrize(("cls", "new", "values"), [c for c in CASES if issubclass(c[0], Record)],
                         ids=[c[0].__name__ for c in CASES if issubclass(c[0], Record)])
def test_a_view_copied_is_itself_and_pickled_is_rebuilt(cls: type[Any], new: Callable[..., Any],
                                                        values: tuple[Any, ...]) -> None:
    # The compiled build can't copy or unpickle a frozen dataclass field by field: the views
    # are ``Record``s, which it can.
    made = new(*values)
    assert copy.copy(made) is made and copy.deepcopy(made) is made
    again = pickle.loads(pickle.dumps(made))
    assert type(again) is cls and again == made


@dataclasses.dataclass(frozen=True, slots=True)
class NativePair:
    """A class the next test marks as compiled (only it converts this class)."""

    left: int
    """A number."""
    right: tuple[str, ...] = ()
    """Words."""


def test_a_compiled_class_is_built_by_its_native_constructor(monkeypatch: pytest.MonkeyPatch) -> None:
    # What the compiled build does (``native_builder``), with a class marked as mypyc marks its
    # own: ``builder`` and the schema engine then build it with the native constructor.
    monkeypatch.setattr(_builder, "_NATIVE", {})
    monkeypatch.setattr(NativePair, "__mypyc_attrs__", ("left", "right"), raising=False)
    made: list[tuple[int, tuple[str, ...]]] = []

    def native(left: int, right: tuple[str, ...]) -> NativePair:
        made.append((left, right))
        return NativePair(left, right)

    assert native_builder(NativePair, native) is native and builder(NativePair) is native
    assert from_wire(NativePair, {"left": 1, "right": ["a"]}) == NativePair(1, ("a",))
    assert from_trusted(NativePair, {"left": 2}) == NativePair(2)
    assert made == [(1, ("a",)), (2, ())]


def test_a_class_of_pure_python_keeps_builder_s_constructor(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_builder, "_NATIVE", {})

    @dataclasses.dataclass(frozen=True, slots=True)
    class Pair:
        left: int

    def native(left: int) -> Pair:
        raise AssertionError("the native constructor is the compiled build's only")

    made = native_builder(Pair, native)
    assert made is not native and made is not Pair and builder(Pair) is not native
    assert made(1) == Pair(1) and type(made(1)) is Pair
