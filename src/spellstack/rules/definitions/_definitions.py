"""Card definitions: the printed characteristics and abilities of a card, as data.

The cards package loads these from hand-written data files; the kernel only
reads them. Abilities are lists of effects, each an instance of a verb class
from the closed registry ``EFFECT_VERBS`` (the effects package). The definitions hold only
values: they are ``Record``s (a copy is the definition itself, a pickle goes through the
constructor).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Annotated, Any, Final, Literal

from ..base import AtLeast, Record, Words
from ..mana import ManaCost
from ..registry import COST_OPTIONS, CostOptionRule
from ._bases import Condition, Effect

ArgValue = int | str | bool | tuple[str, ...] | tuple[int, ...]
"""The value of a layer primitive's argument (``LayerEffect``, and the continuous effects made
with one)."""


@dataclass(frozen=True, slots=True)
class LayerEffect(Record):
    """One effect of a static ability: a layer primitive (613) and its arguments."""

    verb: str
    """The primitive, from ``LAYER_VERBS`` (the layers package), which names its layer."""
    args: tuple[tuple[str, ArgValue], ...] = ()
    """Its arguments, sorted by name."""


ANY_NUMBER: Final = 1 << 10
"""``TargetSpec.max`` for "any number of targets" (115.1d): more than any game has objects."""


@dataclass(frozen=True, slots=True)
class TargetSpec(Record):
    """One target requirement of an ability (115, 601.2c)."""

    kind: str
    """What may be targeted, from the registry in ``_targets`` (``any``, ``creature``, ``player``, ``spell`` ...)."""
    min: Annotated[int, AtLeast(0)] = 1
    """Fewest targets to choose for this requirement ("up to" gives 0)."""
    max: Annotated[int, Words(any=ANY_NUMBER), AtLeast(1)] = 1
    """Most targets to choose for this requirement (a card file may write ``"any"``, 115.1d)."""
    not_colors: tuple[Literal["W", "U", "B", "R", "G"], ...] = ()
    """Colours a target must not have ("nonblack")."""
    controller: Literal["", "you", "opponent"] = ""
    """``you`` or ``opponent`` when the text restricts the controller; empty otherwise."""
    another: bool = False
    """"another target ...": the source itself is not a legal choice."""
    per_opponent: bool = False
    """601.2c: "for each opponent, ... target [object] that player controls": one target per
    opponent (each controlled by a different opponent); ``min``/``max`` are set as it is cast."""
    min_power: Annotated[int, AtLeast(0)] = 0
    """"with power N or greater": the least power a target may have (0: any)."""
    owner: Literal["", "you"] = ""
    """``you`` when the text restricts the owner ("target non-Human creature you own",
    702.140a); empty otherwise."""


@dataclass(frozen=True, slots=True)
class SpellMode(Record):
    """One mode of a modal spell (700.2): its own targets and instructions."""

    text: str
    """The mode's Oracle text, after its bullet."""
    targets: tuple[TargetSpec, ...] = ()
    """Its target requirements, in the order it names them."""
    effects: tuple[Effect, ...] = ()
    """What it does."""


@dataclass(frozen=True, slots=True)
class SpellAbility(Record):
    """The spell ability of an instant or sorcery (113.3a)."""

    targets: tuple[TargetSpec, ...] = ()
    """Target requirements in the order the text names them."""
    effects: tuple[Effect, ...] = ()
    """What the spell does, in printed order."""
    modes: tuple[SpellMode, ...] = ()
    """700.2: the modes of a modal spell ("Choose one —"), in printed order; empty otherwise.
    A modal spell's targets and effects are those of the modes chosen, in printed order."""
    mode_count: int = 0
    """How many modes are chosen (700.2a); 0 for a spell that is not modal."""
    divide: str = ""
    """601.2d: the amount divided among the targets as it is cast (a number, or ``X``); empty
    if it divides nothing."""
    divide_doubled_from: int = 0
    """"If X is N or more, ... deals twice X damage divided ... instead": the N (0: never)."""


COST_OPTIONS.register("flash", CostOptionRule(
    "additional", "hand", "601.3c", "a card's own \"you may cast this spell as though it had flash "
    "if you pay [cost] more\""))
# The mechanics' cost options (kicker, flashback ...) are registered by their modules
# (``rules/mechanics``); this one is a card's own words, no mechanic.


@dataclass(frozen=True, slots=True)
class CostOption(Record):
    """An optional additional cost or an alternative cost a spell may be cast with (601.2b,
    118.8, 118.9), as its keyword or the card's own words name it."""

    name: str
    """Its name, from ``COST_OPTIONS`` (``kicker``, ``flashback``, ``evoke``, ``bestow``,
    ``dash``, ``flash``)."""
    kind: str
    """``additional`` (paid on top of the mana cost, 118.8) or ``alternative`` (paid instead of
    it, 118.9)."""
    mana_cost: ManaCost
    """The mana it adds, or the mana paid instead of the mana cost."""
    zone: str = "hand"
    """The zone it lets the card be cast from (flashback: the graveyard, 702.34a)."""
    text: str = ""
    """The Oracle words it implements."""
    face_up_cost: ManaCost | None = None
    """702.37e: for ``morph``, the morph cost paid to turn the face-down permanent face up
    (``mana_cost`` is then the {3} paid to cast it face down, 702.37c); None otherwise."""


@dataclass(frozen=True, slots=True)
class ActivatedAbility(Record):
    """An activated ability, ``[Cost]: [Effect]`` (602); mana abilities included (605)."""

    mana_cost: ManaCost
    """The mana part of the cost."""
    tap: bool
    """Whether {T} is part of the cost."""
    targets: tuple[TargetSpec, ...] = ()
    """Target requirements."""
    effects: tuple[Effect, ...] = ()
    """What the ability does."""
    is_mana_ability: bool = False
    """605.1a: no target, could add mana, not a loyalty ability; resolves at once."""
    sorcery_speed: bool = False
    """Activate only as a sorcery."""
    position: int = 1
    """The ability's place among the card's printed abilities, from 1."""
    remove_counters: tuple[tuple[str, int], ...] = ()
    """118.3/602.2b: counters removed from the source as part of the cost (kind, how many)."""
    sacrifice: bool = False
    """701.17a/602.2b: sacrificing the source ("Sacrifice this artifact") is part of the cost."""
    loyalty: int | None = None
    """606.4: for a loyalty ability, its loyalty cost (+N: put N loyalty counters on the source,
    -N: remove N, 0: none); None for any other ability."""
    mana_produces: tuple[str, ...] | None = field(init=False, default=None, compare=False,
                                                  repr=False)
    """For a mana ability (605.1a), whatever its cost: the mana types it can add, one of them
    per activation ("one mana of any color": W U B R G, chosen as it is activated, 605.3a)
    (derived, for paying with it, 601.2g); None otherwise."""
    tap_mana: tuple[str, ...] | None = field(init=False, default=None, compare=False,
                                             repr=False)
    """For a mana ability whose whole cost is {T}: the mana types it adds (derived, for the
    payment search); None otherwise."""

    def __post_init__(self) -> None:
        if not self.is_mana_ability:
            return
        produces: list[str] = []
        for e in self.effects:
            produces.extend(c for c in e.adds_mana() if c not in produces)
        object.__setattr__(self, "mana_produces", tuple(produces))
        if self.tap and not self.mana_cost.symbols and not self.remove_counters and not self.sacrifice:
            object.__setattr__(self, "tap_mana", tuple(produces))


@dataclass(frozen=True, slots=True)
class TriggeredAbility(Record):
    """A triggered ability (603): a trigger event, an optional intervening "if" and effects."""

    event: str
    """The trigger event, from the registry in ``_triggers`` (``enters``, ``dies``, ``blocks`` ...)."""
    step: str = ""
    """For ``beginning_of_step``: the step or phase whose beginning triggers it."""
    whose: str = "you"
    """For step triggers: ``you`` (your upkeep) or ``each`` (each upkeep)."""
    condition: Condition | None = None
    """603.4 intervening "if": checked when it triggers and again on resolution."""
    targets: tuple[TargetSpec, ...] = ()
    """Target requirements, chosen as it is put on the stack (603.3d)."""
    effects: tuple[Effect, ...] = ()
    """What the ability does."""
    position: int = 1
    """The ability's place among the card's printed abilities, from 1."""
    spell_types: tuple[str, ...] = ()
    """For ``you_cast_spell``: the spell must have one of these card types ("an instant or
    sorcery spell"); empty: any spell."""
    from_zone: str = ""
    """For ``you_cast_spell``: the zone the spell must have been cast from ("from your
    library"); empty: any."""


@dataclass(frozen=True, slots=True)
class Restriction(Record):
    """A static ability that says what can't happen (101.2): a kind from the closed registry in
    ``_restrictions`` and whom or what it restricts."""

    kind: str
    """``cant_cast``, ``cant_attack``, ``cant_block``, ``cant_attack_or_block``,
    ``cant_play_lands`` or ``cant_enter``."""
    players: str = "each"
    """Whose actions it restricts: ``you``, ``opponents`` or ``each`` (relative to its controller)."""
    objects: str = ""
    """Which permanents or cards: ``enchanted``, ``equipped``, ``self``, or empty for every one
    the filter admits."""
    filter: str = "any"
    """Which spells, creatures or cards, from the registry of filters (``even_mana_value`` ...)."""
    text: str = ""
    """The Oracle sentence it implements, for refusals."""
    position: int = 1
    """The ability's place among the card's printed abilities, from 1."""


@dataclass(frozen=True, slots=True)
class Permission(Record):
    """A static ability that says what may happen (a "can" that a "can't" beats, 101.2)."""

    kind: str
    """``cast_as_though_flash`` or ``cast_from``, from the registry in ``_restrictions``."""
    players: str = "you"
    """Who may: ``you``, ``opponents`` or ``each``."""
    filter: str = "any"
    """Which spells, from the registry of filters."""
    zone: str = ""
    """For ``cast_from``, ``play_lands_from`` and ``grant_cost``: the zone it is about."""
    text: str = ""
    """The Oracle sentence it implements."""
    position: int = 1
    """The ability's place among the card's printed abilities, from 1."""
    cost: str = ""
    """For ``grant_cost``: the cost option the cards there have (``flashback``, ``jump-start``,
    from ``COST_OPTIONS``)."""
    face_down: bool = False
    """For ``cast_from`` exile: "from among cards in exile face down", whoever owns them; 601.3f:
    only one the player may look at can be cast."""


@dataclass(frozen=True, slots=True)
class StaticAbility(Record):
    """A static ability (604): continuous effects on the objects its ``affected`` word names (611.3)."""

    affected: str
    """Which objects, a word from ``_characteristics.AFFECTED`` (evaluated continuously, 611.3a)."""
    effects: tuple[LayerEffect, ...]
    """Its effects, each a layer primitive from ``_characteristics.LAYER_VERBS``."""
    position: int = 1
    """The ability's place among the card's printed abilities, from 1."""
    color: str = ""
    """A colour word further restricting ``affected`` ("white creatures"); text changes apply."""

    @property
    def is_cda(self) -> bool:
        """604.3: a characteristic-defining ability (it functions in every zone)."""
        return any(e.verb == "set_base_pt_cda" for e in self.effects)


@dataclass(frozen=True, slots=True)
class ReplacementAbility(Record):
    """A static ability that makes a replacement effect (614.1, 614.12); see ``_replacement``."""

    event: str
    """What it watches, from ``_replacement.REPLACEMENT_EVENTS``: ``enters`` (this permanent
    entering), ``to_graveyard`` (a card would be put into a graveyard) or ``lose_game`` (you would
    lose)."""
    applies_to: str = "self"
    """For ``to_graveyard``: ``self`` (this card, from any zone) or ``any`` (any card, while
    this permanent is on the battlefield)."""
    counters: tuple[tuple[str, int], ...] = ()
    """For ``enters``: it enters with these counters (614.1c)."""
    tapped: bool = False
    """For ``enters``: it enters tapped (614.1c)."""
    unless_pay_life: int = 0
    """For ``enters``: "you may pay N life. If you don't, [it enters tapped]": the choice is
    made as it enters (614.12), and the replacement applies unless N life is paid (119.4)."""
    zone: str = ""
    """For ``to_graveyard``: the zone it goes to instead (``library``: shuffled in; ``exile``)."""
    effects: tuple[Effect, ...] = ()
    """For ``lose_game``: what happens instead (614.1a)."""
    position: int = 1
    """The ability's place among the card's printed abilities."""
    text: str = ""
    """The Oracle sentence it implements, for choices (616.1)."""
    choose_protector: bool = False
    """For ``enters``: "as a Siege enters, choose an opponent to protect it": the player it
    enters under chooses its protector among their opponents as it enters (310.11a, 614.12)."""


@dataclass(frozen=True, slots=True)
class CardDefinition(Record):
    """A card's printed characteristics (109.3) and abilities."""

    name: str
    """The card name."""
    mana_cost: ManaCost | None
    """The mana cost; None for lands and cards with no mana symbols (202.1a)."""
    supertypes: tuple[str, ...]
    """Supertypes (205.4): Basic, Legendary, World ..."""
    card_types: tuple[str, ...]
    """Card types (205.2): Creature, Land, Instant ..."""
    subtypes: tuple[str, ...]
    """Subtypes (205.3)."""
    colors: tuple[str, ...]
    """Colours (105.2), from the cost unless the card says otherwise."""
    power: int | None = None
    """Printed power."""
    toughness: int | None = None
    """Printed toughness."""
    loyalty: int | None = None
    """Printed loyalty."""
    text: str = ""
    """The Oracle text, verbatim."""
    keywords: tuple[str, ...] = ()
    """Keyword abilities (702), lower case."""
    spell: SpellAbility | None = None
    """The spell ability of an instant or sorcery."""
    activated: tuple[ActivatedAbility, ...] = ()
    """Activated abilities, in printed order."""
    triggered: tuple[TriggeredAbility, ...] = ()
    """Triggered abilities, in printed order."""
    static: tuple[StaticAbility, ...] = ()
    """Static abilities (604), in printed order."""
    enters_as_copy: str = ""
    """614.1c/707.2: "you may have it enter as a copy of any [word] on the battlefield": the
    ``_characteristics.AFFECTED`` word naming what it may copy; empty if it has no such ability."""
    is_token: bool = False
    """A token definition rather than a card."""
    flash_if: Condition | None = None
    """601.3d: "this spell has flash as long as [condition]": the condition (a ``CONDITIONS``
    test) under which it has flash; None if it has no such ability."""
    test_only: bool = False
    """A card made for the tests of a rule no pool card exercises: scenarios and tests may use
    it, a deck never holds it."""
    cast_zones: tuple[str, ...] = ()
    """601.3, 113.6b: zones other than a hand its own text lets its owner cast it from ("You may
    cast Squee, the Immortal from your graveyard or from exile"); that ability functions there."""
    enchant: str = ""
    """702.5: for an Aura, what it can enchant (a target kind); empty otherwise."""
    restrictions: tuple[Restriction, ...] = ()
    """Static "can't" abilities (101.2), in printed order."""
    permissions: tuple[Permission, ...] = ()
    """Static "may" abilities (101.2), in printed order."""
    replacements: tuple[ReplacementAbility, ...] = ()
    """Static abilities that make replacement effects (614), in printed order."""
    counter_limits: tuple[tuple[str, int, int], ...] = ()
    """704.5r: "can't have more than N counters of a kind on it" (kind, N, the static ability's
    position)."""
    layout: str = "normal"
    """``normal``, ``split`` (709), ``adventure`` (715) or ``mdfc`` (modal double-faced, 712)."""
    faces: tuple[str, ...] = ()
    """For the whole card of another layout: the names of its faces, halves or Adventure, in
    printed order (each is a definition of its own)."""
    card_name: str = ""
    """For a face, half or Adventure: the name of the whole card, which it has in every zone
    but the stack and the battlefield (709.4, 712.8a, 715.4); empty for a one-face card."""
    cost_options: tuple[CostOption, ...] = ()
    """Optional additional and alternative costs it may be cast with (601.2b), printed order."""
    mechanic_keys: tuple[tuple[str, Any], ...] = ()
    """The values of the card keys mechanics register (``CARD_KEYS`` entries naming a mechanic)
    it has, by key, in registry order (``hourglass = 3``: ``(("hourglass", 3),)``)."""
    source: str = field(default="", compare=False)
    """The data file it came from."""

    @property
    def is_permanent_card(self) -> bool:
        """110.4a: artifact, battle, creature, enchantment, land, planeswalker cards become permanents."""
        return not ({"Instant", "Sorcery"} & set(self.card_types))

    def cost_option(self, name: str) -> CostOption | None:
        """The cost option called ``name``, or None."""
        for option in self.cost_options:
            if option.name == name:
                return option
        return None

    def mechanic_key(self, name: str) -> Any:
        """The value of the mechanic's card key ``name`` it has, or None."""
        for key, value in self.mechanic_keys:
            if key == name:
                return value
        return None

    def has_type(self, card_type: str) -> bool:
        """Whether ``card_type`` is among the printed card types."""
        return card_type in self.card_types

    def __repr__(self) -> str:
        return f"CardDefinition({self.name!r})"


FACE_DOWN: Final = CardDefinition("", None, (), ("Creature",), (), (), 2, 2)
"""708.2a: what a face-down permanent or spell is, as a definition: a 2/2 creature with no name,
text, subtypes, mana cost or abilities. Its characteristics name no definition (``""``): a
lookup of their definition finds this one (``definition_named``)."""


def definition_named(cards: Mapping[str, CardDefinition], name: str) -> CardDefinition:
    """The definition called ``name``, or ``FACE_DOWN`` for the face-down characteristics'
    empty name (708.2a)."""
    return cards[name] if name else FACE_DOWN
