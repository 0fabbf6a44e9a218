"""The kernel's fast constructors of its frozen value types build exactly what the classes build."""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Callable
from typing import Any

import pytest

from spellstack.rules import ActionOption, Choice, Decision, Event, TargetRequirement
from spellstack.rules.replacement import MoveEvent
from spellstack.rules.state import new_action_option, new_choice, new_decision, new_event, new_target_requirement
from spellstack.rules.zones._zones import _new_move

_REQ = TargetRequirement("target creature", 1, 1, (7, 9))
_OPTION = ActionOption("cast", 5, "Lightning Bolt", 0, (_REQ,), True, 3, False)
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
]


@pytest.mark.parametrize(("cls", "new", "values"), CASES, ids=[c[0].__name__ for c in CASES])
def test_a_fast_constructor_builds_what_the_class_builds(cls: type[Any], new: Callable[..., Any],
                                                          values: tuple[Any, ...]) -> None:
    # The fast path (``builder``), not the class's own ``__init__``; a compiled class (the
    # optional mypyc build) is its own constructor, but for an ``Event``, whose fields the
    # compiled constructor assigns natively (the frozen ``__init__`` stays interpreted).
    compiled = not str(sys.modules[cls.__module__].__file__).endswith(".py")
    assert (new is cls) if compiled and cls is not Event else (new is not cls)
    made, plain = new(*values), cls(*values)
    assert type(made) is cls
    assert made == plain and hash(made) == hash(plain) and repr(made) == repr(plain)
    assert tuple(getattr(made, f.name) for f in dataclasses.fields(cls)) == values
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(made, dataclasses.fields(cls)[0].name, values[0])


def test_an_event_made_by_the_class_still_takes_its_defaults() -> None:
    assert Event("lose", text="Ann loses") == new_event("lose", -1, 0, 0, "Ann loses", ())
