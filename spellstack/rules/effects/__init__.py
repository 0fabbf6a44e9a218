"""Effects (608.2c-d, 701): the closed registry of effect verbs, what each does, and running an
ability's effects in order as it resolves.
"""

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
