"""TODO package docstring: definitions."""

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
