"""The generic dataclass <-> plain data converter, on purpose-built dataclasses."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Literal, Optional, Union

import pytest

from spellstack.protocol import MESSAGE_TYPES, Message, from_plain, from_wire, to_plain, to_wire
from spellstack.protocol._convert import compact, describe_value, from_trusted, short_repr
from spellstack.rules.base import InvalidMessageError
from spellstack.schema import trusted_decoder, wire_encoder


@dataclass(frozen=True, slots=True)
class Leaf:
    """A small record."""

    n: int
    tag: Literal["a", "b"] = "a"


@dataclass(frozen=True, slots=True)
class Other:
    """Another record, to make a union of two map-shaped types."""

    text: str


@dataclass(frozen=True, slots=True)
class Node:
    """A recursive record using every supported kind of hint."""

    name: str
    children: tuple[Node, ...] = ()
    leaf: Optional[Leaf] = None  # noqa: UP045 - the old spelling must work too
    maybe: int | None = None
    either: Union[int, str] = 0  # noqa: UP007 - the old spelling must work too
    record: Leaf | Other | None = None
    pair: tuple[str, int] = ("x", 0)
    triple: tuple[int, Leaf, tuple[int, ...]] = (0, Leaf(0), ())
    scores: dict[str, int] = field(default_factory=dict)
    leaves: dict[str, Leaf] = field(default_factory=dict)
    flag: bool = False
    ratio: float = 0.0
    mode: Literal[1, 2, "x"] = 1
    empty: tuple[()] = ()


@dataclass(frozen=True, slots=True)
class Checked:
    """A record that validates itself, so it must be built through ``__init__``."""

    n: int

    def __post_init__(self) -> None:
        if self.n < 0:
            raise ValueError("n must not be negative")


@dataclass(frozen=True)
class Unslotted:
    """A plain frozen dataclass."""

    n: int
    names: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class KwOnly:
    """Keyword-only fields."""

    b: int
    a: str = "a"


FULL = Node(
    name="root",
    children=(Node(name="kid", children=(Node(name="grandkid", maybe=3),)), Node(name="kid2")),
    leaf=Leaf(1, "b"),
    maybe=-5,
    either="five",
    record=Other("hello"),
    pair=("y", 2),
    triple=(1, Leaf(2), (3, 4)),
    scores={"b": 2, "a": 1},
    leaves={"z": Leaf(9)},
    flag=True,
    ratio=0.5,
    mode="x",
)


def test_round_trip_full() -> None:
    plain = to_plain(FULL)
    assert plain["children"][0]["children"][0]["maybe"] == 3
    assert plain["pair"] == ["y", 2]
    assert plain["triple"] == [1, {"n": 2, "tag": "a"}, [3, 4]]
    assert list(plain["scores"]) == ["a", "b"]  # sorted: deterministic output
    assert from_plain(Node, plain) == FULL


def test_defaults_fill_missing_fields() -> None:
    assert from_plain(Node, {"name": "n"}) == Node(name="n")
    assert from_plain(Node, {"name": "n"}).scores == {}


def test_tuples_accepted_as_sequences() -> None:
    assert from_plain(Node, {"name": "n", "pair": ("a", 1)}).pair == ("a", 1)


def test_union_of_maps_picks_the_matching_one() -> None:
    assert from_plain(Node, {"name": "n", "record": {"n": 1}}).record == Leaf(1)
    assert from_plain(Node, {"name": "n", "record": {"text": "t"}}).record == Other("t")
    assert from_plain(Node, {"name": "n", "record": None}).record is None


@pytest.mark.parametrize(
    ("plain", "match"),
    [
        ({"name": 1}, r"^name: expected str, got int 1$"),
        ({}, r"^name: missing required field$"),
        ({"name": "n", "nope": 1, "zz": 2}, r"^unknown fields 'nope', 'zz' for Node$"),
        ({"name": "n", 3: 1}, r"^unknown field 3 for Node$"),
        ({"name": "n", "maybe": "3"}, r"^maybe: expected int, got str '3'$"),
        ({"name": "n", "maybe": True}, r"^maybe: expected int, got bool True$"),
        ({"name": "n", "flag": 1}, r"^flag: expected bool, got int 1$"),
        ({"name": "n", "ratio": 1}, r"^ratio: expected float, got int 1$"),
        ({"name": "n", "either": 1.5}, r"^either: expected int or str, got float 1\.5$"),
        ({"name": "n", "either": False}, r"^either: expected int or str, got bool False$"),
        ({"name": "n", "mode": 3}, r"^mode: expected one of 1, 2, 'x', got int 3$"),
        ({"name": "n", "mode": True}, r"^mode: expected one of 1, 2, 'x', got bool True$"),
        ({"name": "n", "mode": [1]}, r"^mode: expected one of"),
        ({"name": "n", "leaf": {"n": 1, "tag": "c"}}, r"^leaf\.tag: expected one of 'a', 'b'"),
        ({"name": "n", "leaf": []}, r"^leaf: expected map \(Leaf\), got list \[\]$"),
        ({"name": "n", "pair": ["a"]}, r"^pair: expected list of 2, got list of 1 \['a'\]$"),
        ({"name": "n", "pair": ["a", "b"]}, r"^pair\[1\]: expected int, got str 'b'$"),
        ({"name": "n", "triple": [1, {"n": "x"}, []]}, r"^triple\[1\]\.n: expected int"),
        ({"name": "n", "triple": [1, {"n": 1}, [1, None]]}, r"^triple\[2\]\[1\]: expected int"),
        ({"name": "n", "scores": {"a": "1"}}, r"^scores\['a'\]: expected int, got str '1'$"),
        ({"name": "n", "scores": {1: 1}}, r"^scores: key expected str, got int 1$"),
        ({"name": "n", "scores": [1]}, r"^scores: expected map, got list \[1\]$"),
        ({"name": "n", "leaves": {"k": {"m": 1}}}, r"^leaves\['k'\]: unknown field 'm' for Leaf$"),
        ({"name": "n", "empty": [1]}, r"^empty: expected list of 0, got list of 1"),
        (
            {"name": "r", "children": [{"name": "k", "children": [{"name": 5}]}]},
            r"^children\[0\]\.children\[0\]\.name: expected str, got int 5$",
        ),
        (
            {"name": "n", "record": {"n": 1, "text": "t"}},
            r"^record: unknown field",
        ),
        ({"name": "n", "record": {"n": "1"}}, r"^record\.n: expected int, got str '1'$"),
        ({"name": "n", "record": 7}, r"^record: expected map \(Leaf\) or map \(Other\) or None"),
        ([], r"^expected map \(Node\), got list \[\]$"),
    ],
)
def test_errors_name_the_path(plain: object, match: str) -> None:
    with pytest.raises(InvalidMessageError, match=match):
        from_plain(Node, plain)


def test_path_prefix() -> None:
    with pytest.raises(InvalidMessageError, match=r"^body\.leaf\.n: expected int"):
        from_plain(Node, {"name": "n", "leaf": {"n": None}}, path="body")
    with pytest.raises(InvalidMessageError, match=r"^body: expected map \(Node\), got None$"):
        from_plain(Node, None, path="body")


def test_post_init_is_respected() -> None:
    assert from_plain(Checked, {"n": 1}) == Checked(1)
    with pytest.raises(InvalidMessageError, match="invalid Checked: n must not be negative"):
        from_plain(Checked, {"n": -1})


def test_unslotted_and_keyword_only_dataclasses() -> None:
    assert from_plain(Unslotted, to_plain(Unslotted(3, ("a",)))) == Unslotted(3, ("a",))
    assert from_plain(KwOnly, to_plain(KwOnly(b=2))) == KwOnly(b=2)
    with pytest.raises(InvalidMessageError, match=r"^names\[1\]: expected str"):
        from_plain(Unslotted, {"n": 1, "names": ["a", 2]})


def test_built_objects_are_genuine_instances() -> None:
    node = from_plain(Node, to_plain(FULL))
    assert type(node) is Node
    assert hash(from_plain(Leaf, {"n": 1})) == hash(Leaf(1))
    with pytest.raises(dataclasses.FrozenInstanceError):
        node.name = "x"  # type: ignore[misc]


def test_unsupported_hint_is_a_programming_error() -> None:
    @dataclass(frozen=True)
    class Bad:
        x: list[int]

    with pytest.raises(TypeError, match="unsupported type hint"):
        from_plain(Bad, {"x": []})


def test_to_plain_refuses_foreign_objects() -> None:
    with pytest.raises(TypeError, match="cannot convert object"):
        to_plain(object())


def test_short_repr_is_bounded_and_safe() -> None:
    deep: list[object] = []
    for _ in range(100_000):
        deep = [deep]
    assert short_repr(deep) == "[[[[[...]]]]]"
    assert len(short_repr("x" * 1_000_000)) == 60
    assert short_repr("x" * 1_000_000).endswith("...")
    assert len(short_repr(list(range(10_000)))) == 60
    assert short_repr(1 << 10_000) == "<int of 10001 bits>"
    assert short_repr({"a": (1,)}) == "{'a': (1,)}"
    assert short_repr(b"\x00\x01") == "b'\\x00\\x01'"
    assert short_repr(object()) == "<object>"
    assert short_repr(Leaf(1)) == "Leaf(...)"
    assert describe_value(None) == "None"
    assert describe_value("x") == "str 'x'"


# --------------------------------------------------------------------------- the wire form


@compact
@dataclass(frozen=True, slots=True)
class Cell:
    """A record sent as a positional list in the wire form."""

    x: int
    label: str = ""
    leaf: Leaf | None = None


@dataclass(frozen=True, slots=True)
class Grid:
    """A map-shaped record holding compact ones."""

    cells: tuple[Cell, ...]
    either: Leaf | Other | None = None
    kind: int | str = 0


GRID = Grid((Cell(1, "a", Leaf(2, "b")), Cell(3)), Other("t"), "k")


def test_compact_records_are_lists_on_the_wire_and_maps_by_name() -> None:
    wire = to_wire(GRID)
    assert wire == {"cells": [[1, "a", {"n": 2, "tag": "b"}], [3, "", None]],
                    "either": {"text": "t"}, "kind": "k"}
    assert to_plain(GRID)["cells"][1] == {"x": 3, "label": "", "leaf": None}
    assert from_wire(Grid, wire) == from_plain(Grid, to_plain(GRID)) == GRID
    assert from_trusted(Grid, wire) == GRID
    assert from_trusted(Grid, to_wire(Grid((), Leaf(1), 5))) == Grid((), Leaf(1), 5)


@pytest.mark.parametrize(
    ("damage", "match"),
    [
        (lambda w: w["cells"][0].pop(), r"^cells\[0\]: expected 3 fields for Cell, got 2: \[1, 'a'\]$"),
        (lambda w: w["cells"][1].append(0), r"^cells\[1\]: expected 3 fields for Cell, got 4"),
        (lambda w: w["cells"][0].__setitem__(1, 7), r"^cells\[0\]\.label: expected str, got int 7$"),
        (lambda w: w["cells"][0][2].__setitem__("n", True), r"^cells\[0\]\.leaf\.n: expected int, got bool"),
        (lambda w: w["cells"].__setitem__(1, {"x": 3}), r"^cells\[1\]: expected list \(Cell\), got dict"),
    ],
)
def test_wire_form_errors_name_the_field(damage: object, match: str) -> None:
    wire = to_wire(GRID)
    damage(wire)  # type: ignore[operator]
    with pytest.raises(InvalidMessageError, match=match):
        from_wire(Grid, wire)


def test_compact_takes_only_dataclasses() -> None:
    with pytest.raises(TypeError, match="not a dataclass"):
        compact(int)


@dataclass(frozen=True, slots=True)
class Rows:
    """Sequences and optional sequences of every shape the trusted decoder inlines."""

    pairs: tuple[tuple[str, int], ...]
    cells: tuple[Cell, ...] | None
    ids: tuple[int, ...] | None = None


@pytest.mark.parametrize("rows", [
    Rows((("a", 1), ("b", 2)), (Cell(1, "x", Leaf(3)), Cell(2)), (4, 5)),
    Rows((), None),
    Rows((), ()),
])
def test_trusted_decoding_rebuilds_tuples_at_every_level(rows: Rows) -> None:
    back = from_trusted(Rows, to_wire(rows))
    assert back == rows
    assert type(back.pairs) is tuple and all(type(p) is tuple for p in back.pairs)
    assert back.cells is None or type(back.cells) is tuple


def test_a_class_s_writer_and_trusted_reader_are_to_wire_s_and_from_trusted_s(messages: list[Message]) -> None:
    # What the codec keeps per class and per kind: the same conversions, one call fewer.
    assert {type(m) for m in messages} == set(MESSAGE_TYPES.values())
    for msg in messages:
        cls = type(msg)
        wire = wire_encoder(cls)(msg)
        assert wire == to_wire(msg)
        assert trusted_decoder(cls)(wire) == from_trusted(cls, wire) == msg
        assert wire_encoder(cls) is wire_encoder(cls) and trusted_decoder(cls) is trusted_decoder(cls)
    with pytest.raises(TypeError, match="not a dataclass: <class 'int'>"):
        wire_encoder(int)
