"""Hostile input: whatever arrives, only InvalidMessageError may escape ``decode``."""

from __future__ import annotations

import dataclasses
from typing import Any

import msgpack  # type: ignore[import-untyped]
from hypothesis import given, settings
from hypothesis import strategies as st

from spellstack.protocol import MESSAGE_TYPES, PROTOCOL_VERSION, decode, encode
from spellstack.protocol._messages import Message
from spellstack.rules.base import InvalidMessageError
from spellstack.rules.state import Action, ActionOption, Answer, Choice, Decision, Event
from spellstack.rules.views import ObjectView, PlayerPublic, PlayerView, StackItemView

FIELD_NAMES = sorted(
    {
        f.name
        for cls in (
            *MESSAGE_TYPES.values(),
            Action,
            ActionOption,
            Answer,
            Choice,
            Decision,
            Event,
            ObjectView,
            PlayerPublic,
            PlayerView,
            StackItemView,
        )
        for f in dataclasses.fields(cls)
    }
)

scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(1 << 63), max_value=(1 << 64) - 1)
    | st.floats(allow_nan=False)
    | st.text(max_size=20)
    | st.binary(max_size=8)
)
keys = st.sampled_from(FIELD_NAMES) | st.text(max_size=8)
plain = st.recursive(
    scalars,
    lambda children: st.lists(children, max_size=5) | st.dictionaries(keys, children, max_size=6),
    max_leaves=40,
)


def check(data: bytes) -> Message | None:
    """Decode; a valid result must survive a second round trip unchanged."""
    try:
        msg = decode(data)
    except InvalidMessageError:
        return None
    assert decode(encode(msg)) == msg
    return msg


@settings(max_examples=500)
@given(st.binary(max_size=200))
def test_random_bytes(data: bytes) -> None:
    check(data)


@settings(max_examples=300)
@given(plain)
def test_random_structures(value: Any) -> None:
    check(msgpack.packb(value, use_bin_type=True))


@settings(max_examples=500)
@given(st.sampled_from(sorted(MESSAGE_TYPES)), plain)
def test_random_bodies_in_valid_envelopes(kind: str, body: Any) -> None:
    check(msgpack.packb({"k": kind, "v": PROTOCOL_VERSION, "b": body}, use_bin_type=True))


@settings(max_examples=500)
@given(st.data())
def test_damaged_valid_messages(sample_encodings: list[bytes], data: st.DataObject) -> None:
    original = data.draw(st.sampled_from(sample_encodings))
    damaged = bytearray(original)
    for _ in range(data.draw(st.integers(1, 4))):
        action = data.draw(st.sampled_from(["flip", "insert", "delete", "cut"]))
        if not damaged:
            break
        at = data.draw(st.integers(0, len(damaged) - 1))
        if action == "flip":
            damaged[at] = data.draw(st.integers(0, 255))
        elif action == "insert":
            damaged[at:at] = data.draw(st.binary(min_size=1, max_size=6))
        elif action == "delete":
            del damaged[at]
        else:
            del damaged[at:]
    check(bytes(damaged))


def _replace_somewhere(value: Any, path: list[int], new: Any) -> Any:
    """Replace the subtree of ``value`` that ``path`` picks (indices taken modulo sizes)."""
    if not path or not isinstance(value, list | dict) or not value:
        return new
    if isinstance(value, list):
        i = path[0] % len(value)
        return [_replace_somewhere(v, path[1:], new) if j == i else v for j, v in enumerate(value)]
    key = sorted(value)[path[0] % len(value)]
    return {k: _replace_somewhere(v, path[1:], new) if k == key else v for k, v in value.items()}


@settings(max_examples=500)
@given(st.data())
def test_valid_messages_with_a_subtree_replaced(
    sample_encodings: list[bytes], data: st.DataObject
) -> None:
    raw = msgpack.unpackb(data.draw(st.sampled_from(sample_encodings)))
    path = data.draw(st.lists(st.integers(0, 50), min_size=1, max_size=10))
    replacement = data.draw(plain)
    check(msgpack.packb(_replace_somewhere(raw, path, replacement), use_bin_type=True))
