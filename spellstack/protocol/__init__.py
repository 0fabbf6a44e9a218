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
    SubmitAction,
    SubmitAnswer,
)

__all__ = [
    "MAX_ARRAY_LEN",
    "MAX_MAP_LEN",
    "MAX_MESSAGE_BYTES",
    "MAX_STR_LEN",
    "MESSAGE_TYPES",
    "PROTOCOL_VERSION",
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
    "SubmitAction",
    "SubmitAnswer",
    "decode",
    "decode_as",
    "encode",
    "from_plain",
    "to_plain",
]
