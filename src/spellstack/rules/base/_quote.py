"""Quoting what a player sent in an error message, in bounded space and time.

A reply can hold an int of any size (in process) or a tuple of a million entries; an error
text quotes it without converting a huge int to decimal (Python refuses past 4300 digits) and
without echoing more than a few dozen characters.
"""

from __future__ import annotations

from typing import Final

INT64_MIN: Final = -(2**63)
"""The smallest int the protocol can carry (msgpack's signed 64-bit range)."""
INT64_MAX: Final = 2**63 - 1
"""The largest int the protocol can carry; every id and amount the engine makes fits."""

_LIMIT: Final = 60


def in_int64(value: int) -> bool:
    """Whether ``value`` fits the protocol's signed 64-bit range."""
    return INT64_MIN <= value <= INT64_MAX


def quote(value: object, limit: int = _LIMIT) -> str:
    """A ``repr``-like quotation of ``value``, at most ``limit`` characters (ints past 64 bits
    are summarised, containers cut short, other objects named by type only)."""
    text = _render(value, limit + 1)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _render(value: object, room: int) -> str:
    t = type(value)
    if t is int:
        assert isinstance(value, int)
        # Anything msgpack can carry (up to 64 bits, signed or not) is shown in full.
        return str(value) if value.bit_length() <= 64 else f"<int of {value.bit_length()} bits>"
    if t is bool or value is None:
        return repr(value)
    if t is str:
        assert isinstance(value, str)
        return repr(value[:room])
    if t is tuple or t is list:
        assert isinstance(value, (tuple, list))
        opener, closer = ("(", ")") if t is tuple else ("[", "]")
        parts: list[str] = []
        used = 1
        for item in value:
            if used > room:
                break
            part = _render(item, room - used)
            parts.append(part)
            used += len(part) + 2
        body = ", ".join(parts)
        if t is tuple and len(value) == 1:
            body += ","
        return opener + body + closer
    return f"<{t.__name__}>"
