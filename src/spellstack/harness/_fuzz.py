"""The fuzz (``spellstack fuzz``): games in which one seat is a hostile client, checked after
every message.

Each game is a real game played by ``play_game`` (coordinator, stack actor, SBA checker, a
player actor with a RandomBot on each other seat); the hostile seat is a ``HostileSeat``: a
``Client`` the fuzz plays itself, ``run_hostile_seat`` talking raw bytes over its channel. The coordinator's end
of that channel is a ``Link`` that watches what crosses it (``Probe``): when the coordinator
reads a hostile message it takes the state hash, and when it sends the reply it takes it
again. With one message of the game in flight, nothing else can touch the state in between:
the coordinator is the only task that runs while it handles the message (the stack actor and
SBA checker act only when it hands the state over, which it never does between reading a
message and replying to it; the other players' actors wait for their own channels). So the two hashes are the state
before and after the kernel looked at the message.

After each message: the reply is an error (ErrorReply, Rejected) or an acceptance; a refused
message left the state hash unchanged, except for a forfeit the protocol calls for
(``MAX_STRIKES`` malformed in a row, ``MAX_REJECTIONS`` illegal in a row), reported as such;
no message sent to the hostile seat names or identifies a card hidden from it
(``rules.visible_to`` decides), and a refusal naming a hidden id reads exactly like one
naming an id that never existed; the decision ids sent to the hostile seat run 1, 2, 3, ...
(a request sent again keeps its id), so they count nothing but its own decisions; and the game
finishes without an engine error.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import trio

from ..actors import Client, Coordinator, CoordinatorFactory, GameResult, GameSetup, Link, SeatConfig, Wire, play_game
from ..bots import Bot, RandomBot
from ..rules import GameRandom
from ..seats import hellos
from ._fuzz_report import FuzzReport
from ._fuzz_siblings import DEFAULT_BLOCK, beside, policy_game
from ._fuzz_watch import Probe, Watch, shorten
from ._hostile import HostileStream
from ._hostile_seat import HostileSeat

__all__ = ["BOMB_CYCLE_EVERY", "FUZZ_DECKS", "FUZZ_NAMES", "GAME_SECONDS", "LEAVE_CHANCE", "MAX_GAME_MESSAGES",
           "fuzz", "fuzz_game"]

FUZZ_DECKS = ("gruul", "orzhov", "dimir")
"""The decks a fuzz game's seats are dealt from (one drawn per seat)."""
FUZZ_NAMES = ("alice", "bob", "carol", "dave")
"""The players' names, by seat (at most four seats)."""
MAX_GAME_MESSAGES = 200_000
"""A game whose hostile seat has sent this many messages has not finished: a failure."""
GAME_SECONDS = 600.0
"""A game still running after this long (real time) hangs: a failure."""
LEAVE_CHANCE = 12
"""Percent of games in which the hostile seat leaves on purpose (each way the protocol
allows: strikes, rejections, a Forfeit message, a concession)."""
BOMB_CYCLE_EVERY = 6
"""Every sixth game in which the hostile seat would not leave otherwise, it leaves by object-count
bombs alternating with refused actions (games 5, 11, 17, ...: a run of 20,000 messages has a
few)."""

def _game_seed(seed: int, game_no: int) -> int:
    return (seed * 1_000_003 + game_no * 7919 + 17) & ((1 << 64) - 1)


async def fuzz_game(report: FuzzReport, game_no: int, *, quota: int = 0, verbose: bool = False,
                    coordinator: type[Coordinator] = Coordinator, players: int = 2) -> None:
    """Play game ``game_no`` of ``report.seed``'s run, adding its counts and failures to
    ``report`` (what reached the kernel is read off the coordinator's ``statistics()``).
    ``quota``: mutate only the first ``quota`` messages (0: all).
    ``coordinator``: the class to run (tests give a deliberately broken one). ``players``:
    seats at the table (2 to 4), one of them hostile."""
    report.players = players
    gseed = _game_seed(report.seed, game_no)
    rng = GameRandom.from_seed(gseed)
    decks = [rng.choice(FUZZ_DECKS) for _ in range(players)]
    seat = game_no % players
    setup = GameSetup(decks, gseed, FUZZ_NAMES[:players])
    game = setup.build()
    leave_how, leave_at = "", 0
    if rng.below(100) < LEAVE_CHANCE:
        leave_how = rng.choice(("strikes", "rejections", "forfeit", "concede"))
        leave_at = 20 + rng.below(400)
    if not leave_how and game_no % BOMB_CYCLE_EVERY == BOMB_CYCLE_EVERY - 1:
        leave_how, leave_at = "bombs", 20 + rng.below(400)
    watch = Watch(game, seat, report, game_no, report.messages, verbose)
    watch.quota = quota
    stream = HostileStream(gseed ^ 0xF022, game=game)
    configs = [SeatConfig()] * players
    configs[seat] = SeatConfig(auto_pass=False)
    if verbose:
        table = " vs ".join(f"{FUZZ_NAMES[i]} ({decks[i]})" for i in range(players))
        print(f"game {game_no}: seed {gseed}, {table}, hostile seat {seat}"
              + (f", leaves by {leave_how} at message {leave_at}" if leave_how else ""))

    def wanted() -> bool:
        if watch.sent >= MAX_GAME_MESSAGES:
            raise _Runaway
        return quota == 0 or watch.sent < quota

    def probed(wire: Wire, me: str, peer: str) -> tuple[Link, Link]:
        """The hostile seat's link: the coordinator's end is the watching ``Probe``."""
        a_out, b_in = trio.open_memory_channel[bytes](1)
        b_out, a_in = trio.open_memory_channel[bytes](1)
        probe = Probe(wire, me, peer, a_out, a_in)
        probe.watch = watch
        return probe, Link(wire, peer, me, b_out, b_in)

    hostile = HostileSeat(stream, probed, on_send=watch.on_send, quota=wanted, leave_at=leave_at,
                          leave_how=leave_how)

    def build(*args: Any) -> Coordinator:
        """The coordinator, whose ``statistics()`` the watch reads."""
        made = coordinator(*args)
        watch.statistics = made.statistics
        return made

    make: CoordinatorFactory = build
    seats: list[Bot | Client] = []
    others = 0
    for i in range(players):
        if i == seat:
            seats.append(hostile.player(hellos(setup)[i]))
        else:
            seats.append(RandomBot((gseed ^ 0xB0B) + others))
            others += 1
    result: GameResult | None = None
    with trio.move_on_after(GAME_SECONDS) as scope:
        result = await play_game(game, seats, configs=configs, game_id=f"g{game_no}",
                                 coordinator=make)
    if scope.cancelled_caught:
        watch.fail(watch.sent, None, f"the game did not finish within {GAME_SECONDS:g} s")
    if result is not None and result.error is not None:
        # An exception in one of the game's actors (the coordinator, the hostile seat's
        # runaway check): reported with the message in flight, and the game has no result.
        _report_exception(watch, result.error)
        result = None
    if result is not None and "engine error" in result.reason:
        _report_engine_error(watch, result.reason)
    watch.finish(result)
    if quota and watch.sent < quota:
        for f in report.failures:
            if f.game == game_no:
                f.quota = 0  # the stream was never cut: the game replays without --messages
    report.games += 1
    outcome = "no result (engine failure)" if result is None else "draw" if (
        result.winner is None) else "hostile wins" if result.winner == FUZZ_NAMES[seat] else (
        "hostile loses")
    report.results[outcome] = report.results.get(outcome, 0) + 1


class _Runaway(Exception):
    """The hostile seat's game went past MAX_GAME_MESSAGES."""


def _leaves(err: BaseException) -> list[BaseException]:
    if isinstance(err, BaseExceptionGroup):
        return [leaf for sub in err.exceptions for leaf in _leaves(sub)]
    return [err]


def _report_exception(watch: Watch, err: BaseException) -> None:
    watch.settle()
    flight = watch.reading
    for leaf in _leaves(err):
        if isinstance(leaf, _Runaway):
            watch.fail(watch.sent, None, f"the game did not finish within {MAX_GAME_MESSAGES} "
                       "hostile messages")
            continue
        where = ""
        tb = leaf.__traceback__
        while tb is not None:
            where = f" at {tb.tb_frame.f_code.co_filename.rsplit('/', 1)[-1]}:{tb.tb_lineno}"
            tb = tb.tb_next
        watch.fail(flight.number if flight else watch.sent, flight.item if flight else None,
                   f"engine exception {type(leaf).__name__}: {shorten(str(leaf))}{where}")
    watch.reading = None


def _report_engine_error(watch: Watch, reason: str) -> None:
    watch.settle()
    flight = watch.reading
    watch.fail(flight.number if flight else watch.sent, flight.item if flight else None,
               f"the game ended with an engine error: {shorten(reason)}")
    watch.reading = None


async def fuzz(seed: int, messages: int, *, game: int | None = None, verbose: bool = False,
               progress: Callable[[FuzzReport], None] | None = None,
               coordinator: type[Coordinator] = Coordinator, players: int = 2,
               siblings: int = 0, block: float = DEFAULT_BLOCK) -> FuzzReport:
    """Play games until ``messages`` hostile messages have been sent (the last game is played
    out with legal messages), or only game ``game`` (``messages`` then cuts its mutated stream;
    0 for none). Each game ``n`` is followed by policy game ``n`` (a hostile bot in a player
    actor, ``policy_game``; its blocks at most ``block`` seconds). ``siblings``: honest games
    played beside each hostile game, then alone, and compared (``beside``)."""
    report = FuzzReport(seed)
    start = time.perf_counter()

    async def play(n: int, quota: int) -> None:
        gseed = _game_seed(seed, n)
        await beside(report, n, gseed, siblings, lambda: fuzz_game(
            report, n, quota=quota, verbose=verbose, coordinator=coordinator, players=players))
        await beside(report, n, gseed ^ 0x5A, siblings, lambda: policy_game(
            report, n, gseed, block=block, players=players, coordinator=coordinator,
            siblings=siblings))

    if game is not None:
        await play(game, messages)
    else:
        n = 0
        while report.messages < messages:
            await play(n, messages - report.messages)
            n += 1
            if progress is not None:
                progress(report)
    report.seconds = time.perf_counter() - start
    return report
