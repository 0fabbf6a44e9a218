"""Why something happened in a traced game, from the trace alone (``spellstack trace why``).

An object on the stack resolved because all players passed in succession (117.4, 608.1), did
not resolve because every one of its targets had become illegal (608.2b), or was countered
(701.5); a step ended because all players passed in succession with the stack empty (117.4,
500.2). Each ``Explanation`` names the rule, the sequence number of the cause and the passes.
The first step of a game, its first turn's upkeep, has no record of its own: the first step
change ends it.

The passes of a step that nobody could act in are made by the engine at kernel speed and
recorded together once the run stops, after the records of the steps they ended: the n-th
step change that still lacks its passes takes the next passes recorded (each step that
ended needs one pass from every player still in the game, in turn order).

The records read (``GameEvent``, ``Resolve``, ``Resolved``) are decoded as their protocol types
first, as the other readers do: a payload that doesn't fit its kind is a ``TraceRecordError``
naming its line, never a wrong answer or a crash.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..cards import short_value
from ..protocol import GameEvent, Resolve, Resolved
from ..rules import SpellstackError
from ._read import Trace, TraceMessage

__all__ = [
    "Explanation",
    "Pass",
    "TargetLoss",
    "WhyError",
    "explain",
    "explain_object",
    "explain_seq",
    "priority_flow",
]

_NO_PRIORITY = frozenset({"untap", "cleanup"})
"""Steps in which no player receives priority (502.4; 514.3, unless something happens)."""
_ACTIONS = frozenset({"cast", "activate", "play"})
"""Event kinds of an action taken with priority (117.3c: the succession of passes starts over)."""
_READ = frozenset({"GameEvent", "Resolve", "Resolved"})
"""The message kinds whose payloads ``explain`` and ``priority_flow`` read."""
_LISTED = 20
"""How many names an error lists at most."""


class WhyError(SpellstackError):
    """A question the trace can't answer: no record with that number, no such object."""


@dataclass(frozen=True, slots=True)
class Pass:
    """One pass of priority, as the trace records it."""

    player: str
    """Who passed."""
    seq: int
    """The record's sequence number."""
    automatic: bool
    """Whether the engine passed for the player (an ``auto_pass`` record)."""
    text: str
    """The record's text (for an automatic pass, why)."""


@dataclass(frozen=True, slots=True)
class TargetLoss:
    """Why one target of a spell or ability was illegal when it tried to resolve."""

    target: str
    """The target, by name."""
    seq: int | None
    """The record of the event that made it illegal, or None if no record names it."""
    text: str
    """That event's text, or what is known."""


@dataclass(frozen=True, slots=True)
class Explanation:
    """The answer to one "why": the rule, the cause and who passed."""

    subject: str
    """What is explained (an object with its id, or a step of a turn)."""
    outcome: str
    """``resolved``, ``fizzled``, ``countered``, ``did nothing``, ``step ended`` or ``unresolved``."""
    rule: str
    """The Comprehensive Rules numbers it rests on."""
    text: str
    """The explanation in words."""
    cause_seq: int | None
    """The sequence number of the cause (the last pass, the counterspell's resolution, the
    event that made the last target illegal); None if the trace holds none."""
    passed: tuple[Pass, ...]
    """The passes in succession that let it happen (for a counter: the counterspell's)."""
    seq: int
    """The record explained (the resolution, the counter, the step change)."""
    targets: tuple[TargetLoss, ...] = ()
    """For a fizzle: each target and what made it illegal."""
    caster: str = ""
    """For a counter: who cast the counterspell."""


@dataclass(frozen=True, slots=True)
class _Object:
    """A spell or ability on the stack, as the trace shows it."""

    id: int
    name: str
    controller: str
    put_seq: int
    targets: tuple[int, ...]


def _decoded(trace: Trace) -> dict[int, GameEvent | Resolve | Resolved]:
    """The records ``explain`` reads, decoded, by line; ``TraceRecordError`` for a payload that
    doesn't fit its kind."""
    out: dict[int, GameEvent | Resolve | Resolved] = {}
    for m in trace.messages:
        if m.kind in _READ:
            msg = m.decode(trace.source)
            assert isinstance(msg, GameEvent | Resolve | Resolved)
            out[m.line] = msg
    return out


class _Index:
    """What ``explain`` needs, found in one pass over the trace."""

    def __init__(self, trace: Trace) -> None:
        self.trace = trace
        self.decoded = _decoded(trace)
        players = trace.header.players
        self.by_seq = {m.seq: m for m in trace.messages}
        self.objects: dict[int, _Object] = {}
        self.successions: dict[int, tuple[Pass, ...]] = {}
        """Closing record (a ``Resolve`` or a step change) -> the passes that closed it."""
        self.steps: dict[int, tuple[str, int, str]] = {}
        """Step change record -> (step that ended, its turn, whose turn)."""
        self.names: dict[int, str] = {}
        gone: set[str] = set()
        current: list[Pass] = []
        waiting: list[tuple[int, list[Pass], int]] = []  # (record, passes so far, needed)
        # Every game starts in its first turn's upkeep (the untap step has nothing to untap,
        # 103.7): a step no record opens, whose passes come before the first step change. Its
        # active player is the one turn 1's next step names; failing that, the one chosen to
        # take the first turn (103.1), or else the first seat (a game that starts without
        # that choice).
        step: tuple[str, int, str] | None = None
        first = True
        opener = players[0] if players else ""
        for m in trace.messages:
            msg = self.decoded.get(m.line)
            if isinstance(msg, Resolve):
                self.successions[m.seq] = tuple(current[-self._n(players, gone):])
                current = []
                continue
            if isinstance(msg, Resolved):
                self.names[msg.object_id] = msg.name
                continue
            if msg is None:
                continue
            ev = msg
            kind = ev.kind
            seat = ev.player
            who = players[seat] if 0 <= seat < len(players) else ""
            if kind in ("pass", "auto_pass"):
                p = Pass(who, m.seq, kind == "auto_pass", ev.text)
                if waiting:
                    waiting[0][1].append(p)
                    if len(waiting[0][1]) >= waiting[0][2]:
                        seq, got, _ = waiting.pop(0)
                        self.successions[seq] = tuple(got)
                else:
                    current.append(p)
            elif kind == "forfeit":
                gone.add(who)
            elif kind == "starting_player" and who:
                opener = who
            elif kind in _ACTIONS:
                current = []
                self._put(m, ev, who)
            elif kind == "trigger":
                self._put(m, ev, who)
            elif kind in ("step", "turn"):
                if first:
                    first = False
                    step = ("upkeep", 1, who if kind == "step" and ev.turn == 1 and who else opener)
                if step is not None:
                    self.steps[m.seq] = step
                    need = 0 if step[0] in _NO_PRIORITY else self._n(players, gone)
                    got, current = current[:need], current[need:]
                    if len(got) >= need:
                        self.successions[m.seq] = tuple(got)
                    else:
                        waiting.append((m.seq, got, need))
                if kind == "step":
                    step = (ev.step, ev.turn, who)
                else:  # "turn 7: alice": the untap step of alice's turn 7 has no record
                    step = ("untap", ev.turn, who)
        for seq, got, _ in waiting:  # the trace ended first
            self.successions[seq] = tuple(got)

    @staticmethod
    def _n(players: tuple[str, ...], gone: set[str]) -> int:
        return len([p for p in players if p not in gone])

    def _put(self, m: TraceMessage, ev: GameEvent, who: str) -> None:
        """A spell or ability put on the stack (its cast, activate or trigger record)."""
        oid = ev.subject
        if not oid:
            return
        text = ev.text
        if ev.kind == "cast":
            name = text.removeprefix(f"{who} casts ").split(" targeting ")[0]
        elif ev.kind == "activate":
            name = "ability of " + text.removeprefix(f"{who} activates ")
        elif ev.kind == "trigger":
            name = text.removesuffix(" goes on the stack")
        else:
            return
        self.objects[oid] = _Object(oid, name, who, m.seq, ev.refs)

    def event(self, m: TraceMessage) -> GameEvent | None:
        """``m`` decoded, if it is a ``GameEvent``."""
        msg = self.decoded.get(m.line)
        return msg if isinstance(msg, GameEvent) else None

    def object_id(self, m: TraceMessage) -> int:
        """The object a ``Resolve`` or ``Resolved`` record names; 0 for another record."""
        msg = self.decoded.get(m.line)
        return msg.object_id if isinstance(msg, Resolve | Resolved) else 0

    def name(self, oid: int) -> str:
        obj = self.objects.get(oid)
        return obj.name if obj is not None else self.names.get(oid, f"object {oid}")


def explain_seq(trace: Trace, seq: int) -> Explanation:
    """Why the record numbered ``seq`` happened: a step change (why the step before ended), or
    a record about an object on the stack (its cast, resolution, counter: why it resolved, did
    not, or was countered). ``WhyError`` for another record or no record."""
    index = _Index(trace)
    m = index.by_seq.get(seq)
    if m is None:
        last = trace.messages[-1].seq if trace.messages else 0
        raise WhyError(f"no record numbered {seq} (the trace's records go from 1 to {last})")
    ev = index.event(m)
    if ev is not None and ev.kind in ("step", "turn"):
        return _step(index, seq)
    oid = index.object_id(m)
    if ev is not None and ev.kind in ("cast", "activate", "trigger", "resolve", "counter"):
        oid = ev.subject
    if not oid:
        what = _words(ev.kind) if ev is not None else m.kind
        raise WhyError(f"record {seq} ({what}) is neither a step change nor about a spell or "
                       "ability on the stack; give the number of a cast, a resolution, a "
                       "counter or a step record")
    return _object(index, oid)


def explain_object(trace: Trace, name: str) -> tuple[Explanation, ...]:
    """Why each spell or ability named ``name`` (any case) that was on the stack resolved, did
    not, or was countered, in the order they were put there; ``WhyError`` if none was."""
    index = _Index(trace)
    wanted = name.casefold()
    found = [oid for oid, obj in index.objects.items() if obj.name.casefold() == wanted]
    if not found:
        known = sorted({_words(o.name) for o in index.objects.values()})
        more = f" and {len(known) - _LISTED} more" if len(known) > _LISTED else ""
        raise WhyError(f"no spell or ability named {short_value(name)} was on the stack; the "
                       f"trace's are: " + (", ".join(known[:_LISTED]) or "none") + more)
    return tuple(_object(index, oid) for oid in found)


def explain(trace: Trace, *, seq: int | None = None, name: str | None = None
            ) -> tuple[Explanation, ...]:
    """``explain_seq`` or ``explain_object``, whichever is given (exactly one). Each raises
    ``TraceRecordError`` for a record it reads whose payload doesn't fit its kind."""
    if (seq is None) == (name is None):
        raise WhyError("give a record number or an object's name, not both or neither")
    return (explain_seq(trace, seq),) if seq is not None else explain_object(trace, name or "")


def _words(text: str) -> str:
    """Text from the trace, to quote in an error: as it is if it is short and printable, else
    escaped and cut (an error stays one short line)."""
    return text if len(text) <= 60 and text.isprintable() else short_value(text)


def _passes_words(passed: tuple[Pass, ...]) -> str:
    if not passed:
        return "no pass is recorded"
    return ", ".join(f"{p.player} ({'automatic ' if p.automatic else ''}pass, {p.seq})"
                     for p in passed)


def _step(index: _Index, seq: int) -> Explanation:
    ended, turn, active = index.steps[seq]
    step_words = ended.replace("_", " ")
    subject = f"{active}'s {step_words} step (turn {turn})"
    if ended in _NO_PRIORITY:
        rule = "502.4" if ended == "untap" else "514.3"
        return Explanation(subject, "step ended", rule,
                           f"no player receives priority in the {step_words} step; it ends "
                           "once its turn-based actions are done", None, (), seq)
    passed = index.successions.get(seq, ())
    cause = passed[-1].seq if passed else None
    text = (f"all players passed in succession with the stack empty: {_passes_words(passed)}; "
            f"the {step_words} step ended")
    return Explanation(subject, "step ended", "117.4, 500.2", text, cause, passed, seq)


def _object(index: _Index, oid: int) -> Explanation:
    trace = index.trace
    name = index.name(oid)
    obj = index.objects.get(oid)
    subject = f"{name} (object {oid}" + (f", {obj.controller}'s" if obj else "") + ")"
    for m in trace.messages:
        ev = index.event(m)
        if ev is not None and ev.kind == "counter" and ev.subject == oid:
            return _countered(index, oid, subject, m, ev)
        if m.kind == "Resolve" and index.object_id(m) == oid:
            return _resolved(index, oid, subject, m)
    return Explanation(subject, "unresolved", "", f"{name} neither resolved nor was countered "
                       "before the trace ends", None, (), obj.put_seq if obj else 0)


def _resolved(index: _Index, oid: int, subject: str, resolve: TraceMessage) -> Explanation:
    passed = index.successions.get(resolve.seq, ())
    first = _resolution_event(index, oid, resolve.seq)
    text = first[0].text if first is not None else ""
    seq = first[1] if first is not None else resolve.seq
    why = f"all players passed in succession: {_passes_words(passed)}"
    if "(608.2b)" in text:
        losses = _target_losses(index, oid, resolve.seq)
        cause = max((t.seq for t in losses if t.seq is not None), default=None)
        said = "; ".join(f"{t.target}: {t.text}" + (f" ({t.seq})" if t.seq else "") for t in losses)
        return Explanation(subject, "fizzled", "608.2b",
                           f"{why}; it tried to resolve, but every target was illegal: {said}; "
                           "it doesn't resolve", cause, passed, seq, losses)
    if "(603.4)" in text:
        return Explanation(subject, "did nothing", "603.4", f"{why}; {text}",
                           passed[-1].seq if passed else None, passed, seq)
    return Explanation(subject, "resolved", "117.4, 608.1", f"{why}; so the top of the stack, "
                       f"{index.name(oid)}, resolves", passed[-1].seq if passed else None,
                       passed, seq)


def _resolution_event(index: _Index, oid: int, after: int) -> tuple[GameEvent, int] | None:
    """The kernel's ``resolve`` record for ``oid`` after the ``Resolve`` numbered ``after``,
    with its number."""
    for m in index.trace.messages:
        ev = index.event(m)
        if m.seq > after and ev is not None and ev.kind == "resolve" and ev.subject == oid:
            return ev, m.seq
        if m.seq > after and m.kind == "Resolved":
            break
    return None


def _names_target(ev: GameEvent, target: int) -> bool:
    return ev.subject == target or target in ev.refs


def _target_losses(index: _Index, oid: int, until: int) -> tuple[TargetLoss, ...]:
    """608.2b: for each target of ``oid``, the event between its being put on the stack and
    its resolution that made the target illegal: it left its zone (the record gives the old
    id in ``refs``), was countered, or an effect changed it (protection, hexproof)."""
    obj = index.objects.get(oid)
    if obj is None:
        return ()
    out = []
    for target in obj.targets:
        label = index.name(target) if target in index.objects else _target_name(index, target)
        found: TargetLoss | None = None
        last: TargetLoss | None = None
        for m in index.trace.messages:
            ev = index.event(m)
            if m.seq <= obj.put_seq or ev is None:
                continue
            if m.seq >= until:
                break
            if ev.kind in ("pass", "auto_pass", "priority", "sba_skipped"):
                continue
            if ev.kind == "counter" and ev.subject == target:
                found = TargetLoss(label, m.seq, ev.text)
                break
            if ev.zones and target in ev.refs:
                found = TargetLoss(label, m.seq, f"it left the {ev.zones[0]}: {ev.text}")
                break
            if _names_target(ev, target) and ev.kind not in _ACTIONS:
                last = TargetLoss(label, m.seq, ev.text)
        out.append(found or last or TargetLoss(label, None, "no record says what made it illegal"))
    return tuple(out)


def _target_name(index: _Index, target: int) -> str:
    """A target's name: a player (by reference, 1 for the first seat) or the object the
    trace's records call it."""
    players = index.trace.header.players
    if 1 <= target <= len(players):
        return players[target - 1]
    for m in index.trace.messages:
        ev = index.event(m)
        if ev is not None and ev.zones and ev.zones[-1] == "battlefield" and ev.subject == target:
            return ev.text.split(" moves from ")[0]
    return f"object {target}"


def _countered(index: _Index, oid: int, subject: str, counter: TraceMessage,
               event: GameEvent) -> Explanation:
    resolve = next((m for m in reversed(index.trace.messages)
                    if m.seq < counter.seq and m.kind == "Resolve"), None)
    if resolve is None:
        return Explanation(subject, "countered", "701.5", event.text, counter.seq, (), counter.seq)
    by = index.object_id(resolve)
    spell = index.objects.get(by)
    caster = spell.controller if spell is not None else ""
    first = _resolution_event(index, by, resolve.seq)
    cause = first[1] if first is not None else resolve.seq
    passed = index.successions.get(resolve.seq, ())
    who = f", cast by {caster}" + (f" ({spell.put_seq})" if spell else "") if caster else ""
    text = (f"{index.name(by)} (object {by}{who}) resolved ({cause}) after all players passed "
            f"in succession: {_passes_words(passed)}; it countered {index.name(oid)} "
            f"({counter.seq}): it goes to its owner's graveyard without resolving")
    return Explanation(subject, "countered", "701.5", text, cause, passed, counter.seq,
                       caster=caster)


def priority_flow(trace: Trace, *, turn: int | None = None) -> tuple[str, ...]:
    """The priority records of a game, one line each (``SEQ  turn T step: text``): step changes,
    grants, passes (own and automatic), actions, resolutions and counters; ``turn``: only that
    turn's. An automatic pass is stamped with the step in which the engine's run of passes
    stopped, which may be later than the step it ended (``explain`` puts it in its place)."""
    kinds = {"turn", "step", "priority", "pass", "auto_pass", "cast", "activate", "trigger", "resolve",
             "counter"}
    decoded = _decoded(trace)
    out = []
    for m in trace.messages:
        ev = decoded.get(m.line)
        if not isinstance(ev, GameEvent) or ev.kind not in kinds or (turn is not None and ev.turn != turn):
            continue
        out.append(f"{m.seq:>6}  turn {ev.turn} {ev.step.replace('_', ' ')}: {ev.text}")
    return tuple(out)
