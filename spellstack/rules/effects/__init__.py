"""TODO package docstring: effects."""

from ._effects import ARG_KINDS, EFFECT_VERBS, OBJECT_WORDS, PLAYER_WORDS, EffectContext, VerbSpec, run_effects

__all__ = [
    "ARG_KINDS",
    "EFFECT_VERBS",
    "OBJECT_WORDS",
    "PLAYER_WORDS",
    "EffectContext",
    "VerbSpec",
    "run_effects",
]
