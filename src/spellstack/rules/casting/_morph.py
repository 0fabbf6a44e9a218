"""Turning a face-down permanent face up (702.37e, 708.8): a special action (116.2b).

Its controller may take it any time they have priority: they show its morph cost, pay it, and
turn the permanent face up. It doesn't use the stack, and no player may respond to it; the
player receives priority again afterwards (117.3c). The permanent is the same object with its
real characteristics (708.8): damage, counters, attachments, tapped status, combat and
summoning sickness stay as they were. "When this is turned face up" abilities do not exist
here (no card of the pool has one).
"""

from __future__ import annotations

from ..game import Game
from ..mana import ManaCost
from ..state import Action, GameObject
from ..views import visible_to
from ._actions import pay_plan, plan_cost
from ._checks import refusal

__all__ = ["face_up_cost", "turn_face_up"]


def face_up_cost(game: Game, obj: GameObject) -> ManaCost | None:
    """702.37e: the morph cost that turns the face-down permanent ``obj`` face up (the morph
    ability of its face-up characteristics, which its controller may look at, 708.5), or None:
    it is not face down, or the card has no morph."""
    if not obj.face_down or obj.zone != "battlefield":
        return None
    option = game.cards[obj.name].cost_option("morph")
    return option.face_up_cost if option is not None else None


def turn_face_up(game: Game, seat: int, action: Action) -> GameObject:
    """116.2b/702.37e: ``seat`` turns the face-down permanent ``action.object_id`` face up by
    paying its morph cost (``action.pay``, ``action.pay_as`` as for a cast, 601.2g-h). Every
    check comes first and refuses with nothing changed; a permanent the seat may not look at is
    refused in the words an id that never existed gets (400.2, 708.5)."""
    st = game.state
    obj = st.objects.get(action.object_id)
    if (obj is None or obj.zone != "battlefield" or not obj.face_down
            or game.controller(obj) != seat or not visible_to(game, seat, obj)):
        raise refusal(game, "702.37e", f"object #{action.object_id} is not a face-down "
                      f"permanent {st.players[seat].name} controls")
    cost = face_up_cost(game, obj)
    if cost is None:
        raise refusal(game, "702.37e", f"{obj.name} has no morph cost: it can't be turned face "
                      "up this way")
    plan = plan_cost(game, seat, cost, 0, action)
    pay_plan(game, seat, plan)
    obj.face_down = False  # 708.8: the same object, its real characteristics from now on
    game.changed()
    game.log("face_up", f"{st.players[seat].name} turns #{obj.id} face up for its morph cost "
             f"{cost}: it is {obj.name} (702.37e)", player=seat, subject=obj.id,
             refs=(obj.id,))
    return obj
