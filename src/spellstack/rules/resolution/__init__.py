"""Resolving spells and abilities (608): targets checked again (608.2b), effects in order
(608.2c-d), permanent spells entering (608.3), their "as it enters" choices made first (614.12).
"""

from ._resolution import KEYWORD_DELAYED_EFFECTS, RESOLVED_SPELL_MOVES, resolve_top

__all__ = [
    "KEYWORD_DELAYED_EFFECTS",
    "RESOLVED_SPELL_MOVES",
    "resolve_top",
]
