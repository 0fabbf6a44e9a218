"""Hostile input: whatever arrives, only InvalidMessageError may escape ``decode``; what decodes
survives a round trip, and a valid message among the hostile input decodes as itself."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

import msgpack  # type: ignore[import-untyped]
import pytest
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


@dataclass
class Tally:
    """What a fuzz test's inputs came to: messages decoded (each round-tripped) and inputs
    refused. A test asserts both happened, so that a decoder refusing everything, or one
    accepting everything, fails it; a valid message among the inputs must decode as itself."""

    decoded: int = 0
    refused: int = 0

    def check(self, data: bytes, expected: Message | None = None) -> Message | None:
        """Decode; a valid result must survive a second round trip unchanged, and ``expected``
        (the message ``data`` is a valid encoding of) must come back as it was."""
        try:
            msg = decode(data)
        except InvalidMessageError:
            assert expected is None, f"a valid {type(expected).__name__} was refused"
            self.refused += 1
            return None
        assert decode(encode(msg)) == msg
        if expected is not None:
            assert msg == expected
        self.decoded += 1
        return msg

    def saw_both(self) -> None:
        assert self.decoded > 0, "no input decoded: the round trip was never checked"
        assert self.refused > 0, "no input was refused"


def test_random_bytes(messages: list[Message]) -> None:
    samples = st.sampled_from(messages)  # one valid message of every kind
    # Random bytes are almost never a message: valid encodings are mixed in, each of which
    # must decode as itself.
    tally = Tally()

    @settings(max_examples=500)
    @given(st.binary(max_size=200).map(lambda b: (b, None))
           | samples.map(lambda m: (encode(m), m)))
    def run(case: tuple[bytes, Message | None]) -> None:
        tally.check(*case)

    run()
    tally.saw_both()


@pytest.mark.slow
def test_random_structures(messages: list[Message]) -> None:
    samples = st.sampled_from(messages)  # one valid message of every kind
    tally = Tally()

    @settings(max_examples=300)
    @given(plain.map(lambda v: (v, None)) | samples.map(lambda m: (msgpack.unpackb(encode(m)), m)))
    def run(case: tuple[Any, Message | None]) -> None:
        value, expected = case
        tally.check(msgpack.packb(value, use_bin_type=True), expected)

    run()
    tally.saw_both()


@pytest.mark.slow
def test_random_bodies_in_valid_envelopes(messages: list[Message]) -> None:
    samples = st.sampled_from(messages)  # one valid message of every kind
    tally = Tally()

    def real(m: Message) -> tuple[str, Any, Message]:
        wire = msgpack.unpackb(encode(m))
        return wire["k"], wire["b"], m

    @settings(max_examples=500)
    @given(st.tuples(st.sampled_from(sorted(MESSAGE_TYPES)), plain, st.none()) | samples.map(real))
    def run(case: tuple[str, Any, Message | None]) -> None:
        kind, body, expected = case
        tally.check(msgpack.packb({"k": kind, "v": PROTOCOL_VERSION, "b": body}, use_bin_type=True),
                    expected)

    run()
    tally.saw_both()


@pytest.mark.slow
def test_damaged_valid_messages(messages: list[Message]) -> None:
    samples = st.sampled_from(messages)  # one valid message of every kind
    tally = Tally()

    @settings(max_examples=500)
    @given(st.data())
    def run(data: st.DataObject) -> None:
        message = data.draw(samples)
        original = encode(message)
        damaged = bytearray(original)
        for _ in range(data.draw(st.integers(0, 4))):  # 0: left whole, it must decode
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
        tally.check(bytes(damaged), message if bytes(damaged) == original else None)

    run()
    tally.saw_both()


def _replace_somewhere(value: Any, path: list[int], new: Any) -> Any:
    """Replace the subtree of ``value`` that ``path`` picks (indices taken modulo sizes)."""
    if not path or not isinstance(value, list | dict) or not value:
        return new
    if isinstance(value, list):
        i = path[0] % len(value)
        return [_replace_somewhere(v, path[1:], new) if j == i else v for j, v in enumerate(value)]
    key = sorted(value)[path[0] % len(value)]
    return {k: _replace_somewhere(v, path[1:], new) if k == key else v for k, v in value.items()}


def _subtree(value: Any, path: list[int]) -> Any:
    """The subtree of ``value`` that ``path`` picks, as ``_replace_somewhere`` picks it."""
    if not path or not isinstance(value, list | dict) or not value:
        return value
    if isinstance(value, list):
        return _subtree(value[path[0] % len(value)], path[1:])
    return _subtree(value[sorted(value)[path[0] % len(value)]], path[1:])


@pytest.mark.slow
def test_valid_messages_with_a_subtree_replaced(messages: list[Message]) -> None:
    samples = st.sampled_from(messages)  # one valid message of every kind
    tally = Tally()

    @settings(max_examples=500)
    @given(st.data())
    def run(data: st.DataObject) -> None:
        message = data.draw(samples)
        raw = msgpack.unpackb(encode(message))
        path = data.draw(st.lists(st.integers(0, 50), min_size=1, max_size=10))
        # Sometimes the subtree is put back as it was: the message must then decode as itself.
        same = data.draw(st.booleans())
        replacement = _subtree(raw, path) if same else data.draw(plain)
        tally.check(msgpack.packb(_replace_somewhere(raw, path, replacement), use_bin_type=True),
                    message if same else None)

    run()
    tally.saw_both()
