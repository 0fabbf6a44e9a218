"""The characteristics engine: what an object is right now (613, continuous effects 611).

One function answers it: ``characteristics(game, obj) -> Characteristics``. Every reader in the
kernel (targets, SBAs, triggers, combat, legal actions, casting, mana abilities, the player's
view, scenario expectations) asks it, directly or through ``Game``'s query methods
(``card_types``, ``is_type``, ``is_creature``, ``colors``, ``keywords``, ``has_keyword``,
``is_legendary``, ``power``, ``toughness``, ``subtypes``, ``supertypes``, ``abilities``,
``has_ability``, ``triggered``, ``activated``, ``controller``, ``controlled``, ``mana_value``);
nothing reads a definition's printed characteristics for an object in a zone any more.
``Game.triggered(obj)`` / ``Game.activated(obj)`` are the abilities it has now (after layer 6,
a copy's are the original's): read them instead of ``game.cards[obj.name].triggered``.

Abilities: ``Characteristics.keywords`` holds keyword abilities (lower-case words, e.g.
``flying``, ``protection from red``); ``Characteristics.abilities`` every other ability as an
``AbilityRef(definition, kind, position)``: ``triggered``, ``activated`` or ``static`` (static
layer abilities, restrictions and permissions), the printed ability at ``position`` of that
definition. Layer 6 adds and removes both.

Layers (613.1), applied in this order to every object on the battlefield at once (an effect in
one layer may change what another applies to):

====  =====================================================================================
1     copy effects (707, 613.2); face-down status (708.2) sets the values first
2     control-changing effects (``controller``)
3     text-changing effects (612): colour words and basic land type words in the object's
      static abilities' arguments
4     type-changing effects (card types, subtypes, supertypes)
5     colour-changing effects
6     ability adding and removing (``keywords``, ``abilities``); 603.6b/603.10: an ability
      removed here does not trigger and its static effects in layers 6-7 do not apply
7a    characteristic-defining abilities that set power/toughness (604.3; they work in every
      zone)
7b    effects that set power and/or toughness to a value
7c    effects and counters that modify power and/or toughness (613.4c: +1/+1, -1/-1 counters)
7d    effects that switch power and toughness
====  =====================================================================================

Within a layer (or sublayer) effects apply in dependency order (613.8), otherwise timestamp
order (613.7). An effect's timestamp: a resolved spell or ability's effect, when it was created
(613.7b); a static ability's, its source's timestamp ``GameObject.timestamp`` (613.7a; 613.7e:
an Aura, Equipment or Role gets a new one when it becomes attached). 613.6: an
effect that starts to apply in one layer keeps applying to the same objects in later layers,
even if the ability that generates it is removed meanwhile.

Effect records (state)
----------------------
Resolved spells and abilities create ``ContinuousEffect`` records (``GameState.effects``; see
``_state``): ``id``, ``timestamp``, ``verb`` (a layer primitive, below) and its ``args``,
``source`` (object id) and ``source_name``, ``controller`` (whose "you" it means),
``affected`` (611.2c: a locked tuple of object ids; an object that changes zones is a new
object and is no longer affected) and ``duration``:

- ``end_of_turn``: "until end of turn", ends in the cleanup step (514.2);
- ``your_next_turn``: "until your next turn", ends as ``duration_seat``'s next turn begins
  (611.2b);
- ``source_on_battlefield``: "for as long as [the source] remains on the battlefield"
  (611.2b: also ends if the source leaves before it resolves);
- ``indefinite``: until its affected objects leave (e.g. "gain control of target creature").

Static abilities (604, 611.3) create no record: their effects exist while their source is on the
battlefield with the ability (after layer 6) and their ``affected`` filter is evaluated
continuously (611.3a), at the layer where each effect first applies.

Create and end effects only through ``add_effect`` / ``end_effects``; they bump the epoch.

Card data format for static abilities
-------------------------------------
::

    [[card.static]]
    text = "All lands are 2/2 creatures that are still lands."   # a quote from the Oracle text
    affected = "lands"                                           # a word from AFFECTED
    effects = [
      { verb = "add_types", types = ["Creature"] },              # verbs from LAYER_VERBS
      { verb = "set_pt", power = 2, toughness = 2 },
    ]

Layer verbs (``LAYER_VERBS``; each names its layer; arguments are checked at load):

- ``copy_of`` (1): ``of`` = a definition name (set by ``become_copy``, not card data)
- ``gain_control`` (2): the effect's ``controller`` controls the affected objects
- ``change_text`` (3): ``from``/``to`` = colour words (white ... green) or basic land types
- ``add_types`` (4): ``types``, ``subtypes``, ``supertypes`` (lists), "in addition to its
  other types"; ``remove_types`` (4): ``types``, ``subtypes`` (lists) it loses;
  ``set_types`` (4, "becomes a ..."): ``types`` replaces its card types, ``subtypes`` (if
  given) its subtypes
- ``set_colors`` (5): ``colors`` = "WU" ("" = colourless); ``add_colors`` (5): ``colors``
- ``add_abilities`` (6): ``keywords`` (list of keyword words, e.g. "flying", "haste",
  "protection from white") and/or ``abilities`` (list of positions of printed abilities of the
  source's definition that the affected objects gain); ``lose_all_abilities`` (6);
  ``lose_abilities`` (6): ``keywords``
- ``set_base_pt_cda`` (7a; ``affected = "self"`` only): ``power``/``toughness`` = a value
- ``set_pt`` (7b): ``power``/``toughness`` = a value (either may be left out)
- ``modify_pt`` (7c): ``power``/``toughness`` = an int or a value (default 0)
- ``switch_pt`` (7d)

A value is an int or a word from ``VALUES``: ``cards_in_hand`` (cards in the source
controller's hand), ``mana_value`` (the affected object's own mana value).

The same verbs create effects at resolution (``_effects.EFFECT_VERBS``): each layer verb is
also an effect verb taking ``what`` (an object word: ``target``, ``self`` ...) and optionally
``until`` (a duration above; ``gain_control`` defaults to ``indefinite``, the rest to
``end_of_turn``), e.g. ``{ verb = "modify_pt", what = "target", power = 3, toughness = 3 }``
("target creature gets +3/+3 until end of turn"), ``{ verb = "gain_control", what = "target" }``.

Affected words (``AFFECTED``): self, enchanted, equipped, attached (whatever the source is
attached to), creatures, other_creatures, creatures_you_control, other_creatures_you_control,
lands, artifacts, noncreature_artifacts, permanents, creatures_and_lands. The attachment part may
add words; each is a predicate on the candidate's characteristics as they stand in the layer
where the effect first applies.

A static ability may add ``color = "white"`` ("white creatures get +1/+1"): only objects of that
colour word are affected (a text-changing effect can change the word).

Copies: ``enters_as_copy = { text = "...", of = "creatures" }`` on a card ("you may have Clone
enter as a copy of any creature on the battlefield", 614.1c/707.2): ``choose_copy`` asks its
controller as the spell resolves (answer: the permanent, or none), the copy effect applies to
the spell at once (so 608.3e's checks see the copy) and ``move_object(copy_of=...)`` gives the
permanent its own, before its enters abilities trigger. ``become_copy`` is the primitive.

Targets: ``{ kind = "permanent", per_opponent = true }`` is "for each opponent, target
permanent that player controls" (601.2c): one target per opponent with a legal one.

Cache
-----
Characteristics are cached per game (``Game.layer_cache``, a ``LayerCache``: a miss computes)
and the cache is dropped whenever the epoch moves: ``Game.changed()`` is called by every
mutation that can matter (zone changes in ``_zones``: ``create_object``, ``move_object``, when
the battlefield is one of the zones or some static ability counts cards in a zone,
``reads_zone_sizes``; effects added or ended: ``add_effect``,
``end_effects``, ``end_durations``; counters: ``add_counters``). Whoever changes
``obj.attached_to``, ``obj.timestamp``, ``obj.face_down`` or ``obj.counters`` directly must call
``game.changed()``. A permanent no effect touches shares a printed template
(``Game.layer_templates``); a card in a hand, library, graveyard or exile with no static ability
is cached for as long as it stays there (``Game.stable_cache``; ``changed`` keeps those entries).

Control
-------
``GameObject.controller`` is the controller an object was cast or put onto the battlefield
under (110.2, 108.4); the current controller is ``Game.controller(obj)`` (layer 2), and
``Game.controlled(seat)`` lists the permanents a player controls now. Read those, never the
field, for permanents.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ._mana import ManaCost
from ._state import NO_COUNTERS, ContinuousEffect

if TYPE_CHECKING:
    from ._decisions import Proc
    from ._definitions import (
        ActivatedAbility,
        ArgValue,
        CardDefinition,
        StaticAbility,
        TriggeredAbility,
    )
    from ._game import Game
    from ._state import GameObject

__all__ = [
    "AFFECTED",
    "BASIC_LAND_TYPES",
    "CARD_TYPES",
    "COLOR_WORDS",
    "DURATIONS",
    "LAYERS",
    "LAYER_ARG_KINDS",
    "LAYER_VERBS",
    "LIST_KINDS",
    "REQUIRED_ARGS",
    "TEXT_WORDS",
    "VALUES",
    "AbilityRef",
    "AffectedTest",
    "Characteristics",
    "LayerCache",
    "LayerVerbSpec",
    "ValueOf",
    "Working",
    "add_counters",
    "add_effect",
    "as_it_would_enter",
    "become_copy",
    "characteristics",
    "end_durations",
    "end_effects",
    "end_with_source",
    "is_value",
    "new_effect",
    "reads_zone_sizes",
    "snapshot_leaving",
]

LAYERS: tuple[str, ...] = ("1", "2", "3", "4", "5", "6", "7a", "7b", "7c", "7d")
"""613.1, 613.4: the layers and sublayers, in the order they apply."""

DURATIONS: frozenset[str] = frozenset({"end_of_turn", "your_next_turn", "source_on_battlefield",
                                       "indefinite"})
"""611.2a/611.2b: how long a resolved spell or ability's continuous effect lasts."""


@dataclass(frozen=True, slots=True)
class AbilityRef:
    """A non-keyword ability an object has (113): a printed ability of some definition."""

    definition: str
    """The definition whose printed ability it is (a copy's: the copied card's, 707.2)."""
    kind: str
    """``triggered``, ``activated`` or ``static``."""
    position: int
    """Its place among that definition's printed abilities."""


@dataclass(frozen=True, slots=True)
class Characteristics:
    """An object's characteristics after every continuous effect (109.3, 613)."""

    name: str
    """Its name (a copy's is the copied card's)."""
    definition: str
    """The definition its copiable values come from (layer 1)."""
    mana_cost: ManaCost | None
    """Mana cost (202)."""
    mana_value: int
    """Mana value (202.3)."""
    colors: tuple[str, ...]
    """Colours, WUBRG order (105)."""
    card_types: tuple[str, ...]
    """Card types (205.2)."""
    subtypes: tuple[str, ...]
    """Subtypes (205.3)."""
    supertypes: tuple[str, ...]
    """Supertypes (205.4)."""
    keywords: tuple[str, ...]
    """Keyword abilities it has (702), lower case, e.g. ``flying``, ``protection from red``."""
    abilities: tuple[AbilityRef, ...]
    """Its other abilities: triggered, activated and static, printed or granted."""
    power: int | None
    """Power; None for a non-creature with no printed power."""
    toughness: int | None
    """Toughness; None likewise."""
    loyalty: int | None
    """Printed loyalty (306.5b)."""
    controller: int
    """Controller's seat (layer 2)."""
    text_changes: tuple[tuple[str, str], ...] = ()
    """Layer 3: (from word, to word) substitutions in its abilities' arguments (612)."""
    triggered: tuple[tuple[str, TriggeredAbility], ...] = field(default=(), compare=False,
                                                                  repr=False)
    """Its triggered abilities (from ``abilities``), each with the definition it is printed on."""
    activated: tuple[tuple[str, int, ActivatedAbility], ...] = field(default=(), compare=False,
                                                                       repr=False)
    """Its activated abilities: definition, index among that definition's activated abilities
    (from 1), ability."""

    def has_type(self, card_type: str) -> bool:
        """Whether it has this card type."""
        return card_type in self.card_types


@dataclass(frozen=True, slots=True)
class LayerVerbSpec:
    """A layer primitive: the layer it applies in and its arguments."""

    layer: str
    """The layer or sublayer (``LAYERS``)."""
    rule: str
    """The rule it implements."""
    args: dict[str, str]
    """Argument name -> kind (``int``, ``value``, ``types``, ``colors``, ``keywords``, ...)."""
    default_until: str = "end_of_turn"
    """Its duration when a resolving spell creates it without saying (611.2a)."""


LAYER_VERBS: dict[str, LayerVerbSpec] = {
    "copy_of": LayerVerbSpec("1", "707.2", {"of": "name"}, "indefinite"),
    "gain_control": LayerVerbSpec("2", "613.1b", {}, "indefinite"),
    "change_text": LayerVerbSpec("3", "612.2", {"from": "text_word", "to": "text_word"}),
    "add_types": LayerVerbSpec("4", "205.1b", {"types": "types", "subtypes": "words",
                                               "supertypes": "words"}),
    "remove_types": LayerVerbSpec("4", "613.1d", {"types": "types", "subtypes": "words"}),
    "set_types": LayerVerbSpec("4", "205.1a", {"types": "types", "subtypes": "words"}),
    "set_colors": LayerVerbSpec("5", "105.3", {"colors": "colors"}),
    "add_colors": LayerVerbSpec("5", "105.3", {"colors": "colors"}),
    "add_abilities": LayerVerbSpec("6", "613.1f", {"keywords": "keywords", "abilities": "positions"}),
    "lose_all_abilities": LayerVerbSpec("6", "613.1f", {}),
    "lose_abilities": LayerVerbSpec("6", "613.1f", {"keywords": "keywords"}),
    "set_base_pt_cda": LayerVerbSpec("7a", "613.4a", {"power": "value", "toughness": "value"}),
    "set_pt": LayerVerbSpec("7b", "613.4b", {"power": "value", "toughness": "value"}),
    "modify_pt": LayerVerbSpec("7c", "613.4c", {"power": "value", "toughness": "value"}),
    "switch_pt": LayerVerbSpec("7d", "613.4d", {}),
}
"""The closed registry of layer primitives (613.1, 613.4)."""



class Working:
    """An object's characteristics while the layers are being applied (mutable; internal to one
    evaluation). ``AFFECTED`` predicates and ``VALUES`` read it."""

    __slots__ = ("abilities", "card_types", "colors", "controller", "definition", "keywords",
                 "loyalty", "mana_cost", "name", "obj", "power", "subtypes", "supertypes",
                 "text_changes", "toughness")

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


AffectedTest = Callable[["Game", "GameObject", int, Working], bool]
"""(game, the effect's source, the effect's controller, a candidate) -> whether it is affected."""
ValueOf = Callable[["Game", int, Working], int]
"""(game, the effect's controller, the affected object) -> the value."""



COLOR_WORDS: dict[str, str] = {"white": "W", "blue": "U", "black": "B", "red": "R", "green": "G"}
"""105.1: colour words and their letters (text-changing effects swap the words, 612.2)."""
BASIC_LAND_TYPES: tuple[str, ...] = ("Plains", "Island", "Swamp", "Mountain", "Forest")
"""205.3i: the basic land types (text-changing effects may swap them)."""
TEXT_WORDS: frozenset[str] = frozenset(COLOR_WORDS) | frozenset(BASIC_LAND_TYPES)
"""Words a text-changing effect may replace."""


def _is(card_type: str) -> Callable[[Working], bool]:
    return lambda w: card_type in w.card_types


def _creature(w: Working) -> bool:
    return "Creature" in w.card_types


AFFECTED: dict[str, AffectedTest] = {
    "self": lambda g, src, you, w: w.obj.id == src.id,
    "enchanted": lambda g, src, you, w: src.attached_to == w.obj.id,
    "equipped": lambda g, src, you, w: src.attached_to == w.obj.id,
    "attached": lambda g, src, you, w: src.attached_to == w.obj.id,
    "creatures": lambda g, src, you, w: _creature(w),
    "other_creatures": lambda g, src, you, w: _creature(w) and w.obj.id != src.id,
    "creatures_you_control": lambda g, src, you, w: _creature(w) and w.controller == you,
    "other_creatures_you_control": lambda g, src, you, w: (_creature(w) and w.controller == you
                                                           and w.obj.id != src.id),
    "lands": lambda g, src, you, w: "Land" in w.card_types,
    "artifacts": lambda g, src, you, w: "Artifact" in w.card_types,
    "noncreature_artifacts": lambda g, src, you, w: "Artifact" in w.card_types and not _creature(w),
    "permanents": lambda g, src, you, w: True,
    "creatures_and_lands": lambda g, src, you, w: _creature(w) or "Land" in w.card_types,
}
"""The closed registry of ``affected`` words for static abilities (611.3a); each tests a
candidate on the battlefield as its characteristics stand in the layer being applied."""


def _cards_in_hand(game: Game, you: int, w: Working) -> int:
    return len(game.state.players[you].hand)


def _own_mana_value(game: Game, you: int, w: Working) -> int:
    return w.mana_cost.mana_value(w.obj.x if w.obj.zone == "stack" else 0) if w.mana_cost else 0


VALUES: dict[str, ValueOf] = {
    "cards_in_hand": _cards_in_hand,
    "mana_value": _own_mana_value,
}
"""Words a ``value`` argument may use instead of an int."""


def is_value(v: object) -> bool:
    """Whether ``v`` is a valid ``value`` argument: an int or a word from ``VALUES``."""
    return (isinstance(v, int) and not isinstance(v, bool)) or (isinstance(v, str) and v in VALUES)


CARD_TYPES: frozenset[str] = frozenset({"Artifact", "Battle", "Creature", "Enchantment", "Instant",
                                        "Kindred", "Land", "Planeswalker", "Sorcery"})
"""205.2a: the card types."""


def _tuple_of(test: Callable[[object], bool]) -> Callable[[object], bool]:
    return lambda v: isinstance(v, tuple) and all(test(x) for x in v)


LAYER_ARG_KINDS: dict[str, Callable[[object], bool]] = {
    "name": lambda v: isinstance(v, str) and bool(v),
    "text_word": lambda v: isinstance(v, str) and v in TEXT_WORDS,
    "types": _tuple_of(lambda t: t in CARD_TYPES),
    "words": _tuple_of(lambda t: isinstance(t, str) and bool(t)),
    "colors": lambda v: isinstance(v, str) and all(c in "WUBRG" for c in v),
    "keywords": _tuple_of(lambda t: isinstance(t, str) and bool(t) and t == t.lower()),
    "positions": _tuple_of(lambda t: isinstance(t, int) and not isinstance(t, bool) and t >= 1),
    "value": is_value,
}
"""How each layer verb argument kind is checked when a card file is loaded."""
LIST_KINDS: frozenset[str] = frozenset({"types", "words", "keywords", "positions"})
"""Argument kinds written as lists in card files (held as tuples)."""
REQUIRED_ARGS: frozenset[str] = frozenset({"from", "to", "colors", "of"})
"""Arguments a layer verb that takes them can't do without."""


# ----------------------------------------------------------------------------- evaluation


class _Active:
    """One effect taking part in an evaluation: a record's, or one effect of a static ability."""

    __slots__ = ("ability", "affected", "args", "cda", "color", "controller", "group", "layer",
                 "order", "source", "source_id", "verb", "where")

    def __init__(self, verb: str, args: tuple[tuple[str, ArgValue], ...], order: tuple[int, int, int],
                 source: GameObject | None, source_id: int, controller: int,
                 affected: tuple[int, ...] | None, where: str, ability: AbilityRef | None,
                 group: tuple[int, int], color: str = "") -> None:
        self.verb = verb
        self.layer = LAYER_VERBS[verb].layer
        self.args = args
        self.order = order  # (timestamp, kind, tiebreak): 613.7
        self.source = source
        self.source_id = source_id
        self.controller = controller
        self.affected = affected  # locked set (611.2c), or None: the ``where`` word decides
        self.where = where
        self.ability = ability  # the static ability generating it (its existence, 613.8a)
        self.group = group  # effects of one ability share the set they apply to (613.6)
        self.cda = verb == "set_base_pt_cda"
        self.color = color  # a colour word restricting ``where`` ("white creatures")

    def raw(self, name: str) -> str:
        """A string argument as written (text changes do not apply to a text change's own words)."""
        for key, value in self.args:
            if key == name:
                assert isinstance(value, str)
                return value
        raise KeyError(name)

    def arg(self, name: str, works: dict[int, Working], default: ArgValue | None = None) -> ArgValue | None:
        """An argument, with the source's text changes applied (612.2)."""
        for key, value in self.args:
            if key == name:
                if isinstance(value, str | tuple) and self.source_id in works:
                    return _substitute(value, works[self.source_id].text_changes)
                return value
        return default


def _substitute(value: ArgValue, changes: list[tuple[str, str]]) -> ArgValue:
    """612.2: a text-changing effect replaces words in the source's abilities."""
    if not changes:
        return value
    if isinstance(value, tuple):
        return tuple(_substitute(v, changes) for v in value if isinstance(v, str))  # type: ignore[return-value]
    if not isinstance(value, str):
        return value
    for old, new in changes:
        if value == old:
            return new
        if old in COLOR_WORDS and new in COLOR_WORDS and len(value) <= 5 and value.isupper():
            value = value.replace(COLOR_WORDS[old], COLOR_WORDS[new])
    return value


def _definition_abilities(defn: CardDefinition) -> list[AbilityRef]:
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


def _printed(w: Working, defn: CardDefinition) -> None:
    """Layer 1's starting point: the copiable values a definition prints (707.2)."""
    w.name = defn.name
    w.definition = defn.name
    w.mana_cost = defn.mana_cost
    w.colors = list(defn.colors)
    w.card_types = list(defn.card_types)
    w.subtypes = list(defn.subtypes)
    w.supertypes = list(defn.supertypes)
    w.keywords = list(defn.keywords)
    w.abilities = _definition_abilities(defn)
    w.power = defn.power
    w.toughness = defn.toughness
    w.loyalty = defn.loyalty


def _face_down(w: Working) -> None:
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


def _freeze(w: Working, cards: Mapping[str, CardDefinition]) -> Characteristics:
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


def _value(game: Game, eff: _Active, name: str, works: dict[int, Working], w: Working) -> int | None:
    v = eff.arg(name, works)
    if v is None:
        return None
    if isinstance(v, str):
        return VALUES[v](game, eff.controller, w)
    assert isinstance(v, int)
    return v


def _ints(value: ArgValue | None) -> tuple[int, ...]:
    return tuple(v for v in value if isinstance(v, int)) if isinstance(value, tuple) else ()


def _strs(value: ArgValue | None) -> tuple[str, ...]:
    return tuple(v for v in value if isinstance(v, str)) if isinstance(value, tuple) else ()


def _modify(game: Game, eff: _Active, works: dict[int, Working], w: Working) -> None:
    """Apply one layer primitive to one object."""
    verb = eff.verb
    if verb == "copy_of":
        of = eff.arg("of", works)
        assert isinstance(of, str)
        _printed(w, game.cards[of])
    elif verb == "gain_control":
        w.controller = eff.controller
    elif verb == "change_text":
        old, new = eff.raw("from"), eff.raw("to")
        w.text_changes.append((old, new))
    elif verb == "add_types":
        for field_name, key in (("card_types", "types"), ("subtypes", "subtypes"),
                                ("supertypes", "supertypes")):
            current: list[str] = getattr(w, field_name)
            current.extend(t for t in _strs(eff.arg(key, works)) if t not in current)
    elif verb == "remove_types":
        drop = set(_strs(eff.arg("types", works))) | set(_strs(eff.arg("subtypes", works)))
        w.card_types = [t for t in w.card_types if t not in drop]
        w.subtypes = [t for t in w.subtypes if t not in drop]
    elif verb == "set_types":
        w.card_types = list(_strs(eff.arg("types", works)))
        w.subtypes = list(_strs(eff.arg("subtypes", works)))
    elif verb == "set_colors":
        colors = eff.arg("colors", works)
        assert isinstance(colors, str)
        w.colors = [c for c in "WUBRG" if c in colors]
    elif verb == "add_colors":
        colors = eff.arg("colors", works)
        assert isinstance(colors, str)
        w.colors = [c for c in "WUBRG" if c in colors or c in w.colors]
    elif verb == "add_abilities":
        w.keywords.extend(k for k in _strs(eff.arg("keywords", works)) if k not in w.keywords)
        positions = _ints(eff.arg("abilities", works))
        if positions and eff.source is not None:
            src_def = game.cards[works[eff.source_id].definition if eff.source_id in works
                                 else eff.source.name]
            for ref in _definition_abilities(src_def):
                if ref.position in positions and ref not in w.abilities:
                    w.abilities.append(ref)
    elif verb == "lose_all_abilities":
        w.keywords = []
        w.abilities = []
    elif verb == "lose_abilities":
        drop = set(_strs(eff.arg("keywords", works)))
        w.keywords = [k for k in w.keywords if k not in drop]
    elif verb in ("set_base_pt_cda", "set_pt"):
        p = _value(game, eff, "power", works, w)
        t = _value(game, eff, "toughness", works, w)
        if p is not None:
            w.power = p
        if t is not None:
            w.toughness = t
    elif verb == "modify_pt":
        w.power = (w.power or 0) + (_value(game, eff, "power", works, w) or 0)
        w.toughness = (w.toughness or 0) + (_value(game, eff, "toughness", works, w) or 0)
    elif verb == "switch_pt":
        w.power, w.toughness = w.toughness, w.power
    else:  # pragma: no cover - the loader and add_effect admit only registered verbs
        raise AssertionError(verb)


def _copy(w: Working) -> Working:
    c = Working(w.obj, w.controller)
    for name in Working.__slots__:
        value = getattr(w, name)
        setattr(c, name, list(value) if isinstance(value, list) else value)
    return c


def _static_ability(game: Game, ref: AbilityRef) -> StaticAbility | None:
    for ability in game.cards[ref.definition].static:
        if ability.position == ref.position:
            return ability
    return None


class _Board:
    """One evaluation of every permanent's characteristics (613.1)."""

    def __init__(self, game: Game, ids: list[int]) -> None:
        self.game = game
        st = game.state
        self.works: dict[int, Working] = {}
        for oid in ids:
            obj = st.objects[oid]
            w = Working(obj, obj.controller)
            if obj.face_down:
                _face_down(w)
            else:
                _printed(w, game.cards[obj.name])
            self.works[oid] = w
        self.sets: dict[tuple[int, int], list[int]] = {}  # started groups -> objects (613.6)
        self.carried: dict[str, list[_Active]] = {}  # later-layer effects of started groups
        self.records: dict[str, list[_Active]] = {}
        for rec in st.effects:
            src = st.objects.get(rec.source) or st.lki.get(rec.source)
            self.records.setdefault(LAYER_VERBS[rec.verb].layer, []).append(_Active(
                rec.verb, rec.args, (rec.timestamp, 0, rec.id), src, rec.source, rec.controller,
                rec.affected, "", None, (rec.id, -1)))

    def statics(self, layer: str) -> list[_Active]:
        """The static abilities' effects in ``layer`` whose groups have not started yet: those
        of abilities the permanents have now (604.2: on the battlefield)."""
        out: list[_Active] = []
        for w in self.works.values():
            for ref in w.abilities:
                if ref.kind != "static" or (w.obj.id, ref.position) in self.sets:
                    continue
                ability = _static_ability(self.game, ref)
                if ability is None:
                    continue
                for k, eff in enumerate(ability.effects):
                    if LAYER_VERBS[eff.verb].layer == layer:
                        out.append(_Active(eff.verb, eff.args,
                                           (w.obj.timestamp, 1, ref.position * 64 + k), w.obj,
                                           w.obj.id, w.controller, None, ability.affected, ref,
                                           (w.obj.id, ref.position), ability.color))
        return out

    def exists(self, eff: _Active, works: dict[int, Working]) -> bool:
        """613.8a: a static ability's effect exists while its source has the ability."""
        if eff.ability is None or eff.group in self.sets:
            return True
        w = works.get(eff.source_id)
        return w is not None and eff.ability in w.abilities

    def applies_to(self, eff: _Active, works: dict[int, Working], w: Working) -> bool:
        assert eff.source is not None
        src = works.get(eff.source_id)
        if eff.color:
            word = _substitute(eff.color, src.text_changes if src is not None else [])
            if not isinstance(word, str) or COLOR_WORDS.get(word) not in w.colors:
                return False
        return AFFECTED[eff.where](self.game, eff.source,
                                   src.controller if src is not None else eff.controller, w)

    def targets(self, eff: _Active) -> list[Working]:
        if eff.affected is not None:
            return [self.works[i] for i in eff.affected if i in self.works]
        started = self.sets.get(eff.group)
        if started is not None:
            return [self.works[i] for i in started if i in self.works]
        if not self.exists(eff, self.works):
            return []
        return [w for w in self.works.values() if self.applies_to(eff, self.works, w)]

    def depends(self, a: _Active, b: _Active) -> bool:
        """613.8a: whether applying ``b`` would change ``a``'s existence, the set it applies to
        or what it does to them (only effects of static abilities not yet started can)."""
        if a.affected is not None or a.group in self.sets or a.cda != b.cda:
            return False
        for w in self.targets(b):
            trial = _copy(w)
            _modify(self.game, b, self.works, trial)
            works = dict(self.works)
            works[w.obj.id] = trial
            if self.exists(a, self.works) != self.exists(a, works):
                return True
            if self.exists(a, self.works):
                if self.applies_to(a, self.works, w) != self.applies_to(a, works, trial):
                    return True
        return False

    def apply(self, eff: _Active) -> None:
        objs = self.targets(eff)
        if eff.affected is None and eff.group not in self.sets:
            if not objs and not self.exists(eff, self.works):
                return
            # 613.6: the ability's effects in later layers apply to this same set.
            self.sets[eff.group] = [w.obj.id for w in objs]
            if eff.ability is not None:
                ability = _static_ability(self.game, eff.ability)
                assert ability is not None
                later = LAYERS[LAYERS.index(eff.layer) + 1:]
                for k, e in enumerate(ability.effects):
                    layer = LAYER_VERBS[e.verb].layer
                    if layer in later:
                        self.carried.setdefault(layer, []).append(_Active(
                            e.verb, e.args, (eff.order[0], 1, eff.ability.position * 64 + k),
                            eff.source, eff.source_id, eff.controller, None, eff.where,
                            eff.ability, eff.group, eff.color))
        for w in objs:
            _modify(self.game, eff, self.works, w)

    def run(self) -> dict[int, Working]:
        for layer in LAYERS:
            pending = self.records.get(layer, []) + self.carried.get(layer, []) + self.statics(layer)
            pending.sort(key=lambda e: e.order)
            while pending:
                pick = 0
                if len(pending) > 1 and any(e.affected is None for e in pending):
                    # 613.8b: apply an effect that depends on none of the others, earliest first;
                    # in a loop, timestamp order. 613.8c: reconsider after each one.
                    for i, a in enumerate(pending):
                        if not any(self.depends(a, b) for b in pending if b is not a):
                            pick = i
                            break
                self.apply(pending.pop(pick))
            if layer == "7c":
                for w in self.works.values():
                    # 613.4c: +1/+1 and -1/-1 counters.
                    n = w.obj.counters.get("+1/+1", 0) - w.obj.counters.get("-1/-1", 0)
                    if n and w.power is not None and w.toughness is not None:
                        w.power += n
                        w.toughness += n
                    elif n and "Creature" in w.card_types:
                        w.power = (w.power or 0) + n
                        w.toughness = (w.toughness or 0) + n
        return self.works


def _single(game: Game, obj: GameObject) -> Characteristics:
    """An object off the battlefield: printed values and its characteristic-defining
    abilities (604.3); a face-down spell per 708.2a."""
    defn = game.cards[obj.name]
    if not (obj.face_down or defn.static) and not any(obj.id in rec.affected
                                                      for rec in game.state.effects):
        return _printed_values(game, obj)
    w = Working(obj, obj.controller)
    if obj.face_down:
        _face_down(w)
        return _freeze(w, game.cards)
    _printed(w, defn)
    for rec in game.state.effects:
        if rec.verb == "copy_of" and obj.id in rec.affected:  # a spell entering as a copy
            of = rec.get("of")
            assert isinstance(of, str)
            _printed(w, game.cards[of])
    cdas = [a for a in game.cards[w.definition].static if a.is_cda]
    for ability in cdas:
        for eff in ability.effects:
            act = _Active(eff.verb, eff.args, (obj.timestamp, 1, ability.position), obj, obj.id,
                          obj.controller, (obj.id,), "self", None, (obj.id, ability.position))
            _modify(game, act, {obj.id: w}, w)
    return _freeze(w, game.cards)


def _matches(game: Game, word: str, source: GameObject, obj: GameObject) -> bool:
    """Whether ``obj`` (on the battlefield) is what an ``AFFECTED`` word names now."""
    c = characteristics(game, obj)
    w = Working(obj, c.controller)
    w.card_types, w.colors = list(c.card_types), list(c.colors)
    return AFFECTED[word](game, source, game.controller(source), w)


def choose_copy(game: Game, spell: GameObject) -> Proc[int]:
    """614.1c/707.2: "you may have [this] enter as a copy of any creature on the battlefield":
    its controller chooses one (or none) as it resolves; returns the original's id or 0. The
    copy effect starts on the spell at once, so what checks it before it enters (608.3e) sees
    the copy; ``move_object(copy_of=...)`` gives the permanent its own."""
    word = game.cards[spell.name].enters_as_copy
    if not word:
        return 0
    st = game.state
    cands = [i for i in st.battlefield if _matches(game, word, spell, st.objects[i])]
    picked = yield from game.ask_choose(
        spell.controller, f"707.2: you may have {spell.name} enter as a copy of a permanent "
        "on the battlefield (choose none to decline)", cands, 0, 1)
    if not picked or picked[0] not in st.objects:
        return 0
    become_copy(game, spell, st.objects[picked[0]], spell)
    return picked[0]


def _printed_values(game: Game, obj: GameObject) -> Characteristics:
    """A face-up permanent no effect touches: its printed values, its controller and counters
    (shared between objects and epochs: they depend on nothing else)."""
    plus, minus = obj.counters.get("+1/+1", 0), obj.counters.get("-1/-1", 0)
    key = (obj.name, obj.controller, plus - minus, obj.x if obj.zone == "stack" else 0)
    found = game.layer_templates.get(key)
    if found is None:
        w = Working(obj, obj.controller)
        _printed(w, game.cards[obj.name])
        if plus != minus and w.power is not None and w.toughness is not None:
            w.power += plus - minus
            w.toughness += plus - minus
        found = game.layer_templates[key] = _freeze(w, game.cards)
    return found


_STABLE_ZONES = frozenset({"hand", "library", "graveyard", "exile"})


def _evaluate_battlefield(game: Game) -> None:
    """Fill the cache for every permanent. With no static ability on the battlefield (nor a copy
    or granted ability that could bring one), effects touch only their locked objects, and every
    other permanent has its printed values: only the touched ones go through the layers."""
    st = game.state
    cache = game.layer_cache
    cards = game.cards
    touched: set[int] = set()
    complex_board = False
    for rec in st.effects:
        touched.update(rec.affected)
        if rec.verb == "copy_of" or (rec.verb == "add_abilities" and rec.get("abilities")):
            complex_board = True
    ids = st.battlefield
    objects = st.objects
    evaluate: list[int] = []
    if not complex_board:
        # One pass: the printed values of every untouched permanent (its ``layer_templates``
        # entry, looked up here as ``_printed_values`` would: on the battlefield X is 0); a
        # static ability anywhere makes the whole board go through the layers instead (the
        # entries written so far are then overwritten below).
        templates = game.layer_templates
        for oid in ids:
            obj = objects[oid]
            if obj.face_down:
                evaluate.append(oid)
                continue
            name = obj.name
            if cards[name].static:
                complex_board = True
                break
            if oid in touched:
                evaluate.append(oid)
                continue
            counters = obj.counters
            found = templates.get((name, obj.controller, counters.get("+1/+1", 0) - counters.get("-1/-1", 0)
                                   if counters else 0, 0))
            cache[oid] = found if found is not None else _printed_values(game, obj)
    if complex_board:
        evaluate = list(ids)
    if evaluate:
        for oid, w in _Board(game, evaluate).run().items():
            cache[oid] = _freeze(w, game.cards)


class LayerCache(dict[int, "Characteristics"]):
    """Characteristics by object id for the current epoch (``Game.layer_cache``): a lookup that
    misses computes them (``characteristics``), so the hot path is one dict subscript."""

    __slots__ = ("game", "step_triggers")

    def __init__(self, game: Game) -> None:
        super().__init__()
        self.game = game
        self.step_triggers: tuple[int, tuple[tuple[int, str, TriggeredAbility], ...]] = (-1, ())
        """(epoch, entries): the "at the beginning of" triggered abilities permanents have in
        that epoch, as (object id, definition, ability) in battlefield order (``trigger_step``:
        entering, leaving and every change of abilities move the epoch)."""

    def __missing__(self, oid: int) -> Characteristics:
        st = self.game.state
        obj = st.objects.get(oid) or st.lki.get(oid)
        if obj is None:
            raise KeyError(f"object #{oid} is in no zone and has no last known information")
        return characteristics(self.game, obj)


def characteristics(game: Game, obj: GameObject) -> Characteristics:
    """613: ``obj``'s characteristics now, every continuous effect applied in layer order.

    Objects on the battlefield are evaluated together (effects may depend on each other, 613.8);
    an object in another zone has its printed values with its characteristic-defining abilities
    applied (604.3); an object that has left the battlefield, its values as it last existed
    there (603.10, 608.2h). Cached until the epoch moves (``Game.changed``).
    """
    cache = game.layer_cache
    found = cache.get(obj.id)
    if found is not None:
        return found
    found = game.stable_cache.get(obj.id)
    if found is not None:
        cache[obj.id] = found
        return found
    st = game.state
    live = st.objects.get(obj.id)
    if live is None:
        last = st.lki_characteristics.get(obj.id)
        return last if last is not None else _single(game, obj)
    if live.zone == "battlefield":
        _evaluate_battlefield(game)
        found = cache.get(obj.id)
        if found is not None:
            return found
    found = _single(game, live)
    cache[obj.id] = found
    if (live.zone in _STABLE_ZONES and not live.face_down
            and not game.cards[live.name].static):
        # A card with no static ability in a hand, library, graveyard or exile keeps its printed
        # values until it changes zones (a new object, 400.7): no epoch can change them.
        game.stable_cache[obj.id] = found
    return found


def reads_zone_sizes(game: Game) -> bool:
    """Whether some object in the game has a static ability whose value counts cards in a zone
    (``VALUES``: Maro's "cards in your hand"): then every zone change moves the epoch."""
    if game.reads_zones:
        return True  # once one reads, it stays so
    st = game.state
    if game.zone_scan_id == st.next_id and not st.effects:
        return False  # nothing new since the last look
    # Only objects created since the last look (ids only grow): once one reads, it stays so.
    for oid in range(game.zone_scan_id, st.next_id):
        obj = st.objects.get(oid)
        if obj is not None and _reads_values(game, obj.name):
            game.reads_zones = True
            return True
    game.zone_scan_id = st.next_id
    if st.effects and any(rec.verb == "copy_of" and _reads_values(game, str(rec.get("of")))
                          for rec in st.effects):
        game.reads_zones = True
    return game.reads_zones


def _reads_values(game: Game, name: str) -> bool:
    """Whether a static ability of the card ``name`` counts cards in a zone (kept by name)."""
    found = game.value_readers.get(name)
    if found is None:
        found = game.value_readers[name] = any(
            isinstance(v, str) and v in VALUES and v != "mana_value"
            for a in game.cards[name].static for e in a.effects for _, v in e.args)
    return found


def as_it_would_enter(game: Game, obj: GameObject) -> Characteristics:
    """614.12: the characteristics of ``obj`` (a card or spell about to enter the battlefield) as
    it would exist there: the continuous effects that already exist and would apply to it
    (Dress Down's "Creatures lose all abilities") and those of its own static abilities, with
    the permanents there now (not cached: nothing has entered yet)."""
    if obj.zone == "battlefield":
        return characteristics(game, obj)
    ids = [*game.state.battlefield, obj.id]
    return _freeze(_Board(game, ids).run()[obj.id], game.cards)


def snapshot_leaving(game: Game, obj: GameObject) -> None:
    """603.10/608.2h: keep a permanent's characteristics as it last existed on the battlefield
    (call just before it leaves)."""
    if obj.zone == "battlefield":
        game.state.lki_characteristics[obj.id] = characteristics(game, obj)


def add_effect(game: Game, effect: ContinuousEffect) -> None:
    """611.2: a resolved spell or ability's continuous effect starts (bumps the epoch)."""
    if effect.verb not in LAYER_VERBS or effect.duration not in DURATIONS:
        raise ValueError(f"unknown layer verb or duration in {effect!r}")
    game.state.effects.append(effect)
    game.changed()


def end_effects(game: Game, test: Callable[[ContinuousEffect], bool]) -> None:
    """Remove every effect record ``test`` accepts (their duration ended; bumps the epoch)."""
    st = game.state
    kept = [e for e in st.effects if not test(e)]
    if len(kept) != len(st.effects):
        st.effects = kept
        game.changed()


def add_counters(game: Game, obj: GameObject, kind: str, n: int) -> None:
    """122.1: put ``n`` counters (negative: remove, never below 0) of ``kind`` on ``obj``
    (bumps the epoch). The only way counters change."""
    have = obj.counters.get(kind, 0)
    new = max(0, have + n)
    if new == have:
        return
    if new:
        if obj.counters is NO_COUNTERS:  # its first counter: its own dict (the shared one is fixed)
            obj.counters = {}
        obj.counters[kind] = new
    else:
        obj.counters.pop(kind, None)
    game.changed()  # 704.5f-i, q, r look at every permanent


def become_copy(game: Game, obj: GameObject, original: GameObject, source: GameObject) -> None:
    """707.2/613.2: ``obj`` becomes a copy of ``original``'s copiable values (layer 1,
    indefinitely: until it leaves its zone). Used by "enter as a copy" replacements; the
    copiable values are the original's after its own copy effects (707.2), fixed now."""
    of = characteristics(game, original).definition
    add_effect(game, new_effect(game, "copy_of", (("of", of),), (obj.id,), source, "indefinite"))


def new_effect(game: Game, verb: str, args: tuple[tuple[str, ArgValue], ...],
               affected: tuple[int, ...], source: GameObject, duration: str, *,
               controller: int | None = None, duration_seat: int | None = None) -> ContinuousEffect:
    """A new effect record with a fresh timestamp (613.7b); start it with ``add_effect``.

    ``controller`` defaults to the source's controller; ``duration_seat`` (for
    ``your_next_turn``) to the same player.
    """
    ts = game.state.new_timestamp()
    you = game.controller(source) if controller is None else controller
    return ContinuousEffect(ts, ts, verb, tuple(sorted(args)), affected, source.id, source.name,
                            you, duration, you if duration_seat is None else duration_seat)


def end_durations(game: Game, moment: str) -> None:
    """514.2/611.2b: end the effects whose duration ends at ``moment``: ``cleanup`` (until end
    of turn) or ``turn_start`` (until the new active player's next turn)."""
    active = game.state.active
    if moment == "cleanup":
        end_effects(game, lambda e: e.duration == "end_of_turn")
    elif moment == "turn_start":
        end_effects(game, lambda e: e.duration == "your_next_turn" and e.duration_seat == active)
    else:
        raise ValueError(moment)


def end_with_source(game: Game, source_id: int) -> None:
    """611.2b: "for as long as [source] remains on the battlefield" ends when it leaves."""
    end_effects(game, lambda e: e.duration == "source_on_battlefield" and e.source == source_id)
