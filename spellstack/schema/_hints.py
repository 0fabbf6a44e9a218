"""The type hints the converters support: what each expects (for error messages) and which
plain types it accepts, and the records registered to travel as positional lists on the wire
(``compact``)."""

from __future__ import annotations

import dataclasses
import types
from typing import Any, Literal, TypeVar, Union, get_args, get_origin

from ._errors import short_repr

__all__ = [
    "COMPACT",
    "TYPE_NAMES",
    "NoneType",
    "compact",
    "describe_hint",
    "is_dataclass_type",
    "is_union",
    "plain_types",
]

T = TypeVar("T")
NoneType = type(None)
COMPACT: set[type] = set()
"""Dataclasses sent as positional lists in the wire form (``compact``)."""
TYPE_NAMES: dict[type, str] = {
    int: "int",
    str: "str",
    bool: "bool",
    float: "float",
    NoneType: "None",
}


def compact(cls: type[T]) -> type[T]:
    """Send the dataclass ``cls`` as a positional list of its fields in the wire form.

    Register a class before anything that contains it is first converted."""
    if not is_dataclass_type(cls):
        raise TypeError(f"not a dataclass: {cls!r}")
    COMPACT.add(cls)
    return cls


def is_dataclass_type(hint: Any) -> bool:
    """Whether ``hint`` is a dataclass (the class, not an instance)."""
    return isinstance(hint, type) and dataclasses.is_dataclass(hint)


def is_union(hint: Any) -> bool:
    """Whether ``hint`` is a union (``X | Y`` or ``Optional``/``Union``)."""
    return get_origin(hint) in (Union, types.UnionType)


def describe_hint(hint: Any, wire: bool = False) -> str:
    """A short human name for what a hint expects, for error messages."""
    if hint is None:
        hint = NoneType
    if hint in TYPE_NAMES:
        return TYPE_NAMES[hint]
    if is_dataclass_type(hint):
        if wire and hint in COMPACT:
            return f"list ({hint.__name__})"
        return f"map ({hint.__name__})"
    origin = get_origin(hint)
    if origin is Literal:
        return "one of " + ", ".join(short_repr(a) for a in get_args(hint))
    if origin is tuple:
        args = get_args(hint)
        if len(args) == 2 and args[1] is Ellipsis:
            return "list"
        return f"list of {len(args)}"
    if origin is dict:
        return "map"
    if is_union(hint):
        return " or ".join(describe_hint(a, wire) for a in get_args(hint))
    return repr(hint)


def plain_types(hint: Any, wire: bool) -> frozenset[type]:
    """The Python types of plain values that a hint can accept."""
    if hint is None:
        hint = NoneType
    if hint in TYPE_NAMES:
        return frozenset((hint,))
    if wire and hint in COMPACT:
        return frozenset((list,))
    if is_dataclass_type(hint) or get_origin(hint) is dict:
        return frozenset((dict,))
    origin = get_origin(hint)
    if origin is tuple:
        return frozenset((list, tuple))
    if origin is Literal:
        return frozenset(type(a) for a in get_args(hint))
    if is_union(hint):
        return frozenset().union(*(plain_types(a, wire) for a in get_args(hint)))
    raise TypeError(f"unsupported type hint {hint!r}")
