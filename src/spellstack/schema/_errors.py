"""What the converters say when a value does not fit its type hint: the ``BadValue`` that
carries the path to it outwards, the ``SchemaError`` its callers get, and bounded quotation of
hostile values in the message."""

from __future__ import annotations

import dataclasses
from typing import Any

from spellstack.rules.base import SpellstackError

__all__ = [
    "QUOTE_LIMIT",
    "BadValue",
    "SchemaError",
    "describe_value",
    "field_mismatch",
    "mismatch",
    "missing_field",
    "schema_error",
    "short_repr",
]

QUOTE_LIMIT = 60
"""Longest quotation of an offending value in an error message, in characters."""
_QUOTE_DEPTH = 4


class BadValue(Exception):
    """A value does not fit its type; ``rpath`` collects path segments innermost first."""

    def __init__(self, detail: str) -> None:
        super().__init__(detail)
        self.detail = detail
        self.rpath: list[str] = []


class SchemaError(SpellstackError):
    """Data does not fit its type: ``path`` names where (``decision.actions[2].min``, empty at
    the top), ``detail`` what is wrong. Each caller turns it into its own error type."""

    def __init__(self, path: str, detail: str) -> None:
        super().__init__(f"{path}: {detail}" if path else detail)
        self.path = path
        self.detail = detail


def short_repr(value: Any, limit: int = QUOTE_LIMIT) -> str:
    """Quote ``value`` for an error message without ever doing unbounded work.

    Safe on hostile data: strings are sliced before ``repr``, containers are
    walked only to a small depth and until the budget is spent, huge integers
    are summarised, and foreign objects' own ``__repr__`` is never called.

    Args:
        value: Any object, usually decoded from untrusted bytes.
        limit: Maximum length of the result.

    Returns:
        A ``repr``-like string of at most ``limit`` characters.
    """
    out: list[str] = []
    _emit(value, out, limit + 1, 0)
    text = "".join(out)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _emit(value: Any, out: list[str], room: int, depth: int) -> int:
    """Append a bounded rendering of ``value`` to ``out``; return the room left."""
    if room <= 0:
        return room
    t = type(value)
    if t is str:
        text = repr(value[:room])
    elif t is bytes or t is bytearray:
        text = repr(bytes(value[:room]))
    elif t is int:
        text = repr(value) if value.bit_length() <= 128 else f"<int of {value.bit_length()} bits>"
    elif t is bool or t is float or value is None:
        text = repr(value)
    elif t is list or t is tuple or t is dict:
        opener, closer = ("{", "}") if t is dict else ("[", "]") if t is list else ("(", ")")
        if depth >= _QUOTE_DEPTH and value:
            text = opener + "..." + closer
        else:
            out.append(opener)
            room -= 1
            items = value.items() if t is dict else ((None, v) for v in value)
            for i, (key, item) in enumerate(items):
                if room <= 0:
                    return room
                if i:
                    out.append(", ")
                    room -= 2
                if t is dict:
                    room = _emit(key, out, room, depth + 1)
                    out.append(": ")
                    room -= 2
                room = _emit(item, out, room, depth + 1)
            if t is tuple and len(value) == 1:
                out.append(",")
                room -= 1
            text = closer
    elif dataclasses.is_dataclass(value):
        text = f"{t.__name__}(...)"
    else:
        text = f"<{t.__name__}>"
    out.append(text)
    return room - len(text)


def describe_value(value: Any) -> str:
    """Describe a value as ``<type> <quoted value>``, e.g. ``str 'x'`` or ``None``."""
    if value is None:
        return "None"
    return f"{type(value).__name__} {short_repr(value)}"


def mismatch(expected: str, value: Any) -> BadValue:
    """``value`` is not what was ``expected`` (a hint's short name)."""
    return BadValue(f"expected {expected}, got {describe_value(value)}")


def field_mismatch(field: str, expected: str, value: Any) -> BadValue:
    """As ``mismatch``, for the value of a dataclass's ``field``."""
    bad = mismatch(expected, value)
    bad.rpath.append("." + field)
    return bad


def missing_field(field: str) -> BadValue:
    """A map for a dataclass lacks its required ``field``."""
    bad = BadValue("missing required field")
    bad.rpath.append("." + field)
    return bad


def schema_error(prefix: str, bad: BadValue) -> SchemaError:
    """The error for ``bad``: the path to the bad value (after ``prefix``), then what is wrong."""
    path = prefix + "".join(reversed(bad.rpath))
    return SchemaError(path.removeprefix("."), bad.detail)
