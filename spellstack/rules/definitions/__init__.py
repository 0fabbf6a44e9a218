"""Card definitions (108, 113, 200-209): a card's printed characteristics and abilities as data,
the form the card loader produces and the kernel reads.
"""

from ._definitions import (
    ANY_NUMBER,
    COST_OPTIONS,
    ActivatedAbility,
    ArgValue,
    CardDefinition,
    CostOption,
    Effect,
    Permission,
    ReplacementAbility,
    Restriction,
    SpellAbility,
    SpellMode,
    StaticAbility,
    TargetSpec,
    TriggeredAbility,
)

__all__ = [
    "ANY_NUMBER",
    "COST_OPTIONS",
    "ActivatedAbility",
    "ArgValue",
    "CardDefinition",
    "CostOption",
    "Effect",
    "Permission",
    "ReplacementAbility",
    "Restriction",
    "SpellAbility",
    "SpellMode",
    "StaticAbility",
    "TargetSpec",
    "TriggeredAbility",
]
