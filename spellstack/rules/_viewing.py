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
    """Object views built for one seat, each with everything it was built from, so that an
    object whose inputs are unchanged gets the very same ``ObjectView`` again (a cache only:
    a view built with a memo equals one built without)."""

    __slots__ = ("views",)

    def __init__(self) -> None:
        self.views: dict[int, tuple[tuple[Any, ...], ObjectView]] = {}
        """By object id: the inputs of its last view, and that view."""


def _hidden_view(game: Game, obj: GameObject) -> ObjectView:
    # 708.2a: a face-down permanent is a nameless 2/2 creature to those who can't see it.
    combat = game.state.combat
    return ObjectView(id=obj.id, name="", owner=obj.owner, controller=game.controller(obj),
                      types=("Creature",), tapped=obj.tapped, damage=obj.damage, power=2,
                      toughness=2, counters=tuple(sorted(obj.counters.items())),
                      attached_to=obj.attached_to, sick=obj.sick,
                      attacking=bool(combat and obj.id in combat.attackers),
                      blocking=bool(combat and obj.id in combat.blockers))


_Memo = dict[int, tuple[tuple[Any, ...], ObjectView]]
_NO_COMBATANTS: dict[int, Any] = {}


def _object_view(obj: GameObject, c: Characteristics, attackers: Mapping[int, Any],
                 blockers: Mapping[int, Any], memo: _Memo, fresh: _Memo) -> ObjectView:
    """The view of an object its viewer may see, from its characteristics ``c`` and the ids
    attacking and blocking; ``memo`` holds the previous call's views, ``fresh`` collects this
    call's."""
    attacking = obj.id in attackers
    blocking = obj.id in blockers
    counters = tuple(sorted(obj.counters.items())) if obj.counters else ()
    # Everything the view reads (Characteristics are immutable: the same object, the same values).
    key = (c, obj.name, obj.owner, obj.controller, obj.zone, obj.face_down, obj.tapped, obj.damage,
           counters, obj.attached_to, obj.sick, attacking, blocking)
    known = memo.get(obj.id)
    if known is not None and known[0] == key:
        fresh[obj.id] = known
        return known[1]
    on_battlefield = obj.zone == "battlefield"
    creature = on_battlefield and "Creature" in c.card_types
    view = ObjectView(
        obj.id,
        # A face-down permanent's controller knows what it is (708.5); otherwise its name now
        # (a copy's is the original's, 707.2).
        obj.name if obj.face_down else c.name,
        obj.owner,
        c.controller if on_battlefield else obj.controller,
        c.card_types,
        obj.tapped,
        obj.damage,
        (c.power or 0) if creature else 0,
        (c.toughness or 0) if creature else 0,
        counters,
        obj.attached_to,
        obj.sick,
        attacking,
        blocking,
    )
    fresh[obj.id] = (key, view)
    return view


def view_for(game: Game, seat: int, memo: ViewMemo | None = None) -> PlayerView:
    """Everything ``seat`` may see (``visible_to``): public zones, their own hand, counts of
    hidden zones. A face-down permanent shows no name; face-down exiled cards are left out.

    ``memo``: that seat's memo from its previous views (the result is the same with or without
    one; with one, unchanged objects are not built again)."""
    st = game.state
    objects = st.objects
    previous = memo.views if memo is not None else {}
    fresh: _Memo = {}
    layers = game.layer_cache
    combat = st.combat
    attackers = combat.attackers if combat else _NO_COMBATANTS
    blockers = combat.blockers if combat else _NO_COMBATANTS

    def shown(ids: list[int]) -> tuple[ObjectView, ...]:
        return tuple([_object_view(obj, layers[i], attackers, blockers, previous, fresh)
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
        battlefield.append(_object_view(obj, layers[i], attackers, blockers, previous, fresh)
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
        memo.views = fresh
    return view
