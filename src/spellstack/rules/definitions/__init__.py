"""Card definitions (108, 113, 200-209): a card's printed characteristics and abilities as data,
the form the card loader produces and the kernel reads; the base types of effect verbs and
conditions, and how their arguments are typed.
"""

from ..registry import COST_OPTIONS
from ._arguments import ArgKind, Argument, CostName, CounterKind, Flag, Number, arguments_of
from ._bases import Condition, Effect
from ._card_keys import CARD_KEYS, VALUE_TYPES, CardKey, ValueType
from ._definitions import (
    ANY_NUMBER,
    FACE_DOWN,
    ActivatedAbility,
    ArgValue,
    CardDefinition,
    CostOption,
    LayerEffect,
    Permission,
    ReplacementAbility,
    Restriction,
    SpellAbility,
    SpellMode,
    StaticAbility,
    TargetSpec,
    TriggeredAbility,
    definition_named,
)

__all__ = [
    "ANY_NUMBER",
    "CARD_KEYS",
    "COST_OPTIONS",
    "FACE_DOWN",
    "VALUE_TYPES",
    "ActivatedAbility",
    "ArgKind",
    "ArgValue",
    "Argument",
    "CardDefinition",
    "CardKey",
    "Condition",
    "CostName",
    "CostOption",
    "CounterKind",
    "Effect",
    "Flag",
    "LayerEffect",
    "Number",
    "Permission",
    "ReplacementAbility",
    "Restriction",
    "SpellAbility",
    "SpellMode",
    "StaticAbility",
    "TargetSpec",
    "TriggeredAbility",
    "ValueType",
    "arguments_of",
    "definition_named",
]
