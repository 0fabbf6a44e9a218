"""Casting spells, activating abilities and playing lands (601, 602, 605, 305), and the actions
legal now (117.1).

- ``_actions``: performing a cast, an activation or a land play, each checked completely before
  anything changes (601.2: an illegal attempt is rewound), with its payment (601.2g-h);
- ``_boards``: each seat's permanents and mana abilities per epoch, and the mana it could use;
- ``_legal``: the list of legal actions, the automatic-pass test (117.3d) and their caches;
- ``_checks``: where the game stands for an action, timing (307.1) and refusal texts.
"""

from ._actions import activate_ability, cast_spell, play_land
from ._boards import mana_sources
from ._checks import where
from ._legal import legal_actions, only_pass_possible

__all__ = [
    "activate_ability",
    "cast_spell",
    "legal_actions",
    "mana_sources",
    "only_pass_possible",
    "play_land",
    "where",
]
