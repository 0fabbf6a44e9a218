"""Effects (608.2c-d, 701): the closed registry of effect verbs, what each does, and running an
ability's effects in order as it resolves; copies of spells (707.10).
"""

from ._copies import NEW_TARGET_TRIES, copy_spell, spell_target_requirements
from ._effects import ARG_KINDS, EFFECT_VERBS, OBJECT_WORDS, PLAYER_WORDS, EffectContext, VerbSpec, run_effects

__all__ = [
    "ARG_KINDS",
    "EFFECT_VERBS",
    "NEW_TARGET_TRIES",
    "OBJECT_WORDS",
    "PLAYER_WORDS",
    "EffectContext",
    "VerbSpec",
    "copy_spell",
    "run_effects",
    "spell_target_requirements",
]
