"""An object's characteristics while the layers are being applied (``Working``): its printed
values (707.2 copiable values), face-down values (708.2a), text changes (612.2), and the frozen
``Characteristics`` it ends as.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Final

from ..base import BASIC_LAND_TYPES, COLOR_BY_WORD
from ..mana import ManaCost

if TYPE_CHECKING:
    from ..definitions import ActivatedAbility, ArgValue, CardDefinition, TriggeredAbility
    from ..state import GameObject
from ..state import AbilityRef, Characteristics

_COPIED: Final[tuple[str, ...]] = ("abilities", "card_types", "colors", "controller", "definition",
                             "keywords", "loyalty", "mana_cost", "name", "obj", "power", "subtypes",
                             "supertypes", "text_changes", "toughness")
"""Every attribute of a ``Working``: its slots, named here for ``copy_working`` (a compiled
class, in the compiled build, has no ``__slots__`` to read them from)."""


class Working:
    """An object's characteristics while the layers are being applied (mutable; internal to one
    evaluation). ``AFFECTED`` predicates and ``VALUES`` read it."""

    __slots__ = _COPIED

    def __init__(self, obj: GameObject, controller: int) -> None:
        self.obj = obj
        """The object."""
        self.controller = controller
        """Its controller so far."""
        self.name = ""
        self.definition = ""
        self.mana_cost: ManaCost | None = None
        self.colors: list[str] = []
        self.card_types: list[str] = []
        self.subtypes: list[str] = []
        self.supertypes: list[str] = []
        self.keywords: list[str] = []
        self.abilities: list[AbilityRef] = []
        self.power: int | None = None
        self.toughness: int | None = None
        self.loyalty: int | None = None
        self.text_changes: list[tuple[str, str]] = []



TEXT_WORDS: Final[frozenset[str]] = frozenset(COLOR_BY_WORD) | frozenset(BASIC_LAND_TYPES)
"""Words a text-changing effect may replace: the colour words (105.1) and the basic land types."""


def substitute(value: ArgValue, changes: list[tuple[str, str]]) -> ArgValue:
    """612.2: a text-changing effect replaces words in the source's abilities."""
    if not changes:
        return value
    if isinstance(value, tuple):
        return tuple(substitute(v, changes) for v in value if isinstance(v, str))  # type: ignore[return-value]
    if not isinstance(value, str):
        return value
    for old, new in changes:
        if value == old:
            return new
        if old in COLOR_BY_WORD and new in COLOR_BY_WORD and len(value) <= 5 and value.isupper():
            value = value.replace(COLOR_BY_WORD[old], COLOR_BY_WORD[new])
    return value


def definition_abilities(defn: CardDefinition) -> list[AbilityRef]:
    """Every non-keyword ability a definition prints, as ``AbilityRef``s (113)."""
    out = [AbilityRef(defn.name, "triggered", a.position) for a in defn.triggered]
    out += [AbilityRef(defn.name, "activated", a.position) for a in defn.activated]
    out += [AbilityRef(defn.name, "static", a.position) for a in defn.static]
    # Restrictions and permissions (101.2, ``_restrictions``) are static abilities too.
    out += [AbilityRef(defn.name, "static", r.position) for r in defn.restrictions]
    out += [AbilityRef(defn.name, "static", p.position) for p in defn.permissions]
    # Replacement abilities (614, ``_replacement``) are static abilities too.
    out += [AbilityRef(defn.name, "static", r.position) for r in defn.replacements]
    out += [AbilityRef(defn.name, "static", pos) for _, _, pos in defn.counter_limits]  # 704.5r
    return out


_NON_CREATURE_SUBTYPES: Final = frozenset({"Aura", "Equipment", "Saga", "Role", "Treasure", "Food"})
"""Subtypes of other card types that a bestowed creature card may print beside its creature types."""


def merged_under(cards: Mapping[str, CardDefinition], obj: GameObject) -> tuple[CardDefinition, ...]:
    """725.2: the definitions of the cards and tokens under the top of a merged permanent."""
    return tuple(cards[name] for _, name, _ in obj.merged[1:])


def set_printed(w: Working, defn: CardDefinition, under: tuple[CardDefinition, ...] = ()) -> None:
    """Layer 1's starting point: the copiable values a definition prints (707.2); ``under``:
    the other cards of a merged permanent, whose abilities it has too (725.2, 702.140e)."""
    w.name = defn.name
    w.definition = defn.name
    w.mana_cost = defn.mana_cost
    w.colors = list(defn.colors)
    w.card_types = list(defn.card_types)
    w.subtypes = list(defn.subtypes)
    w.supertypes = list(defn.supertypes)
    w.keywords = list(defn.keywords)
    w.abilities = definition_abilities(defn)
    w.power = defn.power
    w.toughness = defn.toughness
    w.loyalty = defn.loyalty
    for part in under:
        w.keywords += [k for k in part.keywords if k not in w.keywords]
        w.abilities += definition_abilities(part)
    if w.obj.bestowed:
        # 702.103b/e: a bestowed spell, and the Aura it becomes while attached, is an Aura
        # enchantment with enchant creature: it loses the creature card type and its creature
        # subtypes (205.3m) and gains the Aura subtype.
        subtypes = [t for t in w.subtypes if "Creature" not in w.card_types or t in _NON_CREATURE_SUBTYPES]
        w.card_types = [t for t in w.card_types if t != "Creature"]
        w.subtypes = [*subtypes, "Aura"]
    if w.obj.except_supertypes:
        # 707.9b: a copy made "except the copy isn't legendary" lacks it in its copiable values.
        w.supertypes = [t for t in w.supertypes if t not in w.obj.except_supertypes]


def set_copied(w: Working, defn: CardDefinition, except_supertypes: tuple[str, ...],
               under: tuple[CardDefinition, ...] = ()) -> None:
    """Layer 1, a copy effect (707.2): the copiable values ``defn`` prints, less the supertypes
    a copied exception removes (707.9b, 707.3); ``under``: a copied merged permanent's other
    cards, whose abilities are part of its copiable values (725.2, 707.2)."""
    set_printed(w, defn, under)
    if except_supertypes:
        w.supertypes = [t for t in w.supertypes if t not in except_supertypes]


def set_face_down(w: Working) -> None:
    """708.2a: a face-down permanent is a 2/2 creature with no name, text, types but creature,
    colour or mana cost."""
    w.name = ""
    w.mana_cost = None
    w.colors = []
    w.card_types = ["Creature"]
    w.subtypes = []
    w.supertypes = []
    w.keywords = []
    w.abilities = []
    w.power = w.toughness = 2
    w.loyalty = None


def freeze(w: Working, cards: Mapping[str, CardDefinition]) -> Characteristics:
    """The ``Characteristics`` the working values end as, with their abilities looked up."""
    cost = w.mana_cost
    trig: list[tuple[str, TriggeredAbility]] = []
    act: list[tuple[str, int, ActivatedAbility]] = []
    for ref in w.abilities:
        if ref.kind == "triggered":
            trig.extend((ref.definition, ab) for ab in cards[ref.definition].triggered
                        if ab.position == ref.position)
        elif ref.kind == "activated":
            act.extend((ref.definition, i, ab)
                       for i, ab in enumerate(cards[ref.definition].activated, start=1)
                       if ab.position == ref.position)
    return Characteristics(
        name=w.name, definition=w.definition, mana_cost=cost,
        mana_value=cost.mana_value(w.obj.x if w.obj.zone == "stack" else 0) if cost else 0,
        colors=tuple(c for c in "WUBRG" if c in w.colors), card_types=tuple(w.card_types),
        subtypes=tuple(w.subtypes), supertypes=tuple(w.supertypes), keywords=tuple(w.keywords),
        abilities=tuple(w.abilities), power=w.power, toughness=w.toughness, loyalty=w.loyalty,
        controller=w.controller, text_changes=tuple(w.text_changes), triggered=tuple(trig),
        activated=tuple(act))


def copy_working(w: Working) -> Working:
    """A copy of working values to try an effect on (613.8a dependency checks)."""
    c = Working(w.obj, w.controller)
    for name in _COPIED:
        value = getattr(w, name)
        setattr(c, name, list(value) if isinstance(value, list) else value)
    return c
