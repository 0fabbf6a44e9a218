"""The schema engine on data-file shapes: ``Annotated`` checks and words, ``Any``, defaults and
unknown keys, and its own error type (which the protocol turns into its own)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, Any, Literal

import pytest

from spellstack.protocol import from_plain as protocol_from_plain
from spellstack.rules.base import AtLeast, InvalidMessageError, Parsed, Words
from spellstack.schema import SchemaError, from_plain, other_keys_ignored, to_plain


def _even(n: int) -> None:
    if n % 2:
        raise ValueError(f"expected an even number, got {n}")


def _upper(text: str) -> str:
    return text.upper()


@dataclass(frozen=True, slots=True)
class Inner:
    """A nested table."""

    size: Annotated[int, AtLeast(1), _even] = 2
    """At least 1, and even."""


def _inner_table(raw: dict[str, Any]) -> Inner:
    """A check that reads part of its value through the engine itself."""
    return from_plain(Inner, raw)


@dataclass(frozen=True, slots=True)
class Table:
    """A data-file table with every kind of mark."""

    name: Annotated[str, _upper]
    """Kept in upper case."""
    most: Annotated[int, Words(any=1024)] = 1
    """A number, or ``"any"``."""
    inners: tuple[Inner, ...] = ()
    """Nested tables, read into a tuple."""
    extra: dict[str, Any] | None = None
    """Anything at all."""
    raw: Annotated[dict[str, Any], _inner_table] | None = None
    """Read by a check."""


def test_a_table_is_read_with_its_marks_and_defaults() -> None:
    got = from_plain(Table, {"name": "bolt", "most": "any", "inners": [{"size": 4}, {}],
                             "extra": {"x": [1, {"y": None}]}, "raw": {"size": 6}})
    assert got == Table("BOLT", 1024, (Inner(4), Inner(2)), {"x": [1, {"y": None}]}, Inner(6))
    assert from_plain(Table, {"name": "x", "most": 3}).most == 3


@pytest.mark.parametrize(("data", "message"), [
    ({"name": "x", "most": "many"}, "most: expected int or 'any', got str 'many'"),
    ({"name": "x", "inners": [{}, {"size": 0}]}, r"inners\[1\]\.size: expected 1 or more, got 0"),
    ({"name": "x", "inners": [{"size": 3}]}, r"inners\[0\]\.size: expected an even number, got 3"),
    ({"name": "x", "raw": {"size": 5}}, r"raw\.size: expected an even number, got 5"),
    ({"name": "x", "raw": {"sise": 2}}, r"raw: unknown field 'sise' for Inner"),
    ({"name": 3}, "name: expected str, got int 3"),
    ({"name": "x", "colour": 3}, "unknown field 'colour' for Table"),
    ({}, "name: missing required field"),
])
def test_a_bad_value_is_named_by_its_path(data: dict[str, Any], message: str) -> None:
    with pytest.raises(SchemaError, match=f"^{message}$"):
        from_plain(Table, data)


def test_the_error_keeps_path_and_detail_apart() -> None:
    with pytest.raises(SchemaError) as caught:
        from_plain(Table, {"name": "x", "inners": [{"size": 0}]}, path="card")
    assert (caught.value.path, caught.value.detail) == ("card.inners[0].size", "expected 1 or more, got 0")


def test_the_protocol_raises_its_own_error_with_the_same_text() -> None:
    with pytest.raises(InvalidMessageError, match=r"^most: expected int or 'any', got str 'many'$"):
        protocol_from_plain(Table, {"name": "x", "most": "many"})


def _halves(text: str) -> tuple[int, int]:
    left, sep, right = text.partition("/")
    if not sep or not left.isdigit() or not right.isdigit():
        raise ValueError(f"expected 'P/T', got {text!r}")
    return int(left), int(right)


@other_keys_ignored
@dataclass(frozen=True, slots=True)
class Step:
    """Keys Python can't spell, a value parsed from text, and other keys ignored."""

    pass_: Literal[True] | None = field(default=None, metadata={"key": "pass"})
    """``pass = true``."""
    body: Annotated[tuple[int, int], Parsed(str, _halves)] | None = None
    """Parsed from ``P/T``."""


def test_a_field_read_by_its_key_a_value_parsed_and_other_keys_ignored() -> None:
    got = from_plain(Step, {"pass": True, "body": "2/3", "comment": "ignored"})
    assert got == Step(True, (2, 3))
    assert to_plain(Step(True)) == {"pass": True, "body": None}
    with pytest.raises(SchemaError, match=r"^pass: expected one of True, got bool False$"):
        from_plain(Step, {"pass": False})
    with pytest.raises(SchemaError, match=r"^body: expected 'P/T', got '2'$"):
        from_plain(Step, {"body": "2"})
    with pytest.raises(SchemaError, match=r"^body: expected str, got int 2$"):
        from_plain(Step, {"body": 2})
