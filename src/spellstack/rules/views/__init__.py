"""What a player may see (400.2, 406.3, 708): the one visibility rule, the names it allows in
every text and question, a seat's view of the game, and what changed since its last view.
"""

from ._asking import ask_choose, ask_keys, ask_word, ask_yes_no
from ._building import ViewMemo, view_for
from ._changes import view_changes
from ._sharing import shared_view
from ._types import (
    ClockState,
    ObjectMarks,
    ObjectView,
    PlayerPublic,
    PlayerView,
    StackItemView,
    new_object_marks,
    new_object_view,
    new_player_public,
    new_player_view,
)
from ._visibility import PUBLIC_SEAT, ref_visible_to, seats_seeing, visible_name, visible_to

__all__ = [
    "PUBLIC_SEAT",
    "ClockState",
    "ObjectMarks",
    "ObjectView",
    "PlayerPublic",
    "PlayerView",
    "StackItemView",
    "ViewMemo",
    "ask_choose",
    "ask_keys",
    "ask_word",
    "ask_yes_no",
    "new_object_marks",
    "new_object_view",
    "new_player_public",
    "new_player_view",
    "ref_visible_to",
    "seats_seeing",
    "shared_view",
    "view_changes",
    "view_for",
    "visible_name",
    "visible_to",
]
