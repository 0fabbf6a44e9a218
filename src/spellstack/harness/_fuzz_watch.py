"""The checks of one fuzz game, after every hostile message: what the reply was, whether a
refusal left the state hash unchanged, whether anything sent to the hostile seat names a card
hidden from it, whether its decision ids run 1, 2, 3, ... without a gap, and at the end whether
its forfeits were the ones the protocol calls for.

``Probe`` is the coordinator's end of the hostile seat's link; it hands ``Watch`` each message
as the coordinator reads it and each reply as it is sent.
"""

from __future__ import annotations

import pickle
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import msgpack  # type: ignore[import-untyped]

from ..actors import ENGINE_ERROR, CoordinatorStatistics, GameResult, Link
from ..protocol import SubmitAction, decode, to_plain
from ..rules import Action, Game, IllegalActionError, InvalidMessageError, take_action
from ._fuzz_hidden import HiddenNames, hidden_leaks
from ._fuzz_report import Failure, FuzzReport
from ._hostile import Outgoing
from ._hostile_bombs import BOMB_KINDS, BOMB_LIMIT_WORDS
from ._hostile_seat import ForfeitGuard

__all__ = ["Probe", "Watch", "shorten"]

_FAILURES_PER_GAME = 5
"""Failed checks kept, with their bytes, for each game (all are counted)."""


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
    calls: tuple[int, int] = (0, 0)
    """The coordinator's calls of ``take_action`` and of ``check_answer`` when it read it."""
    started: float = 0.0
    """``time.perf_counter()`` when the coordinator read it (after the hash was taken)."""


class Watch:
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
        self.last_id = 0
        """The last decision id sent to the seat (0: none yet)."""
        self.expected_forfeit = ""
        """The forfeit the protocol calls for after the last reply."""
        self.forfeit_kind = ""
        """The kind of the message after which the protocol called for it."""
        self.hidden = HiddenNames(game, seat)
        self.statistics: Callable[[], CoordinatorStatistics] | None = None
        """The coordinator's ``statistics``, once it is built: what the kernel was called
        with while a hostile message was in flight is read off its counters."""
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
        self.settle()
        self.reading = _InFlight(number, item, before, "", self._calls(), time.perf_counter())

    def _calls(self) -> tuple[int, int]:
        """The coordinator's calls so far of ``take_action`` (actions taken or refused) and of
        ``check_answer``."""
        if self.statistics is None:
            return (0, 0)
        stats = self.statistics()
        return (stats.actions_taken + stats.actions_refused, stats.answers_checked)

    def settle(self) -> None:
        """Count whether the message in flight reached ``take_action`` or ``check_answer``
        (the coordinator called one since it read the message: with one message of the game
        in flight, for this message)."""
        flight = self.reading
        if flight is None or flight.reached:
            return
        take, check = self._calls()
        if take > flight.calls[0]:
            flight.reached = "take_action"
            self.report.kind(flight.item.kind).take_action += 1
        elif check > flight.calls[1]:
            flight.reached = "check_answer"
            self.report.kind(flight.item.kind).check_answer += 1

    def on_send_to_seat(self, data: bytes) -> None:
        now = time.perf_counter()
        plain = msgpack.unpackb(data, raw=False)
        kind = plain.get("k")
        # The named form: the wire sends small records as positional lists, and the checks
        # below look for maps pairing an id with a name (decoding is strict: nothing is lost).
        body = to_plain(decode(data))
        flight = self.reading
        for leak in hidden_leaks(self.game, self.seat, body, self.hidden, data):
            self.fail(flight.number if flight else 0, flight.item if flight else None,
                      f"{kind} to the hostile seat {leak}")
        if kind == "GameOver" and str(body.get("reason", "")).startswith(ENGINE_ERROR):
            return  # sent after an engine error: the message in flight stays the one it cut off
        if kind in ("PriorityRequest", "DecisionRequest"):
            self.context = "priority" if kind == "PriorityRequest" else "decision"
            self.decision = body["decision"]["id"]
            self._check_numbering(kind, self.decision, flight)
        else:
            self.known_hash = ""
        if flight is None:
            return
        self.settle()
        self.reading = None
        counts = self.report.kind(flight.item.kind)
        msg = decode(data)
        forfeit = self.guard.update(msg, self.context, self.decision)
        if self.verbose:
            reason = body.get("reason", "") if isinstance(body, dict) else ""
            print(f"  #{flight.number} {flight.item.kind} {flight.item.data[:48].hex()} -> {kind}"
                  f"{': ' + reason if reason else ''}")
        if flight.item.kind in BOMB_KINDS:
            self._check_bomb(flight, kind, body, now - flight.started)
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
                pass  # the forfeit the protocol calls for: checked at the end of the game
            else:
                self.fail(flight.number, flight.item, f"refused ({kind}: "
                          f"{shorten(body.get('reason', ''))}) but the state hash changed")
        elif not gone and not forfeit:
            self.known_hash = after
        if forfeit == "strikes" and not gone:
            # The coordinator forfeits a seat before its last ErrorReply goes out.
            self.fail(flight.number, flight.item, "the protocol calls for a forfeit (strikes) "
                      "but the seat is still in the game")
        if forfeit and not self.expected_forfeit:
            # Checked at the end of the game: one forfeit, for the first cause called for.
            self.expected_forfeit = forfeit
            self.forfeit_kind = flight.item.kind
        if kind == "Rejected":
            self._compare_with_fresh_id(flight, msg)

    def _check_numbering(self, kind: str, number: int, flight: _InFlight | None) -> None:
        """A seat's decision ids count only the decisions asked of it: 1 for its first, then
        each new request the next id, and a request sent again (after a malformed message, for
        the full view, after a refused answer) the same id. A gap would count decisions the
        seat was not asked, numbered in the same sequence: what other seats could do."""
        last = self.last_id
        if number != last + 1 and not (last and number == last):
            self.fail(flight.number if flight else 0, flight.item if flight else None,
                      f"{kind} to the hostile seat has decision id {number} after {last}: a "
                      "seat's decision ids run 1, 2, 3, ... (a gap counts decisions of others)")
        self.last_id = number

    def _check_bomb(self, flight: _InFlight, kind: str, body: Any, seconds: float) -> None:
        """An object-count bomb must be refused with an ``ErrorReply`` naming a limit; the
        refusal's cost is counted."""
        reason = str(body.get("reason", "")) if isinstance(body, dict) else ""
        if kind != "ErrorReply" or not any(words in reason for words in BOMB_LIMIT_WORDS):
            self.fail(flight.number, flight.item, f"an object-count bomb got {kind}"
                      f"{': ' + shorten(reason) if reason else ''}, not an ErrorReply naming a "
                      "limit")
            return
        self.report.bomb_refused(seconds)

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
                          f"{shorten(reply.reason)!r}, but for an id that never existed "
                          f"{shorten(str(err))!r}")
        except Exception:
            return

    def finish(self, result: GameResult | None) -> None:
        """End-of-game checks: the hostile seat's forfeits were called for, nothing was left
        unanswered."""
        self.settle()
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
            cause = "bomb cycle" if self.forfeit_kind == "bomb_cycle" else self.expected_forfeit
            self.report.forfeits[cause] = self.report.forfeits.get(cause, 0) + 1
        elif mine:
            if len(mine) == 1 and mine[0] == "the hostile client leaves":
                self.report.forfeits["forfeit message"] = (
                    self.report.forfeits.get("forfeit message", 0) + 1)
            else:
                self.fail(0, None, f"forfeit the protocol did not call for: {mine!r}")


class Probe(Link):
    """The coordinator's end of the hostile seat's link, reporting what crosses it."""

    watch: Watch

    async def receive_bytes(self) -> bytes:
        data = await self.inbox.receive()
        self.watch.on_read(data)
        return data

    def receive_waiting(self) -> bytes | None:
        data = Link.receive_waiting(self)
        if data is not None:
            self.watch.on_read(data)
        return data

    async def send_bytes(self, data: bytes) -> None:
        self.watch.on_send_to_seat(data)
        await Link.send_bytes(self, data)


def shorten(text: str, limit: int = 200) -> str:
    """``text``, cut to ``limit`` characters."""
    return text if len(text) <= limit else text[:limit - 3] + "..."
