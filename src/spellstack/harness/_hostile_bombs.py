"""Object-count bombs: small messages that would cost a lot to decode, and a seat that
alternates them with refused actions.

A bomb is a submission of the kind the request wants (``SubmitAction`` for priority,
``SubmitAnswer`` otherwise) whose body is objects by the thousand, each of one or a few bytes:
about a million empty lists in at most ``MAX_MESSAGE_BYTES`` (past the player's byte cap, but
within every per-container cap), or, within the player's byte cap, empty lists, tiny maps,
one-int lists, small ints, empty strings, or the legal reply with one list field holding
thousands of zeros (past the player's object cap). The coordinator must refuse each with an
``ErrorReply`` naming the limit, at once, changing nothing.

``BombCycle`` is the seat that leaves by sending bombs alternating with actions the kernel
refuses: a refused action does not end a run of malformed messages, so the third bomb forfeits
the seat (``MAX_STRIKES``).
"""

from __future__ import annotations

from typing import Any

import msgpack  # type: ignore[import-untyped]  # ships no type information

from ..protocol import (
    MAX_MESSAGE_BYTES,
    MAX_PLAYER_MESSAGE_BYTES,
    MAX_PLAYER_OBJECTS,
    PROTOCOL_VERSION,
    DecisionRequest,
    PriorityRequest,
    SubmitAction,
    SubmitAnswer,
    encode,
    to_wire,
)
from ..rules import FIRST_OBJECT_ID, Action, GameRandom

__all__ = ["BOMB_KINDS", "BOMB_LIMIT_WORDS", "BOMB_SHAPES", "BombCycle", "object_bomb"]

BOMB_SHAPES: tuple[str, ...] = ("million_lists", "lists", "maps", "one_int_lists", "ints",
                                "strings", "in_body")
"""The bombs' shapes, drawn evenly."""
BOMB_KINDS: tuple[str, ...] = ("object_bomb", "bomb_cycle")
"""The stream's kinds whose every message is a bomb (the mutation; the bombs of a cycle)."""
BOMB_LIMIT_WORDS: tuple[str, ...] = ("over the limit of", "objects, the limit")
"""A bomb's refusal names a limit: its reason holds one of these."""

_CHUNK = 65_535
"""Elements per array: msgpack's 16-bit array header, within ``MAX_ARRAY_LEN``."""


def _array_header(n: int) -> bytes:
    if n < 16:
        return bytes([0x90 + n])
    if n <= 0xFFFF:
        return b"\xdc" + n.to_bytes(2, "big")
    return b"\xdd" + n.to_bytes(4, "big")


def _head(kind: str) -> bytes:
    """An envelope ``{"k": kind, "v": PROTOCOL_VERSION, "b": ...}`` up to its body."""
    head: bytes = (b"\x83" + msgpack.packb("k") + msgpack.packb(kind) + msgpack.packb("v")
                   + msgpack.packb(PROTOCOL_VERSION) + msgpack.packb("b"))
    return head


def _filled(head: bytes, element: bytes, size: int) -> bytes:
    """``head`` and a body of lists of ``element`` (65,535 to a list), as many as ``size``
    bytes hold in all."""
    room = size - len(head) - 5
    chunk = _array_header(_CHUNK) + element * _CHUNK
    whole, rest = divmod(room, len(chunk))
    parts = [chunk] * whole
    tail = max(0, (rest - 3) // len(element))
    if tail:
        parts.append(_array_header(tail) + element * tail)
    return head + _array_header(len(parts)) + b"".join(parts)


def object_bomb(rng: GameRandom, request: PriorityRequest | DecisionRequest,
                legal: SubmitAction | SubmitAnswer) -> bytes:
    """A bomb of a shape drawn from ``BOMB_SHAPES``, of the kind of ``legal`` (the legal
    reply to ``request``, whose body the ``in_body`` shape starts from)."""
    head = _head(legal.KIND)
    shape = rng.choice(BOMB_SHAPES)
    # Within the player's byte cap, from half as much again as the object cap (every shape
    # holds at least one object per byte) to the byte cap.
    small = MAX_PLAYER_MESSAGE_BYTES - rng.below(
        max(1, MAX_PLAYER_MESSAGE_BYTES - 3 * MAX_PLAYER_OBJECTS // 2))
    if shape == "million_lists":
        return _filled(head, b"\x90", MAX_MESSAGE_BYTES - rng.below(1024))
    if shape == "lists":
        return _filled(head, b"\x90", small)
    if shape == "maps":
        return _filled(head, b"\x81\xa0\x00", small)  # {"": 0}
    if shape == "one_int_lists":
        return _filled(head, b"\x91\x00", small)  # [0]
    if shape == "ints":
        return _filled(head, bytes([rng.below(128)]), small)
    if shape == "strings":
        return _filled(head, b"\xa0", small)
    body: Any = to_wire(legal)
    zeros = [0] * (MAX_PLAYER_OBJECTS + 1 + rng.below(MAX_PLAYER_OBJECTS // 4))
    if isinstance(legal, SubmitAction):
        body["action"]["targets" if rng.below(2) else "pay"] = zeros
    else:
        body["answer"]["keys" if rng.below(2) else "pairs"] = zeros
    data: bytes = msgpack.packb({"k": legal.KIND, "v": PROTOCOL_VERSION, "b": body},
                                use_bin_type=True)
    return data


class BombCycle:
    """The messages of a seat leaving by bombs alternating with refused actions: to a priority
    request, a refused action after each bomb; to any other request, a bomb. Each comes with
    its kind: ``bomb_cycle`` for a bomb, ``out_of_turn`` for a refused action."""

    def __init__(self, rng: GameRandom) -> None:
        self.rng = rng
        self.bombed = False
        """Whether the last message of the cycle was a bomb."""
        self.started = False
        """Whether the cycle has begun (its sender waits until no malformed message counts)."""

    def next(self, request: PriorityRequest | DecisionRequest,
             legal: SubmitAction | SubmitAnswer) -> tuple[str, bytes]:
        """The kind and bytes of the next message of the cycle for ``request`` (``legal``: its
        legal reply)."""
        if self.bombed and isinstance(request, PriorityRequest):
            self.bombed = False
            # No object has an id below FIRST_OBJECT_ID: refused every time.
            return "out_of_turn", encode(SubmitAction(request.decision.id,
                                                      Action("play", FIRST_OBJECT_ID - 1)))
        self.bombed = True
        return "bomb_cycle", object_bomb(self.rng, request, legal)
