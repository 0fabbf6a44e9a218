"""Chat games on the server: ``GameHost``'s text interface for front ends that connect over
WebSockets (``ChatService``), so that a chat bot's process hosts its games on a server.

A front end creates a game (``CreateChat``: each seat a person, played by text, or a built-in
bot; each deck a built-in deck's name or a list of cards) and gets a token per person's seat
and the game's owner token (``ChatCreated``). A connection that joins with a seat's token
(``JoinChat``) plays that seat and no other: it sends the person's commands (``ChatCommand``,
each answered by ``ChatAnswer`` as ``GameHost.submit`` answers it) and is sent the seat's
texts as ``GameHost.messages`` gives them (``ChatText``: its questions with its own view, the
event feed as the seat may see it, its time-outs, the end), then ``ChatOver``. No other
connection is sent a seat's texts; a newer connection with the token takes the seat from an
older one. The owner token ends the game with no winner (``EndChat``). The games are played
by a ``TrioGameHost`` in the server's own trio run, as ``GameHost`` plays them in process: the
same seed and commands give the same texts.
"""

from __future__ import annotations

import contextlib
import math
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import trio

from ..cards import DECKS, Deck, load_cards, load_deck, parse_decklist
from ..chat import BotSeat, ChatError, GameInfo, HumanSeat, TrioGameHost
from ..protocol import (
    MAX_CHAT_COMMAND,
    MAX_END_REASON,
    ChatAnswer,
    ChatCommand,
    ChatCreated,
    ChatJoined,
    ChatOver,
    ChatText,
    CreateChat,
    EndChat,
    Goodbye,
    JoinChat,
    SeatToken,
    SessionError,
    SessionMessage,
    decode_from_client,
)
from ..rules import CardDefinitionError, InvalidMessageError
from ..seats import BUILT_IN_BOTS
from ._connection import CLOSE_NORMAL, Connection, ConnectionGone
from ._games import MAX_SEATS, MAX_TURN_LIMIT, PLAYER_NAME, SEED_LIMIT, GameRequestError
from ._tokens import Grant

if TYPE_CHECKING:
    from ._server import GameServer

__all__ = ["MAX_TIME_LIMIT", "MIN_TIME_LIMIT", "ChatGame", "ChatService", "plan_chat"]

MIN_TIME_LIMIT = 1.0
"""The shortest time a person's seat may have for a decision, in seconds."""
MAX_TIME_LIMIT = 86_400.0
"""The longest, in seconds (a day)."""
_MAX_MISSES = 100
_Send = Callable[[SessionMessage], Awaitable[None]]
"""Sends one session message on a seat's connection, in order with the others."""
_HOST_ERROR = "host error"
"""How a game that failed on the server is told (its error stays in the server's log)."""


def plan_chat(request: CreateChat) -> tuple[list[HumanSeat | BotSeat], list[Deck]]:
    """The seats and decks of the chat game ``request`` asks for: decks by a built-in deck's
    name or by their cards (nothing the client sends is opened as a file), bots built-in ones.

    Raises:
        GameRequestError: naming the seat or field at fault (the client's words not quoted).
    """
    seats = request.seats
    if not 2 <= len(seats) <= MAX_SEATS:
        raise GameRequestError(f"a game has 2 to {MAX_SEATS} seats, not {len(seats)}")
    if not any(not spec.bot for spec in seats):
        raise GameRequestError("a chat game has a person's seat (bot empty) at least")
    names = [spec.name for spec in seats]
    if len(set(names)) != len(names):
        raise GameRequestError("two seats have the same name")
    if request.seed is not None and not 0 <= request.seed < SEED_LIMIT:
        raise GameRequestError(f"seed: 0 to {SEED_LIMIT - 1}")
    if not 1 <= request.turn_limit <= MAX_TURN_LIMIT:
        raise GameRequestError(f"turn limit: 1 to {MAX_TURN_LIMIT}")
    planned: list[HumanSeat | BotSeat] = []
    decks: list[Deck] = []
    for n, spec in enumerate(seats):
        if not PLAYER_NAME.match(spec.name):
            raise GameRequestError(f"seat {n}: a name is 1 to 40 letters, digits, '_', '-' or '.'")
        if spec.bot and spec.bot not in BUILT_IN_BOTS:
            raise GameRequestError(f"seat {n}: unknown bot (empty for a person, or one of: "
                                   f"{', '.join(BUILT_IN_BOTS)})")
        if not spec.bot:
            if not (math.isfinite(spec.time_limit) and MIN_TIME_LIMIT <= spec.time_limit <= MAX_TIME_LIMIT):
                raise GameRequestError(f"seat {n}: time limit: {MIN_TIME_LIMIT:g} to {MAX_TIME_LIMIT:g} seconds")
            if not 1 <= spec.max_misses <= _MAX_MISSES:
                raise GameRequestError(f"seat {n}: max misses: 1 to {_MAX_MISSES}")
        planned.append(BotSeat(spec.name, spec.bot) if spec.bot else
                       HumanSeat(spec.name, time_limit=spec.time_limit, max_misses=spec.max_misses))
        decks.append(_deck(n, spec.deck, spec.cards))
    return planned, decks


def _deck(n: int, name: str, listed: tuple[str, ...]) -> Deck:
    """Seat ``n``'s deck: the built-in deck ``name``, or ``listed`` cards under that name."""
    if not listed:
        if name not in DECKS:
            raise GameRequestError(f"seat {n}: unknown deck (give its cards, or one of: {', '.join(DECKS)})")
        return load_deck(name, load_cards())
    if not PLAYER_NAME.match(name):
        raise GameRequestError(f"seat {n}: a deck's name is 1 to 40 letters, digits, '_', '-' or '.'")
    pool = load_cards()
    unknown = sum(1 for card in listed if not card.isprintable() or card not in pool)
    if unknown:
        raise GameRequestError(f"seat {n}: {unknown} of the deck's cards are not cards of this server")
    try:
        # One line per copy: the deck keeps its order, as a Deck does.
        parsed = parse_decklist("\n".join(f"1 {card}" for card in listed), f"seat {n}'s deck", pool)
    except CardDefinitionError:
        raise GameRequestError(f"seat {n}: the cards are no deck this server plays (at least 40 of them, "
                               "no tokens, no test cards)") from None
    return Deck(name, parsed.cards)


@dataclass(slots=True)
class ChatGame:
    """One chat game the server hosts."""

    game: str
    """Its id."""
    players: tuple[str, ...]
    """Its players' names, by seat."""
    info: GameInfo
    """Its entry in the host (kept once the host has forgotten it)."""
    readers: dict[int, trio.CancelScope] = field(default_factory=dict)
    """The scope of the connection playing each person's seat now."""


class ChatService:
    """The server's chat games (``GameServer.chat``)."""

    def __init__(self, server: GameServer) -> None:
        self.server = server
        """The server."""
        self.host = TrioGameHost()
        """The host playing the games."""
        self.games: dict[str, ChatGame] = {}
        """The games hosted now, by id."""
        self._nursery: trio.Nursery | None = None

    async def run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        """Host chat games until cancelled (``nursery.start``)."""
        async with trio.open_nursery() as nursery:
            await nursery.start(self.host.run)
            self._nursery = nursery
            task_status.started()

    # ------------------------------------------------------------------ before a seat

    async def create(self, conn: Connection, msg: CreateChat) -> None:
        """Host the chat game ``msg`` asks for and tell its tokens, or say why not (the
        connection goes on either way)."""
        server = self.server
        try:
            limit = server.settings.max_games
            if server.lobby is not None:
                raise GameRequestError("this server plays a tournament: it hosts no other games")
            if len(server.games) + len(self.games) >= limit:
                raise GameRequestError(f"the server hosts {limit} games at once, its limit: try again later")
            seats, decks = plan_chat(msg)
        except GameRequestError as err:
            await conn.tell(SessionError(str(err)))
            return
        assert self._nursery is not None, "the chat games are not running"
        game_id = f"c{secrets.token_hex(6)}"
        await self.host.create_game(seats, decks, seed=msg.seed, game_id=game_id, turn_limit=msg.turn_limit)
        players = tuple(seat.name for seat in seats)
        self.games[game_id] = ChatGame(game_id, players, self.host.info(game_id))
        tokens = tuple(SeatToken(n, seat.name, server.tokens.issue(Grant(game_id, "chat", n))
                                 if isinstance(seat, HumanSeat) else "")
                       for n, seat in enumerate(seats))
        owner = server.tokens.issue(Grant(game_id, "owner"))
        self._nursery.start_soon(self._forget, game_id)
        await conn.tell(ChatCreated(game_id, tokens, owner))

    async def _forget(self, game_id: str) -> None:
        """Once the game is over, its tokens open nothing and the host forgets it."""
        try:
            await self.host.wait(game_id)
        finally:
            self.server.tokens.revoke_game(game_id)
            self.games.pop(game_id, None)
            self.host.forget(game_id)

    async def end(self, conn: Connection, msg: EndChat, refused: str) -> bool:
        """End the game the owner token opens, with no winner (answered by ``ChatOver``);
        False if the token was refused (``refused`` said, the connection closed)."""
        grant = self.server.tokens.find(msg.token)
        game = None if grant is None or grant.role != "owner" else self.games.get(grant.game)
        if game is None:
            await conn.refuse(refused)
            return False
        reason = " ".join("".join(c if c.isprintable() else " " for c in msg.reason).split())
        reason = reason[:MAX_END_REASON] or "ended by its owner"
        with contextlib.suppress(ChatError):  # the server is stopping: the game is over anyway
            await self.host.end_game(game.game, reason)
        await conn.tell(_over(game))
        return True

    # ------------------------------------------------------------------ a person's seat

    async def join(self, conn: Connection, msg: JoinChat, refused: str) -> None:
        """Play the person's seat the token opens over ``conn`` until the connection ends, a
        newer one takes the seat, or the game is over (``ChatOver``, then the client has
        ``after_game`` seconds for its goodbye)."""
        grant = self.server.tokens.find(msg.token)
        game = None if grant is None or grant.role != "chat" else self.games.get(grant.game)
        if game is None or grant is None:
            await conn.refuse(refused)
            return
        seat = grant.seat
        outcome = "replaced"
        with trio.CancelScope() as scope:
            previous, game.readers[seat] = game.readers.get(seat), scope
            if previous is not None:
                previous.cancel()  # the older connection stops: this one plays the seat
            outcome = await self._play(conn, game, seat)
        if game.readers.get(seat) is scope:
            del game.readers[seat]
        if outcome in ("over", "goodbye"):
            await conn.close(CLOSE_NORMAL, "goodbye" if outcome == "goodbye" else "the game is over")
        elif outcome == "replaced":
            await conn.refuse("another connection joined this seat")
        elif outcome != "closed":
            await conn.refuse(outcome)

    async def _play(self, conn: Connection, game: ChatGame, seat: int) -> str:
        """Relay the seat's texts and commands; how the connection's turn ended (``over``,
        ``goodbye``, ``closed``, or a refusal's reason)."""
        player = game.players[seat]
        sending = trio.Lock()
        outcome = "over"

        async def send(msg: SessionMessage) -> None:
            async with sending:
                await conn.tell(msg)

        try:
            await send(ChatJoined(game.game, seat, game.players))
        except ConnectionGone:
            return "closed"
        async with trio.open_nursery() as nursery:

            async def texts() -> None:
                nonlocal outcome
                try:
                    with contextlib.suppress(ChatError):  # the host has forgotten the game: it is over
                        async for text in self.host.messages(game.game, player):
                            await send(ChatText(text))
                            # A text may ask something: one command more is in order, however
                            # fast a front end answers (only commands beyond these can flood).
                            conn.rate.owe()
                    await send(_over(game))
                except ConnectionGone:  # each task's own: a nursery would wrap it in a group
                    outcome = "closed"
                    nursery.cancel_scope.cancel()
                    return
                nursery.cancel_scope.deadline = min(nursery.cancel_scope.deadline,
                                                    trio.current_time() + self.server.settings.after_game)

            async def commands() -> None:
                nonlocal outcome
                said = await self._commands(conn, game.game, player, send)
                if outcome != "closed":
                    outcome = said
                nursery.cancel_scope.cancel()

            nursery.start_soon(texts)
            nursery.start_soon(commands)
        return outcome

    async def _commands(self, conn: Connection, game: str, player: str, send: _Send) -> str:
        """Carry out the client's commands for ``player``; how it ended (``goodbye``,
        ``closed``, or a refusal's reason)."""
        while True:
            try:
                data = await conn.receive()
            except ConnectionGone:
                return "closed"
            try:
                msg = decode_from_client(data)
            except InvalidMessageError as err:
                return str(err)
            if isinstance(msg, Goodbye):
                return "goodbye"
            if not isinstance(msg, ChatCommand):
                return f"a chat seat sends ChatCommand or Goodbye, not {msg.KIND}"
            if len(msg.text) > MAX_CHAT_COMMAND:
                answer = f"That is too long for a command ({MAX_CHAT_COMMAND} characters at most): type `help`."
            else:
                answer = await self.host.submit(game, player, msg.text)
            try:
                await send(ChatAnswer(answer))
            except ConnectionGone:
                return "closed"


def _over(game: ChatGame) -> ChatOver:
    """A game's end as ``ChatOver`` tells it: a failure of the server's told without its error."""
    info = game.info
    winner = info.result.winner if info.result is not None else None
    reason = _HOST_ERROR if info.reason.startswith(_HOST_ERROR) else info.reason
    return ChatOver(game.game, winner or "", reason)
