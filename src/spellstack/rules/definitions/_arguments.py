"""How the arguments of effect verbs and conditions are typed: each field of a verb's or a
condition's class has an ``Annotated`` type whose ``ArgKind`` names the kind of value it takes,
gives an example and checks what the Python type can't say (``arguments_of`` reads them off the
class); and the kinds this layer knows."""

from __future__ import annotations

import dataclasses
import types
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any, Final, Union, get_args, get_origin, get_type_hints

from ..registry import COST_OPTIONS, COUNTER_KINDS


@dataclass(frozen=True, slots=True, eq=False)
class ArgKind:
    """A kind of argument, as the metadata of an ``Annotated`` field type (``Annotated[str,
    ArgKind("zone", "hand", CARD_ZONES.__contains__)]``). A value is read as the Python type,
    then checked by calling it, as the schema engine calls any check in a type's metadata."""

    name: str
    """The kind's name, in load errors ("'P' is not a valid mana")."""
    example: Any
    """A valid value, as a card file writes it (a tuple stands for a TOML list)."""
    check: Callable[[Any], bool] | None = None
    """What a value of the right Python type must also be (a word of a vocabulary, a mana cost's
    syntax); None: nothing more."""

    def __call__(self, value: Any) -> None:
        """Raises ``ValueError`` if ``value`` (of the Python type) fails ``check``."""
        if self.check is not None and not self.check(value):
            raise ValueError(f"{value!r} is not a valid {self.name}")


@dataclass(frozen=True, slots=True)
class Argument:
    """One argument of a verb or condition class, read off its field."""

    name: str
    """Its name in card files: the field's, or the ``key`` its metadata gives for a name Python
    can't spell (``field(metadata={"key": "from"})``), as the schema engine reads it."""
    field: str
    """The field's name."""
    hint: Any
    """The field's type without its ``| None`` (None stands for "not given", never card data):
    the ``Annotated`` type a card file's value is read as."""
    type: Any
    """That type's Python type, without its ``Annotated`` metadata."""
    kind: ArgKind
    """Its kind."""
    required: bool
    """Whether a card file must give it."""
    default: Any
    """Its value when not given (None when required)."""


_ARGUMENTS: Final[dict[type, tuple[Argument, ...]]] = {}
"""Each class's arguments, read once."""


def arguments_of(cls: type) -> tuple[Argument, ...]:
    """The arguments of the verb or condition dataclass ``cls``, in field order. Each field's
    type is ``Annotated`` with its ``ArgKind`` (or ``X | None`` of one: None is "not given")."""
    if cls in _ARGUMENTS:
        return _ARGUMENTS[cls]
    hints = get_type_hints(cls, include_extras=True)
    out = []
    for f in dataclasses.fields(cls):
        hint = hints[f.name]
        if get_origin(hint) in (Union, types.UnionType):
            hint = next(h for h in get_args(hint) if h is not type(None))
        kinds = [m for m in getattr(hint, "__metadata__", ()) if isinstance(m, ArgKind)]
        if get_origin(hint) is not Annotated or not kinds:
            raise TypeError(f"{cls.__name__}.{f.name}: an argument's type is Annotated with its ArgKind")
        required = f.default is dataclasses.MISSING
        out.append(Argument(str(f.metadata.get("key", f.name)), f.name, hint, hint.__origin__, kinds[0],
                            required, None if required else f.default))
    _ARGUMENTS[cls] = tuple(out)
    return _ARGUMENTS[cls]



Number = Annotated[int, ArgKind("int", 1)]
"""A whole number, never X ("if you have 30 or more life")."""
Flag = Annotated[bool, ArgKind("flag", True)]
"""A yes or no."""
def is_counter_kind(name: str) -> bool:
    """Whether ``name`` is a registered counter kind (``COUNTER_KINDS``; a function, since a
    bound method of the registry, a dict, can't be hashed as part of a type)."""
    return name in COUNTER_KINDS


CounterKind = Annotated[str, ArgKind("counter", "+1/+1", is_counter_kind)]
"""A kind of counter (122.1), from ``COUNTER_KINDS``."""
CostName = Annotated[str, ArgKind("cost_name", "kicker", COST_OPTIONS.__contains__)]
"""An optional or alternative cost (601.2b), from ``COST_OPTIONS``."""
