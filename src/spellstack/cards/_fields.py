"""What the card loader's errors name (``Where``: the file, the card, the field), and where an
ability's quoted Oracle words stand in the card's text."""

from __future__ import annotations

from typing import Any

from ..rules import CardDefinitionError
from ..schema import SchemaError
from ._format import is_keyword
from ._toml import short_value


class Where:
    """Names the file, card and field in load errors."""

    def __init__(self, source: str, card: str) -> None:
        self.source = source
        self.card = card

    def error(self, field: str, problem: str) -> CardDefinitionError:
        return CardDefinitionError(f"{self.source}: card {self.card!r}: {field}: {problem}")

    def schema_error(self, err: SchemaError, field: str = "") -> CardDefinitionError:
        """The engine's error reading the card's table (or its ``field``), as a load error."""
        sep = "" if not err.path or err.path.startswith("[") else "."
        path = f"{field}{sep}{err.path}" if field else err.path
        if not path:
            return CardDefinitionError(f"{self.source}: card {self.card!r}: {err.detail}")
        return self.error(path, err.detail)


def read_table(value: Any, where: Where, field: str) -> dict[str, Any]:
    """The field as a table, or a load error naming it."""
    if not isinstance(value, dict):
        raise where.error(field, f"must be a table, got {short_value(value)}")
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


def read_position(quote: str | None, text: str, where: Where, field: str, default: int) -> int:
    """The ability's position among the card's printed abilities: where its quoted text stands
    in the Oracle text (``default`` if it quotes none)."""
    if quote is None:
        return default
    for line, pos in _positions(text):
        if quote in line:
            return pos
    raise where.error(f"{field}.text", f"{quote!r} is not part of the card's Oracle text")


def read_quote(quote: str, text: str, where: Where, field: str) -> str:
    """The ability's ``text``, which must quote the card's Oracle text verbatim."""
    if not quote or quote not in text:
        raise where.error(f"{field}.text", f"{quote!r} is not part of the card's Oracle text")
    return quote
