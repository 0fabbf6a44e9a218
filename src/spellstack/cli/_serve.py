"""``spellstack serve``: host games for bots, people and front ends that connect over
WebSockets, until stopped (Ctrl-C)."""

from __future__ import annotations

import argparse
import logging
import math
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import trio

from .._printable import printable
from ..protocol import MAX_PLAYER_MESSAGE_BYTES
from ..server import (
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
from ._errors import CommandError
from ._outputs import output_folder

if TYPE_CHECKING:
    from ..server import GameServer

__all__ = ["add_parser"]


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "serve", help="host games for bots and people that connect over WebSockets",
        description="Host games for clients that connect over WebSockets: each frame one binary "
                    "message holding one msgpack message of the player protocol. A client says "
                    "Hello, creates games (one secret token per seat, one for spectators) and "
                    "plays a seat with its token, or watches. Runs until stopped (Ctrl-C).",
        epilog="docs/remote-bots.md walks a bot author through connecting; "
               "docs/server-security.md is the threat model (put a TLS reverse proxy in front "
               "before serving beyond this machine).")
    p.add_argument("--host", default=DEFAULT_HOST,
                   help=f"the address to listen on (default {DEFAULT_HOST}: this machine only)")
    p.add_argument("--port", type=int, default=DEFAULT_PORT,
                   help=f"the port to listen on (default {DEFAULT_PORT}; 0: any free port, printed)")
    p.add_argument("--trace-dir", type=Path, default=None, metavar="DIR",
                   help="write each game's trace there, as GAME.jsonl (docs/trace-format.md); "
                        "the folder is made if missing")
    limits = p.add_argument_group(
        "limits (docs/server-security.md says why each default)")
    limits.add_argument("--max-games", type=int, default=DEFAULT_MAX_GAMES, metavar="N",
                        help=f"games hosted at once; more are refused (default {DEFAULT_MAX_GAMES})")
    limits.add_argument("--max-connections-per-address", type=int, default=DEFAULT_CONNECTIONS_PER_ADDRESS,
                        metavar="N", help="connections open at once from one IP address; more are refused "
                                          f"(default {DEFAULT_CONNECTIONS_PER_ADDRESS}; behind a reverse proxy "
                                          "every client has the proxy's address)")
    limits.add_argument("--max-frame-bytes", type=int, default=MAX_PLAYER_MESSAGE_BYTES, metavar="BYTES",
                        help=f"the largest frame a client may send, {MIN_FRAME_BYTES} to "
                             f"{MAX_PLAYER_MESSAGE_BYTES}; a larger one closes its connection "
                             f"(default {MAX_PLAYER_MESSAGE_BYTES}; each kind of message has its own "
                             "cap below it)")
    limits.add_argument("--max-messages-per-second", type=float, default=DEFAULT_MESSAGES_PER_SECOND,
                        metavar="N", help="messages a client may send a second beyond one answer per request, "
                                          "a flood beyond (default "
                                          f"{DEFAULT_MESSAGES_PER_SECOND:g})")
    limits.add_argument("--max-spectators", type=int, default=DEFAULT_MAX_SPECTATORS, metavar="N",
                        help=f"spectators of one game at once; more are refused (default {DEFAULT_MAX_SPECTATORS})")
    limits.add_argument("--hello-timeout", type=float, default=DEFAULT_HELLO_TIMEOUT, metavar="SECONDS",
                        help="seconds a connection has for each message before it plays or watches "
                             f"(its handshake, its Hello, ...); then it is closed (default {DEFAULT_HELLO_TIMEOUT:g})")
    limits.add_argument("--send-timeout", type=float, default=DEFAULT_SEND_TIMEOUT, metavar="SECONDS",
                        help="seconds a frame may wait for a client that reads nothing; then it is "
                             f"closed, a slow reader (default {DEFAULT_SEND_TIMEOUT:g})")
    limits.add_argument("--send-buffer-bytes", type=int, default=DEFAULT_SEND_BUFFER, metavar="BYTES",
                        help="bytes the system may keep for one client's frames not yet taken, "
                             f"{MIN_SEND_BUFFER} to {MAX_SEND_BUFFER} (default {DEFAULT_SEND_BUFFER})")
    limits.add_argument("--grace", type=float, default=DEFAULT_GRACE, metavar="SECONDS",
                        help="seconds a seat's client may be away (not joined yet, or disconnected) "
                             f"before the seat forfeits (default {DEFAULT_GRACE:g})")
    p.set_defaults(run=run)


def _settings(args: argparse.Namespace) -> ServerSettings:
    """The server's settings from the arguments; CommandError naming a bad one."""
    if not 0 <= args.port <= 65535:
        raise CommandError(f"--port {args.port}: a port is 0 to 65535")
    if args.max_games < 1:
        raise CommandError(f"--max-games {args.max_games}: at least 1")
    for name in ("grace", "hello_timeout", "send_timeout"):
        value = getattr(args, name)
        if not (math.isfinite(value) and value > 0):
            raise CommandError(f"--{name.replace('_', '-')} {value:g}: more than 0 seconds")
    if args.max_connections_per_address < 1:
        raise CommandError(f"--max-connections-per-address {args.max_connections_per_address}: at least 1")
    if not MIN_FRAME_BYTES <= args.max_frame_bytes <= MAX_PLAYER_MESSAGE_BYTES:
        raise CommandError(f"--max-frame-bytes {args.max_frame_bytes}: {MIN_FRAME_BYTES} to {MAX_PLAYER_MESSAGE_BYTES}")
    if not (math.isfinite(args.max_messages_per_second) and args.max_messages_per_second >= 1):
        raise CommandError(f"--max-messages-per-second {args.max_messages_per_second:g}: at least 1")
    if not MIN_SEND_BUFFER <= args.send_buffer_bytes <= MAX_SEND_BUFFER:
        raise CommandError(f"--send-buffer-bytes {args.send_buffer_bytes}: {MIN_SEND_BUFFER} to {MAX_SEND_BUFFER}")
    if args.max_spectators < 0:
        raise CommandError(f"--max-spectators {args.max_spectators}: at least 0")
    if args.trace_dir is not None:
        output_folder("--trace-dir", args.trace_dir)
    return ServerSettings(host=args.host, port=args.port, max_games=args.max_games,
                          trace_dir=args.trace_dir, grace=args.grace, hello_timeout=args.hello_timeout,
                          send_timeout=args.send_timeout, send_buffer_bytes=args.send_buffer_bytes,
                          max_spectators=args.max_spectators,
                          max_connections_per_address=args.max_connections_per_address,
                          max_frame_bytes=args.max_frame_bytes,
                          max_messages_per_second=args.max_messages_per_second)


def run(args: argparse.Namespace) -> int:
    settings = _settings(args)
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("spellstack serve: %(message)s"))
    log = logging.getLogger("spellstack.server")
    log.addHandler(handler)
    log.setLevel(logging.INFO)

    from ..server import serve  # the server itself (trio-websocket) only when serving

    def listening(server: GameServer) -> None:
        print(printable(f"spellstack serve: listening on ws://{settings.host}:{server.port} "
                        f"(at most {settings.max_games} games; Ctrl-C stops)"), flush=True)

    try:
        try:
            trio.run(lambda: serve(settings, listening=listening))
        except BaseExceptionGroup as group:  # a nursery's: raise what it holds, alone
            raise _alone(group) from None
    except KeyboardInterrupt:
        print("spellstack serve: stopped", file=sys.stderr)
        return 0
    except OSError as err:  # the address can't be listened on
        raise CommandError(f"can't listen on {settings.host}:{settings.port}: {err.strerror or err}") from None
    finally:
        log.removeHandler(handler)
    return 0


def _alone(group: BaseExceptionGroup[BaseException]) -> BaseException:
    """The Ctrl-C or the listening error a group holds, else the group itself."""
    for kind in (KeyboardInterrupt, OSError):
        found: BaseException | None = group.subgroup(kind)
        while isinstance(found, BaseExceptionGroup) and len(found.exceptions) == 1:
            found = found.exceptions[0]
        if found is not None and not isinstance(found, BaseExceptionGroup):
            return found
    return group
