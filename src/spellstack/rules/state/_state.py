"""The game state: plain data with a canonical hash.

Objects follow 400.7: every zone change makes a new object with a new id; the
old id stays readable as last known information (``GameState.lki``). Players
and objects share one reference space: player ``seat`` is ref ``seat + 1``
(at most ``MAX_PLAYERS``), objects have ids from ``FIRST_OBJECT_ID`` up.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field, fields
from operator import attrgetter
from typing import TYPE_CHECKING, Any, Final

from mypy_extensions import mypyc_attr

from ..base import GameRandom, Record, is_compiled_class, rare_fields
from ..definitions import ArgValue
from ._nocounters import NO_COUNTERS

if TYPE_CHECKING:
    from ._characteristics import Characteristics


MAX_PLAYERS: Final = 8
FIRST_OBJECT_ID: Final = 100

# 500.1: the steps of a turn, in order.
STEPS: Final[tuple[str, ...]] = (
    "untap",
    "upkeep",
    "draw",
    "precombat_main",
    "beginning_of_combat",
    "declare_attackers",
    "declare_blockers",
    "first_strike_damage",
    "combat_damage",
    "end_of_combat",
    "postcombat_main",
    "end",
    "cleanup",
)


def player_ref(seat: int) -> int:
    """The reference of the player in ``seat``."""
    return seat + 1


def is_player_ref(ref: int) -> bool:
    """Whether ``ref`` names a player rather than an object."""
    return 1 <= ref <= MAX_PLAYERS


def seat_of_ref(ref: int) -> int:
    """The seat of a player reference."""
    return ref - 1


@mypyc_attr(acyclic=True)
@dataclass
class GameObject:
    """An object in a zone (109.1): a card, a token, a spell or an ability on the stack."""

    id: int
    """Object id; a new one on every zone change (400.7)."""
    card: int
    """The physical card (or token) it represents, stable across zones; 0 for abilities."""
    name: str
    """The definition's name (for abilities: the source's name)."""
    owner: int
    """Owner's seat (108.3)."""
    controller: int
    """Controller's seat."""
    zone: str
    """library, hand, battlefield, graveyard, stack, exile or command."""
    timestamp: int = 0
    """613.7: when it entered its zone."""
    is_token: bool = False
    """A token (111)."""
    tapped: bool = False
    """Tapped status (110.5)."""
    damage: int = 0
    """Damage marked this turn (120.6)."""
    deathtouch_damage: bool = False
    """704.5h: dealt damage by a source with deathtouch since the last check."""
    counters: dict[str, int] = NO_COUNTERS
    """Counters by kind (122); ``NO_COUNTERS`` (shared, unchangeable) while it has none."""
    sick: bool = False
    """302.6: has not been under its controller's control continuously since their most recent turn began."""
    attached_to: int = 0
    """The object or player ref it is attached to; 0 for none."""
    face_down: bool = False
    """Face-down status (708)."""
    ability_index: int = 0
    """On the stack: for an ability, its position in the source's printed abilities; 0 for a spell."""
    ability_kind: str = ""
    """On the stack: ``activated`` or ``triggered`` for abilities, empty for spells."""
    source_id: int = 0
    """For an ability on the stack: its source's object id."""
    targets: tuple[int, ...] = ()
    """On the stack: chosen target refs, in requirement order (601.2c)."""
    target_groups: tuple[int, ...] = ()
    """On the stack: how many targets each requirement took."""
    x: int = 0
    """On the stack: the value of X (107.3)."""
    trigger_subject: int = 0
    """For a triggered ability: the object its event was about (e.g. the creature blocked)."""
    delayed_effects: int = 0
    """For a delayed triggered ability on the stack: the id of its DelayedTrigger."""
    started_untapped: bool = False
    """On the battlefield: it was there and untapped when the current turn began."""
    exiled_by: int = 0
    """In exile: the id of the permanent whose ability exiled it, for "the exiled card" (607.2a)."""
    exiled_until: bool = False
    """In exile: it returns when ``exiled_by`` leaves the battlefield (610.3c)."""
    modes: tuple[int, ...] = ()
    """On the stack: the modes chosen for a modal spell, from 1 (700.2)."""
    divide: tuple[tuple[int, int], ...] = ()
    """On the stack: (target ref, amount) as the amount was divided when it was cast (601.2d)."""
    cast_costs: tuple[str, ...] = ()
    """The optional and alternative costs paid to cast it (601.2b), kept by the permanent it
    becomes (702.74a "if its evoke cost was paid", 702.109a dash)."""
    on_adventure: bool = False
    """In exile: it went there as its Adventure resolved; its owner may cast the creature (715.4)."""
    bestowed: bool = False
    """702.103b/e: cast bestowed; an Aura spell, then an Aura while attached to a creature."""
    is_copy: bool = False
    """707.10: a copy of a spell on the stack (not cast, owned and controlled by the player who
    put it there); 704.5e: in any other zone it ceases to exist; 608.3f: a copy of a permanent
    spell becomes a token as it enters the battlefield (``is_token`` then, not this)."""
    except_supertypes: tuple[str, ...] = ()
    """707.9b: supertypes the copy effect that made it says it lacks ("except the copy isn't
    legendary"), part of its copiable values; kept by the token a copied spell becomes."""
    card_copy: bool = False
    """707.12: a copy of a card, made in the card's zone to be cast; it ceases to exist in any
    zone but the stack and the battlefield (704.5e)."""
    cast_from: str = ""
    """On the stack: the zone the spell was cast from, when not a hand (601.2a; "whenever you
    cast a spell from your library"); empty for a hand or an object not cast."""
    loyalty_turn: int = 0
    """606.3: on the battlefield, the turn in which a loyalty ability of this permanent was last
    activated (one each turn); 0: none has been."""
    revealed: bool = False
    """708.9: as last known information, a face-down permanent or spell that left the
    battlefield or the stack (but for a spell entering the battlefield): its owner revealed it
    as it moved, so every player knows what it was."""
    merged: tuple[tuple[int, str, bool], ...] = ()
    """725.1: on the battlefield, a merged permanent's cards and tokens, top first, each as
    (card, definition name, is a token); the first is the object's own ``card`` and ``name``.
    725.3: in the zone a merged permanent went to, on the object its top card became, the same
    list: the cards that left with it, which an effect that finds "it" finds too. Empty for
    any other object (the usual case)."""
    protector: int = -1
    """310.8: on the battlefield, a battle's protector (a seat); -1: none designated (704.5w)."""
    sector: str = ""
    """704.5u: on the battlefield, the sector its controller assigned it (``alpha``, ``beta`` or
    ``gamma``, 702.158); empty for none. A designation, not a characteristic: a new object has
    none (400.7)."""
    looked_at_by: tuple[int, ...] = ()
    """400.2: the seats an effect let look at this hidden card where it is (Invasion of Gobakhan:
    an opponent's hand), who may see it there from then on; a new object starts unseen (400.7)."""

    def __init__(self, id: int, card: int, name: str, owner: int, controller: int, zone: str,
                 timestamp: int = 0, is_token: bool = False, tapped: bool = False, damage: int = 0,
                 deathtouch_damage: bool = False, counters: dict[str, int] = NO_COUNTERS,
                 sick: bool = False, attached_to: int = 0, face_down: bool = False,
                 ability_index: int = 0, ability_kind: str = "", source_id: int = 0,
                 targets: tuple[int, ...] = (), target_groups: tuple[int, ...] = (), x: int = 0,
                 trigger_subject: int = 0, delayed_effects: int = 0,
                 started_untapped: bool = False, exiled_by: int = 0, exiled_until: bool = False,
                 modes: tuple[int, ...] = (), divide: tuple[tuple[int, int], ...] = (),
                 cast_costs: tuple[str, ...] = (), on_adventure: bool = False,
                 bestowed: bool = False, is_copy: bool = False,
                 except_supertypes: tuple[str, ...] = (), card_copy: bool = False,
                 cast_from: str = "", loyalty_turn: int = 0, revealed: bool = False,
                 merged: tuple[tuple[int, str, bool], ...] = (), protector: int = -1,
                 sector: str = "", looked_at_by: tuple[int, ...] = ()) -> None:
        """Every field, in order, as the dataclass's own ``__init__`` would take it (a test checks
        that the two agree). Written out so that the compiled build makes it native code: the
        generated one stays interpreted there, and an object is made at every zone change.
        Interpreted, ``rare_fields`` puts its own in its place."""
        self.id = id
        self.card = card
        self.name = name
        self.owner = owner
        self.controller = controller
        self.zone = zone
        self.timestamp = timestamp
        self.is_token = is_token
        self.tapped = tapped
        self.damage = damage
        self.deathtouch_damage = deathtouch_damage
        self.counters = counters
        self.sick = sick
        self.attached_to = attached_to
        self.face_down = face_down
        self.ability_index = ability_index
        self.ability_kind = ability_kind
        self.source_id = source_id
        self.targets = targets
        self.target_groups = target_groups
        self.x = x
        self.trigger_subject = trigger_subject
        self.delayed_effects = delayed_effects
        self.started_untapped = started_untapped
        self.exiled_by = exiled_by
        self.exiled_until = exiled_until
        self.modes = modes
        self.divide = divide
        self.cast_costs = cast_costs
        self.on_adventure = on_adventure
        self.bestowed = bestowed
        self.is_copy = is_copy
        self.except_supertypes = except_supertypes
        self.card_copy = card_copy
        self.cast_from = cast_from
        self.loyalty_turn = loyalty_turn
        self.revealed = revealed
        self.merged = merged
        self.protector = protector
        self.sector = sector
        self.looked_at_by = looked_at_by

    def __reduce__(self) -> tuple[type[GameObject], tuple[Any, ...]]:
        """Copied (deep or not) and pickled through the constructor, every field in order: the
        compiled build's class can't be made without its fields (``__new__`` runs
        ``__init__``)."""
        return type(self), _OBJECT_FIELDS(self)

    def canonical(self) -> tuple[Any, ...]:
        """Every field as a tuple, in order, counters sorted."""
        # Written out, not read through the fields' names: the state hash reads every object,
        # and compiled, each field is then read natively (a test checks it against the fields).
        # How a spell was cast (``modes`` on) is left out while it has its defaults, so that a
        # game that never uses it hashes as it did before those fields existed.
        head = (self.id, self.card, self.name, self.owner, self.controller, self.zone,
                self.timestamp, self.is_token, self.tapped, self.damage, self.deathtouch_damage,
                tuple(sorted(self.counters.items())), self.sick, self.attached_to,
                self.face_down, self.ability_index, self.ability_kind, self.source_id,
                self.targets, self.target_groups, self.x, self.trigger_subject,
                self.delayed_effects, self.started_untapped, self.exiled_by, self.exiled_until)
        tail = self._cast_fields()
        return head if tail == _CAST_DEFAULTS else (*head, *tail)

    def _cast_fields(self) -> tuple[Any, ...]:
        """The fields from ``modes`` on (how a spell was cast), which the canonical form leaves
        out while all are at their defaults (``_CAST_DEFAULTS``)."""
        return (self.modes, self.divide, self.cast_costs, self.on_adventure, self.bestowed,
                self.is_copy, self.except_supertypes, self.card_copy, self.cast_from,
                self.loyalty_turn, self.revealed, self.merged, self.protector, self.sector,
                self.looked_at_by)

    def canonical_text(self) -> str:
        """``repr(self.canonical())``, written out field by field: the state hash reads every
        object, and compiled, putting the fields in a tuple and reading the tuple back as text
        cost several times this (a test checks the two agree for every field)."""
        tail = self._cast_fields()
        # The tail's items and the closing parenthesis, or the parenthesis alone.
        end = ")" if tail == _CAST_DEFAULTS else ", " + repr(tail)[1:]
        counters = self.counters
        return (f"({_int_text(self.id)}, {_int_text(self.card)}, {_str_text(self.name)}, "
                f"{_int_text(self.owner)}, {_int_text(self.controller)}, {_str_text(self.zone)}, "
                f"{_int_text(self.timestamp)}, {_bool_text(self.is_token)}, "
                f"{_bool_text(self.tapped)}, {_int_text(self.damage)}, "
                f"{_bool_text(self.deathtouch_damage)}, "
                f"{repr(tuple(sorted(counters.items()))) if counters else '()'}, "
                f"{_bool_text(self.sick)}, {_int_text(self.attached_to)}, "
                f"{_bool_text(self.face_down)}, {_int_text(self.ability_index)}, "
                f"{_str_text(self.ability_kind)}, {_int_text(self.source_id)}, "
                f"{_tuple_text(self.targets)}, {_tuple_text(self.target_groups)}, "
                f"{_int_text(self.x)}, {_int_text(self.trigger_subject)}, "
                f"{_int_text(self.delayed_effects)}, {_bool_text(self.started_untapped)}, "
                f"{_int_text(self.exiled_by)}, {_bool_text(self.exiled_until)}{end}")


# Final: compiled, a module's final names are read as native globals, not from its dictionary.
_INT_TEXTS: Final[tuple[str, ...]] = tuple(str(i) for i in range(4096))
"""The text of each int a game object's fields mostly hold (object ids start at 100)."""
_STR_TEXTS: Final[dict[str, str]] = {}
"""The ``repr`` of each string a game object's fields have held (names, zones, kinds: a few
hundred), kept."""


def _int_text(value: int) -> str:
    """``repr(value)`` (``canonical_text``): an int field holds an int (a bool is not one of its
    values)."""
    if 0 <= value < len(_INT_TEXTS):
        return _INT_TEXTS[value]
    return str(value)


def _str_text(value: str) -> str:
    """``repr(value)`` (``canonical_text``)."""
    text = _STR_TEXTS.get(value)
    if text is None:
        text = _STR_TEXTS[value] = repr(value)
    return text


def _bool_text(value: bool) -> str:
    """``repr(value)`` (``canonical_text``)."""
    return "True" if value else "False"


def _tuple_text(value: tuple[Any, ...]) -> str:
    """``repr(value)`` (``canonical_text``)."""
    return repr(value) if value else "()"


# Fields that almost every object leaves at their defaults, and that the hot paths rarely read
# (a few dozen times a decision at most): out of the slots, each object is 192 bytes smaller (a
# game keeps about 180 objects, its last known information included). Not ``started_untapped``:
# every untapped permanent is given it each turn, and a dictionary each would cost more than the
# slot. Compiled, ``GameObject`` stays the class it is declared as (``rare_fields`` would remake
# it as a Python class, whose every field the compiled code could then read only the slow way);
# it then has every field as an attribute, which costs each object those bytes.
if not is_compiled_class(GameObject):
    GameObject = rare_fields(  # type: ignore[misc]  # the same class, its rare fields out of its slots
        "ability_index", "ability_kind", "source_id", "targets", "target_groups", "x",
        "trigger_subject", "delayed_effects", "exiled_by", "exiled_until", "modes", "divide",
        "cast_costs", "on_adventure", "cast_from", "loyalty_turn", "revealed", "looked_at_by",
        "deathtouch_damage", "bestowed", "is_copy", "except_supertypes", "card_copy", "merged",
        "protector", "sector")(GameObject)


_OBJECT_FIELD_NAMES: Final = tuple(f.name for f in fields(GameObject))
_OBJECT_FIELDS: Final = attrgetter(*_OBJECT_FIELD_NAMES)
"""Every field of a ``GameObject``, in order, as one tuple."""
_CAST_DEFAULTS: Final = tuple(f.default for f in fields(GameObject)[_OBJECT_FIELD_NAMES.index("modes"):])
"""The defaults of the fields from ``modes`` on, which ``GameObject.canonical`` leaves out."""


@dataclass(slots=True)
class PlayerState:
    """A player (102) and the zones they own."""

    seat: int
    """Position in turn order, from 0."""
    name: str
    """Display name."""
    life: int = 20
    """Life total (119)."""
    poison: int = 0
    """Poison counters (122.1f)."""
    library: list[int] = field(default_factory=list)
    """Library object ids, top first."""
    hand: list[int] = field(default_factory=list)
    """Hand object ids."""
    graveyard: list[int] = field(default_factory=list)
    """Graveyard object ids, bottom first (404.2: order matters)."""
    mana: dict[str, int] = field(default_factory=dict)
    """Mana pool (106.4)."""
    lands_played: int = 0
    """Lands played this turn (305.2)."""
    drew_from_empty: bool = False
    """704.5b: attempted to draw from an empty library since the last check."""
    lost: bool = False
    """Has lost or left the game (104.3)."""
    loss_reason: str = ""
    """Why they lost."""
    won: bool = False
    """Has won the game."""
    command: list[int] = field(default_factory=list)
    """408: the object ids of what this player owns in the command zone: their dungeon (309.2)."""
    room: str = ""
    """309.4: the room of their dungeon their venture marker is on."""
    completed_dungeons: list[str] = field(default_factory=list)
    """309.7: the names of the dungeons this player has completed, in order."""

    def canonical(self) -> tuple[Any, ...]:
        """Every field as a tuple, the pool sorted (the dungeon's only once there is one, so that
        a state without one hashes as before dungeons existed)."""
        return tuple(
            tuple(sorted(getattr(self, f.name).items())) if f.name == "mana" else
            tuple(getattr(self, f.name)) if isinstance(getattr(self, f.name), list) else
            getattr(self, f.name)
            for f in fields(self)
            if f.name not in _DUNGEON_FIELDS or getattr(self, f.name)
        )


_DUNGEON_FIELDS: Final = frozenset({"command", "room", "completed_dungeons"})
"""``PlayerState``'s fields left out of its hash while empty."""


@dataclass(frozen=True, slots=True)
class ContinuousEffect(Record):
    """A continuous effect from a resolved spell or ability (611.2); see ``_characteristics``."""

    id: int
    """Effect id (unique in the game)."""
    timestamp: int
    """613.7b: when it was created."""
    verb: str
    """The layer primitive (``_characteristics.LAYER_VERBS``), which names its layer."""
    args: tuple[tuple[str, ArgValue], ...] = ()
    """The primitive's arguments, sorted by name."""
    affected: tuple[int, ...] = ()
    """611.2c: the object ids it applies to, locked when it began; a new object (400.7) is not one."""
    source: int = 0
    """The object id of its source (the spell, or the ability's source)."""
    source_name: str = ""
    """The source's name, for display."""
    controller: int = 0
    """Seat of the player whose spell or ability created it ("you")."""
    duration: str = "end_of_turn"
    """``end_of_turn`` (514.2), ``your_next_turn`` (611.2b), ``source_on_battlefield``,
    ``indefinite`` or ``end_of_your_next_turn``."""
    duration_seat: int = 0
    """For ``your_next_turn`` and ``end_of_your_next_turn``: whose next turn ends it."""

    def get(self, name: str, default: ArgValue | None = None) -> ArgValue | None:
        """The argument called ``name``, or ``default``."""
        for key, value in self.args:
            if key == name:
                return value
        return default


@dataclass(frozen=True, slots=True)
class Shield(Record):
    """A replacement or prevention effect a resolved spell or ability made, for this turn:
    a regeneration shield (701.15a) or "prevent the next N damage" (615.7)."""

    id: int
    """Its id, also its timestamp (613.7b)."""
    kind: str
    """``regenerate`` or ``prevent``."""
    affected: int
    """The object id (or player ref, for prevention) it protects."""
    amount: int = 1
    """For ``prevent``: how much damage it will still prevent."""
    source_name: str = ""
    """The name of the spell or ability's source, for choices and the log."""


@dataclass(frozen=True, slots=True)
class PendingTrigger(Record):
    """A triggered ability that triggered and waits to be put on the stack (603.3)."""

    controller: int
    """Seat of the player who controls it (603.3a)."""
    source_id: int
    """The source object's id (as it was when it triggered)."""
    source_name: str
    """The source's name, for display and scenario answers."""
    position: int
    """The ability's place among the source's printed abilities."""
    subject: int = 0
    """The object the trigger event was about."""
    delayed: int = 0
    """For a delayed trigger: its DelayedTrigger id; 0 otherwise."""


@dataclass(frozen=True, slots=True)
class DelayedTrigger(Record):
    """A delayed triggered ability created by a resolving spell or ability (603.7)."""

    id: int
    """Its id."""
    controller: int
    """Seat of its controller (603.7d)."""
    source_id: int
    """The object that created it."""
    source_name: str
    """That object's name."""
    position: int
    """The creating ability's position on its source."""
    event: str
    """The step whose beginning triggers it, e.g. ``end_of_combat``."""
    effects_key: tuple[str, int, int]
    """(definition name, ability position, effect index) of the verb that created it; its effects live there."""
    subject: int = 0
    """The object "that creature" refers to."""
    fired: bool = False
    """Whether it has triggered; it is dropped when its ability leaves the stack."""


@dataclass(slots=True)
class CombatState:
    """Who attacks whom and who blocks whom (506-511)."""

    attackers: dict[int, int] = field(default_factory=dict)
    """Attacking creature id -> defending player ref (or planeswalker id)."""
    blockers: dict[int, list[int]] = field(default_factory=dict)
    """Blocking creature id -> attackers it blocks."""
    blocked: dict[int, list[int]] = field(default_factory=dict)
    """Attacking creature id -> its blockers (509.1h: blocked even if they leave)."""
    first_strike_dealt: list[int] = field(default_factory=list)
    """Creatures that dealt first-strike combat damage (510.4)."""
    attackers_declared: bool = False
    """508.8: creatures were declared as attackers this combat (even if all have left since)."""

    def __init__(self, attackers: dict[int, int] | None = None,
                 blockers: dict[int, list[int]] | None = None,
                 blocked: dict[int, list[int]] | None = None,
                 first_strike_dealt: list[int] | None = None,
                 attackers_declared: bool = False) -> None:
        # Written out (``dataclass`` leaves a class's own ``__init__``): compiled, it is native,
        # where the one ``dataclasses`` writes stays interpreted; one a combat. None: a new one.
        self.attackers = {} if attackers is None else attackers
        self.blockers = {} if blockers is None else blockers
        self.blocked = {} if blocked is None else blocked
        self.first_strike_dealt = [] if first_strike_dealt is None else first_strike_dealt
        self.attackers_declared = attackers_declared

    def canonical(self) -> tuple[Any, ...]:
        """A hashable, ordered form."""
        return (
            tuple(sorted(self.attackers.items())),
            tuple(sorted((k, tuple(v)) for k, v in self.blockers.items())),
            tuple(sorted((k, tuple(v)) for k, v in self.blocked.items())),
            tuple(self.first_strike_dealt),
            self.attackers_declared,
        )


@dataclass(slots=True)
class SBAChanges:
    """704.3: what changed since the last state-based action check that a state-based action
    reads, so that the next check looks only there (``_sba.state_based_actions``) and is skipped
    when nothing did. Bookkeeping about how the state was reached, not part of it (not hashed);
    a deep copy of the state carries it.

    After a check that performed nothing, no state-based action applies; each change that could
    make one apply is marked by the primitive making it: ``lose_life`` and poison (704.5a/c),
    drawing from an empty library (704.5b), damage to a creature (704.5g/h), a token going to
    a zone other than the battlefield (704.5d), a copy of a spell leaving the stack (704.5e),
    and ``Game.changed()`` (every battlefield entry or departure, continuous effect, attachment
    or counter change: any permanent's characteristics, 704.5f-r, y). Gaining life, tapping,
    mana, priority passes, triggers and moves of cards between the other zones make none.
    """

    everything: bool = True
    """Anything may have changed (a new or hand-built state, a player who lost or left, a check
    that performed actions, an ability that resolved): check every player, object and
    permanent."""
    due: bool = False
    """A check is due whatever was marked: after a spell resolved (the design skips the round
    trip only when nothing happened since the last check). It looks at what was marked, as any
    check does: what the resolution changed that a state-based action reads."""
    board: bool = False
    """Any permanent's characteristics may have changed (``Game.changed()``): check every
    permanent, with the legend, world and attachment rules (704.5f-r, y)."""
    players: set[int] = field(default_factory=set)
    """Seats that lost life, got poison counters or drew from an empty library (704.5a-c)."""
    objects: set[int] = field(default_factory=set)
    """Permanents dealt damage (704.5g, 704.5h)."""
    tokens: set[int] = field(default_factory=set)
    """Tokens put into a zone other than the battlefield (704.5d), and copies of spells put
    into a zone other than the stack (704.5e)."""

    def __init__(self, everything: bool = True, due: bool = False, board: bool = False,
                 players: set[int] | None = None, objects: set[int] | None = None,
                 tokens: set[int] | None = None) -> None:
        # Written out (``dataclass`` leaves a class's own ``__init__``): compiled, it is native,
        # where the one ``dataclasses`` writes stays interpreted; one a check. None: a new set.
        self.everything = everything
        self.due = due
        self.board = board
        self.players = set() if players is None else players
        self.objects = set() if objects is None else objects
        self.tokens = set() if tokens is None else tokens

    def __bool__(self) -> bool:
        """Whether anything changed: a check is due."""
        return (self.everything or self.due or self.board
                or bool(self.players or self.objects or self.tokens))

    def mark_all(self) -> None:
        """Anything may have changed: the next check looks at everything."""
        self.everything = True


@dataclass(frozen=True, slots=True)
class StartSettings(Record):
    """103: how a game of a match starts, for games that start the tournament way (``new_game``'s
    ``start``): a chosen starting player and London mulligans."""

    chooser: int | None = None
    """103.1: the seat that chooses who takes the first turn (a match's later games: the previous
    game's loser, or after a draw the previous chooser); None: chosen at random by the game's
    generator (a match's first game)."""
    mulligans: bool = True
    """103.5: each player may take London mulligans (decisions); False: everyone keeps seven."""
    starting: int | None = None
    """The seat that takes the first turn, fixed before the game (a game pair's play and draw,
    as colours are in chess): nobody chooses (no 103.1 decision, and ``chooser`` is ignored);
    None: the chooser chooses."""
    library_seeds: tuple[int, ...] = ()
    """103.3 with a seed per seat: each seat's library is shuffled by a generator of its own
    from its seed, so that a deck gets the same order whatever seat it is in (a game pair);
    empty: every library by the game's generator, seat by seat."""


@dataclass(slots=True)
class StartProgress:
    """103: where the start of a game that starts the tournament way stands, and how it went."""

    chooser: int
    """103.1: the seat that chooses (or chose) who takes the first turn."""
    mulligans: list[int]
    """103.5: mulligans taken so far, by seat."""
    starting: int = -1
    """The starting player's seat, once chosen; -1 before."""
    kept: list[bool] = field(default_factory=list)
    """103.5: by seat, whether the player has kept their hand (no further mulligans)."""
    allow_mulligans: bool = True
    """Whether players may take mulligans (``StartSettings.mulligans``)."""
    done: bool = False
    """The start is over: the starting player's first turn has begun (103.7)."""

    def canonical(self) -> tuple[Any, ...]:
        """Every field, lists as tuples."""
        return (self.chooser, tuple(self.mulligans), self.starting, tuple(self.kept),
                self.allow_mulligans, self.done)


@dataclass(slots=True)
class GameState:
    """Everything about one game, and nothing else: no suspended computation, no I/O."""

    players: list[PlayerState]
    """Players in turn order."""
    rng: GameRandom
    """The game's only source of randomness."""
    objects: dict[int, GameObject] = field(default_factory=dict)
    """Every object currently in a zone, by id."""
    lki: dict[int, GameObject] = field(default_factory=dict)
    """Last known information (608.2h, 603.10): objects as they last existed before leaving a
    zone, except a library (nobody saw them there: no rule or player can name them)."""
    lki_characteristics: dict[int, Characteristics] = field(default_factory=dict)
    """603.10/608.2h: permanents' characteristics as they last existed on the battlefield."""
    battlefield: list[int] = field(default_factory=list)
    """Permanents, in the order they entered."""
    stack: list[int] = field(default_factory=list)
    """The stack, bottom first (405)."""
    exile: list[int] = field(default_factory=list)
    """The exile zone."""
    turn: int = 1
    """Turn number."""
    active: int = 0
    """The active player's seat."""
    step: str = "precombat_main"
    """The current step (500.1)."""
    priority: int = 0
    """Seat holding priority, or -1 when nobody does."""
    passes: int = 0
    """Players who passed in succession (117.4)."""
    next_id: int = FIRST_OBJECT_ID
    """The next object id to hand out."""
    next_timestamp: int = 1
    """The next timestamp (613.7)."""
    effects: list[ContinuousEffect] = field(default_factory=list)
    """Continuous effects from resolved spells and abilities."""
    shields: list[Shield] = field(default_factory=list)
    """Regeneration and prevention shields; all end in the cleanup step (514.2)."""
    pending_triggers: list[PendingTrigger] = field(default_factory=list)
    """Triggered abilities waiting to be put on the stack (603.3)."""
    delayed_triggers: list[DelayedTrigger] = field(default_factory=list)
    """Delayed triggered abilities waiting for their event (603.7)."""
    leaving_together: list[int] | None = None
    """603.10a: while one event moves several permanents at once (704.3's state-based actions,
    "destroy all"), the ids of those already gone from the battlefield; None outside one."""
    combat: CombatState | None = None
    """Combat information during the combat phase."""
    cycle: str = "check"
    """Where the priority cycle stands: ``check`` (SBAs and triggers before priority, 117.5),
    ``priority``, ``resolve``, ``advance`` (to the next step) or ``end_turn``."""
    cleanup_acted: bool = False
    """514.3a: state-based actions or triggers happened in this cleanup step."""
    game_over: bool = False
    """Whether the game has ended (104)."""
    winner: int = -1
    """The winner's seat, -1 for none (a draw or not over)."""
    end_reason: str = ""
    """Why the game ended."""
    resolutions: int = 0
    """How many objects have resolved or left the stack so far (used to count ``resolve = N``)."""
    sba: SBAChanges = field(default_factory=SBAChanges)
    """704.3: what changed since the last state-based action check (not hashed)."""
    turn_limit: int = 0
    """If not 0: the game is a draw when this turn ends (the tournament convention of a time
    limit, made deterministic so bot games always end)."""
    skip_first_draw: bool = True
    """103.8a: in a two-player game the starting player skips the draw step of their first turn
    (turn 1); in a game of three or more they draw (103.8c), whatever this says."""
    decisions: dict[int, int] = field(default_factory=dict)
    """Decisions numbered so far for each seat, by seat (a seat not yet asked is absent): a
    decision's id counts only the decisions of the player it asks (``new_decision_id``), so
    that the ids a seat receives tell it nothing of what the other players could do (400.2).
    Not hashed: how the questions were numbered is no part of where the game stands."""
    log: list[tuple[str, int, int, str]] = field(default_factory=list)
    """Public events not yet collected by the caller: (kind, subject, amount, text)."""
    seed: int | None = None
    """The seed ``new_game`` started the game from, to reproduce it (a failed game's report
    names it); None for a state built another way (a scenario's setup)."""
    attacked_this_turn: tuple[int, tuple[int, ...]] = (0, ())
    """(turn, the creatures declared as attackers in it, 508.1): "each creature that attacked
    this turn" reads them while the turn is that turn."""
    start: StartProgress | None = None
    """103: for a game that starts the tournament way (a chosen starting player, mulligans), how
    that start stands; None for a game that starts with seat 0 and seven-card hands kept."""

    @property
    def dirty(self) -> bool:
        """Whether a state-based action check is due (``sba`` is not empty)."""
        return bool(self.sba)

    @dirty.setter
    def dirty(self, value: bool) -> None:
        """True: anything may have changed, the next check looks at everything (for states
        changed from outside the kernel); False: forget what changed."""
        if value:
            self.sba.mark_all()
        else:
            self.sba = SBAChanges(everything=False)

    # ------------------------------------------------------------------ access

    def player(self, seat: int) -> PlayerState:
        """The player in ``seat``."""
        return self.players[seat]

    def obj(self, object_id: int) -> GameObject:
        """The object with this id; KeyError if it is in no zone."""
        return self.objects[object_id]

    def new_id(self) -> int:
        """A fresh object id."""
        oid = self.next_id
        self.next_id += 1
        return oid

    def new_decision_id(self, seat: int) -> int:
        """The id of a new decision for ``seat``: one more than the last numbered for that seat,
        from 1 (``decisions``)."""
        n = self.decisions.get(seat, 0) + 1
        self.decisions[seat] = n
        return n

    def new_timestamp(self) -> int:
        """A fresh timestamp."""
        ts = self.next_timestamp
        self.next_timestamp += 1
        return ts

    def living_seats(self) -> list[int]:
        """Seats of players still in the game, in turn order."""
        return [p.seat for p in self.players if not p.lost]

    def apnap(self) -> list[int]:
        """101.4: the active player, then the others in turn order, among those still in the game."""
        n = len(self.players)
        order = [(self.active + i) % n for i in range(n)]
        return [s for s in order if not self.players[s].lost]

    def active_or_next(self) -> int:
        """117.3b/800.4j: who receives priority when the active player would: the active player,
        or, once they have left the game, the next player in turn order still in it."""
        return self.active if not self.players[self.active].lost else self.next_seat(self.active)

    def next_seat(self, seat: int) -> int:
        """The next player in turn order still in the game."""
        n = len(self.players)
        for i in range(1, n + 1):
            s = (seat + i) % n
            if not self.players[s].lost:
                return s
        return seat

    def zone_list(self, zone: str, owner: int) -> list[int]:
        """The id list of a zone (the owner's, for hidden and graveyard zones)."""
        if zone == "battlefield":
            return self.battlefield
        if zone == "stack":
            return self.stack
        if zone == "exile":
            return self.exile
        p = self.players[owner]
        if zone == "library":
            return p.library
        if zone == "hand":
            return p.hand
        if zone == "graveyard":
            return p.graveyard
        if zone == "command":
            return p.command
        raise ValueError(f"unknown zone {zone!r}")

    # ------------------------------------------------------------------ hashing

    def canonical(self) -> tuple[Any, ...]:
        """The whole state as nested tuples of primitives, in a fixed order."""
        # ``seed`` is left out: it is where the game came from, not where it stands. All it
        # decided (the generator's state, the libraries' order) is here already, so two states
        # equal but for the seed play on identically, and a scenario's state (no seed) hashes
        # like the same position reached from new_game. (Leaving it out also keeps every hash
        # as it was; none is recorded in tests or docs, so that was not the reason.)
        return self._canonical(tuple(o.canonical() for _, o in sorted(self.objects.items())))

    def _canonical(self, objects: object) -> tuple[Any, ...]:
        """``canonical``, with ``objects`` in the objects' place."""
        return (
            tuple(p.canonical() for p in self.players),
            self.rng.state,
            objects,
            tuple(sorted(self.lki_characteristics.items())),
            tuple(self.battlefield),
            tuple(self.stack),
            tuple(self.exile),
            self.turn,
            self.active,
            self.step,
            self.priority,
            self.passes,
            self.next_id,
            self.next_timestamp,
            tuple(self.effects),
            tuple(self.shields),
            tuple(self.pending_triggers),
            tuple(self.delayed_triggers),
            self.combat.canonical() if self.combat else None,
            self.cycle,
            self.cleanup_acted,
            self.turn_limit,
            self.skip_first_draw,
            self.game_over,
            self.winner,
            self.end_reason,
            # Only a game that starts the tournament way has one: every other state hashes as
            # it did before games could start that way.
            *((self.start.canonical(),) if self.start is not None else ()),
            # Only a game in which a creature attacked has one (hashes stay as they were).
            *((self.attacked_this_turn,) if self.attacked_this_turn[1] else ()),
        )

    def canonical_text(self) -> str:
        """``repr(self.canonical())``, the objects' part written out (``GameObject.canonical_text``)."""
        objects = [o.canonical_text() for _, o in sorted(self.objects.items())]
        if len(objects) == 1:
            text = f"({objects[0]},)"  # as a tuple of one item reads
        else:
            text = f"({', '.join(objects)})"
        return repr(self._canonical(_Text(text)))

    def state_hash(self) -> str:
        """A canonical hash of the state: equal states, equal hashes."""
        return hashlib.blake2b(self.canonical_text().encode(), digest_size=16).hexdigest()


class _Text:
    """Text already written, which ``repr`` gives as it is (``GameState.canonical_text``)."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text
        """The text."""

    def __repr__(self) -> str:
        return self.text
