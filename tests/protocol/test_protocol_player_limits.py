"""What a player's message may cost: ``decode_from_player``'s caps on bytes, on objects and by
kind, and the bound on a setting's step names."""

from __future__ import annotations

from typing import Any

import msgpack  # type: ignore[import-untyped]
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spellstack.protocol import (
    MAX_MESSAGE_BYTES,
    MAX_PLAYER_MESSAGE_BYTES,
    MAX_PLAYER_OBJECTS,
    MAX_STOP_NAMES,
    MESSAGE_TYPES,
    PLAYER_KIND_BYTES,
    PLAYER_KINDS,
    PROTOCOL_VERSION,
    STOP_STEPS,
    Message,
    SetStops,
    Stops,
    SubmitAction,
    SubmitAnswer,
    decode,
    decode_from_player,
    encode,
)
from spellstack.rules import Action, Answer
from spellstack.rules.base import InvalidMessageError

_HEAD = (b"\x83" + msgpack.packb("k") + msgpack.packb("SubmitAnswer") + msgpack.packb("v")
         + msgpack.packb(PROTOCOL_VERSION) + msgpack.packb("b"))
"""The start of a SubmitAnswer envelope whose body follows."""


def _array(items: bytes, n: int) -> bytes:
    """A msgpack array header for ``n`` elements (at most 65,535), then ``items``."""
    return (bytes([0x90 + n]) if n < 16 else b"\xdc" + n.to_bytes(2, "big")) + items


def _bomb(element: bytes, size: int) -> bytes:
    """A SubmitAnswer envelope of about ``size`` bytes whose body is a list of lists of
    ``element`` (one msgpack object each), as many as fit."""
    per = 65_535
    chunk = _array(element * per, per)
    room = size - len(_HEAD) - 3
    whole, rest = divmod(room, len(chunk))
    n_last = max(0, (rest - 3) // len(element))
    parts = [chunk] * whole + ([_array(element * n_last, n_last)] if n_last else [])
    return _HEAD + _array(b"".join(parts), len(parts))


def _envelope(kind: str, body: Any) -> bytes:
    return bytes(msgpack.packb({"k": kind, "v": PROTOCOL_VERSION, "b": body}))


@pytest.mark.slow
def test_the_million_empty_lists_message_is_refused_for_its_size() -> None:
    data = _bomb(b"\x90", MAX_MESSAGE_BYTES)  # a million empty lists in 1 MiB
    assert MAX_PLAYER_MESSAGE_BYTES < len(data) <= MAX_MESSAGE_BYTES
    with pytest.raises(InvalidMessageError, match=rf"^invalid message: {len(data)} bytes, over the "
                       rf"limit of {MAX_PLAYER_MESSAGE_BYTES} for a message from a player$"):
        decode_from_player(data)
    # What the engine's own actors send keeps the wider limit.
    with pytest.raises(InvalidMessageError, match="expected map"):
        decode(data)


@pytest.mark.parametrize(("element", "shape"), [
    (b"\x90", "empty lists"),
    (b"\x80", "empty maps"),
    (b"\x91\x00", "one-int lists"),
    (b"\x81\xa0\x00", "tiny maps"),
    (b"\x01", "small ints"),
    (b"\xa0", "empty strings"),
])
def test_a_message_of_too_many_objects_is_refused(element: bytes, shape: str) -> None:
    data = _bomb(element, MAX_PLAYER_MESSAGE_BYTES)
    assert len(data) <= MAX_PLAYER_MESSAGE_BYTES, shape
    with pytest.raises(InvalidMessageError, match=rf"^invalid message: more than "
                       rf"{MAX_PLAYER_OBJECTS} objects, the limit for a message from a player$"):
        decode_from_player(data)


def test_objects_are_counted_with_each_container_for_itself_and_its_elements() -> None:
    # Envelope 1 + 6, body 1 + 2, answer 1 + 6, keys 1 + n, pairs 1: 19 + n objects in all.
    def answer(n: int) -> bytes:
        return _envelope("SubmitAnswer", {"answer": {"decision_id": 1, "keys": [0] * n,
                                                     "pairs": []}})

    at_limit = answer(MAX_PLAYER_OBJECTS - 19)
    assert decode_from_player(at_limit) == SubmitAnswer(Answer(1, (0,) * (MAX_PLAYER_OBJECTS - 19)))
    with pytest.raises(InvalidMessageError, match=f"more than {MAX_PLAYER_OBJECTS} objects"):
        decode_from_player(answer(MAX_PLAYER_OBJECTS - 18))


def _count(data: bytes) -> int:
    """The objects of ``data`` as ``decode_from_player`` counts them: each once (but the
    outermost) and each container once more."""
    count = 0

    def seen(obj: Any) -> Any:
        nonlocal count
        count += (2 * len(obj) if isinstance(obj, dict) else len(obj)) + 1
        return obj

    msgpack.unpackb(data, list_hook=seen, object_hook=seen, strict_map_key=False)
    return count


_PLAIN = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**63), 2**64 - 1) | st.text(max_size=3),
    lambda inner: st.lists(inner, max_size=6) | st.dictionaries(st.text(max_size=2), inner, max_size=4),
    max_leaves=200)


@settings(max_examples=300, deadline=None)
@given(_PLAIN)
def test_a_message_of_at_most_a_kilobyte_cannot_hold_too_many_objects(body: Any) -> None:
    # Why a message this short is decoded without counting: its count is under twice its bytes.
    data = _envelope("SubmitAnswer", body)
    assert _count(data) < 2 * len(data)


def test_the_most_objects_a_kilobyte_holds_are_under_the_limit() -> None:
    worst = b"\x91" * 1023 + b"\xc0"  # 1,023 nested one-element lists: two counted a byte
    assert len(worst) == MAX_PLAYER_OBJECTS // 2 and _count(worst) == MAX_PLAYER_OBJECTS - 2
    with pytest.raises(InvalidMessageError, match="expected a map"):  # not refused for its objects
        decode_from_player(worst)
    over = _array(b"\x91\xc0" * 683, 683)  # 1,369 bytes of one-element lists: counted, and over
    assert _count(over) == MAX_PLAYER_OBJECTS + 2
    with pytest.raises(InvalidMessageError, match=f"more than {MAX_PLAYER_OBJECTS} objects"):
        decode_from_player(over)


def test_a_short_message_is_checked_as_any_other() -> None:
    # Uncounted, a short message is still refused for anything else that is wrong with it.
    with pytest.raises(InvalidMessageError, match="invalid message: empty"):
        decode_from_player(b"")
    with pytest.raises(InvalidMessageError, match="a player does not send PriorityRequest"):
        decode_from_player(_envelope("PriorityRequest", {}))
    with pytest.raises(InvalidMessageError, match="invalid SubmitAnswer message"):
        decode_from_player(_envelope("SubmitAnswer", [[[]]]))


def test_every_kind_a_player_sends_has_a_cap_within_the_overall_cap() -> None:
    assert PLAYER_KINDS == {"SubmitAction", "SubmitAnswer", "RequestFullView", "SetStops",
                            "Forfeit", "Concede"}
    assert set(PLAYER_KIND_BYTES) == PLAYER_KINDS
    assert all(0 < cap <= MAX_PLAYER_MESSAGE_BYTES for cap in PLAYER_KIND_BYTES.values())
    assert MAX_PLAYER_MESSAGE_BYTES < MAX_MESSAGE_BYTES


def test_what_a_player_sends_decodes_as_before(messages: list[Message]) -> None:
    sent = [m for m in messages if m.KIND in PLAYER_KINDS]
    assert {m.KIND for m in sent} == PLAYER_KINDS
    for msg in sent:
        assert decode_from_player(encode(msg)) == msg
    # The largest legitimate messages the caps are derived from.
    big_action = SubmitAction(2**32, Action(
        "cast", 2**32, 3, tuple(range(2**20, 2**20 + 250)), 2**20,
        tuple((2**20 + i, 2) for i in range(250)), tuple(range(2**20, 2**20 + 250)),
        ("life",) * 20))
    big_answer = SubmitAnswer(Answer(2**32, tuple(range(250)),
                                     tuple((i, 250 + i) for i in range(250))))
    for msg in (big_action, big_answer):
        assert decode_from_player(encode(msg)) == msg
    every_step = SetStops(Stops(tuple(sorted(STOP_STEPS)), tuple(sorted(STOP_STEPS))))
    assert decode_from_player(encode(every_step)) == every_step


def test_a_kind_a_player_does_not_send_is_refused(messages: list[Message]) -> None:
    for msg in messages:
        if msg.KIND not in PLAYER_KINDS:
            with pytest.raises(InvalidMessageError,
                               match=rf"^invalid message: a player does not send {msg.KIND}$"):
                decode_from_player(encode(msg))
    assert set(MESSAGE_TYPES) - PLAYER_KINDS


def test_each_kind_has_its_own_byte_cap() -> None:
    padded = _envelope("RequestFullView", {"decision_id": 1, "padding": "x" * 100})
    with pytest.raises(InvalidMessageError, match=rf"^invalid RequestFullView message: "
                       rf"{len(padded)} bytes, over the limit of 64 for a RequestFullView$"):
        decode_from_player(padded)
    names = ["upkeep"] * 200
    stops = _envelope("SetStops", {"stops": {"my_turn": names, "opponents_turns": names,
                                             "stack": True}})
    assert PLAYER_KIND_BYTES["SetStops"] < len(stops) <= MAX_PLAYER_MESSAGE_BYTES
    with pytest.raises(InvalidMessageError, match=rf"^invalid SetStops message: {len(stops)} "
                       r"bytes, over the limit of 1024 for a SetStops$"):
        decode_from_player(stops)


def test_the_usual_refusals_read_as_from_decode() -> None:
    for data, why in [(b"\xc1", "0xc1"), (b"", "empty"), (b"\xdd\xff\xff\xff\xff", "limit exceeded"),
                      (_envelope("SubmitAction", {"decision_id": "one", "action": {"kind": "pass"}}),
                       "decision_id: expected int, got str 'one'")]:
        with pytest.raises(InvalidMessageError, match=why):
            decode_from_player(data)
    with pytest.raises(InvalidMessageError, match="expected bytes, got str"):
        decode_from_player("SubmitAction")  # type: ignore[arg-type]


# --------------------------------------------------------------------------- stops


def test_a_setting_may_name_at_most_every_step_once() -> None:
    assert MAX_STOP_NAMES == len(STOP_STEPS) == 12
    assert Stops(tuple(sorted(STOP_STEPS)), tuple(sorted(STOP_STEPS))).problem() == ""
    too_many = ("upkeep",) * (MAX_STOP_NAMES + 1)
    assert Stops(my_turn=too_many).problem() == (
        "my_turn: 13 step names, more than the 12 steps in which a player receives priority")
    assert Stops(opponents_turns=("draw",) * 65_535).problem().startswith(
        "opponents_turns: 65535 step names, more than the 12")
