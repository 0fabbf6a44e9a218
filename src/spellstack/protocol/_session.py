"""The session messages: what a client of ``spellstack serve`` and the server say around a game.

A connection to the server carries, one per binary WebSocket message, msgpack envelopes as the
game's own channels do (``{"k": KIND, "v": PROTOCOL_VERSION, "b": body}``): the session
messages below, and, once the connection plays a seat, the player protocol's messages exactly as
the coordinator sends and reads them. A session message is not a ``Message`` of a game: it
crosses no channel between a game's actors and is never traced.

A client says ``Hello`` first (the server answers ``Welcome``), may ``CreateGame`` (answered by
``GameCreated``, holding one secret token per seat and one for spectators), and then plays a
seat (``JoinSeat``, answered by ``Seated``) or watches (``Spectate``, answered by
``Watching``, then ``Watched`` batches of public events). ``Resync`` asks for the full view
again, ``Goodbye`` leaves; whatever is refused is answered by ``SessionError``
(``docs/protocol.md``, "Sessions").

A tournament's remote entrant says ``JoinEntrant`` with its entrant token (answered by
``Entered``) and then ``NextGame`` whenever it is ready for a game: it is seated (``Seated``),
plays the game, gets its ``GameOver``, and says ``NextGame`` again. A chat front end creates a
game played by text (``CreateChat``, answered by ``ChatCreated``: a token per person's seat and
the game's owner token), plays each person's seat on a connection of its own (``JoinChat``,
answered by ``ChatJoined``; ``ChatCommand`` in, ``ChatAnswer`` and ``ChatText`` out, then
``ChatOver``), and may end the game with the owner token (``EndChat``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import ClassVar, Literal, TypeAlias, get_args

from spellstack.protocol._messages import GameEvent
from spellstack.rules import DEFAULT_TURN_LIMIT

__all__ = [
    "CLIENT_SESSION_KINDS",
    "MAX_CHAT_COMMAND",
    "MAX_END_REASON",
    "SESSION_KIND_BYTES",
    "SESSION_TYPES",
    "ChatAnswer",
    "ChatCommand",
    "ChatCreated",
    "ChatJoined",
    "ChatOver",
    "ChatSeat",
    "ChatText",
    "CreateChat",
    "CreateGame",
    "EndChat",
    "Entered",
    "GameCreated",
    "Goodbye",
    "Hello",
    "JoinChat",
    "JoinEntrant",
    "JoinSeat",
    "NextGame",
    "Resync",
    "SeatSpec",
    "SeatToken",
    "Seated",
    "SessionError",
    "SessionMessage",
    "Spectate",
    "Unseated",
    "Watched",
    "Watching",
    "Welcome",
]

Spectators: TypeAlias = Literal["none", "token"]
"""Who may watch a game: nobody, or whoever holds its spectator token."""


@dataclass(frozen=True, slots=True)
class Hello:
    """Client→server, its first message: the protocol version it speaks."""

    KIND: ClassVar[str] = "Hello"
    protocol: int
    """The player protocol's version (``PROTOCOL_VERSION``), the ``v`` of every message."""


@dataclass(frozen=True, slots=True)
class Welcome:
    """Server→client, the answer to ``Hello``."""

    KIND: ClassVar[str] = "Welcome"
    protocol: int
    """The protocol version the server speaks."""
    server: str
    """The server's engine version."""
    grace: float
    """Seconds a seat's client may be away (disconnected, or not joined yet) before its seat
    forfeits."""


@dataclass(frozen=True, slots=True)
class SeatSpec:
    """One seat of a game to create."""

    name: str
    """The player's name: 1 to 40 letters, digits, ``_``, ``-`` or ``.``."""
    deck: str
    """A built-in deck's name (``dimir``, ``gruul``, ``orzhov``): never a path."""
    bot: str = ""
    """Empty: a remote seat, played by whoever joins with its token; else a built-in bot's
    name (``random``, ``heuristic``), played on the server."""


@dataclass(frozen=True, slots=True)
class CreateGame:
    """Client→server: host a game."""

    KIND: ClassVar[str] = "CreateGame"
    seats: tuple[SeatSpec, ...]
    """The seats in turn order, 2 to 4 of them."""
    deadline: float = 30.0
    """Seconds each seat has for one decision."""
    clock: str = ""
    """Each seat's game clock, ``BASE+INC`` in seconds (``60+0.5``); empty: none."""
    spectate: Spectators = "none"
    """Who may watch: ``none``, or ``token`` (whoever holds the spectator token). A watched
    game is traced for its spectator feed, which costs it some speed."""
    seed: int | None = None
    """The game's seed, to reproduce a game; None: the server draws a secret one."""
    turn_limit: int = DEFAULT_TURN_LIMIT
    """The game is a draw when this turn ends (1 to 1000)."""


@dataclass(frozen=True, slots=True)
class SeatToken:
    """One seat of a created game and the token that plays it."""

    seat: int
    """The seat, from 0."""
    name: str
    """Its player's name."""
    token: str
    """The secret that plays it (``JoinSeat``); empty for a seat a built-in bot plays."""


@dataclass(frozen=True, slots=True)
class GameCreated:
    """Server→client, the answer to ``CreateGame``: the game and its tokens."""

    KIND: ClassVar[str] = "GameCreated"
    game: str
    """The game's id (its trace is ``GAME.jsonl`` in the server's trace folder)."""
    seats: tuple[SeatToken, ...]
    """Each seat's token, by seat."""
    spectator: str
    """The spectator token; empty if nobody may watch."""


@dataclass(frozen=True, slots=True)
class JoinSeat:
    """Client→server: play the seat this token opens (or come back to it)."""

    KIND: ClassVar[str] = "JoinSeat"
    token: str
    """A seat's token, as ``GameCreated`` gave it."""


@dataclass(frozen=True, slots=True)
class Seated:
    """Server→client, the answer to ``JoinSeat``: the seat's game, as a bot process's hello
    tells it. The game's messages follow."""

    KIND: ClassVar[str] = "Seated"
    game: str
    """The game's id."""
    seat: int
    """The seat, from 0."""
    players: tuple[str, ...]
    """Every player's name, by seat."""
    deadline: float
    """Seconds the seat has for each decision."""
    seed: int
    """The seat's own seed, for whatever it draws at random."""


@dataclass(frozen=True, slots=True)
class Spectate:
    """Client→server: watch the game this spectator token opens."""

    KIND: ClassVar[str] = "Spectate"
    token: str
    """The game's spectator token."""


@dataclass(frozen=True, slots=True)
class Watching:
    """Server→client, the answer to ``Spectate``: the game watched. ``Watched`` batches of its
    public events follow, from the start, then its ``GameOver``."""

    KIND: ClassVar[str] = "Watching"
    game: str
    """The game's id."""
    players: tuple[str, ...]
    """Every player's name, by seat."""


@dataclass(frozen=True, slots=True)
class Watched:
    """Server→spectator: the game's public events since the last batch, in order."""

    KIND: ClassVar[str] = "Watched"
    first: int
    """The number of the batch's first event in the game's public events, from 0."""
    events: tuple[GameEvent, ...]
    """The events: those private to no seat, without the engine's bookkeeping of who was
    asked (``priority``, ``pass``, ``auto_pass``, ``refused``, ``malformed``)."""


@dataclass(frozen=True, slots=True)
class Resync:
    """Client→server: send the full view again (a seat: its pending request with the full
    view; a spectator: every public event from the start)."""

    KIND: ClassVar[str] = "Resync"


@dataclass(frozen=True, slots=True)
class Goodbye:
    """Client→server: the connection leaves. A seat's token is spent by it: a seat still in
    its game forfeits."""

    KIND: ClassVar[str] = "Goodbye"


@dataclass(frozen=True, slots=True)
class JoinEntrant:
    """Client→server: play the tournament entrant this token opens, game after game."""

    KIND: ClassVar[str] = "JoinEntrant"
    token: str
    """An entrant's token, as the tournament's operator gave it."""


@dataclass(frozen=True, slots=True)
class Entered:
    """Server→client, the answer to ``JoinEntrant``: the entrant this connection plays. The
    client says ``NextGame`` when it is ready for a game."""

    KIND: ClassVar[str] = "Entered"
    entrant: str
    """The entrant's name in the tournament."""
    deck: str
    """The name of the deck it plays every game."""


@dataclass(frozen=True, slots=True)
class NextGame:
    """Client→server, from a tournament's entrant: ready for a game (after ``Entered``, and
    after each ``GameOver``). The connection is seated in the next game that needs its entrant
    (``Seated``, then the game's messages); what it sends between a ``GameOver`` and its
    ``NextGame`` is dropped."""

    KIND: ClassVar[str] = "NextGame"


@dataclass(frozen=True, slots=True)
class Unseated:
    """Server→client, to a tournament's entrant: the game went on without its seat, which
    forfeited (a missed deadline, too many refused messages) and is sent no ``GameOver``; the
    client says ``NextGame`` for its next game, as after a ``GameOver``."""

    KIND: ClassVar[str] = "Unseated"
    game: str
    """The game's id."""


MAX_CHAT_COMMAND = 1000
"""The longest text command a chat seat sends, in characters."""
MAX_END_REASON = 300
"""The longest reason ``EndChat`` gives, in characters."""


@dataclass(frozen=True, slots=True)
class ChatSeat:
    """One seat of a chat game to create."""

    name: str
    """The player's name: 1 to 40 letters, digits, ``_``, ``-`` or ``.``."""
    deck: str
    """The deck's name: with no ``cards``, a built-in deck's (never a path)."""
    cards: tuple[str, ...] = ()
    """The deck's cards, one entry per copy, in order (checked against the server's cards as
    a deck file's are); empty: the built-in deck named ``deck``."""
    bot: str = ""
    """Empty: a person, playing by text commands on the connection that joins with the seat's
    token; else a built-in bot's name (``random``, ``heuristic``), played on the server."""
    time_limit: float = 300.0
    """A person's seconds for each decision (then a priority decision passes, any other
    question takes its default answer)."""
    max_misses: int = 3
    """A person's time-outs in a row that forfeit the seat."""


@dataclass(frozen=True, slots=True)
class CreateChat:
    """Client→server: host a game played by text (a chat front end's game)."""

    KIND: ClassVar[str] = "CreateChat"
    seats: tuple[ChatSeat, ...]
    """The seats in turn order, 2 to 4 of them, at least one a person's."""
    seed: int | None = None
    """The game's seed, to reproduce a game; None: the server draws a secret one."""
    turn_limit: int = DEFAULT_TURN_LIMIT
    """The game is a draw when this turn ends (1 to 1000)."""


@dataclass(frozen=True, slots=True)
class ChatCreated:
    """Server→client, the answer to ``CreateChat``: the game and its tokens."""

    KIND: ClassVar[str] = "ChatCreated"
    game: str
    """The game's id."""
    seats: tuple[SeatToken, ...]
    """Each seat's token, by seat (empty for a bot's seat)."""
    owner: str
    """The token that may end the game (``EndChat``)."""


@dataclass(frozen=True, slots=True)
class JoinChat:
    """Client→server: play the person's seat of a chat game this token opens (or come back to
    it)."""

    KIND: ClassVar[str] = "JoinChat"
    token: str
    """A person's seat's token, as ``ChatCreated`` gave it."""


@dataclass(frozen=True, slots=True)
class ChatJoined:
    """Server→client, the answer to ``JoinChat``: the seat. ``ChatText`` messages follow, and a
    ``ChatAnswer`` for each ``ChatCommand``, until ``ChatOver``."""

    KIND: ClassVar[str] = "ChatJoined"
    game: str
    """The game's id."""
    seat: int
    """The seat, from 0."""
    players: tuple[str, ...]
    """Every player's name, by seat."""


@dataclass(frozen=True, slots=True)
class ChatCommand:
    """Client→server, on a chat seat's connection: one command of the text language
    (``docs/chat.md``), as the person typed it."""

    KIND: ClassVar[str] = "ChatCommand"
    text: str
    """The command, at most ``MAX_CHAT_COMMAND`` characters."""


@dataclass(frozen=True, slots=True)
class ChatAnswer:
    """Server→client: the answer to the seat's last ``ChatCommand`` (one line, or the view it
    asked for), as ``GameHost.submit`` gives it."""

    KIND: ClassVar[str] = "ChatAnswer"
    text: str
    """The answer."""


@dataclass(frozen=True, slots=True)
class ChatText:
    """Server→client: a text for the seat's player, as ``GameHost.messages`` gives it (a
    question with the view, the event feed, a time-out, the game's end). Only the seat's own
    connection is sent it."""

    KIND: ClassVar[str] = "ChatText"
    text: str
    """The text, chat-sized."""


@dataclass(frozen=True, slots=True)
class EndChat:
    """Client→server: end a chat game now, with no winner (its players are told why)."""

    KIND: ClassVar[str] = "EndChat"
    token: str
    """The game's owner token."""
    reason: str
    """Why, at most ``MAX_END_REASON`` characters."""


@dataclass(frozen=True, slots=True)
class ChatOver:
    """Server→client: a chat game is over (on each seat's connection after its last
    ``ChatText``; and the answer to ``EndChat``)."""

    KIND: ClassVar[str] = "ChatOver"
    game: str
    """The game's id."""
    winner: str
    """The winner's name; empty for none."""
    reason: str
    """Why it ended."""


@dataclass(frozen=True, slots=True)
class SessionError:
    """Server→client: what the client sent is refused, and why. A refused token, a message
    out of place or a session ended by the server is followed by the connection's close."""

    KIND: ClassVar[str] = "Error"
    reason: str
    """Why, in one line (never a token, never anything of a game the connection does not
    play)."""


SessionMessage: TypeAlias = (
    Hello | Welcome | CreateGame | GameCreated | JoinSeat | Seated | Spectate | Watching | Watched
    | Resync | Goodbye | JoinEntrant | Entered | NextGame | Unseated | CreateChat | ChatCreated | JoinChat
    | ChatJoined | ChatCommand | ChatAnswer | ChatText | EndChat | ChatOver | SessionError
)
"""Any session message."""

SESSION_TYPES: Mapping[str, type[SessionMessage]] = MappingProxyType(
    {cls.KIND: cls for cls in get_args(SessionMessage)})
"""Session message class by ``KIND``."""

CLIENT_SESSION_KINDS: frozenset[str] = frozenset(
    cls.KIND for cls in (Hello, CreateGame, JoinSeat, Spectate, Resync, Goodbye, JoinEntrant, NextGame,
                         CreateChat, JoinChat, ChatCommand, EndChat))
"""The session kinds a client sends."""

SESSION_KIND_BYTES: Mapping[str, int] = MappingProxyType({
    "Hello": 64,
    "CreateGame": 1 << 10,
    "JoinSeat": 128,
    "Spectate": 128,
    "Resync": 64,
    "Goodbye": 64,
    "JoinEntrant": 128,
    "NextGame": 64,
    "CreateChat": 1 << 13,
    "JoinChat": 128,
    "ChatCommand": MAX_CHAT_COMMAND * 4 + 64,
    "EndChat": 128 + MAX_END_REASON * 4,
})
"""Largest session message of each kind a client sends, in bytes: a ``CreateGame`` of four
seats with 40-character names and every field given is under 600 bytes; a token's message
(43 characters of token) under 80; the others under 40. A ``CreateChat`` may carry its decks'
cards: it has the frame's whole 8 KiB (four 60-card decks of long names fit); a
``ChatCommand`` and an ``EndChat``'s reason are text of at most ``MAX_CHAT_COMMAND`` and
``MAX_END_REASON`` characters (4 bytes each at most in UTF-8)."""
