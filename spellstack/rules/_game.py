"""The kernel's handle on one game: its state, the card definitions, and characteristic queries."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ._characteristics import AbilityRef, Characteristics, LayerCache, characteristics
from ._decisions import ActionOption, Answer, Choice, Decision, Proc, new_choice, new_decision
from ._definitions import ActivatedAbility, CardDefinition, TriggeredAbility
from ._events import Event, new_event
from ._mana import ManaCost, ManaSupply
from ._state import GameObject, GameState
from ._visibility import PUBLIC_SEAT, visible_name

if TYPE_CHECKING:
    from ._casting import HandFacts, PermanentFacts, SeatBoard

__all__ = ["Game"]


_Templates = dict[tuple[str, int, int, int], Characteristics]
_SHARED: list[tuple[Mapping[str, CardDefinition], _Templates, dict[str, bool]]] = []
"""Caches of facts about card definitions, one per definitions mapping, shared by every game
that uses that mapping (the same mapping object: ``load_cards`` gives every game the same)."""
_SHARED_MAPPINGS = 4
"""The most mappings whose caches are kept for new games (tests build many mappings)."""


def _shared(cards: Mapping[str, CardDefinition]) -> tuple[_Templates, dict[str, bool]]:
    """The definition caches shared by the games using ``cards``."""
    for known, templates, readers in _SHARED:
        if known is cards:
            return templates, readers
    entry: tuple[Mapping[str, CardDefinition], _Templates, dict[str, bool]] = (cards, {}, {})
    _SHARED.append(entry)
    # A game keeps the dicts it was given: forgetting a mapping only stops new games sharing.
    del _SHARED[:-_SHARED_MAPPINGS]
    return entry[1], entry[2]


@dataclass(slots=True)
class Game:
    """A game: plain-data state plus the read-only card definitions it refers to by name."""

    state: GameState
    """The game state (plain data, hashable)."""
    cards: Mapping[str, CardDefinition]
    """Card and token definitions by name."""
    events: list[Event] = field(default_factory=list)
    """Events recorded since the caller last collected them (bookkeeping, not game state)."""
    history: list[Event] | None = None
    """If a list: every event of the game is also kept here, for a narrated account."""
    collecting: bool = True
    """Whether ``log`` adds to ``events``: false from the end of a batch (``end_batch``) to the
    next ``take_events``, which would throw away what came in between (bookkeeping only)."""
    memo: dict[str, tuple[str, ...] | None] = field(default_factory=dict)
    """Facts derived from the (immutable) card definitions, by card name: a cache only."""
    layer_cache: dict[int, Characteristics] = field(init=False, repr=False)
    """Characteristics by object id for the current epoch (a cache only; ``changed`` clears it)."""
    layer_templates: dict[tuple[str, int, int, int], Characteristics] = field(init=False, repr=False)
    """Printed characteristics by (name, controller, counter P/T, X): shared by every permanent
    no effect touches, and by every game with the same ``cards`` (a cache of facts about the
    immutable definitions)."""
    value_readers: dict[str, bool] = field(init=False, repr=False)
    """By card name: whether a static ability of it counts cards in a zone (a cache only, shared
    like ``layer_templates``)."""
    reads_zones: bool = False
    """Whether an object of the game has had such an ability (``reads_zone_sizes``)."""
    zone_scan_id: int = 0
    """Objects with ids below this were looked at by ``reads_zone_sizes``."""
    kinds_scan_id: int = 0
    """Objects with ids below this were looked at for ``kinds_seen`` (``_restrictions.kinds_seen``)."""
    kinds_seen: frozenset[str] = frozenset()
    """The rare kinds of ability the cards of the objects looked at print (``_restrictions``,
    ``_triggers``; a cache of facts about the immutable definitions)."""
    stable_cache: dict[int, Characteristics] = field(default_factory=dict)
    """Characteristics of cards in zones where nothing changes them (``characteristics``)."""
    epoch: int = 0
    """Bumped by every change that can affect characteristics (bookkeeping, not game state)."""
    static_rules: dict[int, tuple[tuple[int, str, int], ...]] = field(default_factory=dict)
    """By epoch (only the current one is kept): (object id, definition, position) of every
    restriction or permission permanents have, for ``_restrictions`` (a cache only)."""
    actions_memo: dict[int, tuple[tuple[object, ...], tuple[ActionOption, ...]]] = field(
        default_factory=dict)
    """By seat: the last ``legal_actions`` answer and the key of what it read (a cache only)."""
    mana_memo: dict[int, tuple[tuple[object, ...], ManaSupply]] = field(default_factory=dict)
    """By seat: the mana they could pay with (``_casting``) and the key of what it read (a cache
    only)."""
    graveyard_watchers: dict[int, bool] = field(default_factory=dict)
    """By epoch (only the current one is kept): whether a permanent has a replacement ability
    for any card going to a graveyard, for ``_zones`` (a cache only)."""
    permanent_facts: dict[int, PermanentFacts] = field(default_factory=dict)
    """By permanent: what ``_casting`` read of its characteristics (a cache only)."""
    seat_boards: dict[int, SeatBoard] = field(default_factory=dict)
    """By seat: their permanents and mana abilities in one epoch, for ``_casting`` (a cache
    only)."""
    board_basis: tuple[list[int], list[Characteristics]] | None = None
    """The battlefield and its characteristics when ``seat_boards`` were last brought up to
    date (a cache only)."""
    hand_facts: dict[int, HandFacts] = field(default_factory=dict)
    """By seat: what ``_casting.pass_test`` found in their hand (a cache only)."""
    payable_memo: dict[int, tuple[ManaSupply, tuple[ManaCost, ...], bool]] = field(default_factory=dict)
    """By seat: whether one of the costs was payable with the supply (``_casting.pass_test``;
    a cache only)."""

    # ------------------------------------------------------------------ definitions

    def definition(self, obj: GameObject) -> CardDefinition:
        """The definition an object's characteristics come from (for an ability: its source's)."""
        return self.cards[obj.name]

    def __post_init__(self) -> None:
        self.layer_cache = LayerCache(self)
        self.layer_templates, self.value_readers = _shared(self.cards)

    # ------------------------------------------------ characteristics (613: see _characteristics)

    def characteristics(self, obj: GameObject) -> Characteristics:
        """613: the object's characteristics now (cached until the epoch moves)."""
        return self.layer_cache[obj.id]

    def changed(self) -> None:
        """Something that can change characteristics happened: drop the cache (new epoch), and
        the next state-based action check looks at every permanent (704.3, ``SBAChanges``).
        Cards kept in ``stable_cache`` stay (no epoch changes them): a lookup of one is no miss."""
        self.epoch += 1
        cache = self.layer_cache
        cache.clear()
        cache.update(self.stable_cache)
        self.state.sba.board = True

    def card_types(self, obj: GameObject) -> tuple[str, ...]:
        """Card types (205.2a)."""
        return self.layer_cache[obj.id].card_types

    def is_type(self, obj: GameObject, card_type: str) -> bool:
        """Whether the object has this card type now."""
        return card_type in self.layer_cache[obj.id].card_types

    def is_creature(self, obj: GameObject) -> bool:
        """Whether the object is a creature now."""
        return "Creature" in self.layer_cache[obj.id].card_types

    def subtypes(self, obj: GameObject) -> tuple[str, ...]:
        """Subtypes (205.3)."""
        return self.layer_cache[obj.id].subtypes

    def supertypes(self, obj: GameObject) -> tuple[str, ...]:
        """Supertypes (205.4)."""
        return self.layer_cache[obj.id].supertypes

    def colors(self, obj: GameObject) -> tuple[str, ...]:
        """Colours (105)."""
        return self.layer_cache[obj.id].colors

    def keywords(self, obj: GameObject) -> tuple[str, ...]:
        """Keyword abilities it has now (702)."""
        return self.layer_cache[obj.id].keywords

    def has_keyword(self, obj: GameObject, keyword: str) -> bool:
        """Whether it has this keyword ability now."""
        return keyword in self.layer_cache[obj.id].keywords

    def abilities(self, obj: GameObject) -> tuple[AbilityRef, ...]:
        """Its non-keyword abilities now (triggered, activated, static), after layer 6."""
        return self.layer_cache[obj.id].abilities

    def has_ability(self, obj: GameObject, kind: str, position: int, definition: str = "") -> bool:
        """Whether it has the printed ability at ``position`` of ``definition`` (default: the
        definition its copiable values come from) now."""
        c = characteristics(self, obj)
        return AbilityRef(definition or c.definition, kind, position) in c.abilities

    def triggered(self, obj: GameObject) -> tuple[tuple[str, TriggeredAbility], ...]:
        """Its triggered abilities now (after layer 6: 603.6b, 603.10), each with the definition
        it is printed on (a copy's: the original's, 707.2)."""
        return self.layer_cache[obj.id].triggered

    def activated(self, obj: GameObject) -> tuple[tuple[str, int, ActivatedAbility], ...]:
        """Its activated abilities now (after layer 6), in order: the definition each is printed
        on, its index among that definition's activated abilities (from 1), and the ability.
        ``Action.ability`` counts in this list, from 1."""
        return self.layer_cache[obj.id].activated

    def is_legendary(self, obj: GameObject) -> bool:
        """Whether it has the legendary supertype (205.4d)."""
        return "Legendary" in self.layer_cache[obj.id].supertypes

    def power(self, obj: GameObject) -> int:
        """Power after layer 7 (613.4)."""
        return self.layer_cache[obj.id].power or 0

    def toughness(self, obj: GameObject) -> int:
        """Toughness after layer 7 (613.4)."""
        return self.layer_cache[obj.id].toughness or 0

    def controller(self, obj: GameObject) -> int:
        """The seat controlling the object now (layer 2 for permanents)."""
        if obj.zone != "battlefield":
            return obj.controller
        return self.layer_cache[obj.id].controller

    def controlled(self, seat: int) -> list[GameObject]:
        """Permanents ``seat`` controls now, in the order they entered."""
        st = self.state
        out = []
        for i in st.battlefield:
            obj = st.objects[i]
            if self.layer_cache[obj.id].controller == seat:
                out.append(obj)
        return out

    def mana_value(self, obj: GameObject) -> int:
        """202.3: mana value; X is its chosen value on the stack, 0 elsewhere."""
        return self.layer_cache[obj.id].mana_value

    # ------------------------------------------------------------------ bookkeeping

    def log(self, kind: str, text: str, *, player: int = -1, subject: int = 0, amount: int = 0,
            private_to: tuple[int, ...] = ()) -> None:
        """Record an event for the current batch (collected by whoever drives the kernel), and in
        ``history``; one nobody would read (``collecting`` false, no history) is not made."""
        if self.collecting:
            event = new_event(kind, player, subject, amount, text, private_to)
            self.events.append(event)
            if self.history is not None:
                self.history.append(event)
        elif self.history is not None:
            self.history.append(new_event(kind, player, subject, amount, text, private_to))

    def logging(self) -> bool:
        """Whether an event logged now is kept: a caller may skip composing one if not."""
        return self.collecting or self.history is not None

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

    def ref_name(self, ref: int, seat: int = PUBLIC_SEAT) -> str:
        """The name of an object or player reference as ``seat`` may know it (every player,
        by default); ``#N`` for anything hidden from them or that never existed, any int."""
        return visible_name(self, ref, seat)

    def decision(self, player: int, kind: str, prompt: str, *, choices: tuple[Choice, ...] = (),
                 min: int = 0, max: int = 0,
                 legal_pairs: tuple[tuple[int, int], ...] = ()) -> Decision:
        """A new numbered decision (not yet asked)."""
        self.state.decisions += 1
        return new_decision(self.state.decisions, player, kind, prompt, choices, (), min, max,
                            legal_pairs, ())

    def ask_choose(self, player: int, prompt: str, refs: list[int], lo: int, hi: int) -> Proc[list[int]]:
        """Ask ``player`` to choose between ``lo`` and ``hi`` of ``refs``; answered automatically
        when only one answer is legal."""
        hi = min(hi, len(refs))
        lo = min(lo, hi)
        if hi == 0:
            return []
        if lo == hi == len(refs):
            return list(refs)
        # The asked player is told only names they may see (400.2).
        choices = tuple(new_choice(i, r, self.ref_name(r, player), 0) for i, r in enumerate(refs))
        reply = yield self.decision(player, "choose", prompt, choices=choices, min=lo, max=hi)
        assert isinstance(reply, Answer)
        return [refs[k] for k in reply.keys]

    def ask_yes_no(self, player: int, prompt: str) -> Proc[bool]:
        """Ask a yes/no question ("you may")."""
        choices = (new_choice(1, 0, "yes", 0), new_choice(0, 0, "no", 0))
        reply = yield self.decision(player, "yes_no", prompt, choices=choices, min=1, max=1)
        assert isinstance(reply, Answer)
        return reply.keys == (1,)

