"""Building a player's view: only what that player may see, as ``visible_to`` decides (400.2, 406.3, 708)."""

from __future__ import annotations

from ._game import Game
from ._state import GameObject
from ._view import ObjectView, PlayerPublic, PlayerView, StackItemView
from ._visibility import visible_to

__all__ = ["view_for"]


def _object_view(game: Game, obj: GameObject, seat: int) -> ObjectView:
    combat = game.state.combat
    if not visible_to(game, seat, obj):
        # 708.2a: a face-down permanent is a nameless 2/2 creature to those who can't see it.
        return ObjectView(id=obj.id, name="", owner=obj.owner, controller=game.controller(obj),
                          types=("Creature",), tapped=obj.tapped, damage=obj.damage, power=2,
                          toughness=2, counters=tuple(sorted(obj.counters.items())),
                          attached_to=obj.attached_to, sick=obj.sick,
                          attacking=bool(combat and obj.id in combat.attackers),
                          blocking=bool(combat and obj.id in combat.blockers))
    c = game.layer_cache[obj.id]
    creature = obj.zone == "battlefield" and "Creature" in c.card_types
    return ObjectView(
        id=obj.id,
        # A face-down permanent's controller knows what it is (708.5); otherwise its name now
        # (a copy's is the original's, 707.2).
        name=obj.name if obj.face_down else c.name,
        owner=obj.owner,
        controller=c.controller if obj.zone == "battlefield" else obj.controller,
        types=c.card_types,
        tapped=obj.tapped,
        damage=obj.damage,
        power=(c.power or 0) if creature else 0,
        toughness=(c.toughness or 0) if creature else 0,
        counters=tuple(sorted(obj.counters.items())),
        attached_to=obj.attached_to,
        sick=obj.sick,
        attacking=bool(combat and obj.id in combat.attackers),
        blocking=bool(combat and obj.id in combat.blockers),
    )


def view_for(game: Game, seat: int) -> PlayerView:
    """Everything ``seat`` may see (``visible_to``): public zones, their own hand, counts of
    hidden zones. A face-down permanent shows no name; face-down exiled cards are left out."""
    st = game.state

    def shown(ids: list[int]) -> tuple[ObjectView, ...]:
        return tuple(_object_view(game, st.objects[i], seat) for i in ids
                     if visible_to(game, seat, st.objects[i]))

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
    return PlayerView(
        seat=seat,
        turn=st.turn,
        step=st.step,
        active=st.active,
        priority=st.priority,
        players=players,
        hand=shown(st.players[seat].hand),
        # Every permanent is shown; one that is face down without its name (708.2).
        battlefield=tuple(_object_view(game, st.objects[i], seat) for i in st.battlefield),
        stack=tuple(
            StackItemView(o.id, o.name, o.controller, bool(o.ability_kind), o.targets)
            for o in (st.objects[i] for i in reversed(st.stack))
        ),
        exile=shown(st.exile),
    )
