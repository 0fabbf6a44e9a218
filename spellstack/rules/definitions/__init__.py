"""Card definitions (108, 113, 200-209): a card's printed characteristics and abilities as data,
the form the card loader produces and the kernel reads.
"""

from ._definitions import (
    ActivatedAbility,
    ArgValue,
    CardDefinition,
    Effect,
    Permission,
    ReplacementAbility,
    Restriction,
    SpellAbility,
    StaticAbility,
    TargetSpec,
    TriggeredAbility,
)

__all__ = [
    "ActivatedAbility",
    "ArgValue",
    "CardDefinition",
    "Effect",
    "Permission",
    "ReplacementAbility",
    "Restriction",
    "SpellAbility",
    "StaticAbility",
    "TargetSpec",
    "TriggeredAbility",
]
