"""The session messages of ``spellstack serve``: in the game's envelope, a registry of their
own (no kind shared with a game's messages), decoded from a client within a player's limits and
each kind's cap, and the server's kinds refused from a client (and a client's from the server)."""

from __future__ import annotations

import msgpack  # type: ignore[import-untyped]
import pytest

from spellstack.protocol import (
    CLIENT_SESSION_KINDS,
    MAX_CHAT_COMMAND,
    MAX_END_REASON,
    MAX_PLAYER_MESSAGE_BYTES,
    MESSAGE_TYPES,
    PLAYER_KINDS,
    PROTOCOL_VERSION,
    SESSION_KIND_BYTES,
    SESSION_TYPES,
    ChatAnswer,
    ChatCommand,
    ChatSeat,
    ChatText,
    CreateChat,
    CreateGame,
    EndChat,
    Entered,
    GameCreated,
    GameEvent,
    GameOver,
    Goodbye,
    Hello,
    JoinChat,
    JoinEntrant,
    JoinSeat,
    NextGame,
    PriorityRequest,
    Resync,
    SeatSpec,
    SeatToken,
    SessionError,
    Spectate,
    SubmitAction,
    Unseated,
    Watched,
    Welcome,
    decode_from_client,
    decode_from_server,
    encode,
    encode_session,
)
from spellstack.rules import Action
from spellstack.rules.base import InvalidMessageError

LONGEST_NAME = "n" * 39
TOKEN = "t" * 43


def test_session_kinds_are_their_own_and_every_client_kind_has_a_cap() -> None:
    assert set(SESSION_TYPES).isdisjoint(MESSAGE_TYPES)
    assert set(SESSION_KIND_BYTES) == CLIENT_SESSION_KINDS
    assert CLIENT_SESSION_KINDS == {"Hello", "CreateGame", "JoinSeat", "Spectate", "Resync", "Goodbye", "JoinEntrant",
                                    "NextGame", "CreateChat", "JoinChat", "ChatCommand", "EndChat"}


def test_the_largest_legitimate_session_messages_fit_their_caps_with_room() -> None:
    largest = CreateGame(tuple(SeatSpec(LONGEST_NAME + str(n), "orzhov", "heuristic") for n in range(4)),
                         deadline=599.5, clock="86400+3600", spectate="token", seed=(1 << 63) - 1, turn_limit=1000)
    sizes = {"CreateGame": len(encode_session(largest)), "JoinSeat": len(encode_session(JoinSeat(TOKEN))),
             "Spectate": len(encode_session(Spectate(TOKEN))), "Hello": len(encode_session(Hello(PROTOCOL_VERSION))),
             "Resync": len(encode_session(Resync())), "Goodbye": len(encode_session(Goodbye()))}
    assert sizes["CreateGame"] < 600 and sizes["JoinSeat"] < 80 and sizes["Hello"] < 40
    for kind, size in sizes.items():
        assert size * 1.5 < SESSION_KIND_BYTES[kind], kind
    assert decode_from_client(encode_session(largest)) == largest


def test_the_largest_legitimate_chat_and_entrant_messages_fit_their_caps() -> None:
    # Four 60-card decks of 20 distinct cards with long names, every field given.
    deck = tuple(f"A Card Name Thirty Chars Long{n % 20:02d}"[:30] for n in range(60))
    largest = CreateChat(tuple(ChatSeat(LONGEST_NAME + str(n), "a" * 40, deck, "", 86400.5, 100) for n in range(4)),
                         seed=(1 << 63) - 1, turn_limit=1000)
    assert len(encode_session(largest)) < SESSION_KIND_BYTES["CreateChat"] == MAX_PLAYER_MESSAGE_BYTES
    assert decode_from_client(encode_session(largest)) == largest
    longest = ChatCommand("\U0001F600" * MAX_CHAT_COMMAND)  # four bytes each in UTF-8
    assert decode_from_client(encode_session(longest)) == longest
    ending = EndChat(TOKEN, "\U0001F600" * MAX_END_REASON)
    assert decode_from_client(encode_session(ending)) == ending
    for small in (JoinEntrant(TOKEN), JoinChat(TOKEN), NextGame()):
        assert len(encode_session(small)) * 1.5 < SESSION_KIND_BYTES[small.KIND]


def test_a_client_s_messages_both_kinds_decode_within_their_limits() -> None:
    action = SubmitAction(3, Action("pass"))
    assert decode_from_client(encode(action)) == action
    assert decode_from_client(encode_session(JoinSeat(TOKEN))) == JoinSeat(TOKEN)
    too_long = encode_session(JoinSeat("x" * 200))
    with pytest.raises(InvalidMessageError, match=r"over the limit of 128 for a JoinSeat"):
        decode_from_client(too_long)
    huge = encode_session(JoinSeat("x" * MAX_PLAYER_MESSAGE_BYTES))
    with pytest.raises(InvalidMessageError, match=r"over the limit of 8192 for a message from a client"):
        decode_from_client(huge)
    # Fields with defaults may be left out; unknown ones may not.
    bare = msgpack.packb({"k": "CreateGame", "v": PROTOCOL_VERSION,
                          "b": {"seats": [{"name": "a", "deck": "gruul"}, {"name": "b", "deck": "dimir"}]}})
    created = decode_from_client(bare)
    assert isinstance(created, CreateGame) and created.spectate == "none" and created.seed is None
    extra = msgpack.packb({"k": "Resync", "v": PROTOCOL_VERSION, "b": {"now": True}})
    with pytest.raises(InvalidMessageError, match="now"):
        decode_from_client(extra)
    wrong = msgpack.packb({"k": "CreateGame", "v": PROTOCOL_VERSION, "b": {"seats": [], "spectate": "all"}})
    with pytest.raises(InvalidMessageError, match="spectate"):
        decode_from_client(wrong)


@pytest.mark.parametrize("msg", [Welcome(PROTOCOL_VERSION, "0.1.0", 60.0), SessionError("no"),
                                 GameCreated("g", (SeatToken(0, "a", TOKEN),), ""), Watched(0, ()),
                                 Entered("a", "gruul"), Unseated("r1-m1-g1"), ChatText("hi"), ChatAnswer("OK.")])
def test_a_client_does_not_send_what_the_server_sends(
        msg: Welcome | SessionError | GameCreated | Watched | Entered | Unseated | ChatText | ChatAnswer) -> None:
    with pytest.raises(InvalidMessageError, match=f"a client does not send {msg.KIND}"):
        decode_from_client(encode_session(msg))
    assert decode_from_server(encode_session(msg)) == msg


def test_the_server_sends_a_player_s_messages_and_its_own_session_messages_only() -> None:
    over = GameOver("bob", ("alice",), "bob wins")
    assert decode_from_server(encode(over)) == over
    event = GameEvent(1, "upkeep", "step", 0, "alice's upkeep")
    assert decode_from_server(encode_session(Watched(4, (event,)))) == Watched(4, (event,))
    for msg in (Hello(PROTOCOL_VERSION), Resync()):
        with pytest.raises(InvalidMessageError, match=f"the server does not send {msg.KIND}"):
            decode_from_server(encode_session(msg))
    with pytest.raises(InvalidMessageError, match="the server does not send SubmitAction"):
        decode_from_server(encode(SubmitAction(1, Action("pass"))))
    assert {k for k, cls in MESSAGE_TYPES.items() if ("coordinator", "player") in cls.ROUTES} >= {PriorityRequest.KIND}
    assert PLAYER_KINDS <= set(MESSAGE_TYPES)


def test_encode_session_refuses_a_game_message() -> None:
    with pytest.raises(TypeError, match="not a session message: SubmitAction"):
        encode_session(SubmitAction(1, Action("pass")))  # type: ignore[arg-type]
