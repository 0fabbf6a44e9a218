"""The wire format: msgpack envelopes ``{"k": KIND, "v": PROTOCOL_VERSION, "b": body}``.

The body is the message in the wire form of the schema engine (``spellstack.schema``): maps of field names, except the
small frequent records (``ObjectView`` and its ``ObjectMarks``, ``StackItemView``, ``PlayerChange``, ``Choice``,
``TargetRequirement``, ``ActionOption``, ``Event``), which are positional lists of their
fields in declaration order.

Decoding treats its input as hostile. The size of the buffer and of every
string and container is capped before anything is allocated, ext types
(timestamps included) and binary data are refused, and the body is validated
field by field against the message class. Any bad input raises
``InvalidMessageError`` naming what was wrong; no other exception escapes.

Nesting depth is bounded twice. While unpacking, msgpack's own limit applies
(the C unpacker stops at 1024 levels with ``StackError``, the pure-Python one
turns ``RecursionError`` into ``StackError``); both become
``InvalidMessageError``. After unpacking, ``from_wire`` descends only as deep
as the message's type allows (under a dozen levels), so anything nested deeper
is a type error at its path, quoted without recursion.

What a player sends is small, and is decoded by ``decode_from_player``, which bounds what a
message may cost before and while it is unpacked: at most ``MAX_PLAYER_MESSAGE_BYTES``
bytes, at most ``MAX_PLAYER_OBJECTS`` objects (counted by the unpacker's hooks as each
container is built, so a message of a million empty lists is stopped at the cap, not after
building them all), a kind a player sends (``PLAYER_KINDS``), and at most that kind's
``PLAYER_KIND_BYTES``.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from typing import Any, TypeVar, cast

import msgpack  # type: ignore[import-untyped]  # ships no type information

from spellstack.protocol._convert import compact, describe_value, short_repr, to_wire
from spellstack.protocol._messages import MESSAGE_TYPES, Message
from spellstack.protocol._session import CLIENT_SESSION_KINDS, SESSION_KIND_BYTES, SESSION_TYPES, SessionMessage
from spellstack.protocol._views import PlayerChange
from spellstack.rules.base import InvalidMessageError
from spellstack.rules.state import ActionOption, Choice, Event, TargetRequirement
from spellstack.rules.views import ObjectMarks, ObjectView, StackItemView
from spellstack.schema import SchemaError, from_wire, trusted_decoder, wire_encoder

__all__ = [
    "COMPACT_RECORDS",
    "MAX_ARRAY_LEN",
    "MAX_MAP_LEN",
    "MAX_MESSAGE_BYTES",
    "MAX_PLAYER_MESSAGE_BYTES",
    "MAX_PLAYER_OBJECTS",
    "MAX_STR_LEN",
    "PLAYER_KINDS",
    "PLAYER_KIND_BYTES",
    "PROTOCOL_VERSION",
    "Message",
    "decode",
    "decode_as",
    "decode_from_client",
    "decode_from_player",
    "decode_from_server",
    "decode_trusted",
    "encode",
    "encode_session",
]

M = TypeVar("M")

PROTOCOL_VERSION = 8
"""Version of the wire format; a decoder accepts only its own."""
MAX_MESSAGE_BYTES = 1 << 20
"""Largest encoded message accepted, in bytes."""
MAX_STR_LEN = 1 << 16
"""Longest string accepted, in bytes."""
MAX_ARRAY_LEN = 1 << 16
"""Most elements in one array."""
MAX_MAP_LEN = 1 << 10
"""Most entries in one map."""

MAX_PLAYER_MESSAGE_BYTES = 1 << 13
"""Largest message accepted from a player, in bytes (8 KiB): nearly twice an action naming
250 targets, 250 divisions and 250 permanents to pay with, every id a 32-bit one (4.5 KB),
four times an answer choosing 250 keys and pairing 250 attackers with what they attack
(1.8 KB). What a game's own bots send is under 200 bytes. The lower the limit, the less a
message refused for its objects costs to refuse (the worst 8 KiB costs about 0.6 ms)."""
MAX_PLAYER_OBJECTS = 1 << 11
"""Most objects a message from a player may hold (2,048), counted as the unpacker builds
them: each container once for itself and once for each of its elements (a map's key and value
are two). The action above counts 1,553, the answer 1,269, a pass 33."""
_UNCOUNTED_BYTES = MAX_PLAYER_OBJECTS // 2
"""A message from a player of at most this many bytes is not counted: every object takes a
byte at least, and the count is each object once (but the outermost) and each container once
more, under twice the bytes: at most 2,047 here. Most messages are far shorter."""

PLAYER_KINDS: frozenset[str] = frozenset(
    kind for kind, cls in MESSAGE_TYPES.items() if ("player", "coordinator") in cls.ROUTES)
"""The kinds a player sends (read off the messages' routes); ``decode_from_player`` refuses
any other kind."""
PLAYER_KIND_BYTES: dict[str, int] = {
    "SubmitAction": MAX_PLAYER_MESSAGE_BYTES,
    "SubmitAnswer": MAX_PLAYER_MESSAGE_BYTES,
    "SetStops": 1 << 10,
    "RequestFullView": 64,
    "Forfeit": MAX_PLAYER_MESSAGE_BYTES,
    "Concede": 64,
}
"""Largest message of each kind a player sends, in bytes: an action or an answer 8 KiB, a
setting 1 KiB (every step name twice is 374 bytes), a request for the full view 64 bytes (46
with the largest decision id), a forfeit 8 KiB (its reason is free text, such as the text of
the exception that ended a bot; the engine's player actor cuts it to 200 characters), a
concession 64 bytes (it has no fields: 23 bytes)."""

COMPACT_RECORDS: tuple[type, ...] = (
    ObjectMarks, ObjectView, StackItemView, PlayerChange, Choice, TargetRequirement, ActionOption, Event)
"""Records sent as positional lists: the ones a message carries by the dozen."""
for _record in COMPACT_RECORDS:
    compact(_record)

_KIND_OF: dict[type, str] = {cls: kind for kind, cls in MESSAGE_TYPES.items()}
_SESSION_KIND_OF: dict[type, str] = {cls: kind for kind, cls in SESSION_TYPES.items()}
_TRUSTED_DECODERS: dict[str, Callable[[Any], Message]] = {}
"""Each kind's reader of trusted wire-form data, once ``decode_trusted`` has met it."""
_ENCODERS: dict[type, tuple[str, Callable[[Any], Any]]] = {}
"""Each message class's kind and wire-form writer, once ``encode`` has met it (``_encoder``)."""
_CLIENT_TYPES: dict[str, type] = {**{kind: MESSAGE_TYPES[kind] for kind in PLAYER_KINDS},
                                  **{kind: SESSION_TYPES[kind] for kind in CLIENT_SESSION_KINDS}}
"""What a client of the server sends: a player's messages and the client's session messages."""
_ALL_KINDS: frozenset[str] = frozenset(MESSAGE_TYPES) | frozenset(SESSION_TYPES)
"""Every kind of message and session message."""
_CLIENT_KIND_BYTES: dict[str, int] = {**PLAYER_KIND_BYTES, **SESSION_KIND_BYTES}
_SERVER_TYPES: dict[str, type] = {
    **{kind: cls for kind, cls in MESSAGE_TYPES.items() if ("coordinator", "player") in cls.ROUTES},
    **{kind: cls for kind, cls in SESSION_TYPES.items() if kind not in CLIENT_SESSION_KINDS}}
"""What the server sends a client: the coordinator's messages to a player, and the server's
session messages."""
_PACKER = msgpack.Packer(use_bin_type=True)
"""One packer for every message (``packb`` builds a new one per call); it resets after each."""
_ENVELOPE_KEYS = frozenset(("k", "v", "b"))


class _ExtRefused(Exception):
    """Raised from the unpacker's ext hook: ext types never appear in a message."""

    def __init__(self, code: int) -> None:
        super().__init__(code)
        self.code = code


def _refuse_ext(code: int, data: bytes) -> Any:
    raise _ExtRefused(code)


class _TooManyObjects(Exception):
    """Raised from the unpacker's container hooks past ``MAX_PLAYER_OBJECTS``."""


_UNPACK_OPTIONS: dict[str, Any] = {
    "raw": False,
    "use_list": True,
    "strict_map_key": True,
    "max_str_len": MAX_STR_LEN,
    "max_bin_len": 0,
    "max_array_len": MAX_ARRAY_LEN,
    "max_map_len": MAX_MAP_LEN,
    "max_ext_len": 0,
    "ext_hook": _refuse_ext,
}


def encode(msg: Message) -> bytes:
    """Encode a message as a msgpack envelope.

    The output is deterministic: equal messages give equal bytes.

    Raises:
        TypeError: ``msg`` is not a message.
        InvalidMessageError: The encoding exceeds ``MAX_MESSAGE_BYTES``.
    """
    entry = _ENCODERS.get(type(msg))
    if entry is None:
        entry = _encoder(type(msg))
    kind, convert = entry
    data: bytes = _PACKER.pack({"k": kind, "v": PROTOCOL_VERSION, "b": convert(msg)})
    if len(data) > MAX_MESSAGE_BYTES:
        raise InvalidMessageError(
            f"{kind}: encodes to {len(data)} bytes, over the limit of {MAX_MESSAGE_BYTES}"
        )
    return data


def _encoder(cls: type) -> tuple[str, Callable[[Any], Any]]:
    """A message class's kind and wire-form writer (``to_wire``'s for the class), kept in
    ``_ENCODERS``; ``TypeError`` if ``cls`` is no message class."""
    kind = _KIND_OF.get(cls)
    if kind is None:
        raise TypeError(f"not a message: {cls.__name__}")
    entry = _ENCODERS[cls] = (kind, wire_encoder(cls))
    return entry


def encode_session(msg: SessionMessage) -> bytes:
    """Encode a session message as a msgpack envelope, as ``encode`` does a game's message.

    Raises:
        TypeError: ``msg`` is not a session message.
        InvalidMessageError: The encoding exceeds ``MAX_MESSAGE_BYTES``.
    """
    kind = _SESSION_KIND_OF.get(type(msg))
    if kind is None:
        raise TypeError(f"not a session message: {type(msg).__name__}")
    data: bytes = _PACKER.pack({"k": kind, "v": PROTOCOL_VERSION, "b": to_wire(msg)})
    if len(data) > MAX_MESSAGE_BYTES:
        raise InvalidMessageError(
            f"{kind}: encodes to {len(data)} bytes, over the limit of {MAX_MESSAGE_BYTES}"
        )
    return data


def decode(data: bytes | bytearray | memoryview) -> Message:
    """Decode and validate one message from untrusted bytes.

    Raises:
        InvalidMessageError: The bytes are not a valid message of this protocol
            version; the message says what was wrong, and where.
    """
    kind, body = _open(data)
    msg: Message = _build(kind, body)
    return msg


def decode_from_player(data: bytes | bytearray | memoryview) -> Message:
    """Decode and validate one message a player sent, within the player's limits: at most
    ``MAX_PLAYER_MESSAGE_BYTES`` bytes and ``MAX_PLAYER_OBJECTS`` objects, one of
    ``PLAYER_KINDS``, at most its kind's ``PLAYER_KIND_BYTES``.

    Raises:
        InvalidMessageError: As ``decode``, or a limit is exceeded (the message names the
            limit and the figure), or the kind is not one a player sends.
    """
    msg: Message = _decode_limited(data, MESSAGE_TYPES, MESSAGE_TYPES, PLAYER_KINDS, PLAYER_KIND_BYTES,
                                   "a player")
    return msg


def decode_from_client(data: bytes | bytearray | memoryview) -> Message | SessionMessage:
    """Decode and validate one message a client of the server sent: a player's message or a
    client's session message (``CLIENT_SESSION_KINDS``), within the player's limits and each
    kind's (``PLAYER_KIND_BYTES``, ``SESSION_KIND_BYTES``).

    Raises:
        InvalidMessageError: As ``decode_from_player``; any other kind is refused (``a client
            does not send PriorityRequest``).
    """
    msg: Message | SessionMessage = _decode_limited(data, _CLIENT_TYPES, _ALL_KINDS, _CLIENT_TYPES,
                                                    _CLIENT_KIND_BYTES, "a client")
    return msg


def decode_from_server(data: bytes | bytearray | memoryview) -> Message | SessionMessage:
    """Decode and validate one message the server sent a client: the coordinator's message to
    a player, or a session message of the server's (for clients written in Python).

    Raises:
        InvalidMessageError: As ``decode``, or the kind is not one the server sends.
    """
    kind, body = _open(data, kinds=_ALL_KINDS)
    if kind not in _SERVER_TYPES:
        raise InvalidMessageError(f"invalid message: the server does not send {kind}")
    msg: Message | SessionMessage = _build(kind, body, _SERVER_TYPES)
    return msg


def _decode_limited(data: bytes | bytearray | memoryview, types: Mapping[str, type], known: Collection[str],
                    kinds: Collection[str], kind_bytes: Mapping[str, int], who: str) -> Any:
    """Decode a message of one of ``kinds`` (classes in ``types``; ``known``: every kind it
    knows of, to refuse one that ``who`` does not send by name) from ``who`` within the
    player's limits and ``kind_bytes``."""
    size = _size(data)
    if size > MAX_PLAYER_MESSAGE_BYTES:
        raise InvalidMessageError(
            f"invalid message: {size} bytes, over the limit of {MAX_PLAYER_MESSAGE_BYTES} "
            f"for a message from {who}"
        )
    if size <= _UNCOUNTED_BYTES:  # too short to hold too many objects: nothing to count
        kind, body = _open(data, kinds=known)
    else:
        kind, body = _open(data, _counting_hooks(), kinds=known)
    if kind not in kinds:
        raise InvalidMessageError(f"invalid message: {who} does not send {kind}")
    limit = kind_bytes[kind]
    if size > limit:
        raise InvalidMessageError(
            f"invalid {kind} message: {size} bytes, over the limit of {limit} for a {kind}"
        )
    return _build(kind, body, types)


def _counting_hooks() -> dict[str, Any]:
    """The unpacker's hooks that count the objects of one message as it is unpacked and stop
    it past ``MAX_PLAYER_OBJECTS`` (``_TooManyObjects``)."""
    count = 0

    def a_list(obj: list[Any]) -> list[Any]:
        nonlocal count
        count += len(obj) + 1
        if count > MAX_PLAYER_OBJECTS:
            raise _TooManyObjects
        return obj

    def a_map(obj: dict[str, Any]) -> dict[str, Any]:
        nonlocal count
        count += 2 * len(obj) + 1
        if count > MAX_PLAYER_OBJECTS:
            raise _TooManyObjects
        return obj

    return {"list_hook": a_list, "object_hook": a_map}


def decode_trusted(data: bytes) -> Message:
    """Decode a message that this program encoded (``encode``), without validating it: for
    messages between the engine's own actors (the stack actor, the SBA checker, the tracer),
    never for bytes from a player."""
    raw = msgpack.unpackb(data)  # strings as str (``raw=False``) is msgpack's default: no keywords to parse
    kind = raw["k"]
    read = _TRUSTED_DECODERS.get(kind)
    if read is None:
        read = _TRUSTED_DECODERS[kind] = trusted_decoder(MESSAGE_TYPES[kind])
    return read(raw["b"])


def decode_as(data: bytes | bytearray | memoryview, cls: type[M]) -> M:
    """Decode a message that must be of class ``cls``.

    Raises:
        InvalidMessageError: As ``decode``, or the message is of another kind.
        TypeError: ``cls`` is not a message class.
    """
    expected = _KIND_OF.get(cls)
    if expected is None:
        raise TypeError(f"not a message class: {cls!r}")
    kind, body = _open(data)
    if kind != expected:
        raise InvalidMessageError(f"invalid message: expected a {expected}, got a {kind}")
    return cast(M, _build(kind, body))


def _open(data: Any, hooks: dict[str, Any] | None = None, *,
          kinds: Collection[str] = MESSAGE_TYPES) -> tuple[str, Any]:
    """Unpack within limits (``hooks``: more options for the unpacker) and check the envelope
    (``kinds``: the kinds known); return the kind and the raw body."""
    raw = _unpack(data, hooks)
    if type(raw) is not dict:
        raise InvalidMessageError(
            f"invalid message: expected a map with keys 'k', 'v', 'b', got {describe_value(raw)}"
        )
    if raw.keys() != _ENVELOPE_KEYS:
        missing = sorted(_ENVELOPE_KEYS - raw.keys())
        extra = sorted(short_repr(k) for k in raw.keys() - _ENVELOPE_KEYS)
        parts = []
        if missing:
            parts.append("missing " + ", ".join(repr(k) for k in missing))
        if extra:
            parts.append("unexpected " + ", ".join(extra[:5]))
        raise InvalidMessageError(
            f"invalid message: envelope must have exactly 'k', 'v', 'b' ({'; '.join(parts)})"
        )
    kind = raw["k"]
    if type(kind) is not str:
        raise InvalidMessageError(
            f"invalid message: kind must be a str, got {describe_value(kind)}"
        )
    version = raw["v"]
    if version != PROTOCOL_VERSION or type(version) is not int:
        name = kind if kind in kinds else short_repr(kind)
        shown = short_repr(version) if type(version) is int else describe_value(version)
        raise InvalidMessageError(
            f"invalid {name} message: unsupported protocol version {shown} "
            f"(this side speaks {PROTOCOL_VERSION})"
        )
    if kind not in kinds:
        raise InvalidMessageError(f"invalid message: unknown kind {short_repr(kind)}")
    return kind, raw["b"]


def _build(kind: str, body: Any, types: Mapping[str, type] = MESSAGE_TYPES) -> Any:
    cls = types[kind]
    try:
        msg: Any = from_wire(cls, body)
    except SchemaError as bad:  # a name of its own: compiled code (mypyc) types each name once
        raise InvalidMessageError(f"invalid {kind} message: {bad}") from None
    except Exception as exc:  # pragma: no cover - a bug, but never let it kill a game
        raise InvalidMessageError(
            f"invalid {kind} message: validation failed ({type(exc).__name__}: {exc})"
        ) from exc
    return msg


def _size(data: Any) -> int:
    """The length of ``data`` in bytes; an ``InvalidMessageError`` if it is not bytes."""
    if not isinstance(data, bytes | bytearray | memoryview):
        raise InvalidMessageError(f"invalid message: expected bytes, got {type(data).__name__}")
    size: int = data.nbytes if isinstance(data, memoryview) else len(data)
    return size


def _unpack(data: Any, hooks: dict[str, Any] | None = None) -> Any:
    size = _size(data)
    if size > MAX_MESSAGE_BYTES:
        raise InvalidMessageError(
            f"invalid message: {size} bytes, over the limit of {MAX_MESSAGE_BYTES}"
        )
    if size == 0:
        raise InvalidMessageError("invalid message: empty")
    try:
        if hooks is None:
            return msgpack.unpackb(data, **_UNPACK_OPTIONS)
        return msgpack.unpackb(data, **_UNPACK_OPTIONS, **hooks)
    except _TooManyObjects:
        reason = (f"more than {MAX_PLAYER_OBJECTS} objects, the limit for a message from a "
                  "player")
    except msgpack.ExtraData:
        reason = "trailing bytes after the message"
    except msgpack.StackError:
        reason = "nested too deeply"
    except RecursionError:
        reason = "nested too deeply"
    except msgpack.FormatError:
        reason = "not msgpack (reserved byte 0xc1)"
    except _ExtRefused as refused:  # each a name of its own: compiled code types each name once
        reason = f"ext type {refused.code} not allowed"
    except UnicodeDecodeError:
        reason = "a string is not valid UTF-8"
    except ValueError as bad:
        text = str(bad)
        if "incomplete input" in text:
            reason = "truncated (incomplete msgpack data)"
        elif "max_bin_len" in text:
            reason = "binary data not allowed"
        elif "max_ext_len" in text:
            reason = "ext types not allowed"
        elif "strict_map_key" in text:
            reason = "a map key is not a string"
        elif "exceeds max_" in text:
            reason = f"limit exceeded: {text}"
        else:
            reason = f"malformed msgpack: {text}"
    except Exception as exc:
        reason = f"malformed msgpack: {type(exc).__name__}: {short_repr(str(exc))}"
    raise InvalidMessageError(f"invalid message: {reason}")
