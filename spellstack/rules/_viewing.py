"""Building a player's view: only what that player may see (400.2, 406.3)."""

from __future__ import annotations

from ._game import Game
from ._state import GameObject
from ._view import ObjectView, PlayerPublic, PlayerView, StackItemView

__all__ = ["view_for"]


def _object_view(game: Game, obj: GameObject) -> ObjectView:
    combat = game.state.combat
    creature = obj.zone == "battlefield" and game.is_creature(obj)
    return ObjectView(
        id=obj.id,
        name=obj.name,
        owner=obj.owner,
        controller=obj.controller,
        types=game.card_types(obj),
        tapped=obj.tapped,
        damage=obj.damage,
        power=game.power(obj) if creature else 0,
        toughness=game.toughness(obj) if creature else 0,
        counters=tuple(sorted(obj.counters.items())),
        attached_to=obj.attached_to,
        sick=obj.sick,
        attacking=bool(combat and obj.id in combat.attackers),
        blocking=bool(combat and obj.id in combat.blockers),
    )


def view_for(game: Game, seat: int) -> PlayerView:
    """Everything ``seat`` may see: public zones, their own hand, counts of hidden zones."""
    st = game.state
    players = tuple(
        PlayerPublic(
            seat=p.seat,
            name=p.name,
            life=p.life,
            poison=p.poison,
            hand_count=len(p.hand),
            library_count=len(p.library),
            graveyard=tuple(_object_view(game, st.objects[i]) for i in p.graveyard),
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
        hand=tuple(_object_view(game, st.objects[i]) for i in st.players[seat].hand),
        battlefield=tuple(_object_view(game, st.objects[i]) for i in st.battlefield),
        stack=tuple(
            StackItemView(o.id, o.name, o.controller, bool(o.ability_kind), o.targets)
            for o in (st.objects[i] for i in reversed(st.stack))
        ),
        exile=tuple(_object_view(game, st.objects[i]) for i in st.exile
                    if not st.objects[i].face_down),
    )
