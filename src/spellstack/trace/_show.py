"""Showing a trace: one readable line per record worth reading, as everybody saw the game or
as one player did.

``show_trace`` turns a ``Trace`` into ``ShowLine``s: the kernel's events in words, each request
to a seat and what the seat answered, runs of automatic passes and skipped state-based-action
checks folded into one line (unless ``unfold``), filtered by ``ShowOptions``; what came before
the game (who plays first, opening hands, mulligans) is turn 0. ``format_show`` lays them out
with a heading at each new turn and step, a step's naming the record of its step change.
Shown ``as`` a player, only what that player could see at the time is kept (its own requests
and replies, public events and its own private ones, the engine's messages with what was
private to others taken out, each object named as that player knew it), and the lines are
numbered from 1 (headings with no record number), so no number tells how many hidden records
came between. ``view_at`` rebuilds the full view a request carried from the seat's view deltas, as
the client rebuilt it (``ViewMirror``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from ..protocol import (
    MESSAGE_TYPES,
    Accepted,
    AskPlayer,
    CheckSBA,
    Concede,
    DecisionRequest,
    ErrorReply,
    Forfeit,
    GameEvent,
    GameOver,
    Message,
    PlayerReply,
    PriorityRequest,
    Rejected,
    RequestFullView,
    Resolve,
    Resolved,
    SBABatch,
    SetStops,
    SubmitAction,
    SubmitAnswer,
    ViewMirror,
)
from ..rules import Action, Answer, Decision, InvalidMessageError, PlayerView, SpellstackError
from ._read import Trace

__all__ = [
    "ShowLine",
    "ShowOptions",
    "TraceQueryError",
    "format_show",
    "format_view",
    "show_trace",
    "view_at",
]


class TraceQueryError(SpellstackError):
    """A question a trace can't answer: an unknown player or kind, a line that is not a request."""


@dataclass(frozen=True, slots=True)
class ShowOptions:
    """What ``show_trace`` keeps, and for whom."""

    as_player: str | None = None
    """Show only what this player could see, numbering the lines from 1 (None: everything)."""
    priority: bool = False
    """Only the flow of priority: grants, passes, what was done with priority, resolutions."""
    player: str | None = None
    """Only the records concerning this player."""
    turn: int | None = None
    """Only the records of this turn."""
    kinds: tuple[str, ...] = ()
    """Only records of these kinds (message kinds or ``GameEvent`` kinds); empty: any."""
    unfold: bool = False
    """Each automatic pass on its own line, instead of a run of them folded into one."""


@dataclass(frozen=True, slots=True)
class ShowLine:
    """One line of the account: one record, or a folded run of them."""

    number: int
    """The line's number: the record's ``seq``, or its place from 1 when shown as a player."""
    last: int
    """The number of the last record it folds (``number`` for a single record)."""
    turn: int
    """The turn it belongs to (0: before the game)."""
    step: str
    """The step it belongs to (before the game: ``starting_player`` or
    ``opening_hands_and_mulligans``)."""
    active: str
    """The active player's name."""
    kind: str
    """The record's kind (a message kind, or a ``GameEvent``'s kind; ``fold`` for a run)."""
    text: str
    """What it says."""
    view: PlayerView | None = None
    """For a request: the full view it carried, as its seat rebuilt it (None otherwise, or if
    the seat could not rebuild it)."""
    seq: int = 0
    """The ``seq`` of its record in the trace (a folded run's first), kept when the lines are
    renumbered for a player: for tools that build on the account, never to be shown to one."""
    seq_last: int = 0
    """The ``seq`` of the last record it folds (``seq`` for a single record)."""
    step_seq: int = 0
    """The ``seq`` of the step change its step began with (``trace why --seq`` explains it);
    0 where none did (turn 1's first step, before the game) or for a viewer (``as_player``),
    to whom no ``seq`` is shown."""


# --------------------------------------------------------------------------- records


_PRIORITY_KINDS = frozenset({"priority", "pass", "auto_pass", "resolve", "cast", "activate",
                             "play", "trigger"})
"""What ``--priority`` keeps: who gets priority, who passes, what is done with it, what resolves."""
_ECHOES = frozenset({"priority", "pass", "cast", "activate", "play"})
"""Events a seat's own request or reply already says (when that seat's messages are shown)."""
_HEADINGS = frozenset({"step", "turn"})
"""Events shown as headings rather than lines."""
_PLUMBING = frozenset({"Accepted", "CheckSBA", "SBABatch", "Resolve", "Resolved", "AskPlayer",
                       "PlayerReply", "StopsSet"})
"""Messages between the engine's actors (or acknowledgements) whose news the events tell."""
_TOLD_ALONE = frozenset({"refused", "malformed"})
"""Events the engine notes when it refuses a seat's message: that seat alone was told (the
reason, written for it, may name its hidden cards), so no other viewer sees them."""
_FOLDS = frozenset({"auto_pass"})
BEFORE_THE_GAME = 0
"""The turn of the records before the game (103.1-103.7: who takes the first turn, the opening
hands and mulligans)."""
STARTING_PLAYER = "starting_player"
"""The step of the records before the game up to the choice of who takes the first turn."""
OPENING_HANDS = "opening_hands_and_mulligans"
"""The step of the records before the game after that choice: the opening draws and mulligans."""
_BEGUN = frozenset({"step", "turn", "priority", "auto_pass", "pass"})
"""Events that only happen once the first turn has begun."""
_LISTED = 6
"""Most options or choices a request line names."""


@dataclass(frozen=True, slots=True)
class _Record:
    """One record as a viewer may read it."""

    seq: int
    """Its number in the trace."""
    turn: int
    """Turn."""
    step: str
    """Step."""
    active: int
    """Active seat."""
    kind: str
    """Message kind, or the GameEvent's kind."""
    text: str
    """What it says to the viewer."""
    concerns: frozenset[int]
    """The seats it concerns."""
    echo: bool = False
    """A GameEvent that a shown request or reply already says."""
    plumbing: bool = False
    """Hidden unless its kind is asked for."""
    view: PlayerView | None = None
    """A request's rebuilt view."""
    request: bool = False
    """A request to a seat."""
    player: int = -1
    """For a GameEvent, its seat."""
    event: bool = False
    """A ``GameEvent`` (``kind`` is then the event's kind)."""
    skipped: bool = False
    """A grant of priority made without a state-based action check (704.3: nothing one reads
    had changed)."""
    step_seq: int = 0
    """The ``seq`` of the step change its step began with (0: none)."""


def _step_name(step: str) -> str:
    return step.replace("_", " ")


class _Reader:
    """Walks a trace once, keeping what each seat knows (its views, the ids it has seen, its
    open decisions) and what the viewer may read of each record."""

    def __init__(self, trace: Trace, viewer: int | None) -> None:
        self.trace = trace
        self.names = trace.header.players
        self.viewer = viewer
        self.mirrors = [ViewMirror() for _ in self.names]
        self.decisions: list[dict[int, Decision]] = [{} for _ in self.names]
        self.known: list[set[int]] = [set() for _ in self.names]
        """Per seat, the object ids it has been shown (its views, the events it saw)."""
        self.asked = -1
        """The seat of the last ``AskPlayer``'s question (a ``PlayerReply`` answers it)."""
        self.batch: list[GameEvent] = []
        """The events the stack actor or the SBA checker recorded since the last ``Resolve`` or
        ``CheckSBA``: what its reply (``Resolved``, ``SBABatch``) counts."""
        self.turn, self.step, self.active = 0, "", 0
        self.step_seq, self.step_begun = 0, ""
        """The ``seq`` of the last step change, and the step it began."""
        self.begun = trace.header.start is None
        """Whether the first turn has begun. A game that starts the way a match's does makes
        its pre-game choices stamped with turn 1's upkeep (the state's first step) and a view
        whose active player is not chosen yet; they are put before the game instead."""
        self.before = STARTING_PLAYER
        """The step of the next record before the game."""

    # -- who may see what

    def _seat(self, actor: str) -> int:
        if actor.startswith("player:"):
            name = actor.removeprefix("player:")
            if name in self.names:
                return self.names.index(name)
        return -1

    def _sees(self, seats: Iterable[int]) -> bool:
        """Whether the viewer sees an event private to ``seats`` (empty: public)."""
        seats = tuple(seats)
        return self.viewer is None or not seats or self.viewer in seats

    def _echo(self, seat: int) -> bool:
        return self.viewer is None or seat == self.viewer

    def _name_of(self, ref: int, seat: int) -> str:
        """A target ref as ``seat`` knows it: a player's name, an object's name from its view."""
        if 1 <= ref <= len(self.names):
            return self.names[ref - 1]
        view = self.mirrors[seat].view
        if view is not None:
            for o in view.objects_by_id().values():
                if o.id == ref and o.name:
                    return o.name
            for item in view.stack:
                if item.id == ref:
                    return item.name
        return f"#{ref}" if self._knows(ref) else "an object"

    def _knows(self, ref: int) -> bool:
        return self.viewer is None or ref in self.known[self.viewer]

    def _learn(self, seats: Iterable[int], ids: Iterable[int]) -> None:
        ids = [i for i in ids if i > len(self.names)]
        for s in seats:
            self.known[s].update(ids)

    # -- records

    def records(self) -> list[_Record]:
        out: list[_Record] = []
        decoded = [m.decode(self.trace.source) for m in self.trace.messages]
        for i, (m, msg) in enumerate(zip(self.trace.messages, decoded, strict=True)):
            if not self.begun and (isinstance(msg, CheckSBA | PriorityRequest)
                                   or (isinstance(msg, GameEvent) and msg.kind in _BEGUN)):
                # 103.7: the start ends with the first turn's state-based action check (every
                # check marked due), before anyone gets priority.
                self.begun = True
            rec = self._record(m.seq, m.sender, m.receiver, msg)
            if isinstance(msg, GameEvent) and msg.kind == "starting_player":
                self.before = OPENING_HANDS
            if rec is None:
                continue
            after = decoded[i + 1] if i + 1 < len(decoded) else None
            if (isinstance(msg, GameEvent) and not msg.private_to and isinstance(after, GameEvent)
                    and after.kind == msg.kind and after.player == msg.player
                    and after.private_to and self._sees(after.private_to)):
                # "bob draws a card", then what bob (and only bob) is told: "bob draws Swamp".
                rec = replace(rec, echo=True)
            out.append(rec)
        return out

    def _make(self, seq: int, kind: str, text: str, concerns: Iterable[int], *, echo: bool = False,
              plumbing: bool = False, view: PlayerView | None = None, request: bool = False,
              player: int = -1, event: bool = False, skipped: bool = False) -> _Record:
        turn, step = (self.turn, self.step) if self.begun else (BEFORE_THE_GAME, self.before)
        # A step no record began (turn 1's first; cleanup, 514, which the engine enters
        # without a step event) names none.
        began = self.step_seq if self.begun and self.step_begun == step else 0
        return _Record(seq, turn, step, self.active, kind, text, frozenset(concerns),
                       echo, plumbing, view, request, player, event, skipped, began)

    def _record(self, seq: int, sender: str, receiver: str, msg: Message) -> _Record | None:
        if isinstance(msg, GameEvent):
            if sender == "stack" or sender == "sba":
                self.batch.append(msg)
            return self._event(seq, msg)
        to, by = self._seat(receiver), self._seat(sender)
        if isinstance(msg, PriorityRequest | DecisionRequest):
            return self._request(seq, to, msg)
        if by >= 0:
            return self._reply(seq, by, msg) if self._sees((by,)) else None
        if to >= 0:
            return self._to_seat(seq, to, msg) if self._sees((to,)) else None
        return self._kernel(seq, msg)

    def _event(self, seq: int, ev: GameEvent) -> _Record | None:
        self.turn, self.step = ev.turn, ev.step
        if (ev.kind in _HEADINGS or ev.kind == "starting_player") and ev.player >= 0:
            self.active = ev.player  # a starting_player event's player: who takes turn 1
        if ev.kind == "step":
            self.step_seq, self.step_begun = seq, ev.step
        private = (ev.player,) if ev.kind in _TOLD_ALONE and ev.player >= 0 else ev.private_to
        seats = private or range(len(self.names))
        self._learn(seats, (ev.subject, *ev.refs))
        if not self._sees(private):
            return None
        concerns = {ev.player} if ev.player >= 0 else set()
        concerns |= {i for i, n in enumerate(self.names) if re.search(rf"\b{re.escape(n)}\b", ev.text)}
        kind, text = ev.kind, ev.text
        skipped = kind in ("priority", "auto_pass") and ev.amount == 1
        if (self.viewer is not None and ev.player != self.viewer and ev.player >= 0
                and kind in ("pass", "auto_pass")):
            # Another seat's pass, as the viewer saw it: that it passed, not whether it could
            # have done anything else (an automatic pass says it could not: 400.2).
            kind, text = "auto_pass", f"{self.names[ev.player]} passes"
        return self._make(seq, kind, text, concerns,
                          echo=kind in _ECHOES and ev.player >= 0 and self._echo(ev.player),
                          plumbing=kind in _HEADINGS, player=ev.player, event=True, skipped=skipped)

    def _request(self, seq: int, seat: int, msg: PriorityRequest | DecisionRequest) -> _Record | None:
        mirror = self.mirrors[seat]
        view: PlayerView | None
        try:
            # None: a priority request without a view, for a seat that reads none then.
            view = None if msg.view is None else mirror.apply(msg.view)
        except InvalidMessageError:
            view = None  # the client could not apply it either: it asked for the full view
        if view is not None:
            self.known[seat].update(view.objects_by_id())
            self.known[seat].update(item.id for item in view.stack)
            self.turn, self.step = view.turn, view.step
            if self.begun:  # before, the view's active player is not chosen yet (103.1)
                self.active = view.active
        d = msg.decision
        self.decisions[seat][d.id] = d
        if not self._sees((seat,)):
            return None
        who = self.names[seat]
        if isinstance(msg, PriorityRequest):
            options = list(dict.fromkeys(
                o.kind if o.kind == "pass" else f"{o.kind} {o.name}".strip() for o in d.actions))
            text = f"{who} ← PriorityRequest #{d.id} (may: {_listed(options)})"
        else:
            names = [c.name for c in d.choices]
            prompt = d.prompt.split(": ", 1)[-1] if re.match(r"\d+\.\d+\w*: ", d.prompt) else d.prompt
            text = f"{who} ← DecisionRequest #{d.id} {d.kind}: {prompt}"
            if names:
                text += f" ({_listed(names)})"
        return self._make(seq, msg.KIND, text, {seat}, view=view, request=True)

    def _reply(self, seq: int, seat: int, msg: Message) -> _Record:
        who = self.names[seat]
        if isinstance(msg, SubmitAction):
            text = f"{who}: {self._action(seat, msg.decision_id, msg.action)}"
        elif isinstance(msg, SubmitAnswer):
            text = f"{who} answers #{msg.answer.decision_id}: {self._answer(seat, msg.answer)}"
        elif isinstance(msg, RequestFullView):
            text = f"{who} asks for the full view again (#{msg.decision_id})"
        elif isinstance(msg, SetStops):
            st = msg.stops
            mine = ", ".join(_step_name(s) for s in st.my_turn) or "none"
            theirs = ", ".join(_step_name(s) for s in st.opponents_turns) or "none"
            text = (f"{who} sets stops: own turn {mine}; opponents' turns {theirs}"
                    f"{'; when the stack is not empty' if st.stack else ''}")
        elif isinstance(msg, Forfeit):
            text = f"{who} forfeits: {msg.reason}"
        elif isinstance(msg, Concede):
            text = f"{who} concedes (104.3a)"
        else:
            text = f"{who} → {msg.KIND}"
        return self._make(seq, msg.KIND, text, {seat})

    def _action(self, seat: int, decision_id: int, action: Action) -> str:
        if action.kind == "pass":
            return "pass"
        d = self.decisions[seat].get(decision_id)
        name = next((o.name for o in (d.actions if d else ()) if o.kind == action.kind
                     and o.object_id == action.object_id and o.ability == action.ability), "")
        text = f"{action.kind} {name or self._name_of(action.object_id, seat)}"
        if action.x:
            text += f" (X={action.x})"
        if action.targets:
            text += " → " + ", ".join(self._name_of(t, seat) for t in action.targets)
        return text

    def _answer(self, seat: int, answer: Answer) -> str:
        d = self.decisions[seat].get(answer.decision_id)
        choices = {c.key: c.name for c in (d.choices if d else ())}
        if d is not None and d.kind == "yes_no":
            return "yes" if tuple(answer.keys) == (1,) else "no"
        parts = [choices.get(k, str(k)) for k in answer.keys]
        if d is not None and d.kind == "divide":
            parts += [f"{choices.get(k, str(k))} {amount}" for k, amount in answer.pairs]
        else:
            parts += [f"{choices.get(a, str(a))} – {choices.get(b, str(b))}" for a, b in answer.pairs]
        return ", ".join(parts) if parts else "none"

    def _to_seat(self, seq: int, seat: int, msg: Message) -> _Record:
        who = self.names[seat]
        if isinstance(msg, Accepted):
            return self._make(seq, msg.KIND, f"{who}: #{msg.decision_id} accepted", {seat}, plumbing=True)
        if isinstance(msg, Rejected):
            return self._make(seq, msg.KIND, f"{who}: #{msg.decision_id} refused: {msg.reason}", {seat})
        if isinstance(msg, ErrorReply):
            return self._make(seq, msg.KIND, f"{who} ← ErrorReply: {msg.reason}", {seat})
        if isinstance(msg, GameOver):
            return self._make(seq, msg.KIND, f"{who} ← GameOver: {msg.reason}", {seat})
        return self._make(seq, msg.KIND, f"{who} ← {msg.KIND}", {seat}, plumbing=True)

    def _events(self, events: Sequence[GameEvent]) -> str:
        said = [e.text for e in events if self._sees(e.private_to)]
        return "; ".join(said) if said else "nothing"

    def _top(self, object_id: int) -> str:
        """The object being resolved as the viewer knew it: its id if the viewer had been shown
        it, else only where it was."""
        return f"#{object_id}" if self._knows(object_id) else "the top of the stack"

    def _kernel(self, seq: int, msg: Message) -> _Record | None:
        if isinstance(msg, Resolve | CheckSBA):
            self.batch = []
        if isinstance(msg, Resolve):
            return self._make(seq, msg.KIND, f"stack: resolve {self._top(msg.object_id)}", (), plumbing=True)
        if isinstance(msg, Resolved):
            # The name the stack actor records is the object's real one, a face-down spell's card
            # included (708.5): nobody but the engine was told it, so a viewer gets the id only.
            what = msg.name if self.viewer is None else self._top(msg.object_id)
            return self._make(seq, msg.KIND, f"{what} resolved: {self._events(self.batch)}", (),
                              plumbing=True)
        if isinstance(msg, SBABatch):
            return self._make(seq, msg.KIND, f"state-based actions: {self._events(self.batch)}", (),
                              plumbing=True)
        if isinstance(msg, AskPlayer):
            self.asked = msg.decision.player
            if not self._sees((self.asked,)):
                return None
            # A viewer is sent the question with the request that follows, not yet here.
            asked = msg.decision.prompt if self.viewer is None else f"#{msg.decision.id}"
            return self._make(seq, msg.KIND, f"ask {self.names[self.asked]}: {asked}",
                              {self.asked}, plumbing=True)
        if isinstance(msg, PlayerReply):
            if self.asked < 0 or not self._sees((self.asked,)):
                return None
            return self._make(seq, msg.KIND, f"{self.names[self.asked]}'s answer to "
                              f"#{msg.answer.decision_id} passed on", {self.asked}, plumbing=True)
        return self._make(seq, msg.KIND, msg.KIND, (), plumbing=True)


def _listed(items: Sequence[str]) -> str:
    shown = ", ".join(items[:_LISTED])
    return shown if len(items) <= _LISTED else f"{shown}, +{len(items) - _LISTED} more"


# --------------------------------------------------------------------------- showing


def _seat_of(trace: Trace, name: str, option: str) -> int:
    if name not in trace.header.players:
        raise TraceQueryError(f"{option} {name}: no such player in this trace (players: "
                              f"{', '.join(trace.header.players)})")
    return trace.header.players.index(name)


def _records(trace: Trace, as_player: str | None) -> list[_Record]:
    viewer = None if as_player is None else _seat_of(trace, as_player, "--as")
    return _Reader(trace, viewer).records()


def _keep(rec: _Record, options: ShowOptions, seat: int | None) -> bool:
    if options.turn is not None and rec.turn != options.turn:
        return False
    if seat is not None and seat not in rec.concerns:
        return False
    if options.kinds:
        return rec.kind in options.kinds or (rec.event and "GameEvent" in options.kinds)
    if rec.plumbing:
        return False
    if options.priority:
        return rec.kind in _PRIORITY_KINDS
    return not rec.echo


def show_trace(trace: Trace, options: ShowOptions = ShowOptions()) -> list[ShowLine]:
    """The account of ``trace`` as ``options`` asks: one line per record worth reading, runs
    of automatic passes and skipped SBA checks folded into one line each (within a turn), or
    each on its own line (``unfold``).

    Raises:
        TraceQueryError: An unknown player, or a kind no record of the trace has.
    """
    seat = None if options.player is None else _seat_of(trace, options.player, "--player")
    records = _records(trace, options.as_player)
    if options.kinds:
        # Message kinds are the protocol's; event kinds, those the viewer was shown (whether
        # a kind is refused must not tell what the viewer was not shown).
        present = {r.kind for r in records} | set(MESSAGE_TYPES)
        unknown = [k for k in options.kinds if k not in present]
        if unknown:
            raise TraceQueryError(f"--kind {unknown[0]}: no record of that kind in this trace "
                                  f"(kinds: {', '.join(sorted(present))})")
    kept = [r for r in records if _keep(r, options, seat)]
    lines: list[ShowLine] = []
    run: list[_Record] = []
    for rec in kept:
        if run and (rec.kind not in _FOLDS or rec.turn != run[0].turn):
            lines.append(_fold(run, trace, options.as_player is not None))
            run = []
        if rec.kind in _FOLDS and not options.unfold:
            run.append(rec)
            continue
        lines.append(ShowLine(rec.seq, rec.seq, rec.turn, rec.step, trace.header.players[rec.active],
                              rec.kind, rec.text, rec.view, rec.seq, rec.seq, rec.step_seq))
    if run:
        lines.append(_fold(run, trace, options.as_player is not None))
    if options.as_player is not None:
        lines = [replace(ln, number=i, last=i, step_seq=0) for i, ln in enumerate(lines, start=1)]
    return lines


def _fold(run: Sequence[_Record], trace: Trace, viewer: bool = False) -> ShowLine:
    """A run of automatic passes (with the state-based action checks skipped before them) as
    one line. For a ``viewer`` (``--as``), the passes of others are only passes: whether the
    engine made one does not show."""
    first = run[0]
    names = trace.header.players
    passed = "passed" if viewer else "passed automatically"
    passes: dict[int, int] = {}
    for r in run:
        if r.kind == "auto_pass":
            passes[r.player] = passes.get(r.player, 0) + 1
    steps = ", ".join(dict.fromkeys(_step_name(r.step) for r in run))
    skipped = sum(r.skipped for r in run)
    parts = []
    if passes:
        who = ", ".join(f"{names[s]} ×{n}" if n > 1 else names[s] for s, n in passes.items())
        parts.append(f"{passed}: {who}")
    if skipped:
        parts.append(f"{skipped} SBA check{'s' * (skipped != 1)} skipped")
    text = f"{'; '.join(parts)} ({steps})"
    return ShowLine(first.seq, run[-1].seq, first.turn, first.step, names[first.active], "fold",
                    text, None, first.seq, run[-1].seq, first.step_seq)


def _step_heading(line: ShowLine) -> str:
    """The words of the heading of ``line``'s step: its name, and the ``seq`` of the step
    change it began with, if the line has one (``precombat main (5)``)."""
    name = _step_name(line.step)
    return f"{name} ({line.step_seq})" if line.step_seq else name


def format_show(lines: Sequence[ShowLine]) -> list[str]:
    """The lines as text: a heading at each new turn and step (a step's with the number of
    its step change's record), then each line's number (a folded run's first and last) and
    text."""
    labels = [str(ln.number) if ln.last == ln.number else f"{ln.number}-{ln.last}" for ln in lines]
    width = max((len(label) for label in labels), default=1)
    out: list[str] = []
    turn, step = -1, ("", 0)
    for ln, label in zip(lines, labels, strict=True):
        if ln.turn != turn:
            out.append(f"== turn {ln.turn}: {ln.active} ==" if ln.turn != BEFORE_THE_GAME
                       else "== before the game ==")
            turn, step = ln.turn, ("", 0)
        if (ln.step, ln.step_seq) != step:
            out.append(f"-- {_step_heading(ln)} --")
            step = ln.step, ln.step_seq
        out.append(f"{label:>{width}}  {ln.text}")
    return out


# --------------------------------------------------------------------------- views


def view_at(trace: Trace, number: int, options: ShowOptions = ShowOptions()) -> PlayerView:
    """The full view carried by a request, rebuilt from its seat's deltas as the client rebuilt
    them: the request at ``seq`` ``number``, or, shown ``as`` a player, the one at line
    ``number`` of the account ``options`` give (``show_trace``).

    Raises:
        TraceQueryError: No such line, not a request, or a view its seat could not rebuild.
    """
    if options.as_player is None:
        found = [r for r in _records(trace, None) if r.seq == number]
        where = f"seq {number}"
        if not found:
            raise TraceQueryError(f"--view {number}: no record has seq {number} (1 to "
                                  f"{len(trace.messages)})")
        kind, request, view = found[0].kind, found[0].request, found[0].view
    else:
        lines = show_trace(trace, options)
        where = f"{options.as_player}'s line {number}"
        if not 1 <= number <= len(lines):
            raise TraceQueryError(f"--view {number}: {options.as_player}'s account has lines 1 "
                                  f"to {len(lines)}")
        line = lines[number - 1]
        kind, request, view = line.kind, line.kind in ("PriorityRequest", "DecisionRequest"), line.view
    if not request:
        raise TraceQueryError(f"--view {number}: {where} is a {kind}, not a request (a "
                              "PriorityRequest or DecisionRequest carries a view)")
    if view is None:
        raise TraceQueryError(f"--view {number}: no view at {where}: the request carried none (its "
                              "seat reads no view when it acts) or the seat could not rebuild it "
                              "(it asked for the full view)")
    return view


def format_view(view: PlayerView) -> list[str]:
    """A full view as text: the turn, each player's public state, the viewer's hand, the
    battlefield, the stack and exile, every object with its id."""
    names = {p.seat: p.name for p in view.players}
    holder = names.get(view.priority, "nobody")
    out = [f"view of {names.get(view.seat, view.seat)}: turn {view.turn} "
           f"({names.get(view.active, view.active)}), {_step_name(view.step)}, priority: {holder}"]
    for p in view.players:
        mana = " ".join(f"{c}{n}" for c, n in p.mana)
        out.append(f"  {p.name}: life {p.life}, poison {p.poison}, hand {p.hand_count}, library "
                   f"{p.library_count}{', mana ' + mana if mana else ''}{', lost' if p.lost else ''}")
        if p.dungeon or p.completed_dungeons:
            out.append(f"    dungeon: {p.dungeon_words()}")
        if p.graveyard:
            out.append(f"    graveyard: {', '.join(f'#{o.id} {o.name}' for o in p.graveyard)}")
        if p.library_top:
            out.append(f"    library top: {', '.join(f'#{o.id} {o.name}' for o in p.library_top)}")
    out.append(f"  hand: {', '.join(f'#{o.id} {o.name}' for o in view.hand) or 'empty'}")
    out.append("  battlefield:" if view.battlefield else "  battlefield: empty")
    for o in view.battlefield:
        flags = (("tapped", o.tapped), ("sick", o.sick and "Creature" in o.types),
                 ("attacking", o.attacking), ("blocking", o.blocking))
        state = [s for s, on in flags if on]
        pt = f" {o.power}/{o.toughness}" if "Creature" in o.types else ""
        extra = f", damage {o.damage}" if o.damage else ""
        extra += "".join(f", {n} {c}" for c, n in o.counters)
        if o.marks is not None:
            extra += "".join(f", {w}" for w in o.marks.words(lambda s: str(names.get(s, s))))
        out.append(f"    #{o.id} {o.name or '(face down)'}{pt} ({names.get(o.controller, o.controller)})"
                   f"{extra}{' [' + ', '.join(state) + ']' if state else ''}")
    out.append(f"  stack: {', '.join(f'#{s.id} {s.name}' for s in view.stack) or 'empty'}")
    if view.exile:
        out.append(f"  exile: {', '.join(f'#{o.id} {o.name}' for o in view.exile)}")
    return out
