"""The schema engine (``spellstack.schema``) as the protocol uses it: its checking readers
raise ``InvalidMessageError``, the protocol's own error, with the engine's text."""

from __future__ import annotations

from typing import Any, TypeVar

from spellstack.rules.base import InvalidMessageError
from spellstack.schema import (
    QUOTE_LIMIT,
    SchemaError,
    compact,
    describe_value,
    from_trusted,
    named_from_wire,
    short_repr,
    to_plain,
    to_wire,
)
from spellstack.schema import from_plain as _from_plain
from spellstack.schema import from_wire as _from_wire

__all__ = [
    "QUOTE_LIMIT",
    "compact",
    "describe_value",
    "from_plain",
    "from_trusted",
    "from_wire",
    "named_from_wire",
    "short_repr",
    "to_plain",
    "to_wire",
]

T = TypeVar("T")


def from_plain(cls: type[T], data: Any, path: str = "") -> T:
    """``spellstack.schema.from_plain``, raising ``InvalidMessageError`` where data does not fit."""
    try:
        return _from_plain(cls, data, path)
    except SchemaError as exc:
        raise InvalidMessageError(str(exc)) from None


def from_wire(cls: type[T], data: Any, path: str = "") -> T:
    """``spellstack.schema.from_wire``, raising ``InvalidMessageError`` where data does not fit."""
    try:
        return _from_wire(cls, data, path)
    except SchemaError as exc:
        raise InvalidMessageError(str(exc)) from None
