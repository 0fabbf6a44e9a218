"""Layers and continuous effects (611, 612, 613, 707 copies, 708.2 face-down values): what an
object is right now.

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
the state package): ``id``, ``timestamp``, ``verb`` (a layer primitive, below) and its ``args``,
``source`` (object id) and ``source_name``, ``controller`` (whose "you" it means),
``affected`` (611.2c: a locked tuple of object ids; an object that changes zones is a new
object and is no longer affected) and ``duration``:

- ``end_of_turn``: "until end of turn", ends in the cleanup step (514.2);
- ``your_next_turn``: "until your next turn", ends as ``duration_seat``'s next turn begins
  (611.2b);
- ``source_on_battlefield``: "for as long as [the source] remains on the battlefield"
  (611.2b: also ends if the source leaves before it resolves);
- ``indefinite``: until its affected objects leave (e.g. "gain control of target creature");
- ``end_of_your_next_turn``: "until the end of your next turn": as ``duration_seat``'s next
  turn begins it becomes ``end_of_turn``, and ends in that turn's cleanup step.

A record's verb may instead be a rule-changing one (``RULE_EFFECT_VERBS``, 613.11: "target
creature can't block this turn"): it changes no characteristic, is applied in no layer, and is
asked where the rule it changes is checked (the legality package's restrictions). Those of
``PLAYER_RULE_EFFECT_VERBS`` lock onto players ("until your next turn, you may cast sorcery
spells as though they had flash": their refs are its ``affected``) and are permissions.

Static abilities (604, 611.3) create no record: their effects exist while their source is on the
battlefield with the ability (after layer 6) and their ``affected`` filter is evaluated
continuously (611.3a), at the layer where each effect first applies.

Create and end effects only through ``add_effect`` / ``end_effects``; they bump the epoch.

Card data and layer verbs
-------------------------
The layer verbs (``LAYER_VERBS``, each with its layer, arguments and apply function), the
``affected`` words (``AFFECTED``) and value words (``VALUES``) are in ``_vocabulary``, with the
card data format for static abilities.

Copies: ``enters_as_copy = { text = "...", of = "creatures" }`` on a card ("you may have Clone
enter as a copy of any creature on the battlefield", 614.1c/707.2) is a replacement effect of
every move onto the battlefield (the replacement package: the player it enters under chooses
the permanent, or none, as it enters); a resolving spell takes the copy effect at once (so
608.3e's checks see the copy) and ``move_object`` gives the permanent its own, before its
enters abilities trigger. ``become_copy`` is the primitive.

Targets: ``{ kind = "permanent", per_opponent = true }`` is "for each opponent, target
permanent that player controls" (601.2c): one target per opponent with a legal one.

Cache
-----
Characteristics are cached per game (``Game.caches.layers``, a ``LayerCache``: a miss computes)
and the cache is dropped whenever the epoch moves: ``Game.changed()`` is called by every
mutation that can matter (zone changes in the zones package: ``create_object``, ``move_object``, when
the battlefield is one of the zones or some static ability counts cards in a zone,
``reads_zone_sizes``; effects added or ended: ``add_effect``,
``end_effects``, ``end_durations``; counters: ``add_counters``). Whoever changes
``obj.attached_to``, ``obj.timestamp``, ``obj.face_down`` or ``obj.counters`` directly must call
``game.changed()``. A permanent no effect touches shares a printed template
(``Caches.templates``); a card in a hand, library, graveyard or exile with no static ability
is cached for as long as it stays there (``Caches.stable``; a new epoch keeps those entries).

Control
-------
``GameObject.controller`` is the controller an object was cast or put onto the battlefield
under (110.2, 108.4); the current controller is ``Game.controller(obj)`` (layer 2), and
``Game.controlled(seat)`` lists the permanents a player controls now. Read those, never the
field, for permanents.
"""

from ._cache import LayerCache
from ._changes import (
    add_counters,
    add_effect,
    become_copy,
    end_durations,
    end_effects,
    end_with_source,
    new_effect,
    snapshot_leaving,
)
from ._engine import as_it_would_enter, characteristics, reads_zone_sizes
from ._host import LayerCaches, LayerHost
from ._vocabulary import (
    AFFECTED,
    DURATIONS,
    LAYER_ARG_KINDS,
    LAYER_VERBS,
    LIST_KINDS,
    PLAYER_RULE_EFFECT_VERBS,
    REQUIRED_ARGS,
    RULE_EFFECT_VERBS,
    is_value,
)
from ._working import Working

__all__ = [
    "AFFECTED",
    "DURATIONS",
    "LAYER_ARG_KINDS",
    "LAYER_VERBS",
    "LIST_KINDS",
    "PLAYER_RULE_EFFECT_VERBS",
    "REQUIRED_ARGS",
    "RULE_EFFECT_VERBS",
    "LayerCache",
    "LayerCaches",
    "LayerHost",
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
