"""The protocol: every inter-actor message, its msgpack encoding, validation and limits.

``encode`` turns a message into bytes; ``decode`` turns untrusted bytes back
into a message or raises ``InvalidMessageError`` saying what was wrong.
"""

from spellstack.protocol._codec import (
    MAX_ARRAY_LEN,
    MAX_MAP_LEN,
    MAX_MESSAGE_BYTES,
    MAX_STR_LEN,
    PROTOCOL_VERSION,
    decode,
    decode_as,
    encode,
)
from spellstack.protocol._convert import from_plain, to_plain
from spellstack.protocol._messages import (
    MESSAGE_TYPES,
    Accepted,
    AskPlayer,
    CheckSBA,
    CoordinatorEvent,
    DecisionRequest,
    ErrorReply,
    Forfeit,
    GameOver,
    Message,
    PlayerReply,
    PriorityRequest,
    Rejected,
    Resolve,
    Resolved,
    SBABatch,
    SetStops,
    StopsSet,
    SubmitAction,
    SubmitAnswer,
)
from spellstack.protocol._stops import NO_PRIORITY_STEPS, STOP_STEPS, Stops

__all__ = [
    "MAX_ARRAY_LEN",
    "MAX_MAP_LEN",
    "MAX_MESSAGE_BYTES",
    "MAX_STR_LEN",
    "MESSAGE_TYPES",
    "NO_PRIORITY_STEPS",
    "PROTOCOL_VERSION",
    "STOP_STEPS",
    "Accepted",
    "AskPlayer",
    "CheckSBA",
    "CoordinatorEvent",
    "DecisionRequest",
    "ErrorReply",
    "Forfeit",
    "GameOver",
    "Message",
    "PlayerReply",
    "PriorityRequest",
    "Rejected",
    "Resolve",
    "Resolved",
    "SBABatch",
    "SetStops",
    "Stops",
    "StopsSet",
    "SubmitAction",
    "SubmitAnswer",
    "decode",
    "decode_as",
    "encode",
    "from_plain",
    "to_plain",
]
