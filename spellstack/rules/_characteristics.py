"""The characteristics engine: what an object is right now (613, continuous effects 611).

One function answers it: ``characteristics(game, obj) -> Characteristics``. Every reader in the
kernel (targets, SBAs, triggers, combat, legal actions, casting, mana abilities, the player's
view, scenario expectations) asks it, directly or through ``Game``'s query methods
(``card_types``, ``is_type``, ``is_creature``, ``colors``, ``keywords``, ``has_keyword``,
``is_legendary``, ``power``, ``toughness``, ``subtypes``, ``supertypes``, ``abilities``,
``has_ability``, ``controller``, ``controlled``, ``mana_value``); nothing reads a definition's
printed characteristics for an object in a zone any more.

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
(613.7b); a static ability's, its source's timestamp (613.7a) or, for an Aura, Equipment or
Role, when it was attached (613.7e: the attachment part sets ``attach_timestamp``). 613.6: an
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

Cache
-----
Characteristics are cached per game (``Game.layer_cache``) and the cache is dropped whenever the
epoch moves: ``changed(game)`` is called by every mutation that can matter (zone changes in
``_zones``, effects added or ended, counters via ``add_counters``, attachment, the step for
durations). Never mutate ``obj.counters``, ``obj.attached_to`` or ``GameState.effects``
without it.

Control
-------
``GameObject.controller`` is the controller an object was cast or put onto the battlefield
under (110.2, 108.4); the current controller is ``Game.controller(obj)`` (layer 2), and
``Game.controlled(seat)`` lists the permanents a player controls now. Read those, never the
field, for permanents.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ._mana import ManaCost

if TYPE_CHECKING:
    from ._game import Game
    from ._state import ContinuousEffect, GameObject

__all__ = [
    "AFFECTED",
    "DURATIONS",
    "LAYERS",
    "LAYER_VERBS",
    "VALUES",
    "AbilityRef",
    "Characteristics",
    "LayerVerbSpec",
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

VALUES: dict[str, Callable[[Game, ContinuousEffect | None, GameObject, GameObject], int]] = {}
"""Words a value argument may use; filled below: (game, record or None, source, affected) -> int."""

AFFECTED: dict[str, Callable[..., bool]] = {}
"""The closed registry of ``affected`` words for static abilities; filled below."""


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


def characteristics(game: Game, obj: GameObject) -> Characteristics:
    """613: ``obj``'s characteristics now, every continuous effect applied in layer order.

    Objects on the battlefield are evaluated together (effects may depend on each other); an
    object in another zone has its printed values (or, on the stack, its copiable values)
    with characteristic-defining abilities applied (604.3). Cached until the epoch moves.
    """
    raise NotImplementedError


def add_effect(game: Game, effect: ContinuousEffect) -> None:
    """611.2: a resolved spell or ability's continuous effect starts (bumps the epoch)."""
    raise NotImplementedError


def end_effects(game: Game, test: Callable[[ContinuousEffect], bool]) -> None:
    """Remove every effect record ``test`` accepts (their duration ended; bumps the epoch)."""
    raise NotImplementedError


def add_counters(game: Game, obj: GameObject, kind: str, n: int) -> None:
    """122.1: put ``n`` counters (negative: remove) of ``kind`` on ``obj`` (bumps the epoch)."""
    raise NotImplementedError


def become_copy(game: Game, obj: GameObject, original: GameObject, source: GameObject) -> None:
    """707.2/613.2: ``obj`` becomes a copy of ``original``'s copiable values (layer 1,
    indefinitely: until it leaves its zone). Used by "enter as a copy" replacements."""
    raise NotImplementedError


def end_durations(game: Game, moment: str) -> None:
    """514.2/611.2b: end the effects whose duration ends at ``moment``: ``cleanup`` (until end
    of turn) or ``turn_start`` (until the new active player's next turn)."""
    raise NotImplementedError
