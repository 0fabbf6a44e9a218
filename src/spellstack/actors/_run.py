"""A game as a trio nursery of actors: coordinator, players, stack, SBA checker, tracer.

Containment: an unexpected exception in any of a game's actors ends that game alone, at its
own nursery. The game ends with reason ``engine error: ACTOR: Type: message`` and no winner,
its seed is in the result (and the trace's result line), and sibling games in the parent
nursery go on. Only ordinary exceptions are contained: ``trio.Cancelled``,
``KeyboardInterrupt`` and other ``BaseException``s pass through. A bot's own errors are not
engine errors: the player actor turns them into a forfeit of that seat.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import trio

from ..bots import Bot
from ..cards import Deck, load_cards
from ..rules import DEFAULT_TURN_LIMIT, Game, StartSettings
from ._coordinator import ENGINE_ERROR, Coordinator, GameResult, SeatConfig
from ._kernel_actors import sba_actor, stack_actor
from ._player import player_actor
from ._record import GameRecorder, encode_record
from ._setup import GameSetup
from ._tracer import TraceSink, TraceWriter, tracer_actor
from ._wire import Link, TraceRecord, Wire

__all__ = ["Client", "CoordinatorFactory", "play_game", "play_one_game", "play_setup"]

_FAULT_TEXT_LIMIT = 300
"""Longest exception text kept in an end reason, in characters."""


@dataclass(frozen=True, slots=True)
class Client:
    """A seat its caller plays itself over the seat's link, in place of a player actor with a
    policy: a raw client (a bot process's relay, the fuzz's hostile seat)."""

    play: Callable[..., Awaitable[object]]
    """Plays the seat over the player's end of its link until the game is over for it:
    ``play(link)``, or with ``starts`` ``play(link, ready)``."""
    link: Callable[[Wire, str, str], tuple[Link, Link]] = Link.pair
    """Makes the seat's link from the game's wire and the two actors' names: the
    coordinator's end, then the player's (``Link.pair``, or ends that watch what crosses)."""
    starts: bool = False
    """The seat needs time to start (a bot process): ``play`` is given a second argument, a
    function it calls once the seat can be asked (or once it has given up: a ``Forfeit`` sent
    after it is what the coordinator then reads). The game's first request waits until every
    such seat has called it, so that no decision's deadline pays for a seat's start-up."""
    entrant: str = "seat played by its caller"
    """Who plays the seat, for the trace's header."""


CoordinatorFactory = Callable[[Game, list[Link], list[SeatConfig], Link, Link], Coordinator]
"""What builds a game's coordinator: ``Coordinator`` itself, a subclass, or a function that
also keeps it (to read its ``statistics()``)."""


@dataclass(slots=True)
class _Containment:
    """The first unexpected exception among one game's actors, and the scope it cancels."""

    actor: str = ""
    """The actor it happened in (``coordinator``, ``stack``, ``sba``, ``player:NAME``,
    ``tracer``); empty while nothing failed."""
    fault: str = ""
    """``ACTOR: Type: message`` for the end reason; empty while nothing failed."""
    scope: trio.CancelScope | None = None
    """The game's engine (coordinator, stack actor, SBA checker) while it runs."""
    error: Exception | None = None
    """The exception itself."""

    def record(self, actor: str, err: Exception) -> None:
        """Note the failure (the first one counts) and stop the game's engine."""
        if not self.fault:
            try:
                text = str(err)
            except Exception:  # an exception whose own text fails
                text = "<unprintable>"
            if len(text) > _FAULT_TEXT_LIMIT:
                text = text[: _FAULT_TEXT_LIMIT - 3] + "..."
            self.actor = actor
            self.error = err
            self.fault = f"{actor}: {type(err).__name__}" + (f": {text}" if text else "")
        if self.scope is not None:
            self.scope.cancel()

    def attach(self, scope: trio.CancelScope) -> None:
        """The engine's scope from now on (cancelled at once if something failed already)."""
        self.scope = scope
        if self.fault:
            scope.cancel()

    async def guard(self, actor: str, fn: Callable[..., Awaitable[Any]], *args: Any) -> None:
        """Run one actor; an ordinary exception ends its game instead of the process."""
        try:
            await fn(*args)
        except Exception as err:  # Cancelled and KeyboardInterrupt are BaseExceptions: not here
            self.record(actor, err)

    async def guard_start(self, actor: str, play: Callable[..., Awaitable[Any]], link: Link, *,
                          task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        """Run a seat that starts (``Client.starts``) as ``guard`` does, for ``nursery.start``:
        started once the seat says it is ready, or once it ends or fails without saying so (a
        failure is recorded, and ends the game as soon as it begins)."""
        said = False

        def ready() -> None:
            nonlocal said
            if not said:
                said = True
                task_status.started()

        try:
            await play(link, ready)
        except Exception as err:  # as in ``guard``
            self.record(actor, err)
        ready()


async def play_game(
    game: Game,
    policies: Sequence[Bot | Client],
    *,
    configs: Sequence[SeatConfig] | None = None,
    trace: trio.MemorySendChannel[TraceRecord] | None = None,
    game_id: str = "g1",
    coordinator: CoordinatorFactory = Coordinator,
) -> GameResult:
    """Run ``game`` to its end with one player per seat: a policy (played by a player actor)
    or a ``Client`` the caller plays itself; returns the result.

    ``trace``: where to send a copy of every message (the caller owns the tracer).
    ``coordinator``: what builds the coordinator. An unexpected exception in one of the game's
    actors (a ``Client``'s task included) ends the game with reason ``engine error: ...`` (see
    the module docstring; the exception is ``GameResult.error``); it is not raised.
    """
    result, _ = await _play_game(game, policies, configs, trace, game_id, _Containment(), coordinator)
    return result


async def _play_game(
    game: Game,
    policies: Sequence[Bot | Client],
    configs: Sequence[SeatConfig] | None,
    trace: trio.MemorySendChannel[TraceRecord] | None,
    game_id: str,
    box: _Containment,
    coordinator: CoordinatorFactory = Coordinator,
    kernel_events: bool = True,
) -> tuple[GameResult, Coordinator]:
    """``kernel_events``: with ``trace``, the kernel's events are traced too (a record alone
    needs only the messages and the coordinator's events)."""
    n = len(game.state.players)
    if len(policies) != n:
        raise ValueError(f"{n} players but {len(policies)} policies")
    seat_configs = with_policies_views(policies, configs if configs is not None else [SeatConfig()] * n)
    wire = Wire(game_id, trace)
    if trace is not None and kernel_events:  # traced with when they happened
        game.trace_log = []
        wire.game = game
    names = [f"player:{p.name}" for p in game.state.players]
    coord_ends: list[Link] = []
    player_ends: list[Link] = []
    for name, policy in zip(names, policies, strict=True):
        pair = policy.link if isinstance(policy, Client) else Link.pair
        mine, theirs = pair(wire, "coordinator", name)
        coord_ends.append(mine)
        player_ends.append(theirs)
    stack_c, stack_a = Link.pair(wire, "coordinator", "stack")
    sba_c, sba_a = Link.pair(wire, "coordinator", "sba")
    coord = coordinator(game, coord_ends, seat_configs, stack_c, sba_c)
    async with trio.open_nursery() as players:
        starting: list[tuple[str, Client, Link]] = []
        for name, policy, end in zip(names, policies, player_ends, strict=True):
            if isinstance(policy, Client) and policy.starts:
                starting.append((name, policy, end))
            elif isinstance(policy, Client):
                players.start_soon(box.guard, name, policy.play, end)
            else:
                players.start_soon(box.guard, name, player_actor, policy, end)
        if starting:  # all at once: the game waits for the slowest, not for their sum
            async with trio.open_nursery() as waiting:
                for name, seat, end in starting:
                    waiting.start_soon(players.start, box.guard_start, name, seat.play, end)
        # The engine has its own scope, so that after a failure the players are still there
        # to be told the game is over.
        async with trio.open_nursery() as engine:
            box.attach(engine.cancel_scope)
            engine.start_soon(box.guard, "stack", stack_actor, game, stack_a)
            engine.start_soon(box.guard, "sba", sba_actor, game, sba_a)
            # The coordinator runs in this task (one task fewer per game in flight): a failure
            # elsewhere cancels it with the rest of the engine.
            await box.guard("coordinator", _coordinate, coord, engine.cancel_scope)
        box.scope = None
        if box.fault:
            failed = frozenset(seat for seat, name in enumerate(names) if name == box.actor)
            result = await coord.abort(box.actor, box.fault, skip=failed, error=box.error)
        else:
            result = coord.result
        # Players that hang or already left are not waited for.
        players.cancel_scope.cancel()
    # What seats that left the game sent since (a reply on its way when they left), after
    # everything else: its place never depends on when it came.
    wire.flush_left()
    start = game.state.start
    if start is not None:
        seats = game.state.players
        result.chooser = seats[start.chooser].name if start.chooser >= 0 else None  # -1: fixed
        result.starting_player = seats[start.starting].name if start.starting >= 0 else None
        result.mulligans = tuple(start.mulligans)
    return result, coord


async def _coordinate(coord: Coordinator, engine: trio.CancelScope) -> None:
    """Play the game; then stop the stack actor and SBA checker, which wait for ever."""
    await coord.run()
    engine.cancel()


def with_policies_views(policies: Sequence[Bot | Client], configs: Sequence[SeatConfig]) -> list[SeatConfig]:
    """``configs``, each seat's ``priority_views`` off when its policy acts without reading a
    view (its ``views_at_priority`` is False); a ``Client`` reads what it is sent."""
    return [replace(c, priority_views=False)
            if c.priority_views and not isinstance(p, Client) and getattr(p, "views_at_priority", True) is False
            else c for p, c in zip(policies, configs, strict=True)]


def _entrant(policy: Bot | Client) -> str:
    """Who plays a seat, for the trace's header: the bot's class, or what the client says."""
    if isinstance(policy, Client):
        return policy.entrant
    cls = type(policy)
    return f"{cls.__module__}.{cls.__qualname__}"


def _seat_settings(name: str, config: SeatConfig) -> dict[str, object]:
    """A seat's settings, for the trace's header."""
    stops = config.stops
    clock = config.clock
    return {"name": name, "deadline": config.timeout, "auto_pass": config.auto_pass,
            "stops": None if stops is None else {"my_turn": list(stops.my_turn),
                                                 "opponents_turns": list(stops.opponents_turns),
                                                 "stack": stops.stack},
            "clock": None if clock is None else {"base": clock.base, "increment": clock.increment},
            "priority_views": config.priority_views}


async def play_one_game(
    decks: Sequence[str | Deck],
    policies: Sequence[Bot | Client],
    seed: int,
    *,
    names: Sequence[str] | None = None,
    trace_path: Path | None = None,
    configs: Sequence[SeatConfig] | None = None,
    history: bool = False,
    start: StartSettings | None = None,
    game_id: str = "g1",
    timestamps: bool = False,
    turn_limit: int = DEFAULT_TURN_LIMIT,
    entrants: Sequence[str] | None = None,
    record_path: Path | None = None,
) -> tuple[Game, GameResult]:
    """Play one game from built-in decks, deck files or loaded ``Deck``s, seat ``i`` with
    ``decks[i]`` and ``policies[i]``: a thin convenience over ``play_setup`` for the
    ``GameSetup`` of these arguments (``names``, ``configs``, ``start``, ``game_id``,
    ``turn_limit`` are its fields; see ``play_setup`` for the rest). Returns the game (its
    final state) and the result."""
    setup = GameSetup(decks, seed, names or (), start, turn_limit, configs or (), game_id=game_id)
    return await play_setup(setup, policies, trace_path=trace_path, history=history,
                            timestamps=timestamps, entrants=entrants, record_path=record_path)


async def play_setup(
    setup: GameSetup,
    policies: Sequence[Bot | Client],
    *,
    trace_path: Path | None = None,
    history: bool = False,
    timestamps: bool = False,
    entrants: Sequence[str] | None = None,
    record_path: Path | None = None,
    watch: TraceSink | None = None,
) -> tuple[Game, GameResult]:
    """Play the game of ``setup``, seat ``i`` played by ``policies[i]``, optionally tracing it
    to ``trace_path`` (JSON Lines); returns the game (its final state) and the result.
    ``history``: keep every event in ``game.history``. A setup's ``start`` is recorded in the
    trace's header. ``timestamps``: each trace line gets the time it was written (otherwise no
    line holds a clock's reading). ``entrants``: who plays each seat, for the trace's header
    (default: each policy's class; a replay gives the recorded ones). ``record_path``: write
    the game's record there (``GameRecorder``: one JSON object, built from what the tracer is
    handed, with or without a trace file). ``watch``: one more sink handed every traced record,
    the kernel's events included, as the trace file is (the server's spectator feed); with it
    the game is traced even without a file.

    Both files are opened before the game starts (an ``OSError`` if one can't be). A tracer
    that fails (writing a line raises) ends the game as an engine error like any other actor;
    the result line is still written if the writer can. A record that can't be written ends
    the game as an engine error too (``engine error: recorder: ...``).
    """
    cards = load_cards()
    setup = setup.loaded(cards)
    game = setup.build(cards, history=history)
    names = setup.players
    loaded = setup.read_decks(cards)
    configs = setup.seat_configs
    if len(policies) == len(configs):  # otherwise ``_play_game`` says what is wrong
        configs = tuple(with_policies_views(policies, configs))
    game_id = setup.game_id
    start = setup.start
    box = _Containment()
    if trace_path is None and record_path is None and watch is None:
        result, _ = await _play_game(game, policies, configs, None, game_id, box)
        return game, result
    who = list(entrants) if entrants is not None else [_entrant(p) for p in policies]
    with contextlib.ExitStack() as files:
        stream = None if trace_path is None else files.enter_context(open(trace_path, "w", encoding="utf-8"))
        # Unbuffered: written once, at the end, so that a failure to write is the write's.
        saved = None if record_path is None else files.enter_context(open(record_path, "wb", buffering=0))
        writer = None if stream is None else TraceWriter(stream, timestamps=timestamps)
        recorder = None if saved is None else GameRecorder.of(
            game=game_id, seed=setup.seed, names=names, entrants=who,
            bot_seeds=[setup.bot_seed(i) for i in range(len(names))], decks=loaded,
            configs=configs, start=start, turn_limit=setup.turn_limit)
        if writer is not None:
            extra: dict[str, object] = {}
            if start is not None:
                told: dict[str, object] = {"chooser": start.chooser, "mulligans": start.mulligans}
                if start.starting is not None:  # only then: other traces' headers stay as they were
                    told["starting"] = start.starting
                if start.library_seeds:
                    told["library_seeds"] = list(start.library_seeds)
                extra["start"] = told
            try:
                writer.header(setup.seed, {nm: d.name for nm, d in zip(names, loaded, strict=True)},
                              players=list(names), game=game_id,
                              decklists={nm: list(d.cards) for nm, d in zip(names, loaded, strict=True)},
                              entrants=dict(zip(names, who, strict=True)),
                              seats=[_seat_settings(nm, c) for nm, c in zip(names, configs, strict=True)],
                              turn_limit=setup.turn_limit, **extra)
            except Exception as err:  # the game is not played: nothing of it could be traced
                box.record("tracer", err)
        sinks = [s for s in (writer, recorder, watch) if s is not None]
        sink = sinks[0] if len(sinks) == 1 else _Tee(tuple(sinks))
        send, recv = trio.open_memory_channel[TraceRecord](math.inf)
        async with trio.open_nursery() as nursery:
            nursery.start_soon(box.guard, "tracer", tracer_actor, recv, sink)
            async with send:
                result, coord = await _play_game(game, policies, configs, send, game_id, box,
                                                 kernel_events=writer is not None or watch is not None)
        everyone = frozenset(range(len(names)))
        if box.fault and not result.reason.startswith(ENGINE_ERROR):
            # The tracer failed on a line written after the game's end: whenever it fails,
            # the game counts as failed, so the outcome does not depend on how far the tracer
            # had got. The seats were told the real outcome already.
            result = await coord.abort(box.actor, box.fault, skip=everyone, error=box.error)
        if writer is not None:
            try:
                # The clocks' time left only where there were clocks (a seat without one: null).
                clocks = {"clock_left": [t if math.isfinite(t) else None for t in result.clock_left]
                          } if result.clock_left else {}
                writer.footer(winner=result.winner, reason=result.reason, turns=result.turns,
                              final_hash=result.final_hash, seed=result.seed, **clocks)
            except Exception as err:
                if not box.fault:
                    box.record("tracer", err)
                    result = await coord.abort(box.actor, box.fault, skip=everyone, error=err)
        if recorder is not None and saved is not None:
            try:
                left = memoryview(encode_record(recorder.finish(result)))
                while left:
                    written = saved.write(left)
                    if not written:
                        raise OSError(f"{record_path}: nothing more could be written")
                    left = left[written:]
            except Exception as err:
                if not box.fault:
                    box.record("recorder", err)
                    result = await coord.abort(box.actor, box.fault, skip=everyone, error=err)
    return game, result


@dataclass(frozen=True, slots=True)
class _Tee:
    """Hands each traced record to every sink: the trace writer and the recorder."""

    sinks: tuple[TraceSink, ...]
    """Where each record goes, in order."""

    def message(self, rec: TraceRecord) -> None:
        """Hand ``rec`` to each sink."""
        for sink in self.sinks:
            sink.message(rec)
