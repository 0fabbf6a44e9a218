"""The network service: ``spellstack serve`` hosts games for bots, people and front ends that
connect over WebSockets (trio-websocket over wsproto: no framing of its own).

Each frame is one binary WebSocket message holding one msgpack message: the session messages
(``spellstack.protocol``: ``Hello``, ``CreateGame``, ``JoinSeat``, ``Spectate``, ``Resync``,
``Goodbye`` and the server's answers), and, once a connection plays a seat, the player
protocol's messages exactly as the coordinator sends and reads them. One concept per module:

- ``ServerSettings`` (``_settings``): address, port, traces, grace period, and every limit on
  what a client may cost (games at once, connections per address, frame size, messages per
  second, spectators per game, the hello and send timeouts, what is kept for a client that
  reads nothing);
- ``MessageRate`` (``_rate``): the messages a client may still send, a flood told from play;
- ``TokenBook`` (``_tokens``): the secrets that open a seat or a game's spectator view;
- ``Connection`` (``_connection``): a client's WebSocket, binary frames within its limits (a
  flood, a slow reader, a text frame close it), refusals then close;
- ``RemoteSeat`` (``_remote_seat``): a seat played over a connection, one more kind of ``Seat``,
  which survives its connections within the grace period;
- ``SpectatorFeed`` (``_spectators``): a game's public events, for its spectators;
- ``HostedGame``, ``plan_game`` (``_games``): a ``CreateGame`` checked into a game, and its run;
- ``EntrantLobby``, ``RemoteEntrant`` (``_entrants``): a tournament's entrants played by
  clients that connect with an entrant token each, seated game by game;
- ``ChatService``, ``plan_chat`` (``_chat``): chat front ends' games, played by text over the
  network (``GameHost``'s text interface, one seat's texts to its own token only);
- ``Session`` (``_sessions``): one connection from its hello to the seat it plays, the game it
  watches, the entrant it plays or the chat seat it plays;
- ``GameServer``, ``serve`` (``_server``): the server itself;
- ``bench_load``, ``LoadReport`` (``_load``): the load benchmark (``spellstack bench --serve``),
  remote random bots against a server process.

It sits above the chat (whose games it hosts) and the seats it plays games with, beside
nothing it imports; the tournament knows nothing of it (a remote entrant is one more kind of
seat), and the command line joins the two (``spellstack tournament --serve``). The protocol is
``docs/protocol.md`` ("Sessions"), a bot author's walk through it ``docs/remote-bots.md``, the
threat model ``docs/server-security.md``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._lazy import lazy_names

if TYPE_CHECKING:
    from ._chat import MAX_TIME_LIMIT, MIN_TIME_LIMIT, ChatGame, ChatService, plan_chat
    from ._connection import (
        CLOSE_GOING_AWAY,
        CLOSE_NORMAL,
        CLOSE_POLICY,
        CLOSE_SERVER_ERROR,
        CLOSE_TOO_BIG,
        CLOSE_TRY_AGAIN,
        CLOSE_UNSUPPORTED,
        CLOSE_WAIT,
        Connection,
        ConnectionGone,
    )
    from ._entrants import ENTRANT_CONNECTIONS, TOURNAMENT_OVER, WITHDRAWN, EntrantLobby, RemoteEntrant
    from ._games import (
        MAX_DEADLINE,
        MAX_SEATS,
        MAX_TURN_LIMIT,
        MIN_DEADLINE,
        PLAYER_NAME,
        SEED_LIMIT,
        GameRequestError,
        HostedGame,
        game_over,
        plan_game,
    )
    from ._load import LOAD_DECKS, LoadReport, bench_load
    from ._rate import MessageRate
    from ._remote_seat import REMOTE_ENTRANT, Outcome, RemoteSeat
    from ._server import GameServer, serve
    from ._sessions import TOKEN_REFUSED, Session
    from ._settings import (
        DEFAULT_CONNECTIONS_PER_ADDRESS,
        DEFAULT_GRACE,
        DEFAULT_HELLO_TIMEOUT,
        DEFAULT_HOST,
        DEFAULT_MAX_GAMES,
        DEFAULT_MAX_SPECTATORS,
        DEFAULT_MESSAGES_PER_SECOND,
        DEFAULT_PORT,
        DEFAULT_SEND_BUFFER,
        DEFAULT_SEND_TIMEOUT,
        MAX_SEND_BUFFER,
        MIN_FRAME_BYTES,
        MIN_SEND_BUFFER,
        ServerSettings,
    )
    from ._spectators import BATCH_EVENTS, NOT_WATCHED, SpectatorFeed
    from ._tokens import MAX_TOKEN_LENGTH, TOKEN_BYTES, Grant, TokenBook, new_token

# Loaded when first used: the command line reads the settings' defaults for its options, and
# only `spellstack serve` (and `tournament --serve`, `bench --serve`) needs the server itself,
# trio-websocket and asyncio (about 4 MB resident).
_HOMES = {
    "._chat": ("MAX_TIME_LIMIT", "MIN_TIME_LIMIT", "ChatGame", "ChatService", "plan_chat"),
    "._connection": ("CLOSE_GOING_AWAY", "CLOSE_NORMAL", "CLOSE_POLICY", "CLOSE_SERVER_ERROR", "CLOSE_TOO_BIG",
                    "CLOSE_TRY_AGAIN", "CLOSE_UNSUPPORTED", "CLOSE_WAIT", "Connection", "ConnectionGone"),
    "._entrants": ("ENTRANT_CONNECTIONS", "TOURNAMENT_OVER", "WITHDRAWN", "EntrantLobby", "RemoteEntrant"),
    "._games": ("MAX_DEADLINE", "MAX_SEATS", "MAX_TURN_LIMIT", "MIN_DEADLINE", "PLAYER_NAME", "SEED_LIMIT",
               "GameRequestError", "HostedGame", "game_over", "plan_game"),
    "._load": ("LOAD_DECKS", "LoadReport", "bench_load"),
    "._rate": ("MessageRate",),
    "._remote_seat": ("REMOTE_ENTRANT", "Outcome", "RemoteSeat"),
    "._server": ("GameServer", "serve"),
    "._sessions": ("TOKEN_REFUSED", "Session"),
    "._settings": ("DEFAULT_CONNECTIONS_PER_ADDRESS", "DEFAULT_GRACE", "DEFAULT_HELLO_TIMEOUT", "DEFAULT_HOST",
                  "DEFAULT_MAX_GAMES", "DEFAULT_MAX_SPECTATORS", "DEFAULT_MESSAGES_PER_SECOND",
                  "DEFAULT_PORT", "DEFAULT_SEND_BUFFER", "DEFAULT_SEND_TIMEOUT", "MAX_SEND_BUFFER",
                  "MIN_FRAME_BYTES", "MIN_SEND_BUFFER", "ServerSettings"),
    "._spectators": ("BATCH_EVENTS", "NOT_WATCHED", "SpectatorFeed"),
    "._tokens": ("MAX_TOKEN_LENGTH", "TOKEN_BYTES", "Grant", "TokenBook", "new_token"),
}

__all__ = [
    "BATCH_EVENTS",
    "CLOSE_GOING_AWAY",
    "CLOSE_NORMAL",
    "CLOSE_POLICY",
    "CLOSE_SERVER_ERROR",
    "CLOSE_TOO_BIG",
    "CLOSE_TRY_AGAIN",
    "CLOSE_UNSUPPORTED",
    "CLOSE_WAIT",
    "DEFAULT_CONNECTIONS_PER_ADDRESS",
    "DEFAULT_GRACE",
    "DEFAULT_HELLO_TIMEOUT",
    "DEFAULT_HOST",
    "DEFAULT_MAX_GAMES",
    "DEFAULT_MAX_SPECTATORS",
    "DEFAULT_MESSAGES_PER_SECOND",
    "DEFAULT_PORT",
    "DEFAULT_SEND_BUFFER",
    "DEFAULT_SEND_TIMEOUT",
    "ENTRANT_CONNECTIONS",
    "LOAD_DECKS",
    "MAX_DEADLINE",
    "MAX_SEATS",
    "MAX_SEND_BUFFER",
    "MAX_TIME_LIMIT",
    "MAX_TOKEN_LENGTH",
    "MAX_TURN_LIMIT",
    "MIN_DEADLINE",
    "MIN_FRAME_BYTES",
    "MIN_SEND_BUFFER",
    "MIN_TIME_LIMIT",
    "NOT_WATCHED",
    "PLAYER_NAME",
    "REMOTE_ENTRANT",
    "SEED_LIMIT",
    "TOKEN_BYTES",
    "TOKEN_REFUSED",
    "TOURNAMENT_OVER",
    "WITHDRAWN",
    "ChatGame",
    "ChatService",
    "Connection",
    "ConnectionGone",
    "EntrantLobby",
    "GameRequestError",
    "GameServer",
    "Grant",
    "HostedGame",
    "LoadReport",
    "MessageRate",
    "Outcome",
    "RemoteEntrant",
    "RemoteSeat",
    "ServerSettings",
    "Session",
    "SpectatorFeed",
    "TokenBook",
    "bench_load",
    "game_over",
    "new_token",
    "plan_chat",
    "plan_game",
    "serve",
]


_HOME_OF, __getattr__, __dir__ = lazy_names(__name__, _HOMES, globals(), __all__)
