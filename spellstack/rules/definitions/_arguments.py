"""How the arguments of effect verbs and conditions are typed: each field of a verb's or a
condition's class has an ``Annotated`` type whose ``ArgKind`` names the kind of value it takes,
gives an example and checks what the Python type can't say; and the kinds this layer knows."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any

from ._definitions import COST_OPTIONS


@dataclass(frozen=True, slots=True)
class ArgKind:
    """A kind of argument, as the metadata of an ``Annotated`` field type (``Annotated[str,
    ArgKind("zone", "hand", ZONES.__contains__)]``): the card loader checks a value against the
    Python type, then against ``check``."""

    name: str
    """The kind's name, in load errors ("'P' is not a valid mana")."""
    example: Any
    """A valid value, as a card file writes it (a tuple stands for a TOML list)."""
    check: Callable[[Any], bool] | None = None
    """What a value of the right Python type must also be (a word of a vocabulary, a mana cost's
    syntax); None: nothing more."""


COUNTER_KINDS = frozenset({"+1/+1", "-1/-1", "loyalty", "dream"})

Number = Annotated[int, ArgKind("int", 1)]
"""A whole number, never X ("if you have 30 or more life")."""
Flag = Annotated[bool, ArgKind("flag", True)]
"""A yes or no."""
CounterKind = Annotated[str, ArgKind("counter", "+1/+1", COUNTER_KINDS.__contains__)]
"""A kind of counter (122.1), from ``COUNTER_KINDS``."""
CostName = Annotated[str, ArgKind("cost_name", "kicker", COST_OPTIONS.__contains__)]
"""An optional or alternative cost (601.2b), from ``COST_OPTIONS``."""
