"""``GameHost``: spellstack's games hosted inside an asyncio program (a chat bot).

The engine runs on trio; the host runs it as a *guest* of the program's asyncio event loop
(``trio.lowlevel.start_guest_run``): one thread, both loops taking turns, so the host's
methods are plain asyncio coroutines and nothing is shared across threads. Every game is a
task of one trio nursery, contained: an error in one game (or in setting it up) ends that game
with a reason and nothing else; ``stop`` ends every game cleanly (each player is told) and the
trio run with it. Games live in memory only: they don't survive a restart of the host.

The host's own waiting (a player's texts, an answer, a game's end) is made of asyncio's
objects here (``_queue``, ``_future``, ``_event``); ``TrioGameHost`` is the same host for a
program that runs trio itself, made of trio's.
"""

from __future__ import annotations

import asyncio
import itertools
import secrets
from collections.abc import AsyncIterator, Callable, Generator, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import trio

from ..actors import Client, GameResult, GameSetup, SeatConfig, play_game
from ..bots import Bot
from ..cards import Deck
from ..rules import DEFAULT_TURN_LIMIT, Decision, Game, PlayerView
from ..seats import BuiltBot, EntrantError, Seat, hellos, load_bot, seat_of
from ._commands import help_text, parse_command
from ._feed import feed_lines
from ._guest import GuestRun, NotRunning
from ._render import Hasty, Numbering, fence, render_board, render_hand, render_stack, render_view
from ._seats import CONCEDE, BotSeat, HumanSeat, Session, fit_message, human_config

__all__ = ["Answered", "ChatError", "Done", "GameHost", "GameInfo", "HostStatistics", "Outbox"]

TextHook = Callable[[str, str, str], None]
"""``(game_id, player, text)``: called with every text the host gives a player, as it is made."""


class Outbox(Protocol):
    """A player's texts, waiting to be read (an ``asyncio.Queue``, or its trio counterpart);
    None after the last."""

    def put_nowait(self, item: str | None) -> None: ...

    async def get(self) -> str | None: ...


class Answered(Protocol):
    """The answer a ``submit`` waits for (an ``asyncio.Future``, or its trio counterpart)."""

    def done(self) -> bool: ...

    def set_result(self, result: str, /) -> None: ...

    def __await__(self) -> Generator[Any, None, str]: ...


class Done(Protocol):
    """Set once a game is over (an ``asyncio.Event``, or a ``trio.Event``)."""

    def set(self) -> None: ...

    def is_set(self) -> bool: ...

    async def wait(self) -> Any: ...


class ChatError(Exception):
    """A host call that can't be done: the host is not running, an unknown game or player."""


@dataclass(slots=True)
class GameInfo:
    """A hosted game, as ``games()`` lists it."""

    game_id: str
    """Its name in the host."""
    players: tuple[str, ...]
    """The players' names, by seat."""
    humans: tuple[str, ...]
    """Those playing by text."""
    running: bool = True
    """Not over yet."""
    result: GameResult | None = None
    """How it ended (None while it runs)."""
    reason: str = ""
    """Why it ended (the result's reason, or what stopped it)."""
    timeouts: dict[str, list[str]] = field(default_factory=dict)
    """Each human's time-outs and what was done for them."""
    seed: int = 0
    """The seed the game started from: the operator's, to replay the game with ``new_game``;
    never send it to a player (with the decks, it tells every hidden card and draw)."""


@dataclass(frozen=True, slots=True)
class HostStatistics:
    """A host's counters (``GameHost.statistics``), since it was made."""

    games: int
    """Games created."""
    running: int
    """Of those, the games not over yet."""
    finished: int
    """Games that ended with a result (a win, a draw, an engine error contained in the game)."""
    failed: int
    """Games that ended with an error of their own set-up or hosting (``host error: ...``)."""
    stopped: int
    """Games ended by the host stopping, or by ``end_game``."""
    texts_sent: int
    """Texts given to players: questions with their view, the event feed, time-outs, ends."""
    commands: int
    """Players' commands carried out (``submit``, ``concede``)."""
    replies: int
    """Of those, the commands sent to the engine as a player's reply."""


@dataclass(slots=True)
class _Hosted:
    info: GameInfo
    game: Game | None
    sessions: dict[str, Session]
    done: Done
    error: Exception | None = None
    scope: trio.CancelScope = field(default_factory=trio.CancelScope)
    """The game's own: cancelled by ``end_game``."""
    ended: str = ""
    """Why ``end_game`` ended it."""


class GameHost:
    """Hosts many games inside the running asyncio loop; see the module docstring.

    ``on_text``: called with every text the host gives a player (to log it, or to check it).
    """

    def __init__(self, *, on_text: TextHook | None = None) -> None:
        self._on_text = on_text
        self._games: dict[str, _Hosted] = {}
        self._ids = itertools.count(1)
        self._guest = GuestRun()
        self._texts = self._commands = self._replies = 0

    def statistics(self) -> HostStatistics:
        """The host's counters so far (as trio's objects give theirs)."""
        hosted = self._games.values()
        over = [h for h in hosted if not h.info.running]
        finished = sum(h.info.result is not None for h in over)
        failed = sum(h.error is not None for h in over)
        return HostStatistics(games=len(self._games), running=len(self._games) - len(over),
                              finished=finished, failed=failed, stopped=len(over) - finished - failed,
                              texts_sent=self._texts, commands=self._commands, replies=self._replies)

    # ------------------------------------------------------------ lifetime

    async def start(self) -> None:
        """Start the trio engine as a guest of the running asyncio loop."""
        if self._guest.token is not None:
            raise ChatError("the host is running already")
        await self._guest.start()

    async def stop(self) -> None:
        """End every game (its players are told) and the engine."""
        await self._guest.stop()

    async def __aenter__(self) -> GameHost:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    # ------------------------------------------------------------ games

    async def create_game(self, seats: Sequence[HumanSeat | BotSeat], decks: Sequence[str | Deck],
                          *, seed: int | None = None, game_id: str | None = None,
                          turn_limit: int = DEFAULT_TURN_LIMIT) -> str:
        """Start a game: one seat per player (``HumanSeat`` or ``BotSeat``), each with its deck,
        from ``seed``. Returns its id.

        A deck is a ``Deck``, or a string: a built-in deck's name or **a deck file's path,
        which is opened and read**, so never pass a chat user's words here (resolve them to a
        ``Deck`` first). ``seed`` None (the default): a secret one is drawn from the operating
        system; either way it is recorded in the game's ``GameInfo.seed`` and never sent to a
        player. Give a seed only to reproduce a game."""
        token, nursery = self._require()
        if len(seats) != len(decks):
            raise ChatError(f"{len(seats)} seats but {len(decks)} decks")
        names = [s.name for s in seats]
        if len(set(names)) != len(names):
            raise ChatError("two seats have the same name")
        gid = game_id or f"game{next(self._ids)}"
        if gid in self._games:
            raise ChatError(f"a game {gid!r} exists already")
        if seed is None:
            seed = secrets.randbits(63)
        sessions = {spec.name: Session(gid, seat, spec, self._queue(), self._tell, self._flush)
                    for seat, spec in enumerate(seats) if isinstance(spec, HumanSeat)}
        seated = [sessions[spec.name] if isinstance(spec, HumanSeat) else _seat(spec.bot) for spec in seats]
        configs = [human_config(spec) if isinstance(spec, HumanSeat) else spec.config for spec in seats]
        setup = GameSetup(decks, seed, names, turn_limit=turn_limit, configs=configs, game_id=gid,
                          bot_seeds=[seed * 7 + seat for seat in range(len(seats))])
        game = setup.build(history=True)
        game.history_steps = []  # the feed tells a discard to hand size by its step (514.1)
        for session in sessions.values():
            session.hasty = _hasty(game)
        humans = tuple(sessions)
        hosted = _Hosted(GameInfo(gid, tuple(names), humans, seed=seed), game, sessions, self._event())
        policies = [s.player(hello) for s, hello in zip(seated, hellos(setup), strict=True)]
        self._games[gid] = hosted
        token.run_sync_soon(nursery.start_soon, self._run_game, hosted, policies, configs)
        return gid

    async def _run_game(self, hosted: _Hosted, policies: list[Bot | Client], configs: list[SeatConfig]) -> None:
        info = hosted.info
        game = hosted.game
        assert game is not None
        ending = ""
        try:
            result = None
            with hosted.scope:
                result = await play_game(game, policies, configs=configs, game_id=info.game_id)
            if result is None:  # end_game
                info.reason = hosted.ended
                ending = f"Game over, with no winner: {hosted.ended}"
            else:
                info.result = result
                info.reason = result.reason
                ending = _ending(result)
        except Exception as err:  # a game that fails ends alone, with a reason
            hosted.error = err
            info.reason = f"host error: {type(err).__name__}: {err}"[:300]
            ending = "Game over: the game failed (engine error), with no winner."
        finally:  # cancelled (``stop``): trio.Cancelled, maybe inside a group, passes on
            if not ending:
                info.reason = "stopped: the host is shutting down"
                ending = "Game over: the host stopped, so the game ended with no winner."
            self._end(hosted, ending)

    async def end_game(self, game_id: str, reason: str) -> GameInfo:
        """End a running game now, with no winner, because of ``reason`` (its ``GameInfo.reason``,
        told to its players); a game over already is left as it is. Returns its entry once it
        has ended."""
        token, _ = self._require()
        hosted = self._hosted(game_id)
        if hosted.info.running and not hosted.ended:
            hosted.ended = reason
            token.run_sync_soon(hosted.scope.cancel)
        await hosted.done.wait()
        return hosted.info

    def _end(self, hosted: _Hosted, ending: str) -> None:
        info = hosted.info
        info.running = False
        for session in hosted.sessions.values():
            if session.over:
                continue
            self._flush(session, final=True)
            session.over = True
            session.decision = None
            info.timeouts[session.spec.name] = list(session.timeouts)
            self._tell(session, ending)
            session.settle(ending)
            session.outbox.put_nowait(None)
        hosted.done.set()

    def _require(self) -> tuple[trio.lowlevel.TrioToken, trio.Nursery]:
        try:
            return self._guest.require()
        except NotRunning:
            raise ChatError("the host is not running: `await host.start()` first") from None

    def _queue(self) -> Outbox:
        """A new player's texts."""
        return asyncio.Queue()

    def _future(self) -> Answered:
        """A new answer to wait for."""
        loop = self._guest.loop
        assert loop is not None
        return loop.create_future()

    def _event(self) -> Done:
        """A new game's end."""
        return asyncio.Event()

    def _hosted(self, game_id: str) -> _Hosted:
        hosted = self._games.get(game_id)
        if hosted is None:
            raise ChatError(f"no game {game_id[:40]!r}")
        return hosted

    def _session(self, game_id: str, player: str) -> Session:
        session = self._hosted(game_id).sessions.get(player)
        if session is None:
            raise ChatError(f"no human player {player[:40]!r} in game {game_id[:40]!r}")
        return session

    # ------------------------------------------------------------ text in, text out

    def _tell(self, session: Session, text: str) -> None:
        self._texts += 1
        if self._on_text is not None:
            self._on_text(session.game_id, session.spec.name, text)
        session.outbox.put_nowait(text)

    def _flush(self, session: Session, *, final: bool = False) -> None:
        """Tell the player the feed lines of what happened since they were last told;
        ``final``: the game is over, and its ending tells who lost (not the feed)."""
        hosted = self._games.get(session.game_id)
        if hosted is None or hosted.game is None or hosted.game.history is None:
            return
        history = hosted.game.history
        told = list(zip(history[session.feed_index:], (hosted.game.history_steps or ())[session.feed_index:],
                        strict=True))
        if final:
            told = [(e, step) for e, step in told if e.kind != "lose"]
        names = [p.name for p in hosted.game.state.players]
        lines = feed_lines([e for e, _ in told], session.seat, names, steps=[step for _, step in told])
        session.feed_index = len(history)
        if lines:
            self._tell(session, fit_message(lines))

    async def submit(self, game_id: str, player: str, text: str) -> str:
        """Carry out a player's text command; returns the answer for them (one line, or the
        view they asked for). A command that changes the game is sent to the engine as one
        reply, and the answer says whether the engine took it."""
        token, _ = self._require()
        session = self._session(game_id, player)
        self._commands += 1
        if session.over:
            return self._reply(session, "The game is over.")
        decision = session.decision
        parsed = parse_command(text, session.view if decision else None, decision, session.numbering)
        if parsed.error:
            return self._reply(session, parsed.error)
        if parsed.local:
            return self._reply(session, self._local(session, parsed.local))
        assert decision is not None
        waiting = self._future()
        session.waiting = waiting
        session.summary = parsed.summary
        session.decision = None  # one reply per question
        self._replies += 1
        token.run_sync_soon(session.deliver, decision.id, parsed.reply)
        return self._reply(session, await waiting)

    def _reply(self, session: Session, text: str) -> str:
        if self._on_text is not None:
            self._on_text(session.game_id, session.spec.name, text)
        return text

    def _local(self, session: Session, command: str) -> str:
        view = session.view
        if command == "help":
            return help_text()
        if command == "concede":
            return self._concede_now(session)
        if view is None:
            return "The game has not asked you anything yet: no view to show."
        numbering = session.numbering
        if command == "hand":
            return fence(render_hand(view, numbering))
        if command == "board":
            return fence(render_board(view, numbering, hasty=session.hasty))
        if command == "stack":
            return fence(render_stack(view, numbering))
        text, _ = render_view(view, session.decision, numbering, hasty=session.hasty)
        return text

    def _concede_now(self, session: Session) -> str:
        token, _ = self._require()
        decision = session.decision
        if decision is not None:
            session.decision = None
            self._replies += 1
            token.run_sync_soon(session.deliver, decision.id, CONCEDE)
            return "You concede (104.3a)."
        session.conceding = True
        return "You concede (104.3a): it takes effect when the game next asks you something."

    async def concede(self, game_id: str, player: str) -> str:
        """The player concedes (104.3a); returns the answer for them."""
        return await self.submit(game_id, player, "concede")

    def view(self, game_id: str, player: str) -> str:
        """The player's current view as text (what ``view`` shows them)."""
        session = self._session(game_id, player)
        if session.view is None:
            return "No view yet."
        return render_view(session.view, session.decision, session.numbering, hasty=session.hasty)[0]

    def player_view(self, game_id: str, player: str) -> PlayerView | None:
        """The player's last view (None before their first question)."""
        return self._session(game_id, player).view

    def pending(self, game_id: str, player: str) -> Decision | None:
        """The question waiting for the player's command, or None."""
        return self._session(game_id, player).decision

    def numbering(self, game_id: str, player: str) -> Numbering:
        """The ``[n]`` numbers of the player's last view."""
        return self._session(game_id, player).numbering

    async def messages(self, game_id: str, player: str) -> AsyncIterator[str]:
        """What the player should be told, as it comes (questions with their view, the event
        feed, time-outs, the end of the game); ends after the game's last message."""
        session = self._session(game_id, player)
        while True:
            text = await session.outbox.get()
            if text is None:
                session.outbox.put_nowait(None)  # a second reader ends too
                return
            yield text

    def forget(self, game_id: str) -> None:
        """Drop a game that is over, its entry and its players' texts (a host that runs for
        long keeps only what it needs); a game still running is left as it is."""
        hosted = self._hosted(game_id)
        if not hosted.info.running:
            del self._games[game_id]

    def games(self) -> list[GameInfo]:
        """Every game of this host, running or over."""
        return [h.info for h in self._games.values()]

    def info(self, game_id: str) -> GameInfo:
        """One game's entry."""
        return self._hosted(game_id).info

    async def wait(self, game_id: str) -> GameInfo:
        """Wait for the game to end; returns its entry."""
        hosted = self._hosted(game_id)
        await hosted.done.wait()
        return hosted.info

    def engine_game(self, game_id: str) -> Game:
        """The kernel's ``Game`` of a hosted game (for tools and tests: its state is the whole
        truth, hidden cards included; never show it to a player)."""
        game = self._hosted(game_id).game
        assert game is not None
        return game


def _hasty(game: Game) -> Hasty:
    """Whether a permanent has haste now (702.10): a public fact of a permanent (a face-down one
    has no abilities, 708.2), read from the game the player's question waits in."""

    def hasty(oid: int) -> bool:
        obj = game.state.objects.get(oid)
        return obj is not None and obj.zone == "battlefield" and game.has_keyword(obj, "haste")

    return hasty


def _ending(result: GameResult) -> str:
    """The game's end, told once: ``Game over: bob wins: alice conceded (104.3a).``"""
    reason = result.reason.rstrip(".")
    if result.winner and not reason.startswith(f"{result.winner} wins"):
        reason = f"{result.winner} wins: {reason}"
    elif not result.winner and not reason.startswith("draw"):
        reason = f"a draw: {reason}"
    return f"Game over: {reason}."


def _seat(bot: str | Bot | Seat) -> Seat:
    """The seat a ``BotSeat`` names: a bot spec loaded (``load_bot``), a seat as it is, a
    ``Bot`` played as it is."""
    if isinstance(bot, str):
        try:
            return seat_of(load_bot(bot))
        except EntrantError as err:
            raise ChatError(str(err)) from None
    if isinstance(bot, Seat):
        return bot
    return BuiltBot(bot)
