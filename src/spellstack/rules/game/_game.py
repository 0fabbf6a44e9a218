"""The kernel's handle on one game: its state, the card definitions, and characteristic queries."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Final

from ..definitions import ActivatedAbility, CardDefinition, TriggeredAbility
from ..layers import LayerHost, characteristics
from ..mana import ManaCost
from ..state import (
    AbilityRef,
    Characteristics,
    Choice,
    Decision,
    DecisionKind,
    Event,
    GameObject,
    Proc,
    ResolutionCast,
    new_decision,
    new_event,
)
from ._caches import Caches

__all__ = ["Game", "TracedEvent"]


@dataclass(frozen=True, slots=True)
class TracedEvent:
    """An event as a trace records it: when it happened, and what only a trace shows."""

    turn: int
    """The turn it happened in."""
    step: str
    """The step it happened in."""
    event: Event
    """The event."""
    refs: tuple[int, ...]
    """Other objects and players it names (``GameEvent.refs``)."""
    zones: tuple[str, ...]
    """For a zone change: the zone left and the zone entered."""


# The kernel's hooks: each filled by the package that owns the rule, when it is imported (a
# module-level list rather than a class attribute, so that the compiled build compiles ``Game``).
MANA_PAYER: Final[list[Callable[[Game, int, ManaCost, bool], bool]]] = []
"""The one ``pay_mana`` implementation: the casting package, which owns payment and sits
above the effects that need it, registers it when it is imported."""

TOP_CARD_RULE: Final[list[Callable[[Game, int], tuple[bool, bool]]]] = []
"""The one ``top_card_seen`` implementation (400.2 as effects change it): the legality
package, which owns permissions, registers it when it is imported."""

EXILE_LOOK_RULE: Final[list[Callable[[Game, int, GameObject], bool]]] = []
"""The one ``face_down_exile_seen`` implementation (the legality package's)."""

SPELL_CASTER: Final[list[Callable[[Game, int, tuple[int, ...], ResolutionCast, bool],
                              Proc[GameObject | None]]]] = []
"""The one ``cast_while_resolving`` implementation: the casting package, which owns casting
and sits above the effects that need it, registers it when it is imported."""


@dataclass(slots=True, weakref_slot=True)
class Game(LayerHost):
    """A game: plain-data state plus the read-only card definitions it refers to by name
    (``state`` and ``cards``, declared by ``LayerHost``, come first)."""

    events: list[Event] = field(default_factory=list)
    """Events recorded since the caller last collected them (bookkeeping, not game state)."""
    history: list[Event] | None = None
    """If a list: every event of the game is also kept here, for a narrated account."""
    history_steps: list[str] | None = None
    """If a list (with ``history``): the step each event of ``history`` happened in, at the same
    index (``GameState.step`` when it was logged, as a trace records it). A step that gives no
    priority, such as a cleanup step, logs no step event: its events are known by this alone."""
    collecting: bool = True
    """Whether ``log`` adds to ``events``: false from the end of a batch (``end_batch``) to the
    next ``take_events``, which would throw away what came in between (bookkeeping only)."""
    trace_log: list[TracedEvent] | None = None
    """If a list: every event is also kept here with the turn and step it happened in and the
    details only a trace shows, until the tracing actors take them (``take_traced``)."""
    caches: Caches = field(init=False, repr=False)
    """Every cache the kernel keeps for this game (``Caches``: what each holds, what makes it
    stale)."""

    def face_down_exile_seen(self, seat: int, obj: GameObject) -> bool:
        """Whether an effect lets ``seat`` look at ``obj``, a card in exile face down (406.3)."""
        return bool(EXILE_LOOK_RULE) and EXILE_LOOK_RULE[0](self, seat, obj)

    def top_card_seen(self, owner: int) -> tuple[bool, bool]:
        """Whether ``owner`` may look at the top card of their library now ("You may look at
        the top card of your library any time"), and whether it is revealed to every player
        ("Play with the top card of your library revealed")."""
        return TOP_CARD_RULE[0](self, owner) if TOP_CARD_RULE else (False, False)

    def pay_mana(self, seat: int, cost: ManaCost, check_only: bool) -> bool:
        """Whether ``seat`` can pay ``cost`` now by the automatic payment rule (601.2g-h), and
        unless ``check_only`` pay it: for an effect that asks a player to pay ("unless its
        controller pays {2}", 118.12)."""
        return MANA_PAYER[0](self, seat, cost, check_only)

    def cast_while_resolving(self, seat: int, candidates: tuple[int, ...],
                             permit: ResolutionCast, choose: bool) -> Proc[GameObject | None]:
        """608.2g: ``seat`` may cast one of the cards ``candidates`` as ``permit`` allows while a
        spell or ability resolves, following 601.2a-i with its choices asked as questions; no
        player receives priority. ``choose``: which card (or none) is asked as one question;
        otherwise the one candidate is cast (its "you may" was asked already). Returns the
        spell, or None: none was cast (declined, or the attempt was illegal and rewound, 601.2,
        leaving the card where it was)."""
        return SPELL_CASTER[0](self, seat, candidates, permit, choose)

    # ------------------------------------------------------------------ definitions

    def definition(self, obj: GameObject) -> CardDefinition:
        """The definition an object's characteristics come from (for an ability: its source's)."""
        return self.cards[obj.name]

    def __post_init__(self) -> None:
        self.new_caches()

    def new_caches(self) -> None:
        """Every cache empty (``Caches``; a game plays on exactly as it would have with them), for
        the kernel and for the layer engine (``layer_caches``, the same object)."""
        self.caches = Caches(self)
        self.host_caches(self.caches)

    # ------------------------------------------------ characteristics (613: see _characteristics)

    def characteristics(self, obj: GameObject) -> Characteristics:
        """613: the object's characteristics now (cached until the epoch moves)."""
        return self.caches.layers[obj.id]

    def changed(self) -> None:
        """Something that can change characteristics happened: drop the cache (new epoch), and
        the next state-based action check looks at every permanent (704.3, ``SBAChanges``).
        Cards kept in ``Caches.stable`` stay (no epoch changes them): a lookup of one is no miss."""
        self.caches.new_epoch()
        self.state.sba.board = True

    def card_types(self, obj: GameObject) -> tuple[str, ...]:
        """Card types (205.2a)."""
        return self.caches.layers[obj.id].card_types

    def is_type(self, obj: GameObject, card_type: str) -> bool:
        """Whether the object has this card type now."""
        return card_type in self.caches.layers[obj.id].card_types

    def is_creature(self, obj: GameObject) -> bool:
        """Whether the object is a creature now."""
        return "Creature" in self.caches.layers[obj.id].card_types

    def subtypes(self, obj: GameObject) -> tuple[str, ...]:
        """Subtypes (205.3)."""
        return self.caches.layers[obj.id].subtypes

    def supertypes(self, obj: GameObject) -> tuple[str, ...]:
        """Supertypes (205.4)."""
        return self.caches.layers[obj.id].supertypes

    def colors(self, obj: GameObject) -> tuple[str, ...]:
        """Colours (105)."""
        return self.caches.layers[obj.id].colors

    def keywords(self, obj: GameObject) -> tuple[str, ...]:
        """Keyword abilities it has now (702)."""
        return self.caches.layers[obj.id].keywords

    def has_keyword(self, obj: GameObject, keyword: str) -> bool:
        """Whether it has this keyword ability now."""
        return keyword in self.caches.layers[obj.id].keywords

    def abilities(self, obj: GameObject) -> tuple[AbilityRef, ...]:
        """Its non-keyword abilities now (triggered, activated, static), after layer 6."""
        return self.caches.layers[obj.id].abilities

    def has_ability(self, obj: GameObject, kind: str, position: int, definition: str = "") -> bool:
        """Whether it has the printed ability at ``position`` of ``definition`` (default: the
        definition its copiable values come from) now."""
        c = characteristics(self, obj)
        return AbilityRef(definition or c.definition, kind, position) in c.abilities

    def triggered(self, obj: GameObject) -> tuple[tuple[str, TriggeredAbility], ...]:
        """Its triggered abilities now (after layer 6: 603.6b, 603.10), each with the definition
        it is printed on (a copy's: the original's, 707.2)."""
        return self.caches.layers[obj.id].triggered

    def activated(self, obj: GameObject) -> tuple[tuple[str, int, ActivatedAbility], ...]:
        """Its activated abilities now (after layer 6), in order: the definition each is printed
        on, its index among that definition's activated abilities (from 1), and the ability.
        ``Action.ability`` counts in this list, from 1."""
        return self.caches.layers[obj.id].activated

    def is_legendary(self, obj: GameObject) -> bool:
        """Whether it has the legendary supertype (205.4d)."""
        return "Legendary" in self.caches.layers[obj.id].supertypes

    def power(self, obj: GameObject) -> int:
        """Power after layer 7 (613.4)."""
        return self.caches.layers[obj.id].power or 0

    def toughness(self, obj: GameObject) -> int:
        """Toughness after layer 7 (613.4)."""
        return self.caches.layers[obj.id].toughness or 0

    def controller(self, obj: GameObject) -> int:
        """The seat controlling the object now (layer 2 for permanents)."""
        if obj.zone != "battlefield":
            return obj.controller
        return self.caches.layers[obj.id].controller

    def controlled(self, seat: int) -> list[GameObject]:
        """Permanents ``seat`` controls now, in the order they entered."""
        st = self.state
        out = []
        for i in st.battlefield:
            obj = st.objects[i]
            if self.caches.layers[obj.id].controller == seat:
                out.append(obj)
        return out

    def mana_value(self, obj: GameObject) -> int:
        """202.3: mana value; X is its chosen value on the stack, 0 elsewhere."""
        return self.caches.layers[obj.id].mana_value

    # ------------------------------------------------------------------ bookkeeping

    def log(self, kind: str, text: str, *, player: int = -1, subject: int = 0, amount: int = 0,
            private_to: tuple[int, ...] = (), refs: tuple[int, ...] = (),
            zones: tuple[str, ...] = ()) -> None:
        """Record an event for the current batch (collected by whoever drives the kernel), in
        ``history`` and in ``trace_log`` (with ``refs`` and ``zones``, which only a trace
        shows); one nobody would read (``collecting`` false, no history, no trace) is not
        made."""
        if self.collecting:
            event = new_event(kind, player, subject, amount, text, private_to)
            self.events.append(event)
            if self.history is not None:
                self.history.append(event)
                if self.history_steps is not None:
                    self.history_steps.append(self.state.step)
        elif self.history is not None or self.trace_log is not None:
            event = new_event(kind, player, subject, amount, text, private_to)
            if self.history is not None:
                self.history.append(event)
                if self.history_steps is not None:
                    self.history_steps.append(self.state.step)
        else:
            return
        if self.trace_log is not None:
            st = self.state
            self.trace_log.append(TracedEvent(st.turn, st.step, event, refs, zones))

    def logging(self) -> bool:
        """Whether an event logged now is kept: a caller may skip composing one if not."""
        return self.collecting or self.history is not None or self.trace_log is not None

    def trace(self, kind: str, text: str, *, player: int = -1, amount: int = 0) -> None:
        """Record an event for the trace only (``trace_log``; nothing if untraced): one that
        only the engine's account of a game needs, such as a pass made for a player."""
        if self.trace_log is not None:
            st = self.state
            self.trace_log.append(TracedEvent(st.turn, st.step, new_event(kind, player, 0, amount, text, ()),
                                              (), ()))

    def take_traced(self) -> list[TracedEvent]:
        """The traced events since the last call (``trace_log``), oldest first, and forget them."""
        log = self.trace_log
        if not log:
            return []
        self.trace_log = []
        return log

    def take_events(self) -> tuple[Event, ...]:
        """Collect and clear the events recorded so far; those logged from now on are collected."""
        evs = tuple(self.events)
        self.events.clear()
        self.collecting = True
        return evs

    def end_batch(self) -> tuple[Event, ...]:
        """``take_events`` for a batch that ends here (``state_based_actions``, ``resolve_top``),
        and nothing more collected until the next ``take_events``: every reader of events starts
        its batch with one, throwing away the events logged before it, so none of those is made
        (``history`` still gets them)."""
        evs = tuple(self.events)
        self.events.clear()
        self.collecting = False
        return evs

    def player_name(self, seat: int) -> str:
        """A player's name."""
        return self.state.players[seat].name

    def decision(self, player: int, kind: DecisionKind, prompt: str, *, choices: tuple[Choice, ...] = (),
                 min: int = 0, max: int = 0,
                 legal_pairs: tuple[tuple[int, int], ...] = ()) -> Decision:
        """A new decision for ``player``, numbered among that player's own decisions
        (``GameState.new_decision_id``), not yet asked."""
        return new_decision(self.state.new_decision_id(player), player, kind, prompt, choices, (),
                            min, max, legal_pairs, ())
