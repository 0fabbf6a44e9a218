"""Figures of a trace: how many records of each kind, passes per step, decisions per player,
the deepest the stack got, how the game ended."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from ..protocol import DecisionRequest, GameEvent, PriorityRequest, Resolve
from ..rules import STEPS
from ._read import Trace, TraceResult

__all__ = ["PlayerDecisions", "StepPasses", "TraceStats", "format_stats", "trace_stats"]


@dataclass(frozen=True, slots=True)
class StepPasses:
    """The passes of priority made in one step, over the whole game."""

    step: str
    """The step (a name of ``rules.STEPS``)."""
    by_players: int
    """Passes a player chose (``pass`` events)."""
    automatic: int
    """Passes the engine made for a player (``auto_pass`` events)."""


@dataclass(frozen=True, slots=True)
class PlayerDecisions:
    """What one player was asked and answered."""

    player: str
    """The player's name."""
    priority: int
    """Priority decisions asked (distinct decision ids of ``PriorityRequest``s)."""
    other: int
    """Other decisions asked (distinct decision ids of ``DecisionRequest``s)."""
    replies: int
    """Actions and answers it sent (``SubmitAction`` and ``SubmitAnswer``)."""


@dataclass(frozen=True, slots=True)
class TraceStats:
    """The figures of one trace."""

    messages: tuple[tuple[str, int], ...]
    """Records per message kind (``GameEvent`` included), most first, then by name."""
    events: tuple[tuple[str, int], ...]
    """``GameEvent`` records per event kind, most first, then by name."""
    passes: tuple[StepPasses, ...]
    """Passes per step, in turn order, for the steps that had any."""
    decisions: tuple[PlayerDecisions, ...]
    """Per player, in seat order."""
    deepest_stack: int
    """The most spells and abilities on the stack at once."""
    turns: int
    """The turn the game ended on (for a trace cut short, the last turn it records)."""
    result: TraceResult | None
    """How it ended; None: the trace was cut short before its result line."""


def _ranked(counts: Counter[str]) -> tuple[tuple[str, int], ...]:
    return tuple(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))


def trace_stats(trace: Trace) -> TraceStats:
    """Count what ``trace`` holds."""
    kinds: Counter[str] = Counter(m.kind for m in trace.messages)
    events: Counter[str] = Counter()
    chosen: Counter[str] = Counter()
    automatic: Counter[str] = Counter()
    asked: dict[tuple[str, str], set[int]] = {}
    replies: Counter[str] = Counter()
    depth = deepest = turn = 0
    abilities: set[int] = set()
    for m in trace.messages:
        if m.kind in ("SubmitAction", "SubmitAnswer"):
            replies[m.sender.removeprefix("player:")] += 1
        if m.kind not in ("GameEvent", "PriorityRequest", "DecisionRequest", "Resolve"):
            continue
        msg = m.decode(trace.source)
        if isinstance(msg, PriorityRequest | DecisionRequest):
            asked.setdefault((m.receiver.removeprefix("player:"), m.kind), set()).add(msg.decision.id)
        elif isinstance(msg, Resolve):
            if msg.object_id in abilities:  # a spell leaves the stack by a zone change
                abilities.discard(msg.object_id)
                depth -= 1
        elif isinstance(msg, GameEvent):
            events[msg.kind] += 1
            turn = max(turn, msg.turn)
            if msg.kind == "pass":
                chosen[msg.step] += 1
            elif msg.kind == "auto_pass":
                automatic[msg.step] += 1
            elif msg.kind in ("trigger", "activate"):
                abilities.add(msg.subject)
                depth += 1
            elif msg.kind == "zone" and len(msg.zones) == 2 and "stack" in msg.zones:
                depth += 1 if msg.zones[1] == "stack" else -1
            elif msg.kind == "trigger_removed" and msg.subject in abilities:
                abilities.discard(msg.subject)
                depth -= 1
            deepest = max(deepest, depth)
    order = {s: i for i, s in enumerate(STEPS)}
    steps = sorted(set(chosen) | set(automatic), key=lambda s: (order.get(s, len(order)), s))
    return TraceStats(
        _ranked(kinds), _ranked(events),
        tuple(StepPasses(s, chosen[s], automatic[s]) for s in steps),
        tuple(PlayerDecisions(p, len(asked.get((p, "PriorityRequest"), ())),
                              len(asked.get((p, "DecisionRequest"), ())), replies[p])
              for p in trace.header.players),
        deepest, trace.result.turns if trace.result is not None else turn, trace.result)


def format_stats(trace: Trace, stats: TraceStats) -> list[str]:
    """The figures as text, one table after another."""
    h = trace.header
    result = stats.result
    ended = (f"{result.reason} (winner: {result.winner or 'none'})" if result is not None
             else f"none (cut after record {trace.last_seq})")
    out = [f"game {h.game}, seed {h.seed}: " + " vs ".join(f"{p} ({h.decks[p]})" for p in h.players),
           f"result: {ended}",
           f"turns: {stats.turns}",
           f"deepest stack: {stats.deepest_stack}",
           "", f"records by message kind ({sum(n for _, n in stats.messages)}):"]
    out += [f"  {k:<18}{n:>6}" for k, n in stats.messages]
    out += ["", f"game events by kind ({sum(n for _, n in stats.events)}):"]
    out += [f"  {k:<18}{n:>6}" for k, n in stats.events]
    # The step names' column is as wide as the longest (``beginning of combat``, 19).
    width = max([16, *(len(p.step) for p in stats.passes)])
    out += ["", f"{'passes per step:':<{width + 2}}{'player':>7}{'auto':>6}"]
    out += [f"  {p.step.replace('_', ' '):<{width}}{p.by_players:>7}{p.automatic:>6}" for p in stats.passes]
    out += ["", f"decisions per player: {'priority':>8}{'other':>6}{'replies':>8}"]
    out += [f"  {d.player:<20}{d.priority:>8}{d.other:>6}{d.replies:>8}" for d in stats.decisions]
    return out
