"""Casting spells, activating abilities and playing lands (601, 602, 605, 305), and the actions
legal now (117.1).

- ``_casting``: casting a spell, 601.2a-i in order, with faces (601.3e) and optional and
  alternative costs (601.2b, 601.2f), checked completely before anything changes (601.2: an
  illegal attempt is rewound);
- ``_actions``: activating an ability and playing a land, checked the same way, and the payment
  both share (601.2g-h);
- ``_boards``: each seat's permanents and mana abilities per epoch, and the mana it could use;
- ``_during``: casting a spell while another spell or ability resolves (608.2g), its choices
  asked as questions and cast by the same procedure;
- ``_legal``: the list of legal actions, the automatic-pass test (117.3d) and their caches;
- ``_morph``: turning a face-down permanent face up for its morph cost (702.37e, 116.2b), a
  special action;
- ``_checks``: where the game stands for an action, timing (307.1) and refusal texts.
"""

from ._actions import activate_ability, play_land
from ._boards import mana_sources
from ._casting import CastForm, begin_cast, cast_forms, cast_spell, castable_faces, division_total, total_cost
from ._checks import where
from ._during import cast_while_resolving
from ._legal import legal_actions, only_pass_possible
from ._morph import face_up_cost, turn_face_up

__all__ = [
    "CastForm",
    "activate_ability",
    "begin_cast",
    "cast_forms",
    "cast_spell",
    "cast_while_resolving",
    "castable_faces",
    "division_total",
    "face_up_cost",
    "legal_actions",
    "mana_sources",
    "only_pass_possible",
    "play_land",
    "total_cost",
    "turn_face_up",
    "where",
]
