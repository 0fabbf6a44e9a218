"""Reading typed fields of a card file, with errors that name the file, the card and the field."""

from __future__ import annotations

from typing import Any

from ..rules import (
    CardDefinitionError,
)
from ..rules.legality import PROTECTION_QUALITIES
from ._toml import short_value

KEYWORDS: frozenset[str] = frozenset({
    "flying", "reach", "vigilance", "haste", "defender", "deathtouch", "lifelink", "trample",
    "infect", "first strike", "double strike", "flash", "undying", "persist",
})
"""Keyword abilities (702) the kernel implements."""


def is_keyword(word: str) -> bool:
    """Whether ``word`` is a keyword ability the kernel implements: one of ``KEYWORDS``, or
    protection from a quality it knows (702.16a, ``protection from monocolored``)."""
    return word in KEYWORDS or (word.startswith("protection from ") and word.removeprefix(
        "protection from ") in PROTECTION_QUALITIES)


class Where:
    """Names the file, card and field in load errors."""

    def __init__(self, source: str, card: str) -> None:
        self.source = source
        self.card = card

    def error(self, field: str, problem: str) -> CardDefinitionError:
        return CardDefinitionError(f"{self.source}: card {self.card!r}: {field}: {problem}")


def read_table(value: Any, where: Where, field: str) -> dict[str, Any]:
    """The field as a table, or a load error naming it."""
    if not isinstance(value, dict):
        raise where.error(field, f"must be a table, got {short_value(value)}")
    return value


def read_tables(value: Any, where: Where, field: str) -> list[dict[str, Any]]:
    """The field as a list of tables (none if absent), or a load error naming it."""
    if value is None:
        return []
    if not isinstance(value, list):
        raise where.error(field, f"must be a list of tables, got {short_value(value)}")
    return [read_table(v, where, f"{field}[{i}]") for i, v in enumerate(value)]


def read_string(value: Any, where: Where, field: str) -> str:
    """The field as a string, or a load error naming it."""
    if not isinstance(value, str):
        raise where.error(field, f"must be a string, got {short_value(value)}")
    return value


def read_strings(value: Any, where: Where, field: str) -> tuple[str, ...]:
    """The field as a list of strings, or a load error naming it."""
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise where.error(field, f"must be a list of strings, got {short_value(value)}")
    return tuple(value)


def read_boolean(value: Any, where: Where, field: str) -> bool:
    """The field as true or false, or a load error naming it."""
    if not isinstance(value, bool):
        raise where.error(field, f"must be true or false, got {short_value(value)}")
    return value


def read_integer(value: Any, where: Where, field: str) -> int:
    """The field as an integer, or a load error naming it."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise where.error(field, f"must be an integer, got {short_value(value)}")
    return value


def _positions(text: str) -> list[tuple[str, int]]:
    """Each Oracle line with the position of its first ability (keyword lines hold several)."""
    out = []
    pos = 1
    for line in text.split("\n"):
        out.append((line, pos))
        parts = [p.strip().lower() for p in line.split(",")]
        pos += len(parts) if all(is_keyword(p) for p in parts) else 1
    return out


def read_position(raw: dict[str, Any], text: str, where: Where, field: str, default: int) -> int:
    """The ability's position among the card's printed abilities: where its quoted text stands in the Oracle text."""
    quote = raw.get("text")
    if quote is None:
        return default
    quote = read_string(quote, where, f"{field}.text")
    for line, pos in _positions(text):
        if quote in line:
            return pos
    raise where.error(f"{field}.text", f"{quote!r} is not part of the card's Oracle text")


def read_quote(raw: dict[str, Any], text: str, where: Where, field: str) -> str:
    """The ability's ``text``, which must quote the card's Oracle text verbatim."""
    quote = read_string(raw.get("text", ""), where, f"{field}.text")
    if not quote or quote not in text:
        raise where.error(f"{field}.text", f"{quote!r} is not part of the card's Oracle text")
    return quote


def read_choice(raw: dict[str, Any], key: str, known: Any, default: str, where: Where,
            field: str) -> str:
    """A word the field may take from a closed registry, or its default."""
    value = raw.get(key, default)
    if not isinstance(value, str) or value not in known:
        raise where.error(f"{field}.{key}", f"{value!r} is not one of {', '.join(sorted(known))}")
    return value
