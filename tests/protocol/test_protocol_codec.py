"""Encoding, decoding and the handling of bad input."""

from __future__ import annotations

import copy
from typing import Any

import msgpack  # type: ignore[import-untyped]
import pytest

from spellstack.protocol import (
    MAX_ARRAY_LEN,
    MAX_MESSAGE_BYTES,
    MAX_STR_LEN,
    PROTOCOL_VERSION,
    Accepted,
    ErrorReply,
    GameOver,
    Message,
    PriorityRequest,
    Rejected,
    SBABatch,
    decode,
    decode_as,
    decode_trusted,
    encode,
    from_plain,
    from_wire,
    named_from_wire,
    to_plain,
    to_wire,
)
from spellstack.rules.base import InvalidMessageError

V = PROTOCOL_VERSION
"""The version this side speaks."""


def envelope(body: Any, kind: Any = "PriorityRequest", version: Any = PROTOCOL_VERSION) -> bytes:
    """Pack an envelope by hand, bypassing ``encode``'s checks."""
    return bytes(msgpack.packb({"k": kind, "v": version, "b": body}, use_bin_type=True))


@pytest.fixture
def body(priority_request: PriorityRequest) -> Any:
    """The wire body of a typical priority request, to be damaged by a test."""
    return to_wire(priority_request)


# --------------------------------------------------------------------------- round trips


def test_round_trip(sample_message: Message) -> None:
    msg = sample_message
    data = encode(msg)
    assert decode(data) == msg
    assert decode_as(data, type(msg)) == msg
    assert decode(bytearray(data)) == msg
    assert decode(memoryview(data)) == msg


def test_trusted_decoding_gives_the_same_messages(sample_message: Message) -> None:
    assert decode_trusted(encode(sample_message)) == sample_message


def test_the_named_form_is_rewritten_from_the_wire_form(sample_message: Message) -> None:
    cls = type(sample_message)
    assert named_from_wire(cls, to_wire(sample_message)) == to_plain(sample_message)
    assert named_from_wire(cls, msgpack.unpackb(encode(sample_message))["b"]) == to_plain(sample_message)


def test_the_named_form_round_trips_too(sample_message: Message) -> None:
    assert from_plain(type(sample_message), to_plain(sample_message)) == sample_message
    assert from_wire(type(sample_message), to_wire(sample_message)) == sample_message


def test_every_kind_is_sampled(messages: list[Message]) -> None:
    from spellstack.protocol import MESSAGE_TYPES

    assert {type(m) for m in messages} == set(MESSAGE_TYPES.values())


def test_wire_format() -> None:
    raw = msgpack.unpackb(encode(Rejected(decision_id=3, reason="no")))
    assert raw == {"k": "Rejected", "v": PROTOCOL_VERSION, "b": {"decision_id": 3, "reason": "no"}}
    assert list(raw) == ["k", "v", "b"]


def test_to_plain_shapes(priority_request: PriorityRequest) -> None:
    plain = to_plain(priority_request)
    assert type(plain) is dict
    assert set(plain) == {"decision", "view", "clock"}
    assert plain["clock"] is None  # no game clock
    assert type(plain["view"]["battlefield"]) is list
    assert type(plain["view"]["objects"][0]) is dict
    assert plain["view"]["players"][0]["mana"] == [["G", 2]]
    assert plain["decision"]["actions"][1]["targets"][0]["candidates"] == [100, 101, 102, -1, -2]
    wire = to_wire(priority_request)
    # Compact records travel as lists in field order; the rest as maps, as in the named form.
    assert wire["decision"]["actions"][1][4][0] == ["any target", 1, 1, [100, 101, 102, -1, -2]]
    assert wire["view"]["objects"][0] == list(plain["view"]["objects"][0].values())
    assert wire["view"]["players"][0][7] == [["G", 2]]
    assert set(wire["view"]) == set(plain["view"])
    assert to_plain(7) == 7 and to_plain("x") == "x" and to_plain(None) is None
    assert to_plain((1, (2, 3))) == [1, [2, 3]]


def test_encode_is_deterministic(messages: list[Message], fresh_messages: list[Message]) -> None:
    for first, second in zip(messages, fresh_messages, strict=True):
        assert encode(first) == encode(second) == encode(copy.deepcopy(first))
        assert encode(decode(encode(first))) == encode(first)


def test_encode_refuses_non_messages() -> None:
    with pytest.raises(TypeError, match="not a message"):
        encode({"k": "Accepted"})  # type: ignore[arg-type]


def test_encode_refuses_oversized_message() -> None:
    with pytest.raises(InvalidMessageError, match="over the limit"):
        encode(GameOver(winner="A", losers=("x" * 1000,) * 1100, reason=""))


# --------------------------------------------------------------------------- bytes, msgpack


@pytest.mark.parametrize(
    ("data", "match"),
    [
        (b"", "empty"),
        (b"\xc1", "not msgpack"),
        (b"\x83\xa1k", "truncated"),
        (b"\xa2\xff\xfe", "not valid UTF-8"),
        (b"\xc4\x01x", "binary data not allowed"),
        (b"\xd4\x05\x00", "ext types not allowed"),
        (b"\xc7\x00\x05", "ext type 5 not allowed"),
        (b"\xd6\xff\x00\x00\x00\x01", "ext types not allowed"),  # a timestamp
        (b"\x81\x01\x02", "map key is not a string"),
        (b"\xc0\xc0", "trailing bytes"),
    ],
)
def test_malformed_bytes(data: bytes, match: str) -> None:
    with pytest.raises(InvalidMessageError, match=match):
        decode(data)


def test_truncated_data_at_every_length(priority_request: PriorityRequest) -> None:
    data = encode(priority_request)
    for cut in range(0, len(data), 7):
        with pytest.raises(InvalidMessageError, match="invalid message"):
            decode(data[:cut])


@pytest.mark.parametrize("data", ["text", None, 42, [b"\x80"]])
def test_not_bytes(data: Any) -> None:
    with pytest.raises(InvalidMessageError, match="expected bytes"):
        decode(data)


def test_oversized_message_is_refused_before_unpacking() -> None:
    data = envelope(None) + b"\x00" * MAX_MESSAGE_BYTES
    with pytest.raises(InvalidMessageError, match=rf"{len(data)} bytes, over the limit"):
        decode(data)


@pytest.mark.parametrize(
    ("header", "match"),
    [
        (b"\xdd\xff\xff\xff\xff", "max_array_len"),  # array32 of 4 294 967 295 elements
        (b"\xdf\xff\xff\xff\xff", "max_map_len"),  # map32
        (b"\xdb\xff\xff\xff\xff", "truncated"),  # str32: the bytes must be there first
    ],
)
def test_huge_container_header(header: bytes, match: str) -> None:
    # The header promises far more than the buffer holds; nothing is preallocated.
    prefix = envelope(None)[:-1]  # the envelope up to its body value
    with pytest.raises(InvalidMessageError, match=match):
        decode(prefix + header + b"\x00" * 16)


def test_long_string_over_limit() -> None:
    data = envelope({"reason": "x" * (MAX_STR_LEN + 1)}, kind="ErrorReply")
    with pytest.raises(InvalidMessageError, match="max_str_len"):
        decode(data)


def test_long_array_over_limit() -> None:
    data = envelope({"winner": "", "losers": [""] * (MAX_ARRAY_LEN + 1), "reason": ""}, "GameOver")
    with pytest.raises(InvalidMessageError, match="max_array_len"):
        decode(data)


@pytest.mark.parametrize("depth", [1025, 5000, MAX_MESSAGE_BYTES - 1])
def test_deep_nesting_past_msgpack_stack(depth: int) -> None:
    with pytest.raises(InvalidMessageError, match="nested too deeply"):
        decode(b"\x91" * depth + b"\xc0")


def test_deep_nesting_inside_a_body() -> None:
    deep = b"\x91" * 1000 + b"\x01"  # within msgpack's stack, far past the schema
    data = envelope(None, kind="Accepted")[:-1] + b"\x81\xabdecision_id" + deep
    with pytest.raises(InvalidMessageError, match=r"decision_id: expected int, got list \[\[\["):
        decode(data)


def test_deep_nesting_as_envelope() -> None:
    with pytest.raises(InvalidMessageError, match="expected a map with keys"):
        decode(b"\x91" * 1020 + b"\xc0")


# --------------------------------------------------------------------------- envelope


@pytest.mark.parametrize(
    ("raw", "match"),
    [
        ([1, 2, 3], r"expected a map with keys 'k', 'v', 'b', got list \[1, 2, 3\]"),
        ("PriorityRequest", "expected a map with keys"),
        (None, "got None"),
        ({"k": "Accepted", "v": 4}, "missing 'b'"),
        ({"k": "Accepted", "v": 4, "b": {}, "x": 0}, "unexpected 'x'"),
        ({"kind": "Accepted", "v": 4, "b": {}}, "missing 'k'; unexpected 'kind'"),
        ({"k": 5, "v": 4, "b": {}}, "kind must be a str, got int 5"),
        ({"k": "Nope", "v": V, "b": {}}, "unknown kind 'Nope'"),
        ({"k": "Accepted", "v": V - 1, "b": {}},
         rf"Accepted message: unsupported protocol version {V - 1} \(this side speaks {V}\)"),
        ({"k": "Accepted", "v": V + 1, "b": {}},
         f"Accepted message: unsupported protocol version {V + 1}"),
        ({"k": "Accepted", "v": True, "b": {}}, "unsupported protocol version bool True"),
        ({"k": "Accepted", "v": "1", "b": {}}, "unsupported protocol version str '1'"),
        ({"k": "Nope", "v": 0, "b": {}}, "invalid 'Nope' message: unsupported protocol version 0"),
    ],
)
def test_bad_envelope(raw: Any, match: str) -> None:
    with pytest.raises(InvalidMessageError, match=match):
        decode(msgpack.packb(raw))


def test_decode_as_checks_the_kind() -> None:
    data = encode(Accepted(decision_id=4))
    assert decode_as(data, Accepted) == Accepted(decision_id=4)
    with pytest.raises(InvalidMessageError, match="expected a PriorityRequest, got a Accepted"):
        decode_as(data, PriorityRequest)
    with pytest.raises(TypeError, match="not a message class"):
        decode_as(data, int)


# --------------------------------------------------------------------------- bodies


def test_missing_field(body: Any) -> None:
    del body["view"]
    with pytest.raises(InvalidMessageError, match=r"PriorityRequest message: view: missing"):
        decode(envelope(body))


def test_missing_field_at_depth(body: Any) -> None:
    del body["view"]["seat"]
    with pytest.raises(InvalidMessageError, match=r"PriorityRequest message: view\.seat: missing required field"):
        decode(envelope(body))


def test_missing_field_in_a_compact_record(body: Any) -> None:
    del body["view"]["objects"][1][0]
    with pytest.raises(InvalidMessageError, match=r"view\.objects\[1\]: expected 15 fields for ObjectView, got 14"):
        decode(envelope(body))


def test_missing_field_with_default_is_fine(body: Any, priority_request: PriorityRequest) -> None:
    del body["decision"]["lethal"]
    assert decode(envelope(body)) == priority_request


def test_extra_fields(body: Any) -> None:
    body["decision"]["zz"] = 1
    body["decision"]["extra"] = 1
    with pytest.raises(
        InvalidMessageError, match=r"decision: unknown fields 'extra', 'zz' for Decision"
    ):
        decode(envelope(body))


def test_extra_field_in_a_compact_record(body: Any) -> None:
    body["view"]["objects"][1].append(0)
    with pytest.raises(InvalidMessageError, match=r"view\.objects\[1\]: expected 15 fields for ObjectView, got 16"):
        decode(envelope(body))


def test_extra_top_level_field(body: Any) -> None:
    body["secret"] = "x"
    with pytest.raises(InvalidMessageError, match="unknown field 'secret' for PriorityRequest"):
        decode(envelope(body))


def test_wrong_type_at_depth(body: Any) -> None:
    body["decision"]["actions"][3][4][0][1] = "x"
    with pytest.raises(
        InvalidMessageError,
        match=r"^invalid PriorityRequest message: "
        r"decision\.actions\[3\]\.targets\[0\]\.min: expected int, got str 'x'$",
    ):
        decode(envelope(body))


def test_bool_for_int(body: Any) -> None:
    body["decision"]["actions"][1][4][0][3][2] = True
    with pytest.raises(
        InvalidMessageError,
        match=r"decision\.actions\[1\]\.targets\[0\]\.candidates\[2\]: expected int, got bool True",
    ):
        decode(envelope(body))


def test_int_for_bool(body: Any) -> None:
    body["view"]["objects"][0][5] = 1
    with pytest.raises(InvalidMessageError, match=r"objects\[0\]\.tapped: expected bool"):
        decode(envelope(body))


def test_wrong_pair_length(body: Any) -> None:
    body["view"]["players"][0][7][0] = ["G", 2, 3]
    with pytest.raises(
        InvalidMessageError,
        match=r"view\.players\[0\]\.mana\[0\]: expected list of 2, got list of 3 \['G', 2, 3\]",
    ):
        decode(envelope(body))


def test_wrong_type_in_pair(body: Any) -> None:
    body["view"]["players"][0][7][0] = [1, 2]
    with pytest.raises(InvalidMessageError, match=r"mana\[0\]\[0\]: expected str, got int 1"):
        decode(envelope(body))


def test_map_where_list_expected(body: Any) -> None:
    body["view"]["stack"] = {"0": 1}
    with pytest.raises(InvalidMessageError, match=r"view\.stack: expected list, got dict"):
        decode(envelope(body))


def test_list_where_map_expected(body: Any) -> None:
    body["decision"] = [1, 2]
    with pytest.raises(InvalidMessageError, match=r"decision: expected map \(Decision\), got list"):
        decode(envelope(body))


def test_map_where_a_compact_record_is_expected(body: Any) -> None:
    body["view"]["stack"][0] = {"id": 1}
    with pytest.raises(
        InvalidMessageError, match=r"view\.stack\[0\]: expected list \(StackItemView\), got dict"
    ):
        decode(envelope(body))


def test_float_for_int() -> None:
    data = envelope({"object_id": 500, "name": "Shock", "count": 1.0}, kind="Resolved")
    with pytest.raises(InvalidMessageError, match=r"count: expected int, got float"):
        decode(data)


def test_offending_value_is_truncated() -> None:
    data = envelope({"decision_id": "y" * 10_000}, kind="Accepted")
    with pytest.raises(InvalidMessageError) as info:
        decode(data)
    message = str(info.value)
    assert message.startswith("invalid Accepted message: decision_id: expected int, got str 'yyy")
    assert message.endswith("...")
    assert len(message) < 140


def test_body_not_a_map() -> None:
    with pytest.raises(InvalidMessageError, match=r"expected map \(CheckSBA\), got None"):
        decode(envelope(None, kind="CheckSBA"))


def test_empty_body_for_fieldless_message() -> None:
    from spellstack.protocol import CheckSBA

    assert decode(envelope({}, kind="CheckSBA")) == CheckSBA()


def test_empty_events_batch() -> None:
    assert decode(encode(SBABatch(count=0))) == SBABatch(count=0)
    with pytest.raises(InvalidMessageError, match="SBABatch message: count: missing"):
        decode(envelope({}, kind="SBABatch"))


def test_error_reply_round_trips_a_decode_error() -> None:
    with pytest.raises(InvalidMessageError) as info:
        decode(b"\xc1")
    reply = ErrorReply(reason=str(info.value))
    assert decode(encode(reply)) == reply
