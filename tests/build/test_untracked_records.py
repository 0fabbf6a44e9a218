"""The value records the compiled build leaves out of the cyclic collector (``mypyc_attr(acyclic=True)``):
each holds only values, so none can be part of a reference cycle (one that could would never be
freed); compiled, their instances are not tracked, and they are exactly the compiled classes the
collector does not track."""

from __future__ import annotations

import dataclasses
import sys
import types
from typing import Any, Literal, Union, get_args, get_origin

import pytest

from spellstack.protocol import PlayerChange, ViewDelta
from spellstack.rules import definitions
from spellstack.rules.base import Record, is_compiled_class
from spellstack.rules.game import HandFacts, PermanentFacts, SeatBoard
from spellstack.rules.state import AbilityRef, Characteristics, Event, GameObject
from spellstack.rules.state import _characteristics as characteristics_module
from spellstack.rules.views import ClockState, ObjectMarks, ObjectView, PlayerPublic, PlayerView, StackItemView
from spellstack.schema import class_hints

UNTRACKED = (Record, AbilityRef, Characteristics, Event, GameObject, ObjectMarks, ObjectView,
             StackItemView, PlayerPublic, ClockState, PlayerView, PlayerChange, ViewDelta, SeatBoard,
             PermanentFacts, HandFacts)
"""The classes marked ``acyclic`` (``Record`` too: the others derive from it, and a class so marked
must derive only from such classes)."""

COMPILED = is_compiled_class(GameObject)
_HAVE_GC = 1 << 14  # Py_TPFLAGS_HAVE_GC
_ATOMS = (int, str, bool, float, type(None))


def _only_values(tp: Any, seen: set[type]) -> str:
    """Why a value of type ``tp`` could hold a reference back to what holds it, or "" if it can't:
    atoms, ``Literal``s, card definitions, tuples, unions and string-keyed maps of such values,
    and frozen dataclasses whose fields are such values."""
    if tp in _ATOMS or get_origin(tp) is Literal:
        return ""
    if isinstance(tp, type) and tp.__module__.startswith("spellstack.rules.definitions."):
        return ""  # card data: made as the cards are read, before any game, and never changed
    origin = get_origin(tp)
    if origin in (tuple, Union, types.UnionType) or (origin is dict and get_args(tp)[0] is str):
        return next((why for arg in get_args(tp) if arg is not Ellipsis
                     for why in [_only_values(arg, seen)] if why), "")
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        if tp in seen:
            return ""
        seen.add(tp)
        if not tp.__dataclass_params__.frozen and tp not in UNTRACKED:  # type: ignore[attr-defined]
            return f"{tp.__name__} is mutable"
        return next((f"{tp.__name__}.{name}: {why}" for name, hint in class_hints(tp).items()
                     for why in [_only_values(hint, seen)] if why), "")
    return f"{tp!r} may hold anything"


@pytest.mark.parametrize("cls", [c for c in UNTRACKED if c is not Record], ids=lambda c: c.__name__)
def test_an_untracked_record_holds_only_values(cls: type, monkeypatch: pytest.MonkeyPatch) -> None:
    # Characteristics names the abilities' classes for type checking only (an import cycle
    # otherwise): given to its module here, so that its hints can be evaluated.
    for name in ("ActivatedAbility", "TriggeredAbility"):
        monkeypatch.setattr(characteristics_module, name, getattr(definitions, name), raising=False)
    assert _only_values(cls, set()) == ""


def test_a_type_that_could_hold_anything_is_named() -> None:
    assert _only_values(tuple[int, list[int]], set()) == "list[int] may hold anything"
    assert _only_values(dict[int, str], set()) == "dict[int, str] may hold anything"


@pytest.mark.skipif(not COMPILED, reason="pure Python: every instance of a class is tracked")
def test_compiled_the_untracked_records_are_the_classes_the_collector_does_not_track() -> None:
    untracked = {cls for module in list(sys.modules.values())
                 if getattr(module, "__name__", "").startswith(("spellstack.rules.", "spellstack.protocol."))
                 for cls in vars(module).values()
                 if isinstance(cls, type) and cls.__module__ == module.__name__
                 and is_compiled_class(cls) and not cls.__flags__ & _HAVE_GC}
    assert untracked == set(UNTRACKED)
