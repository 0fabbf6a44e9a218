"""TODO package docstring: casting."""

from ._actions import activate_ability, cast_spell, play_land
from ._boards import mana_sources
from ._checks import where
from ._legal import (
    CAN_ACT,
    ONLY_PASS,
    ONLY_PASS_NUMBERED,
    legal_actions,
    numbers_automatic_pass,
    only_pass_possible,
    pass_test,
)

__all__ = [
    "CAN_ACT",
    "ONLY_PASS",
    "ONLY_PASS_NUMBERED",
    "activate_ability",
    "cast_spell",
    "legal_actions",
    "mana_sources",
    "numbers_automatic_pass",
    "only_pass_possible",
    "pass_test",
    "play_land",
    "where",
]
