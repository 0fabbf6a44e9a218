"""Building a player's view: only what that player may see, as ``visible_to`` decides (400.2, 406.3, 708)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ._characteristics import Characteristics
from ._game import Game
from ._state import GameObject
from ._view import ObjectView, PlayerPublic, PlayerView, StackItemView
from ._visibility import visible_to

__all__ = ["ViewMemo", "view_for"]


class ViewMemo:
    """The last view built for one seat, so that an object whose view would come out the same
    gets the very same ``ObjectView`` again (a cache only: a view built with a memo equals one
    built without). Nothing but that view is kept: a view of it is reused when every field it
    has equals what would be built now (``_object_view``), which is exact, and the view is the
    one the coordinator keeps anyway as the seat's last (``ViewTracker``)."""

    __slots__ = ("view",)

    def __init__(self) -> None:
        self.view: PlayerView | None = None
        """The seat's last view built with this memo, None before the first."""


def _by_id(view: PlayerView | None) -> dict[int, ObjectView]:
    """The object views of ``view`` by id (none for no view)."""
    found: dict[int, ObjectView] = {}
    if view is None:
        return found
    for p in view.players:
        for o in p.graveyard:
            found[o.id] = o
    for zone in (view.hand, view.battlefield, view.exile):
        for o in zone:
            found[o.id] = o
    return found


def _hidden_view(game: Game, obj: GameObject) -> ObjectView:
    # 708.2a: a face-down permanent is a nameless 2/2 creature to those who can't see it.
    combat = game.state.combat
    return ObjectView(id=obj.id, name="", owner=obj.owner, controller=game.controller(obj),
                      types=("Creature",), tapped=obj.tapped, damage=obj.damage, power=2,
                      toughness=2, counters=tuple(sorted(obj.counters.items())),
                      attached_to=obj.attached_to, sick=obj.sick,
                      attacking=bool(combat and obj.id in combat.attackers),
                      blocking=bool(combat and obj.id in combat.blockers))


_Memo = dict[int, ObjectView]
_NO_COMBATANTS: dict[int, Any] = {}


def _object_view(obj: GameObject, c: Characteristics, attackers: Mapping[int, Any],
                 blockers: Mapping[int, Any], memo: _Memo) -> ObjectView:
    """The view of an object its viewer may see, from its characteristics ``c`` and the ids
    attacking and blocking; ``memo`` holds the previous call's views by id."""
    i = obj.id
    attacking = i in attackers
    blocking = i in blockers
    counters = tuple(sorted(obj.counters.items())) if obj.counters else ()
    on_battlefield = obj.zone == "battlefield"
    types = c.card_types
    creature = on_battlefield and "Creature" in types
    # A face-down permanent's controller knows what it is (708.5); otherwise its name now
    # (a copy's is the original's, 707.2).
    name = obj.name if obj.face_down else c.name
    controller = c.controller if on_battlefield else obj.controller
    power = (c.power or 0) if creature else 0
    toughness = (c.toughness or 0) if creature else 0
    known = memo.get(i)
    # Every field compared, so the kept view is exactly the one that would be built (most are
    # the same objects, and tuples of one object compare by identity first).
    if (known is not None and known.tapped == obj.tapped and known.damage == obj.damage
            and known.sick == obj.sick and known.attacking == attacking
            and known.blocking == blocking and known.attached_to == obj.attached_to
            and known.controller == controller and known.power == power
            and known.toughness == toughness and known.name == name and known.owner == obj.owner
            and known.types == types and known.counters == counters):
        return known
    return ObjectView(i, name, obj.owner, controller, types, obj.tapped, obj.damage, power,
                      toughness, counters, obj.attached_to, obj.sick, attacking, blocking)


def view_for(game: Game, seat: int, memo: ViewMemo | None = None) -> PlayerView:
    """Everything ``seat`` may see (``visible_to``): public zones, their own hand, counts of
    hidden zones. A face-down permanent shows no name; face-down exiled cards are left out.

    ``memo``: that seat's memo from its previous views (the result is the same with or without
    one; with one, unchanged objects are not built again)."""
    st = game.state
    objects = st.objects
    previous = _by_id(memo.view) if memo is not None else {}
    layers = game.layer_cache
    combat = st.combat
    attackers = combat.attackers if combat else _NO_COMBATANTS
    blockers = combat.blockers if combat else _NO_COMBATANTS

    def shown(ids: list[int]) -> tuple[ObjectView, ...]:
        return tuple([_object_view(obj, layers[i], attackers, blockers, previous)
                      for i in ids if visible_to(game, seat, obj := objects[i])])

    players = tuple(
        PlayerPublic(
            seat=p.seat,
            name=p.name,
            life=p.life,
            poison=p.poison,
            hand_count=len(p.hand),
            library_count=len(p.library),
            graveyard=shown(p.graveyard),
            mana=tuple(sorted(p.mana.items())),
            lost=p.lost,
        )
        for p in st.players
    )
    battlefield = []
    for i in st.battlefield:
        obj = objects[i]
        # Every permanent is shown; one that is face down without its name (708.2).
        battlefield.append(_object_view(obj, layers[i], attackers, blockers, previous)
                           if visible_to(game, seat, obj) else _hidden_view(game, obj))
    view = PlayerView(
        seat=seat,
        turn=st.turn,
        step=st.step,
        active=st.active,
        priority=st.priority,
        players=players,
        hand=shown(st.players[seat].hand),
        battlefield=tuple(battlefield),
        stack=tuple(
            StackItemView(o.id, o.name, o.controller, bool(o.ability_kind), o.targets)
            for o in (objects[i] for i in reversed(st.stack))
        ),
        exile=shown(st.exile),
    )
    if memo is not None:
        memo.view = view
    return view
