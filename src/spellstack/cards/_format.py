"""The card file format: each table of a card data file as a typed dataclass, read by the schema
engine (``spellstack.schema``), which refuses a key that is not a field and a value of the wrong
type, naming the field. What a type can't say (a mana cost's syntax, a word from one of the
kernel's closed registries) is a check attached to the field's type. What depends on other
fields (a quote from the card's Oracle text, a target word the ability has a target for) is
checked as the loader builds the card from these tables.

Effects stay tables here (``EffectTable``): their verbs read their own arguments.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator
from dataclasses import dataclass, replace
from typing import Annotated, Any, Literal

from ..rules import (
    COST_OPTIONS,
    PERMISSION_KINDS,
    RESTRICTION_FILTERS,
    RESTRICTION_KINDS,
    RESTRICTION_OBJECTS,
    RESTRICTION_PLAYERS,
    STEPS,
    TARGET_KINDS,
    TRIGGER_EVENTS,
    ManaCost,
    TargetSpec,
    parse_mana_cost,
)
from ..rules.base import CARD_TYPES, COLOR_BY_WORD, REDIRECT_ZONES, SUPERTYPES, AtLeast, Parsed
from ..rules.layers import AFFECTED
from ..rules.legality import PROTECTION_QUALITIES
from ..rules.registry import COUNTER_KINDS, LAYOUTS
from ..rules.replacement import REPLACEMENT_EVENTS
from ..schema import SchemaError

__all__ = [
    "CARD_TYPES",
    "KEYWORDS",
    "SUPERTYPES",
    "ActivatedTable",
    "CardTable",
    "CastFromTable",
    "CostOptionTable",
    "CounterLimitTable",
    "DataFile",
    "EffectTable",
    "EntersAsCopyTable",
    "Known",
    "ModeTable",
    "MultiFaceTable",
    "PermissionTable",
    "ReplacementTable",
    "RestrictionTable",
    "SpellTable",
    "StaticTable",
    "TriggeredTable",
    "TypeLine",
    "is_keyword",
    "parse_type_line",
]


KEYWORDS: frozenset[str] = frozenset({
    "flying", "reach", "vigilance", "haste", "defender", "deathtouch", "lifelink", "trample",
    "infect", "first strike", "double strike", "flash", "undying", "persist", "hexproof",
    "indestructible",
})
"""Keyword abilities (702) the kernel implements."""


def is_keyword(word: str) -> bool:
    """Whether ``word`` is a keyword ability the kernel implements: one of ``KEYWORDS``, or
    protection from a quality it knows (702.16a, ``protection from monocolored``)."""
    return word in KEYWORDS or (word.startswith("protection from ") and word.removeprefix(
        "protection from ") in PROTECTION_QUALITIES)


def parse_type_line(line: str) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...], bool]:
    """205: ``Legendary Creature — Dog`` -> supertypes, card types, subtypes, is a token."""
    left, _, right = line.partition("—")
    words = left.split()
    token = "Token" in words
    words = [w for w in words if w != "Token"]
    supertypes = tuple(w for w in words if w in SUPERTYPES)
    types = tuple(w for w in words if w not in SUPERTYPES)
    unknown = [w for w in types if w not in CARD_TYPES]
    if unknown or not types:
        raise ValueError(f"unknown card type {unknown[0]!r}" if unknown else "no card type")
    return supertypes, types, tuple(right.split()), token


# ----------------------------------------------------------------------- checks of single values


@dataclass(frozen=True, slots=True, eq=False)
class Known:
    """A word from a closed registry (compared and hashed by identity: a registry is a
    mapping, read as it is when a file is loaded, so a name registered later counts)."""

    what: str
    """What the words are, for the error (``target kind``)."""
    names: Collection[str]
    """The registry's words."""

    def __call__(self, word: str) -> None:
        if word not in self.names:
            raise ValueError(f"unknown {self.what} {word!r} (known: "
                             f"{', '.join(repr(n) for n in sorted(self.names))})")


class _OrNone(Collection[str]):
    """A registry's names and ``""`` (a field's "none"), read live as ``Known`` reads them."""

    __slots__ = ("names",)

    def __init__(self, names: Collection[str]) -> None:
        self.names = names

    def __contains__(self, word: object) -> bool:
        return word == "" or word in self.names

    def __iter__(self) -> Iterator[str]:
        return iter(("", *self.names))

    def __len__(self) -> int:
        return len(self.names) + 1


def _counter_kind(kind: str) -> None:
    if kind not in COUNTER_KINDS:  # read now: a kind registered after this module counts
        raise ValueError(f"unknown counter kind {kind!r}")


def _keyword(word: str) -> None:
    if not is_keyword(word):
        raise ValueError(f"unknown keyword {word!r}")


def _color_letters(letters: str) -> None:
    if not letters or any(c not in "WUBRG" for c in letters):
        raise ValueError(f"colours are letters W U B R G, got {letters!r}")


def _color_word(word: str) -> None:
    if word and word not in COLOR_BY_WORD:
        raise ValueError(f"expected a colour word ({', '.join(COLOR_BY_WORD)}), got {word!r}")


def _not_empty(items: tuple[Any, ...]) -> None:
    if not items:
        raise ValueError("expected a non-empty list of effects")


def _power_toughness(text: str) -> tuple[int | None, int | None]:
    """``P/T``; ``*`` (None) is defined by a characteristic-defining ability (208.2a)."""
    try:
        p, t = text.split("/")
        return (None if p == "*" else int(p)), (None if t == "*" else int(t))
    except ValueError:
        raise ValueError(f"expected 'P/T', got {text!r}") from None


@dataclass(frozen=True, slots=True)
class TypeLine:
    """A card's type line (205), as read."""

    supertypes: tuple[str, ...]
    """Supertypes (205.4)."""
    card_types: tuple[str, ...]
    """Card types (205.2)."""
    subtypes: tuple[str, ...]
    """Subtypes (205.3), after the dash."""
    token: bool
    """``Token`` is on the line."""


def _type_line(line: str) -> TypeLine:
    try:
        return TypeLine(*parse_type_line(line))
    except ValueError as err:
        raise ValueError(f"{line!r}: {err}") from None


def _target(spec: TargetSpec) -> TargetSpec | None:
    """115: a target requirement of a kind from ``TARGET_KINDS``, choosing ``min`` to ``max``;
    "for each opponent" restricts the controller to an opponent."""
    if spec.kind not in TARGET_KINDS:
        raise SchemaError("kind", f"unknown target kind {spec.kind!r} (known: "
                          f"{', '.join(sorted(TARGET_KINDS))})")
    if spec.min > spec.max:
        raise ValueError(f"bad min/max {spec.min}/{spec.max}")
    return replace(spec, controller="opponent") if spec.per_opponent else None


ManaCostText = Annotated[ManaCost, Parsed(str, parse_mana_cost)]
"""A mana cost as printed (202.1), ``{1}{G}``."""
Target = Annotated[TargetSpec, _target]
"""A target requirement (115), ``{ kind = "creature", max = 2 }``."""
Targets = tuple[Target, ...]
EffectTable = dict[str, Any]
"""An effect, ``{ verb = "draw", amount = 1 }``: its verb reads its arguments."""
Effects = Annotated[tuple[EffectTable, ...], _not_empty]
TargetKind = Annotated[str, Known("target kind", frozenset(TARGET_KINDS))]
Affected = Annotated[str, Known("affected word", frozenset(AFFECTED))]
CounterKind = Annotated[str, _counter_kind]
CastZone = Literal["graveyard", "exile", "library"]


# ----------------------------------------------------------------------- the tables


@dataclass(frozen=True, slots=True)
class ModeTable:
    """One mode of a modal spell (700.2)."""

    effects: Effects
    """What it does."""
    text: str = ""
    """The mode's Oracle text, after its bullet."""
    targets: Targets = ()
    """Its target requirements."""


@dataclass(frozen=True, slots=True)
class SpellTable:
    """``spell``: the spell ability of an instant or sorcery (113.3a): its targets and effects,
    or its modes."""

    targets: Targets | None = None
    """Target requirements, in the order the text names them."""
    effects: Effects | None = None
    """What the spell does (a modal spell's are its modes')."""
    modes: tuple[ModeTable, ...] | None = None
    """700.2: the modes, in printed order."""
    choose: int = 1
    """How many modes are chosen (700.2a)."""
    divide: Annotated[int, AtLeast(1)] | Literal["X"] | None = None
    """601.2d: the amount divided among the targets as it is cast (a number, or ``X``)."""
    divide_doubled_from: int = 0
    """"If X is N or more, ... deals twice X damage divided ... instead": the N (0: never)."""


@dataclass(frozen=True, slots=True)
class ActivatedTable:
    """``[[card.activated]]``: an activated ability, ``[Cost]: [Effect]`` (602), mana and loyalty
    abilities included."""

    effects: Effects
    """What it does."""
    cost: str = ""
    """The cost as printed: mana, ``{T}``, ``Remove a KIND counter from NAME``, ``Sacrifice
    this artifact``, comma-separated; or a loyalty cost alone (``+1``, ``−2``, ``0``)."""
    targets: Targets = ()
    """Target requirements."""
    sorcery_speed: bool = False
    """Activate only as a sorcery."""
    text: str | None = None
    """Its Oracle line (placing it among the card's abilities); a loyalty ability needs it."""


@dataclass(frozen=True, slots=True)
class TriggeredTable:
    """``[[card.triggered]]``: a triggered ability (603)."""

    event: Annotated[str, Known("trigger event", TRIGGER_EVENTS)]
    """The trigger event."""
    effects: Effects
    """What it does."""
    step: Annotated[str, Known("step", frozenset({"", *STEPS}))] = ""
    """For ``beginning_of_step``: the step whose beginning triggers it."""
    whose: Literal["you", "each"] = "you"
    """For step triggers: your step, or each player's."""
    condition: dict[str, Any] | None = None
    """603.4: an intervening "if", ``{ test = ..., ... }``."""
    targets: Targets = ()
    """Target requirements."""
    text: str | None = None
    """Its Oracle words (placing it among the card's abilities)."""
    spell_types: tuple[Annotated[str, Known("card type", CARD_TYPES)], ...] = ()
    """For ``you_cast_spell``: the card types the spell must have one of."""
    from_zone: Literal["", "hand", "graveyard", "exile", "library"] = ""
    """For ``you_cast_spell``: the zone the spell must have been cast from."""


@dataclass(frozen=True, slots=True)
class ReplacementTable:
    """``[[card.replacement]]``: a static ability that makes a replacement effect (614)."""

    event: Annotated[str, Known("replacement event", REPLACEMENT_EVENTS)]
    """What it watches: ``enters``, ``to_graveyard`` or ``lose_game``."""
    text: str = ""
    """The Oracle sentence it implements (required)."""
    counters: dict[CounterKind, Annotated[int, AtLeast(1)]] | None = None
    """For ``enters``: it enters with these counters."""
    tapped: bool | None = None
    """For ``enters``: it enters tapped."""
    unless_pay_life: Annotated[int, AtLeast(0)] | None = None
    """For ``enters``: unless this much life is paid (614.12, 119.4)."""
    choose_protector: bool | None = None
    """For ``enters``: its controller chooses an opponent to protect it as it enters (310.11a)."""
    applies_to: Literal["self", "any"] | None = None
    """For ``to_graveyard``: this card only, or any card."""
    zone: Annotated[str, Known("zone", REDIRECT_ZONES)] | None = None
    """For ``to_graveyard``: where it goes instead."""
    effects: Effects | None = None
    """For ``lose_game``: what happens instead."""


@dataclass(frozen=True, slots=True)
class StaticTable:
    """``[[card.static]]``: a static ability (604) with continuous effects (611.3)."""

    text: str
    """Its Oracle words."""
    affected: Affected
    """Which objects it affects."""
    effects: Effects
    """Its layer primitives (``LAYER_VERBS``)."""
    color: Annotated[str, _color_word] = ""
    """A colour word further restricting ``affected``."""


@dataclass(frozen=True, slots=True)
class RestrictionTable:
    """``[[card.restriction]]``: a static "can't" ability (101.2)."""

    kind: Annotated[str, Known("restriction kind", frozenset(RESTRICTION_KINDS))]
    """What can't happen."""
    text: str
    """The Oracle sentence it implements."""
    players: Annotated[str, Known("player word", RESTRICTION_PLAYERS)] = "each"
    """Whose actions it restricts."""
    objects: Annotated[str, Known("object word", RESTRICTION_OBJECTS)] = ""
    """Which permanents or cards."""
    filter: Annotated[str, Known("filter", frozenset(RESTRICTION_FILTERS))] = "any"
    """Which spells, creatures or cards."""


@dataclass(frozen=True, slots=True)
class PermissionTable:
    """``[[card.permission]]``: a static "may" ability (101.2)."""

    kind: Annotated[str, Known("permission kind", frozenset(PERMISSION_KINDS))]
    """What may happen."""
    text: str
    """The Oracle sentence it implements."""
    players: Annotated[str, Known("player word", RESTRICTION_PLAYERS)] = "you"
    """Who may."""
    filter: Annotated[str, Known("filter", frozenset(RESTRICTION_FILTERS))] = "any"
    """Which spells."""
    zone: Literal["", "graveyard", "exile", "library"] = ""
    """For ``cast_from``, ``play_lands_from`` and ``grant_cost``: the zone it is about."""
    cost: Annotated[str, Known("cost option", _OrNone(COST_OPTIONS))] = ""
    """For ``grant_cost``: the cost option the cards there have."""
    face_down: bool = False
    """For ``cast_from`` exile: from among cards exiled face down."""


@dataclass(frozen=True, slots=True)
class CostOptionTable:
    """``[[card.cost_options]]``: an optional additional or alternative cost (601.2b)."""

    name: Annotated[str, Known("cost option", COST_OPTIONS)]
    """Its name, from ``COST_OPTIONS``."""
    cost: ManaCostText
    """Its mana."""
    text: str
    """The Oracle words it implements."""


@dataclass(frozen=True, slots=True)
class CounterLimitTable:
    """``[[card.counter_limits]]``: "can't have more than N KIND counters on it" (704.5r)."""

    counter: CounterKind
    """The counter kind."""
    max: int
    """The most it may have."""
    text: str
    """Its Oracle words."""


@dataclass(frozen=True, slots=True)
class EntersAsCopyTable:
    """``enters_as_copy``: "you may have it enter as a copy of any [word] on the battlefield"
    (614.1c, 707.2)."""

    text: str
    """Its Oracle words."""
    of: Affected
    """What it may copy: a word for objects on the battlefield."""


@dataclass(frozen=True, slots=True)
class CastFromTable:
    """``cast_from``: zones the card's own ability lets its owner cast it from (601.3)."""

    zones: tuple[CastZone, ...]
    """The zones."""
    text: str
    """The ability's Oracle words."""


@dataclass(frozen=True, slots=True)
class CardTable:
    """A ``[[card]]`` or ``[[token]]`` table (or a face of a card of another layout)."""

    name: str
    """The card name."""
    type: Annotated[TypeLine, Parsed(str, _type_line)]
    """The type line, ``Legendary Creature — Dog`` (205)."""
    cost: ManaCostText | None = None
    """The mana cost (202); none for lands and cards without one."""
    pt: Annotated[tuple[int | None, int | None], Parsed(str, _power_toughness)] | None = None
    """Power and toughness, ``2/2`` (``*``: defined by a characteristic-defining ability)."""
    loyalty: int | None = None
    """Printed loyalty (306.5b)."""
    text: str = ""
    """The Oracle text, verbatim."""
    color: Annotated[str, _color_letters] | None = None
    """Colour letters when they are not those of the cost (105.2)."""
    keywords: tuple[Annotated[str, _keyword], ...] = ()
    """Keyword abilities (702), lower case, each in the Oracle text."""
    spell: SpellTable | None = None
    """The spell ability of an instant or sorcery."""
    activated: tuple[ActivatedTable, ...] = ()
    """Activated abilities, in printed order."""
    triggered: tuple[TriggeredTable, ...] = ()
    """Triggered abilities."""
    replacement: tuple[ReplacementTable, ...] = ()
    """Replacement abilities (614)."""
    counter_limits: tuple[CounterLimitTable, ...] = ()
    """Counter limits (704.5r)."""
    enchant: TargetKind | None = None
    """An Aura's enchant ability (702.5): what it can enchant."""
    restriction: tuple[RestrictionTable, ...] = ()
    """Static "can't" abilities."""
    permission: tuple[PermissionTable, ...] = ()
    """Static "may" abilities."""
    static: tuple[StaticTable, ...] = ()
    """Static abilities with continuous effects."""
    enters_as_copy: EntersAsCopyTable | None = None
    """It may enter as a copy (614.1c, 707.2)."""
    cost_options: tuple[CostOptionTable, ...] = ()
    """Optional additional and alternative costs (601.2b)."""
    cast_from: CastFromTable | None = None
    """Zones its own ability lets it be cast from (601.3)."""
    test_only: bool = False
    """A card for the tests of a rule: never in a deck."""
    flash_if: dict[str, Any] | None = None
    """601.3d: "this spell has flash as long as [condition]": a condition (``test`` and its
    arguments) and the sentence it quotes (``text``)."""


@dataclass(frozen=True, slots=True)
class MultiFaceTable:
    """A card of another layout: split (709), Adventure (715), modal double-faced (712)."""

    name: str
    """The whole card's name (a split card's ``Fire // Ice``, else its first face's)."""
    layout: Annotated[str, Known("layout", LAYOUTS)]
    """The layout, from ``LAYOUTS``."""
    face: tuple[dict[str, Any], ...]
    """Its two faces, each read as a ``CardTable``."""


@dataclass(frozen=True, slots=True)
class DataFile:
    """A card data file: its cards and tokens, each read on its own (so that errors name it)."""

    card: tuple[dict[str, Any], ...] = ()
    """``[[card]]`` tables."""
    token: tuple[dict[str, Any], ...] = ()
    """``[[token]]`` tables."""
