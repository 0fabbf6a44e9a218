"""The layer engine's vocabulary, the closed registries card data is checked against on load: layer
verbs, each with its layer and the function that applies it (``LAYER_VERBS``, 613.1, 613.4),
``affected`` words (``AFFECTED``, 611.3a), value words (``VALUES``) and argument kinds.

Card data format for static abilities::

    [[card.static]]
    text = "All lands are 2/2 creatures that are still lands."   # a quote from the Oracle text
    affected = "lands"                                           # a word from AFFECTED
    effects = [
      { verb = "add_types", types = ["Creature"] },              # verbs from LAYER_VERBS
      { verb = "set_pt", power = 2, toughness = 2 },
    ]

Layer verbs (``LAYER_VERBS``; each names its layer; arguments are checked at load):

- ``copy_of`` (1): ``of`` = a definition name (set by ``become_copy``, not card data; empty
  for a face-down original), ``except_supertypes`` = supertypes a copied exception removes,
  ``merged`` = the names of a copied merged permanent's other cards (725.2)
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

A static ability may add ``color = "white"`` ("white creatures get +1/+1"): only objects of that
colour word are affected (a text-changing effect can change the word). The same verbs create
effects at resolution (the effects package): each layer verb is also an effect verb taking
``what`` (an object word) and optionally ``until`` (a duration from ``DURATIONS``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Final

from ..base import CARD_TYPES, SUPERTYPES
from ..definitions import ArgValue, CardDefinition, definition_named
from ..state import AbilityRef, ContinuousEffect, GameObject
from ._host import LayerHost
from ._working import TEXT_WORDS, Working, definition_abilities, set_copied, substitute

LAYERS: Final[tuple[str, ...]] = ("1", "2", "3", "4", "5", "6", "7a", "7b", "7c", "7d")
"""613.1, 613.4: the layers and sublayers, in the order they apply."""

DURATIONS: Final[frozenset[str]] = frozenset({"end_of_turn", "your_next_turn", "source_on_battlefield",
                                       "indefinite", "end_of_your_next_turn"})
"""611.2a/611.2b: how long a resolved spell or ability's continuous effect lasts."""

RULE_EFFECT_VERBS: Final[dict[str, str]] = {
    "cant_block": "509.1b",
    "cant_attack": "508.1c",
    "cast_as_though_flash": "702.8a",
    "may_play": "601.2a",
}
"""613.11: continuous effects of resolved spells and abilities that change the game's rules for
the objects or players they lock onto ("target creature can't block this turn", "until your next
turn, you may cast sorcery spells as though they had flash") rather than characteristics: kept
with the layer effects (``GameState.effects``, ending as those do), never applied in a layer;
each with the rule where it is checked (legality's restrictions and permissions ask them).
``may_play`` locks onto cards in exile: their effect's controller may play them (a land, 305.1;
a spell, 601.2a) while the effect lasts ("you may play the exiled cards until the end of your
next turn")."""

PLAYER_RULE_EFFECT_VERBS: Final[frozenset[str]] = frozenset({"cast_as_though_flash"})
"""The rule-changing verbs whose effects lock onto players (611.2c: the players ``who`` names as
it resolves; their refs are the record's ``affected``) rather than objects; a permission (101.2):
``filter`` (a restriction filter word) says which spells they may cast as though they had flash."""





AffectedTest = Callable[[LayerHost, GameObject, int, Working], bool]
"""(game, the effect's source, the effect's controller, a candidate) -> whether it is affected."""
ValueOf = Callable[[LayerHost, int, Working], int]
"""(game, the effect's controller, the affected object) -> the value."""


def _is(card_type: str) -> Callable[[Working], bool]:
    return lambda w: card_type in w.card_types


def _creature(w: Working) -> bool:
    return "Creature" in w.card_types


AFFECTED: Final[dict[str, AffectedTest]] = {
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


def _cards_in_hand(game: LayerHost, you: int, w: Working) -> int:
    return len(game.state.players[you].hand)


def _own_mana_value(game: LayerHost, you: int, w: Working) -> int:
    return w.mana_cost.mana_value(w.obj.x if w.obj.zone == "stack" else 0) if w.mana_cost else 0


VALUES: Final[dict[str, ValueOf]] = {
    "cards_in_hand": _cards_in_hand,
    "mana_value": _own_mana_value,
}
"""Words a ``value`` argument may use instead of an int."""


def is_value(v: object) -> bool:
    """Whether ``v`` is a valid ``value`` argument: an int or a word from ``VALUES``."""
    return (isinstance(v, int) and not isinstance(v, bool)) or (isinstance(v, str) and v in VALUES)


def _tuple_of(test: Callable[[object], bool]) -> Callable[[object], bool]:
    return lambda v: isinstance(v, tuple) and all(test(x) for x in v)


LAYER_ARG_KINDS: Final[dict[str, Callable[[object], bool]]] = {
    "name": lambda v: isinstance(v, str) and bool(v),
    "text_word": lambda v: isinstance(v, str) and v in TEXT_WORDS,
    "types": _tuple_of(lambda t: t in CARD_TYPES),
    "supertypes": _tuple_of(lambda t: t in SUPERTYPES),
    "words": _tuple_of(lambda t: isinstance(t, str) and bool(t)),
    "colors": lambda v: isinstance(v, str) and all(c in "WUBRG" for c in v),
    "keywords": _tuple_of(lambda t: isinstance(t, str) and bool(t) and t == t.lower()),
    "positions": _tuple_of(lambda t: isinstance(t, int) and not isinstance(t, bool) and t >= 1),
    "value": is_value,
}
"""How each layer verb argument kind is checked when a card file is loaded."""
LIST_KINDS: Final[frozenset[str]] = frozenset({"types", "supertypes", "words", "keywords", "positions"})
"""Argument kinds written as lists in card files (held as tuples)."""
REQUIRED_ARGS: Final[frozenset[str]] = frozenset({"from", "to", "colors", "of"})
"""Arguments a layer verb that takes them can't do without."""


# ----------------------------------------------------------------------------- evaluation


class ActiveEffect:
    """One effect taking part in an evaluation: a record's, or one effect of a static ability."""

    __slots__ = ("ability", "affected", "apply", "args", "cda", "color", "controller", "group",
                 "layer", "order", "source", "source_id", "verb", "where")

    def __init__(self, verb: str, args: tuple[tuple[str, ArgValue], ...], order: tuple[int, int, int],
                 source: GameObject | None, source_id: int, controller: int,
                 affected: tuple[int, ...] | None, where: str, ability: AbilityRef | None,
                 group: tuple[int, int], color: str = "") -> None:
        self.verb = verb
        spec = LAYER_VERBS[verb]
        self.layer = spec.layer
        self.apply = spec.apply  # what the verb does to one object
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
                    return substitute(value, works[self.source_id].text_changes)
                return value
        return default


def _value(game: LayerHost, eff: ActiveEffect, name: str, works: dict[int, Working], w: Working) -> int | None:
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


LayerApply = Callable[[LayerHost, "ActiveEffect", dict[int, Working], Working], None]
"""What a layer verb does to one object: (game, the effect, every object's working values by
id, the object's working values, changed in place)."""


@dataclass(frozen=True, slots=True)
class LayerVerbSpec:
    """A layer primitive: the layer it applies in, its arguments, and what it does."""

    layer: str
    """The layer or sublayer (``LAYERS``)."""
    rule: str
    """The rule it implements."""
    args: dict[str, str]
    """Argument name -> kind (``LAYER_ARG_KINDS``: ``value``, ``types``, ``colors``, ...)."""
    apply: LayerApply
    """What it does to one object it applies to."""
    default_until: str = "end_of_turn"
    """Its duration when a resolving spell creates it without saying (611.2a)."""


# ------------------------------------------------------------------- what each verb does


def _copy_of(game: LayerHost, eff: ActiveEffect, works: dict[int, Working], w: Working) -> None:
    """707.2: its copiable values become those the named definition prints, less the
    ``except_supertypes`` of a copied exception (707.9b); a copy of a face-down permanent
    (``of`` empty) takes the face-down values (708.2a), face up."""
    of = eff.raw("of")
    set_copied(w, definition_named(game.cards, of), _strs(eff.arg("except_supertypes", works, ())),
               copied_under(game.cards, eff))


def copied_under(cards: Mapping[str, CardDefinition], eff: ActiveEffect | ContinuousEffect,
                 ) -> tuple[CardDefinition, ...]:
    """725.2, 707.2: the other cards of the merged permanent a copy effect copied (its ``merged``
    argument, names under the top), whose abilities are part of the copiable values."""
    for key, value in eff.args:
        if key == "merged":
            assert isinstance(value, tuple)
            return tuple(cards[str(n)] for n in value)
    return ()


def _gain_control(game: LayerHost, eff: ActiveEffect, works: dict[int, Working], w: Working) -> None:
    """613.1b: the effect's controller controls it."""
    w.controller = eff.controller


def _change_text(game: LayerHost, eff: ActiveEffect, works: dict[int, Working], w: Working) -> None:
    """612.2: one word of its abilities' text becomes another (as written: a text change's own
    words are not changed by other text changes)."""
    w.text_changes.append((eff.raw("from"), eff.raw("to")))


def _add_types(game: LayerHost, eff: ActiveEffect, works: dict[int, Working], w: Working) -> None:
    """205.1b: it gains card types, subtypes and supertypes "in addition to its other types"."""
    for field_name, key in (("card_types", "types"), ("subtypes", "subtypes"),
                            ("supertypes", "supertypes")):
        current: list[str] = getattr(w, field_name)
        current.extend(t for t in _strs(eff.arg(key, works)) if t not in current)


def _remove_types(game: LayerHost, eff: ActiveEffect, works: dict[int, Working], w: Working) -> None:
    """613.1d: it loses card types and subtypes."""
    drop = set(_strs(eff.arg("types", works))) | set(_strs(eff.arg("subtypes", works)))
    w.card_types = [t for t in w.card_types if t not in drop]
    w.subtypes = [t for t in w.subtypes if t not in drop]


def _set_types(game: LayerHost, eff: ActiveEffect, works: dict[int, Working], w: Working) -> None:
    """205.1a: "becomes a ...": its card types (and subtypes) are replaced."""
    w.card_types = list(_strs(eff.arg("types", works)))
    w.subtypes = list(_strs(eff.arg("subtypes", works)))


def _set_colors(game: LayerHost, eff: ActiveEffect, works: dict[int, Working], w: Working) -> None:
    """105.3: it becomes these colours ("" = colourless)."""
    colors = eff.arg("colors", works)
    assert isinstance(colors, str)
    w.colors = [c for c in "WUBRG" if c in colors]


def _add_colors(game: LayerHost, eff: ActiveEffect, works: dict[int, Working], w: Working) -> None:
    """105.3: it is these colours in addition to its others."""
    colors = eff.arg("colors", works)
    assert isinstance(colors, str)
    w.colors = [c for c in "WUBRG" if c in colors or c in w.colors]


def _add_abilities(game: LayerHost, eff: ActiveEffect, works: dict[int, Working], w: Working) -> None:
    """613.1f: it gains keyword abilities and printed abilities of the source's definition."""
    w.keywords.extend(k for k in _strs(eff.arg("keywords", works)) if k not in w.keywords)
    positions = _ints(eff.arg("abilities", works))
    if positions and eff.source is not None:
        src_def = game.cards[works[eff.source_id].definition if eff.source_id in works
                             else eff.source.name]
        for ref in definition_abilities(src_def):
            if ref.position in positions and ref not in w.abilities:
                w.abilities.append(ref)


def _lose_all_abilities(game: LayerHost, eff: ActiveEffect, works: dict[int, Working], w: Working) -> None:
    """613.1f: it loses every ability."""
    w.keywords = []
    w.abilities = []


def _lose_abilities(game: LayerHost, eff: ActiveEffect, works: dict[int, Working], w: Working) -> None:
    """613.1f: it loses these keyword abilities."""
    drop = set(_strs(eff.arg("keywords", works)))
    w.keywords = [k for k in w.keywords if k not in drop]


def _set_pt(game: LayerHost, eff: ActiveEffect, works: dict[int, Working], w: Working) -> None:
    """613.4a/613.4b: its power and/or toughness become values (either may be left out)."""
    p = _value(game, eff, "power", works, w)
    t = _value(game, eff, "toughness", works, w)
    if p is not None:
        w.power = p
    if t is not None:
        w.toughness = t


def _modify_pt(game: LayerHost, eff: ActiveEffect, works: dict[int, Working], w: Working) -> None:
    """613.4c: its power and toughness go up or down (default 0)."""
    w.power = (w.power or 0) + (_value(game, eff, "power", works, w) or 0)
    w.toughness = (w.toughness or 0) + (_value(game, eff, "toughness", works, w) or 0)


def _switch_pt(game: LayerHost, eff: ActiveEffect, works: dict[int, Working], w: Working) -> None:
    """613.4d: its power and toughness are switched."""
    w.power, w.toughness = w.toughness, w.power


_PT: Final = {"power": "value", "toughness": "value"}

LAYER_VERBS: Final[dict[str, LayerVerbSpec]] = {
    "copy_of": LayerVerbSpec("1", "707.2", {"of": "name", "except_supertypes": "supertypes",
                                            "merged": "words"},
                             _copy_of, "indefinite"),
    "gain_control": LayerVerbSpec("2", "613.1b", {}, _gain_control, "indefinite"),
    "change_text": LayerVerbSpec("3", "612.2", {"from": "text_word", "to": "text_word"}, _change_text),
    "add_types": LayerVerbSpec("4", "205.1b", {"types": "types", "subtypes": "words",
                                               "supertypes": "words"}, _add_types),
    "remove_types": LayerVerbSpec("4", "613.1d", {"types": "types", "subtypes": "words"}, _remove_types),
    "set_types": LayerVerbSpec("4", "205.1a", {"types": "types", "subtypes": "words"}, _set_types),
    "set_colors": LayerVerbSpec("5", "105.3", {"colors": "colors"}, _set_colors),
    "add_colors": LayerVerbSpec("5", "105.3", {"colors": "colors"}, _add_colors),
    "add_abilities": LayerVerbSpec("6", "613.1f", {"keywords": "keywords", "abilities": "positions"},
                                   _add_abilities),
    "lose_all_abilities": LayerVerbSpec("6", "613.1f", {}, _lose_all_abilities),
    "lose_abilities": LayerVerbSpec("6", "613.1f", {"keywords": "keywords"}, _lose_abilities),
    "set_base_pt_cda": LayerVerbSpec("7a", "613.4a", _PT, _set_pt),
    "set_pt": LayerVerbSpec("7b", "613.4b", _PT, _set_pt),
    "modify_pt": LayerVerbSpec("7c", "613.4c", _PT, _modify_pt),
    "switch_pt": LayerVerbSpec("7d", "613.4d", {}, _switch_pt),
}
"""The closed registry of layer primitives (613.1, 613.4): a new verb is one entry here and the
function beside it that says what it does."""
