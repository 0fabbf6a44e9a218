"""``spellstack fuzz``: games in which one seat is a hostile client, checked after every message.

Each game is a real game in the real actors (coordinator, stack actor, SBA checker, a player
actor with a RandomBot on the other seat); the hostile seat is ``bots.run_hostile_seat``
talking raw bytes over its channel. The coordinator's end of that channel is a ``Link`` that
watches what crosses it (``_Probe``): when the coordinator reads a hostile message it takes
the state hash, and when it sends the reply it takes it again. With one message of the game
in flight, nothing else can touch the state in between: the coordinator is the only task
that runs while it handles the message (the stack actor and SBA checker act only when it
hands the state over, which it never does between reading a message and replying to it;
the other player's actor is waiting for its own channel). So the two hashes are the state
before and after the kernel looked at the message.

After each message: the reply is an error (ErrorReply, Rejected) or an acceptance; a refused
message left the state hash unchanged, except for a forfeit the protocol calls for
(``MAX_STRIKES`` malformed in a row, ``MAX_REJECTIONS`` illegal in a row), reported as such;
no message sent to the hostile seat names or identifies a card hidden from it
(``rules.visible_to`` decides), and a refusal naming a hidden id reads exactly like one
naming an id that never existed; and the game finishes without an engine error.
"""

from __future__ import annotations

import argparse
import os
import pickle
import platform
import re
import sys
import time
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import msgpack  # type: ignore[import-untyped]
import trio

from ..actors import (
    MAX_REJECTIONS,
    MAX_STRIKES,
    Coordinator,
    GameResult,
    Link,
    SeatConfig,
    Wire,
    player_actor,
    sba_actor,
    stack_actor,
)
from ..actors import _coordinator as coordinator_module
from ..bots import RandomBot
from ..cards import load_cards, load_deck
from ..harness import ForfeitGuard, HostileStream, Outgoing, run_hostile_seat
from ..protocol import SubmitAction, decode, to_plain
from ..rules import (
    Action,
    Game,
    GameRandom,
    IllegalActionError,
    InvalidMessageError,
    Reply,
    new_game,
    take_action,
    visible_to,
)

__all__ = ["FuzzReport", "add_parser", "fuzz", "fuzz_game", "hidden_leaks", "instrumented"]

DECKS = ("gruul", "orzhov", "dimir")
NAMES = ("alice", "bob", "carol", "dave")
MAX_GAME_MESSAGES = 200_000
"""A game whose hostile seat has sent this many messages has not finished: a failure."""
GAME_SECONDS = 600.0
"""A game still running after this long (real time) hangs: a failure."""
LEAVE_CHANCE = 12
"""Percent of games in which the hostile seat leaves on purpose (each way the protocol
allows: strikes, rejections, a Forfeit message, a concession)."""
_FAILURES_PER_GAME = 5


@dataclass(slots=True)
class Failure:
    """A check that failed, with what reproduces it."""

    seed: int
    """The run's seed."""
    game: int
    """The game's number in the run."""
    message: int
    """The hostile message's number within the game (from 1; 0: after the last one)."""
    run_message: int
    """Its number within the run."""
    kind: str
    """The mutation that was sent."""
    what: str
    """What went wrong."""
    data: bytes = b""
    """The bytes sent."""
    quota: int = 0
    """If not 0: the game's mutated stream was cut after this many messages."""
    players: int = 2
    """Seats at the game's table."""

    def replay(self) -> str:
        """The command that replays this game alone."""
        cut = f" --messages {self.quota}" if self.quota else ""
        table = f" --players {self.players}" if self.players != 2 else ""
        return f"spellstack fuzz --seed {self.seed} --game {self.game}{cut}{table}"


@dataclass(slots=True)
class KindCounts:
    """What became of the messages of one kind."""

    sent: int = 0
    """Messages sent."""
    error: int = 0
    """Answered with an ErrorReply."""
    rejected: int = 0
    """Answered with Rejected."""
    accepted: int = 0
    """Accepted."""
    unread: int = 0
    """Never read (the game ended first)."""
    take_action: int = 0
    """Reached the kernel's take_action."""
    check_answer: int = 0
    """Reached the kernel's check_answer."""


@dataclass(slots=True)
class FuzzReport:
    """Everything a run counted."""

    seed: int
    """The run's seed."""
    players: int = 2
    """Seats per game."""
    games: int = 0
    """Games played."""
    messages: int = 0
    """Hostile messages sent."""
    kinds: dict[str, KindCounts] = field(default_factory=dict)
    """Counts by mutation kind."""
    forfeits: dict[str, int] = field(default_factory=dict)
    """Forfeits of the hostile seat the protocol called for, by cause."""
    results: dict[str, int] = field(default_factory=dict)
    """How games ended: hostile win, loss, draw."""
    legal_refused: int = 0
    """Legal replies (options the request listed) that were refused all the same."""
    refusal_copies: int = 0
    """Refusals naming a hidden id that were compared with the same refusal for a fresh id."""
    failures: list[Failure] = field(default_factory=list)
    """Failed checks (at most a few per game)."""
    failure_count: int = 0
    """All failed checks."""
    seconds: float = 0.0
    """Wall time."""

    def kind(self, name: str) -> KindCounts:
        """The counts of a kind (created on first use)."""
        if name not in self.kinds:
            self.kinds[name] = KindCounts()
        return self.kinds[name]


# ---------------------------------------------------------------------- hidden information

_ID = re.compile(r"#(\d+)")
_NAME_RES: dict[str, re.Pattern[str]] = {}


def _name_re(name: str) -> re.Pattern[str]:
    pattern = _NAME_RES.get(name)
    if pattern is None:
        pattern = _NAME_RES[name] = re.compile(r"(?<!\w)" + re.escape(name) + r"(?!\w)")
    return pattern


class _Hidden:
    """What is hidden from one seat now: objects it may not see (``visible_to``) and ids that
    were hidden from it when they last existed, with their names, and the names it may not
    know from anything it sees. Recomputed when objects have moved (every zone change makes a
    new object, 400.7, so the id counter and the table sizes tell)."""

    def __init__(self, game: Game, seat: int) -> None:
        self.game = game
        self.seat = seat
        self.key: tuple[int, int, int] = (-1, -1, -1)
        self.ids: dict[int, str] = {}
        """Hidden id -> its name."""
        self.names: dict[str, tuple[str, ...]] = {}
        """Names only hidden objects have -> the visible names that contain them as words."""
        self.clean: set[str] = set()
        """Texts already found to name nothing hidden (since the last refresh)."""

    def refresh(self) -> None:
        st = self.game.state
        key = (st.next_id, len(st.lki), len(st.objects))
        if key == self.key:
            return
        self.key = key
        ids: dict[int, str] = {}
        seen: set[str] = {p.name for p in st.players}
        for table in (st.objects, st.lki):
            for oid, obj in table.items():
                if visible_to(self.game, self.seat, obj):
                    seen.add(obj.name)
                else:
                    ids[oid] = obj.name
        self.ids = ids
        self.names = {n: tuple(v for v in seen if _name_re(n).search(v))
                      for n in set(ids.values()) if n and n not in seen}
        self.clean = set()

    def text_leaks(self, s: str) -> list[str]:
        """What the text ``s`` reveals."""
        if s in self.clean:
            return []
        out: list[str] = []
        for name, shadows in self.names.items():
            if name in s:
                rest = s
                for v in shadows:  # a visible name that contains it ("Elves" in "Llanowar Elves")
                    rest = rest.replace(v, "")
                if _name_re(name).search(rest):
                    out.append(f"names hidden card {name!r}: {s!r}")
        if "#" in s:
            for m in _ID.finditer(s):
                n = int(m.group(1))
                known = self.ids.get(n)
                if known and any(form in s for form in (f"{known} (#{n})", f"{known} #{n}",
                                                          f"#{n} {known}", f"#{n} ({known})")):
                    out.append(f"identifies hidden #{n} as {known!r}: {s!r}")
        if not out:
            self.clean.add(s)
        return out


_ID_BYTES = re.compile(rb"#(\d+)")


def hidden_leaks(game: Game, seat: int, plain: Any, hidden: _Hidden | None = None,
                 data: bytes | None = None) -> list[str]:
    """What in ``plain`` (a decoded message, as it crossed the wire) names or identifies a card
    hidden from ``seat``: a name no visible object has, a hidden id written next to its name,
    or a map giving a hidden id together with a name. ``data``: the message's bytes, if known
    (msgpack carries strings as UTF-8 bytes, so a name or ``#N`` absent from them is absent
    from every text, and the texts need not be read one by one)."""
    if hidden is None:
        hidden = _Hidden(game, seat)
    hidden.refresh()
    out: list[str] = []
    ids = hidden.ids
    texts = data is None or any(n.encode() in data for n in hidden.names) or any(
        int(m) in ids for m in _ID_BYTES.findall(data))
    todo = [plain]
    clean = hidden.clean
    while todo:
        v = todo.pop()
        if type(v) is dict:
            name = v.get("name")
            if type(name) is str and name:
                for key in ("id", "object_id", "ref", "source_id"):
                    ref = v.get(key)
                    if type(ref) is int and ref in ids:
                        out.append(f"shows hidden #{ref} with the name {name!r}")
            items: Any = v.values()
        elif type(v) is list:
            items = v
        else:  # a bare scalar message body
            items = (v,)
        for x in items:
            tx = type(x)
            if tx is dict or tx is list:
                todo.append(x)
            elif tx is str and texts and x not in clean:
                out += hidden.text_leaks(x)
    return out


# ---------------------------------------------------------------------- one game


@dataclass(slots=True)
class _InFlight:
    """A hostile message the coordinator has read and not yet answered."""

    number: int
    """Its number within the game."""
    item: Outgoing
    """What was sent."""
    before: str
    """The state hash when the coordinator read it (empty for a legal message: hashing costs
    a millisecond, and a legal message is refused only if the kernel contradicts its own list
    of legal options, which is counted as ``legal_refused``)."""
    reached: str = ""
    """``take_action`` or ``check_answer`` if the kernel was called with it."""


class _Watch:
    """The checks of one game, fed by the probe on the coordinator's end of the hostile link."""

    def __init__(self, game: Game, seat: int, report: FuzzReport, game_no: int, first: int,
                 verbose: bool) -> None:
        self.game = game
        self.seat = seat
        self.report = report
        self.game_no = game_no
        self.first = first
        """Run number of the game's first message, less one."""
        self.verbose = verbose
        self.queue: deque[tuple[int, Outgoing]] = deque()
        """Sent by the hostile seat, not yet read by the coordinator."""
        self.sent = 0
        self.reading: _InFlight | None = None
        self.guard = ForfeitGuard()
        self.context = "priority"
        self.decision = -1
        self.expected_forfeit = ""
        """The forfeit the protocol calls for after the last reply."""
        self.hidden = _Hidden(game, seat)
        self.failures = 0
        self.quota = 0
        self.known_hash = ""
        """The state hash taken at the last refusal, while only requests have been sent to the
        seat since: the state the coordinator asks with is then the state it refused with.
        (After a refusal it only repeats the task that asked, and asking reads the state, never
        writes it: ``next_task``, ``priority_decision``, ``legal_actions``, ``view_for``.)
        Reusing it can only make a change look bigger, never hide one: a refused message that
        changed nothing still hashes as the state before it, so if that differs from the reused
        hash, a failure is reported, not missed."""

    def fail(self, number: int, item: Outgoing | None, what: str) -> None:
        self.report.failure_count += 1
        self.failures += 1
        if self.failures <= _FAILURES_PER_GAME:
            self.report.failures.append(Failure(
                self.report.seed, self.game_no, number, self.first + number if number else 0,
                item.kind if item else "", what, item.data if item else b"", self.quota,
                self.report.players))

    # the hostile seat's side
    def on_send(self, item: Outgoing) -> None:
        self.sent += 1
        self.report.messages += 1
        self.report.kind(item.kind).sent += 1
        self.queue.append((self.sent, item))

    # the coordinator's side
    def on_read(self, data: bytes) -> None:
        number, item = self.queue.popleft()
        assert item.data == data, "the probe read a message the hostile seat did not send"
        before = ""
        if item.kind != "legal":
            before = self.known_hash or self.game.state.state_hash()
        self.reading = _InFlight(number, item, before)

    def on_reached(self, call: str) -> None:
        if self.reading is not None and not self.reading.reached:
            self.reading.reached = call
            counts = self.report.kind(self.reading.item.kind)
            if call == "take_action":
                counts.take_action += 1
            else:
                counts.check_answer += 1

    def on_send_to_seat(self, data: bytes) -> None:
        plain = msgpack.unpackb(data, raw=False)
        kind = plain.get("k")
        # The named form: the wire sends small records as positional lists, and the checks
        # below look for maps pairing an id with a name (decoding is strict: nothing is lost).
        body = to_plain(decode(data))
        flight = self.reading
        for leak in hidden_leaks(self.game, self.seat, body, self.hidden, data):
            self.fail(flight.number if flight else 0, flight.item if flight else None,
                      f"{kind} to the hostile seat {leak}")
        if kind in ("PriorityRequest", "DecisionRequest"):
            self.context = "priority" if kind == "PriorityRequest" else "decision"
            self.decision = body["decision"]["id"]
        else:
            self.known_hash = ""
        if flight is None:
            return
        self.reading = None
        counts = self.report.kind(flight.item.kind)
        msg = decode(data)
        forfeit = self.guard.update(msg, self.context, self.decision)
        if self.verbose:
            reason = body.get("reason", "") if isinstance(body, dict) else ""
            print(f"  #{flight.number} {flight.item.kind} {flight.item.data[:48].hex()} -> {kind}"
                  f"{': ' + reason if reason else ''}")
        if kind == "Accepted" or kind in ("PriorityRequest", "DecisionRequest"):
            counts.accepted += 1
            return
        if kind not in ("ErrorReply", "Rejected"):
            self.fail(flight.number, flight.item, f"reply is {kind}, neither an error nor an "
                      "acceptance")
            return
        if kind == "ErrorReply":
            counts.error += 1
        else:
            counts.rejected += 1
        if not flight.before:
            self.report.legal_refused += 1
            return
        gone = self.game.state.players[self.seat].lost
        after = self.game.state.state_hash()
        if after != flight.before:
            if kind == "ErrorReply" and forfeit == "strikes" and gone:
                self.expected_forfeit = "strikes"
            else:
                self.fail(flight.number, flight.item, f"refused ({kind}: "
                          f"{_short(body.get('reason', ''))}) but the state hash changed")
        elif not gone and not forfeit:
            self.known_hash = after
        if forfeit == "rejections":
            self.expected_forfeit = "rejections"
        if kind == "Rejected":
            self._compare_with_fresh_id(flight, msg)

    def _compare_with_fresh_id(self, flight: _InFlight, reply: Any) -> None:
        """A refusal of an action naming a hidden id must read exactly as the refusal of the
        same action naming an id that never existed: try that on a copy of the game."""
        try:
            sent = decode(flight.item.data)
        except InvalidMessageError:
            return
        if not isinstance(sent, SubmitAction):
            return
        act = sent.action
        refs = {act.object_id, *act.targets, *act.pay, *(r for r, _ in act.divide)}
        self.hidden.refresh()
        hidden = sorted(r for r in refs if r in self.hidden.ids)
        if not hidden:
            return
        st = self.game.state
        fresh = st.next_id + 1_000_000
        h = hidden[0]

        def swap(r: int) -> int:
            return fresh if r == h else r

        # Every int equal to the hidden id is swapped, so that the texts compare word for word.
        other = Action(act.kind, swap(act.object_id), swap(act.ability),
                       tuple(swap(t) for t in act.targets), swap(act.x),
                       tuple((swap(r), swap(n)) for r, n in act.divide),
                       tuple(swap(p) for p in act.pay), act.pay_as)
        twin = Game(pickle.loads(pickle.dumps(st)), self.game.cards)
        try:
            take_action(twin, self.seat, other)
        except (IllegalActionError, InvalidMessageError) as err:
            self.report.refusal_copies += 1
            # The fresh id is a number no text holds otherwise: putting the hidden id back
            # where the kernel printed it must give the refusal the player received.
            if str(err).replace(str(fresh), str(h)) != reply.reason:
                self.fail(flight.number, flight.item, f"the refusal of hidden #{h} reads "
                          f"{_short(reply.reason)!r}, but for an id that never existed "
                          f"{_short(str(err))!r}")
        except Exception:
            return

    def finish(self, result: GameResult | None) -> None:
        """End-of-game checks: the hostile seat's forfeits were called for, nothing was left
        unanswered."""
        if self.reading is not None and self.reading.item.kind != "leave":
            self.fail(self.reading.number, self.reading.item, "the coordinator read it and "
                      "never replied")
        for _, item in self.queue:
            self.report.kind(item.kind).unread += 1
        if result is None:
            return
        name = self.game.state.players[self.seat].name
        mine = [reason for who, reason in result.forfeits if who == name]
        others = [(who, reason) for who, reason in result.forfeits if who != name]
        for who, reason in others:
            self.fail(0, None, f"{who} (a legal bot) forfeited: {reason}")
        if self.expected_forfeit:
            words = ("malformed messages in a row" if self.expected_forfeit == "strikes"
                     else "illegal")
            if len(mine) != 1 or words not in mine[0]:
                self.fail(0, None, f"the protocol calls for a forfeit ({self.expected_forfeit}) "
                          f"but the forfeits are {mine!r}")
            self.report.forfeits[self.expected_forfeit] = (
                self.report.forfeits.get(self.expected_forfeit, 0) + 1)
        elif mine:
            if len(mine) == 1 and mine[0] == "the hostile client leaves":
                self.report.forfeits["forfeit message"] = (
                    self.report.forfeits.get("forfeit message", 0) + 1)
            else:
                self.fail(0, None, f"forfeit the protocol did not call for: {mine!r}")


class _Probe(Link):
    """The coordinator's end of the hostile seat's link, reporting what crosses it."""

    watch: _Watch

    async def receive_bytes(self) -> bytes:
        data = await self.inbox.receive()
        self.watch.on_read(data)
        return data

    async def send_bytes(self, data: bytes) -> None:
        self.watch.on_send_to_seat(data)
        await Link.send_bytes(self, data)


_ACTIVE: list[_Watch] = []
"""The watch of the game being played (one at a time)."""


@contextmanager
def instrumented() -> Iterator[None]:
    """Count the coordinator's real calls of ``take_action`` and ``check_answer`` made for a
    hostile message in flight, by wrapping the functions it calls."""
    take: Callable[[Game, int, Action], str] = getattr(coordinator_module, "take_action")  # noqa: B009
    check: Callable[[Any, Reply], Any] = getattr(coordinator_module, "check_answer")  # noqa: B009

    def counted_take(game: Game, seat: int, action: Action) -> str:
        for w in _ACTIVE:
            if w.game is game and w.seat == seat:
                w.on_reached("take_action")
        return take(game, seat, action)

    def counted_check(decision: Any, reply: Reply) -> Any:
        for w in _ACTIVE:
            if decision.player == w.seat:
                w.on_reached("check_answer")
        return check(decision, reply)

    setattr(coordinator_module, "take_action", counted_take)  # noqa: B010
    setattr(coordinator_module, "check_answer", counted_check)  # noqa: B010
    try:
        yield
    finally:
        setattr(coordinator_module, "take_action", take)  # noqa: B010
        setattr(coordinator_module, "check_answer", check)  # noqa: B010


def _game_seed(seed: int, game_no: int) -> int:
    return (seed * 1_000_003 + game_no * 7919 + 17) & ((1 << 64) - 1)


async def fuzz_game(report: FuzzReport, game_no: int, *, quota: int = 0, verbose: bool = False,
                    coordinator: type[Coordinator] = Coordinator, players: int = 2) -> None:
    """Play game ``game_no`` of ``report.seed``'s run, adding its counts and failures to
    ``report`` (kernel calls are counted inside ``instrumented()`` only). ``quota``: mutate
    only the first ``quota`` messages (0: all).
    ``coordinator``: the class to run (tests give a deliberately broken one). ``players``:
    seats at the table (2 to 4), one of them hostile."""
    report.players = players
    gseed = _game_seed(report.seed, game_no)
    rng = GameRandom.from_seed(gseed)
    cards = load_cards()
    decks = [rng.choice(DECKS) for _ in range(players)]
    seat = game_no % players
    game = new_game(cards, [(NAMES[i], load_deck(decks[i], cards).cards)
                            for i in range(players)], gseed)
    leave_how, leave_at = "", 0
    if rng.below(100) < LEAVE_CHANCE:
        leave_how = rng.choice(("strikes", "rejections", "forfeit", "concede"))
        leave_at = 20 + rng.below(400)
    watch = _Watch(game, seat, report, game_no, report.messages, verbose)
    watch.quota = quota
    stream = HostileStream(gseed ^ 0xF022, game=game)
    wire = Wire(f"g{game_no}", None)
    configs = [SeatConfig()] * players
    configs[seat] = SeatConfig(auto_pass=False)
    ends: list[Link] = []
    coord_ends: list[Link] = []
    for i in range(players):
        a_out, b_in = trio.open_memory_channel[bytes](1)
        b_out, a_in = trio.open_memory_channel[bytes](1)
        peer = f"player:{NAMES[i]}"
        if i == seat:
            probe = _Probe(wire, "coordinator", peer, a_out, a_in)
            probe.watch = watch
            coord_ends.append(probe)
        else:
            coord_ends.append(Link(wire, "coordinator", peer, a_out, a_in))
        ends.append(Link(wire, peer, "coordinator", b_out, b_in))
    if verbose:
        table = " vs ".join(f"{NAMES[i]} ({decks[i]})" for i in range(players))
        print(f"game {game_no}: seed {gseed}, {table}, hostile seat {seat}"
              + (f", leaves by {leave_how} at message {leave_at}" if leave_how else ""))

    def wanted() -> bool:
        if watch.sent >= MAX_GAME_MESSAGES:
            raise _Runaway
        return quota == 0 or watch.sent < quota

    result: GameResult | None = None
    _ACTIVE.append(watch)
    try:
        with trio.move_on_after(GAME_SECONDS) as scope:
            async with trio.open_nursery() as nursery:
                stack_c, stack_a = Link.pair(wire, "coordinator", "stack")
                sba_c, sba_a = Link.pair(wire, "coordinator", "sba")
                nursery.start_soon(stack_actor, game, stack_a)
                nursery.start_soon(sba_actor, game, sba_a)
                others = [i for i in range(players) if i != seat]
                for k, other in enumerate(others):
                    nursery.start_soon(player_actor, RandomBot((gseed ^ 0xB0B) + k), ends[other])

                async def hostile() -> None:
                    await run_hostile_seat(stream, ends[seat].inbox, ends[seat].out,
                                           on_send=watch.on_send, quota=wanted,
                                           leave_at=leave_at, leave_how=leave_how)

                nursery.start_soon(hostile)
                result = await coordinator(game, coord_ends, configs, stack_c, sba_c).run()
                nursery.cancel_scope.cancel()
        if scope.cancelled_caught:
            watch.fail(watch.sent, None, f"the game did not finish within {GAME_SECONDS:g} s")
    except Exception as err:
        _report_exception(watch, err)
    finally:
        _ACTIVE.remove(watch)
    if result is not None and "engine error" in result.reason:
        _report_engine_error(watch, result.reason)
    watch.finish(result)
    if quota and watch.sent < quota:
        for f in report.failures:
            if f.game == game_no:
                f.quota = 0  # the stream was never cut: the game replays without --messages
    report.games += 1
    outcome = "no result (engine failure)" if result is None else "draw" if (
        result.winner is None) else "hostile wins" if result.winner == NAMES[seat] else (
        "hostile loses")
    report.results[outcome] = report.results.get(outcome, 0) + 1


class _Runaway(Exception):
    """The hostile seat's game went past MAX_GAME_MESSAGES."""


def _leaves(err: BaseException) -> list[BaseException]:
    if isinstance(err, BaseExceptionGroup):
        return [leaf for sub in err.exceptions for leaf in _leaves(sub)]
    return [err]


def _report_exception(watch: _Watch, err: BaseException) -> None:
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
                   f"engine exception {type(leaf).__name__}: {_short(str(leaf))}{where}")
    watch.reading = None


def _report_engine_error(watch: _Watch, reason: str) -> None:
    flight = watch.reading
    watch.fail(flight.number if flight else watch.sent, flight.item if flight else None,
               f"the game ended with an engine error: {_short(reason)}")
    watch.reading = None


def _short(text: str, limit: int = 200) -> str:
    return text if len(text) <= limit else text[:limit - 3] + "..."


# ---------------------------------------------------------------------- the run


async def fuzz(seed: int, messages: int, *, game: int | None = None, verbose: bool = False,
               progress: Callable[[FuzzReport], None] | None = None,
               coordinator: type[Coordinator] = Coordinator, players: int = 2) -> FuzzReport:
    """Play games until ``messages`` hostile messages have been sent (the last game is played
    out with legal messages), or only game ``game`` (``messages`` then cuts its mutated stream;
    0 for none)."""
    report = FuzzReport(seed)
    start = time.perf_counter()
    with instrumented():
        if game is not None:
            await fuzz_game(report, game, quota=messages, verbose=verbose,
                            coordinator=coordinator, players=players)
        else:
            n = 0
            while report.messages < messages:
                left = messages - report.messages
                await fuzz_game(report, n, quota=left, verbose=verbose, coordinator=coordinator,
                                players=players)
                n += 1
                if progress is not None:
                    progress(report)
    report.seconds = time.perf_counter() - start
    return report


def render(report: FuzzReport, quota: int, game: int | None = None) -> list[str]:
    """The report as printed."""
    out: list[str] = []
    rate = report.messages / report.seconds if report.seconds else 0.0
    if game is None:
        what = (f"{report.games} games, {report.messages} hostile messages (quota {quota}; "
                "the last game is played out)")
    else:
        cut = f", mutated stream cut after {quota}" if quota else ""
        what = f"game {game} replayed alone{cut}, {report.messages} hostile messages"
    out.append(f"spellstack fuzz: seed {report.seed}, {what}, {report.seconds:.1f} s, "
               f"{rate:.0f} messages/s")
    out.append(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python "
               f"{platform.python_version()}")
    head = ("kind", "sent", "error", "rejected", "accepted", "unread", "take_action",
            "check_answer")
    out.append("  ".join(f"{h:>12}" for h in head))
    total = KindCounts()
    for name in sorted(report.kinds):
        c = report.kinds[name]
        row = (c.sent, c.error, c.rejected, c.accepted, c.unread, c.take_action, c.check_answer)
        out.append(f"{name:>12}  " + "  ".join(f"{v:>12}" for v in row))
        for f in ("sent", "error", "rejected", "accepted", "unread", "take_action",
                  "check_answer"):
            setattr(total, f, getattr(total, f) + getattr(c, f))
    out.append(f"{'total':>12}  " + "  ".join(f"{getattr(total, f):>12}" for f in (
        "sent", "error", "rejected", "accepted", "unread", "take_action", "check_answer")))
    mutated = sum(c.sent for k, c in report.kinds.items() if k not in ("legal", "leave"))
    reached_mut = sum(c.take_action + c.check_answer for k, c in report.kinds.items()
                      if k not in ("legal", "leave"))
    reached = total.take_action + total.check_answer
    out.append(f"reached the kernel (take_action or check_answer): {reached} of {total.sent} "
               f"messages ({100 * reached / max(total.sent, 1):.1f}%); mutated: {reached_mut} of "
               f"{mutated} ({100 * reached_mut / max(mutated, 1):.1f}%)")
    out.append(f"refusals naming a hidden id compared with a fresh id's: {report.refusal_copies}"
               f"; legal replies refused: {report.legal_refused}")
    forfeits = ", ".join(f"{k} {v}" for k, v in sorted(report.forfeits.items())) or "none"
    out.append(f"hostile forfeits the protocol called for (limits: {MAX_STRIKES} malformed, "
               f"{MAX_REJECTIONS} illegal in a row): {forfeits}")
    out.append("games: " + ", ".join(f"{k} {v}" for k, v in sorted(report.results.items())))
    out.append(f"failures: {report.failure_count}")
    for fail in report.failures:
        out.append(f"FAIL game {fail.game} message {fail.message} (run message "
                   f"{fail.run_message}) [{fail.kind}]: {fail.what}")
        if fail.data:
            out.append(f"  bytes: {fail.data[:64].hex()}{'...' if len(fail.data) > 64 else ''}")
        out.append(f"  replay: {fail.replay()}")
    if report.failure_count > len(report.failures):
        out.append(f"({report.failure_count - len(report.failures)} more not shown)")
    return out


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("fuzz", help="play games against a hostile client, checking every "
                                    "message")
    p.add_argument("--messages", type=int, default=None,
                   help="hostile messages to send (default 20000; with --game: cut that "
                        "game's mutated stream after this many, default none)")
    p.add_argument("--seed", type=int, default=1, help="the run's seed (default 1)")
    p.add_argument("--game", type=int, default=None, help="replay only this game of the run")
    p.add_argument("--players", type=int, default=2, help="seats per game, one hostile "
                   "(2 to 4, default 2)")
    p.add_argument("--verbose", action="store_true", help="print every hostile message and "
                   "its reply")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    messages = args.messages
    if messages is None:
        messages = 0 if args.game is not None else 20_000
    if messages < 0 or (args.game is None and messages < 1):
        print("spellstack fuzz: --messages must be at least 1", file=sys.stderr)
        return 2
    if args.game is not None and args.game < 0:
        print("spellstack fuzz: --game must be 0 or more", file=sys.stderr)
        return 2
    if not 2 <= args.players <= len(NAMES):
        print(f"spellstack fuzz: --players must be 2 to {len(NAMES)}", file=sys.stderr)
        return 2
    step = max(1, messages // 10)
    marks = [step]

    def progress(report: FuzzReport) -> None:
        if report.messages >= marks[0]:
            while marks[0] <= report.messages:
                marks[0] += step
            print(f"  fuzz: {report.messages}/{messages} messages, {report.games} games, "
                  f"{report.failure_count} failures", file=sys.stderr, flush=True)

    report = trio.run(lambda: fuzz(args.seed, messages, game=args.game, verbose=args.verbose,
                                   progress=progress, players=args.players))
    print("\n".join(render(report, messages, args.game)))
    return 1 if report.failure_count else 0
