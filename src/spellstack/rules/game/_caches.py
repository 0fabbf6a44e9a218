"""The kernel's caches, all in one object (``Caches``, ``Game.caches``), and the records some of
them keep.

Everything here is a cache only: a game with every cache emptied plays exactly as one without.
Each cache says what it holds and what makes an entry stale. Most are tied to the **epoch**, a
number that moves whenever something that can change characteristics happens (``Game.changed``:
zone changes that matter, effects starting or ending, counters, attachments); ``new_epoch`` is
the one place that moves it, and the only cache it must empty itself is the characteristics of
the epoch before (``layers``). The others are either keyed by the epoch they describe (stale once
it moves), keyed by everything they read (stale when the key differs), or facts about the
immutable card definitions (never stale).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from mypy_extensions import mypyc_attr

from ..definitions import CardDefinition, TriggeredAbility
from ..layers import LayerCache, LayerCaches
from ..mana import ManaCost, ManaSource, ManaSupply
from ..state import ActionOption, Characteristics

if TYPE_CHECKING:
    from ..layers import LayerHost

__all__ = ["Caches", "HandFacts", "PermanentFacts", "SeatBoard"]

_Templates = dict[tuple[str, int, int, int, bool, tuple[str, ...]], Characteristics]
_SHARED: Final[list[tuple[Mapping[str, CardDefinition], _Templates, dict[str, bool]]]] = []
"""Caches of facts about card definitions, one per definitions mapping, shared by every game
that uses that mapping (the same mapping object: ``load_cards`` gives every game the same)."""
_SHARED_MAPPINGS: Final = 4
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


class Caches(LayerCaches):
    """Every cache the kernel keeps for one game (``Game.caches``; none of it is game state, and
    none of it is in the state hash). The layer engine's (``layers``, ``stable``, ``templates``,
    ``value_readers``, ``reads_zones``, ``zone_scan_id``) are declared by ``LayerCaches``."""

    __slots__ = ("actions", "board_basis", "epoch", "graveyard_watchers", "hand_facts",
                 "kinds_scan_id", "kinds_seen", "mana", "own_zone_casting", "payable",
                 "permanent_facts", "seat_boards", "static_rules", "step_triggers")

    def __init__(self, game: LayerHost) -> None:
        self.own_zone_casting: bool | None = None
        """Whether a card of this game may be cast from outside its hand by its own rules
        (flashback, an Adventure; ``casting._own_zone_cards``): None until first asked. A game's
        cards are those it was set up with; what is made later are tokens. Never stale."""
        self.epoch = 0
        """Moved by ``new_epoch`` at every change that can affect characteristics; the caches
        below that describe one epoch say which."""
        self.layers = LayerCache(game)
        """Characteristics by object id in the current epoch (613; ``characteristics``): a
        lookup that misses computes them. Stale when the epoch moves: ``new_epoch`` empties it
        (keeping ``stable``'s entries)."""
        self.stable = {}  # declared by ``LayerCaches`` only: compiled, a second declaration is traversed twice
        """Characteristics of face-up cards with no static ability in a hand, library,
        graveyard or exile, by object id: no epoch can change them, and a card that changes
        zones is a new object (400.7). Never stale; a card's entry goes as it leaves a hand, a
        graveyard or exile (``move_object``)."""
        self.templates, self.value_readers = _shared(game.cards)
        """``templates``: printed characteristics by (name, controller, counter P/T, X, bestowed,
        a copy's missing supertypes: 707.9b), shared
        by every permanent no effect touches and by every game with the same card definitions.
        ``value_readers``: by card name, whether a static ability of it counts cards in a zone
        (``reads_zone_sizes``). Facts about the immutable definitions: never stale."""
        self.reads_zones = False
        """Whether an object of the game has had an ability counting cards in a zone (then
        every zone change moves the epoch). Only ever becomes true."""
        self.zone_scan_id = 0
        """Objects with ids below this were looked at for ``reads_zones`` (ids only grow)."""
        self.kinds_scan_id = 0
        """Objects with ids below this were looked at for ``kinds_seen``."""
        self.kinds_seen: frozenset[str] = frozenset()
        """The rare kinds of ability the cards of the objects looked at print (``kinds_seen``
        in the legality package; read by restrictions and zone-change triggers). Only grows."""
        self.static_rules: dict[int, tuple[tuple[int, str, int], ...]] = {}
        """By epoch (only the current one is kept): (object id, definition, position) of every
        restriction or permission permanents have (101.2). Stale when the epoch moves."""
        self.graveyard_watchers: dict[int, bool] = {}
        """By epoch (only the current one is kept): whether a permanent has a replacement
        ability for any card going to a graveyard (614). Stale when the epoch moves."""
        self.step_triggers: tuple[int, tuple[tuple[int, str, TriggeredAbility], ...]] = (-1, ())
        """(epoch, entries): the "at the beginning of" triggered abilities permanents have in
        that epoch, as (object id, definition, ability) in battlefield order (603.2, 503.1a).
        Stale when the epoch moves (entering, leaving and every change of abilities move it)."""
        self.actions: dict[int, tuple[tuple[object, ...], tuple[ActionOption, ...]]] = {}
        """By seat: the last ``legal_actions`` answer and the key of everything it read that
        moves without the epoch (stack, hand, pool, life, land drop, tapped and sick
        permanents, permission zones) with the epoch. Stale when the key differs."""
        self.mana: dict[int, tuple[tuple[object, ...], ManaSupply]] = {}
        """By seat: the mana they could pay with and the key of what it read (the seat's
        permanents, what is tapped, the pool, the epoch). Stale when the key differs."""
        self.payable: dict[int, tuple[ManaSupply, tuple[ManaCost, ...], bool]] = {}
        """By seat: whether one of the costs was payable with the supply (``only_pass_possible``).
        Stale when the supply or the costs differ (compared by identity)."""
        self.seat_boards: dict[int, SeatBoard] = {}
        """By seat: their permanents and mana abilities in one epoch (``SeatBoard.epoch``).
        Stale when the epoch moves; brought up to date rather than rebuilt when only a
        permanent entered (``board_basis``)."""
        self.board_basis: tuple[list[int], list[Characteristics]] | None = None
        """The battlefield and its characteristics when ``seat_boards`` were last brought up to
        date."""
        self.permanent_facts: dict[int, PermanentFacts] = {}
        """By permanent: what the seat boards read of its characteristics; stale when its
        characteristics are another object (``PermanentFacts.characteristics``)."""
        self.hand_facts: dict[int, HandFacts] = {}
        """By seat: what ``only_pass_possible`` found in their hand; stale when the hand differs or,
        unless every card in it is in ``stable``, the epoch moves (``HandFacts.epoch``)."""

    def new_epoch(self) -> None:
        """Something that can change characteristics happened (``Game.changed``): the one
        invalidation point. The characteristics of the epoch before go; cards in ``stable``
        stay (a lookup of one is no miss); every epoch-keyed cache is stale from now on."""
        self.epoch += 1
        layers = self.layers
        layers.clear()
        layers.update(self.stable)


# The records below are made at every epoch and change of a hand, and the loop's requests
# (``turn``) at every task: plain slotted dataclasses with their constructors written out, where
# a value type is frozen. Compiled, a dataclass keeps the constructor ``dataclasses`` writes,
# which stays interpreted (a frozen one's sets each field through ``object.__setattr__``); one
# written out is compiled code (about 6% of the compiled kernel's instructions). Nothing changes
# them once made, and a test checks each constructor against the fields.


@mypyc_attr(acyclic=True)
@dataclass(slots=True)
class SeatBoard:
    """One seat's permanents in one epoch, as ``only_pass_possible``, ``mana_sources`` and the cache keys
    read them: which permanents there are, who controls them, what they can tap for and what
    abilities they have change only with the epoch (613, ``Caches.new_epoch``); what is tapped or
    summoning sick is read afresh."""

    epoch: int
    """The epoch it describes."""
    permanents: tuple[int, ...]
    """The permanents the seat controls, in the order they entered."""
    mana: tuple[tuple[int, ManaSource, bool], ...]
    """Each {T}-only mana ability: the permanent, the source, and whether it is a creature
    without haste (302.6: summoning sickness stops it); lands first, then other permanents."""
    lands: int
    """How many of ``mana`` are lands'."""
    activator: bool
    """Whether one of them has an activated ability other than a mana ability (602.1, 605.1a)."""
    permissions: bool
    """Whether any permission applies in the game (``has_permissions``)."""
    face_down: bool
    """Whether one of them is face down (702.37e: turning it face up may be possible)."""

    def __init__(self, epoch: int, permanents: tuple[int, ...], mana: tuple[tuple[int, ManaSource, bool], ...],
                 lands: int, activator: bool, permissions: bool, face_down: bool) -> None:
        self.epoch = epoch
        self.permanents = permanents
        self.mana = mana
        self.lands = lands
        self.activator = activator
        self.permissions = permissions
        self.face_down = face_down


@mypyc_attr(acyclic=True)
@dataclass(slots=True)
class PermanentFacts:
    """What ``SeatBoard`` reads of one permanent's characteristics (613): the same for the same
    ``Characteristics`` object (permanents no effect touches share theirs between epochs)."""

    characteristics: Characteristics
    """The characteristics it was read from."""
    mana: tuple[int, ManaSource, bool] | None
    """Its first {T}-only mana ability (``_tap_mana``) as a ``SeatBoard.mana`` entry, or None."""
    land: bool
    """Whether it is a land."""
    activator: bool
    """Whether it has an activated ability other than a mana ability (602.1, 605.1a)."""
    face_down: bool
    """Whether it is face down (708.2: its characteristics have no name)."""

    def __init__(self, characteristics: Characteristics, mana: tuple[int, ManaSource, bool] | None, land: bool,
                 activator: bool, face_down: bool) -> None:
        self.characteristics = characteristics
        self.mana = mana
        self.land = land
        self.activator = activator
        self.face_down = face_down


@mypyc_attr(acyclic=True)
@dataclass(slots=True)
class HandFacts:
    """What ``only_pass_possible`` reads of one seat's hand: the cards and their characteristics (613),
    which change only with the hand or, for a card whose characteristics an effect could
    change, with the epoch."""

    hand: tuple[int, ...]
    """The hand it describes."""
    epoch: int
    """The epoch it describes, or -1 for any: every card in the hand keeps its printed values
    while it stays there (``Caches.stable``: no static ability, face up)."""
    land: bool
    """Whether the hand holds a land (305.1)."""
    instant: tuple[ManaCost, ...]
    """The distinct costs (by identity) of the instants and cards with flash in the hand (307.1,
    702.8a)."""
    sorcery: tuple[ManaCost, ...]
    """The distinct costs (by identity) of every nonland card in the hand."""

    def __init__(self, hand: tuple[int, ...], epoch: int, land: bool, instant: tuple[ManaCost, ...],
                 sorcery: tuple[ManaCost, ...]) -> None:
        self.hand = hand
        self.epoch = epoch
        self.land = land
        self.instant = instant
        self.sorcery = sorcery
