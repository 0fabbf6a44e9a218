"""Building a player's view: only what that player may see, as ``visible_to`` decides (400.2, 406.3, 708)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Final

from ..game import TOP_CARD_RULE, Game
from ..registry import COUNTER_KINDS
from ..state import GameObject
from ._sharing import shared_view
from ._types import (
    ObjectMarks,
    ObjectView,
    PlayerView,
    new_object_marks,
    new_object_view,
    new_player_public,
    new_player_view,
    new_stack_item_view,
)
from ._visibility import visible_to


class ViewMemo:
    """The last view built for one seat, so that an object whose view would come out the same
    gets the very same ``ObjectView`` again, and what changed since the view before, as
    ``view_changes`` defines it, recorded while building (a cache only: a view built with a
    memo equals one built without). A view of the last one is reused when every field it has
    equals what would be built now, which is exact; the view is the one the coordinator keeps
    anyway as the seat's last (``ViewTracker``), and neither an index of it nor the view before
    it is kept (a game in flight keeps less)."""

    __slots__ = ("changed", "number", "removed", "view")

    def __init__(self) -> None:
        self.view: PlayerView | None = None
        """The seat's last view built with this memo, None before the first."""
        self.number = 0
        """How many views were built with this memo."""
        # Both are ``view_changes(the view before, view)``, found while building: an object's
        # view is built anew exactly when it is new or differs from the one before.
        self.changed: tuple[ObjectView, ...] = ()
        """The object views of ``view`` new or changed since the view before, in zone order
        (each player's graveyard and library top, hand, battlefield, exile): ``view_changes``'s
        first part."""
        self.removed: tuple[int, ...] = ()
        """The ids the view before ``view`` showed and ``view`` does not, in that view's order:
        ``view_changes``'s second part."""


def _hidden_view(game: Game, obj: GameObject) -> ObjectView:
    # 708.2a: a face-down permanent is a nameless 2/2 creature to those who can't see it; its
    # sector is a designation, not a characteristic, and shows, but not the cards it is made of.
    combat = game.state.combat
    view: ObjectView = new_object_view(
        obj.id, "", obj.owner, game.controller(obj), ("Creature",), obj.tapped, obj.damage, 2, 2,
        tuple(sorted(obj.counters.items())), obj.attached_to, obj.sick,
        bool(combat and obj.id in combat.attackers), bool(combat and obj.id in combat.blockers),
        _marks(game, obj, cards=False))
    return view


_GOALS: Final[dict[str, tuple[str, Callable[[Any, Any], int]]]] = {}
"""The counter kinds that count toward a number (``CounterKind.goal``: lore), rebuilt as the
registry changes."""


def _rebuild_goals() -> None:
    _GOALS.clear()
    _GOALS.update({kind: k.goal for kind, k in COUNTER_KINDS.items() if k.goal is not None})


COUNTER_KINDS.watch(_rebuild_goals)


def _marks(game: Game, obj: GameObject, cards: bool = True) -> ObjectMarks | None:
    """What only some permanents have (``ObjectMarks``): a battle's protector (310.8), a sector
    (704.5u), and, only if ``cards`` (for a viewer who may see the permanent), a merged
    permanent's cards (725.1) and what its counters count toward (a Saga's final chapter,
    714.2c); None when it has none of them."""
    merged = obj.merged if cards else ()
    goals = tuple([(_GOALS[kind][0], _GOALS[kind][1](game, obj)) for kind in sorted(obj.counters)
                   if kind in _GOALS]) if cards and obj.counters and _GOALS else ()
    if obj.protector < 0 and not obj.sector and not merged and not goals:
        return None
    marks: ObjectMarks = new_object_marks(obj.protector, obj.sector,
                                          tuple([name for _, name, _ in merged]), goals)
    return marks


def _object_view(game: Game, obj: GameObject, attackers: Mapping[int, Any],
                 blockers: Mapping[int, Any]) -> ObjectView:
    """The view of an object its viewer may see, from its characteristics and the ids attacking
    and blocking."""
    c = game.caches.layers[obj.id]
    on_battlefield = obj.zone == "battlefield"
    creature = on_battlefield and "Creature" in c.card_types
    # A face-down permanent's controller knows what it is (708.5); otherwise its name now (a
    # copy's is the original's, 707.2).
    return new_object_view(obj.id, obj.name if obj.face_down else c.name, obj.owner,
                      c.controller if on_battlefield else obj.controller, c.card_types,
                      obj.tapped, obj.damage, (c.power or 0) if creature else 0,
                      (c.toughness or 0) if creature else 0,
                      tuple(sorted(obj.counters.items())) if obj.counters else (),
                      obj.attached_to, obj.sick, obj.id in attackers, obj.id in blockers,
                      _marks(game, obj) if on_battlefield else None)


_NO_COMBATANTS: Final[dict[int, Any]] = {}


class _Build:
    """One view being built: the previous view's objects by id not met again yet, and the views
    built anew."""

    __slots__ = ("attackers", "blockers", "fresh", "game", "pending", "seat")

    def __init__(self, game: Game, seat: int, last: PlayerView | None) -> None:
        self.game = game
        self.seat = seat
        combat = game.state.combat
        self.attackers = combat.attackers if combat else _NO_COMBATANTS
        self.blockers = combat.blockers if combat else _NO_COMBATANTS
        self.pending = last.objects_by_id() if last is not None else {}
        """The previous view's ids not met again yet: at the end, those no longer shown (an id is
        listed in one zone only, so each is met at most once)."""
        self.fresh: list[ObjectView] = []
        """Views built anew (not the previous view's object), in zone order."""

    def zone(self, ids: list[int], zone: str, owner: int | None = None) -> list[ObjectView]:
        """The views of the objects ``ids`` that the seat may see, in order. ``zone``: where
        they are (``owner``: whose hand, for a hand); a permanent the seat may not see is shown
        as a face-down 2/2 (708.2), in another zone it is left out. A library card is always
        asked (400.2: only an effect shows one, its top card)."""
        game, objects, fresh = self.game, self.game.state.objects, self.fresh
        pop = self.pending.pop
        attackers, blockers = self.attackers, self.blockers
        combat = attackers is not _NO_COMBATANTS
        layers = game.caches.layers
        permanents = zone == "battlefield"
        hidden_zone = zone == "library"
        goals = _GOALS.keys()
        out: list[ObjectView] = []
        for i in ids:
            obj = objects[i]
            # The fast way is for an object face up in the zone it is listed in, a public one
            # (400.2: a graveyard, the battlefield, exile) or the seat's own hand: ``visible_to``
            # answers yes for it. Any other is asked, and built the general way, as is a
            # permanent with marks (``_marks``: a battle, a sector, a merged permanent, a Saga with lore counters).
            if (hidden_zone or obj.face_down or obj.zone != zone
                    or (owner is not None and obj.owner != owner)
                    or (permanents and (obj.protector >= 0 or obj.sector or obj.merged or (
                        obj.counters and not goals.isdisjoint(obj.counters))))):
                if visible_to(game, self.seat, obj):
                    view = _object_view(game, obj, attackers, blockers)
                elif permanents:
                    view = _hidden_view(game, obj)
                else:
                    continue
                known = pop(i, None)
                if known is not None and known == view:
                    view = known
                else:
                    view = shared_view(view)
                    fresh.append(view)
                out.append(view)
                continue
            known = pop(i, None)
            c = layers[i]
            types = c.card_types
            if permanents:
                controller = c.controller
                if "Creature" in types:
                    power = c.power or 0
                    toughness = c.toughness or 0
                else:
                    power = toughness = 0
            else:
                controller = obj.controller
                power = toughness = 0
            counters = tuple(sorted(obj.counters.items())) if obj.counters else ()
            if combat:
                attacking = i in attackers
                blocking = i in blockers
            else:
                attacking = blocking = False
            # Every field compared, so the kept view is exactly the one that would be built. The
            # flags and tuples are nearly always the very same objects: ``is`` settles those
            # without the general comparison (``==`` only when they are not).
            if (known is not None
                    and (known.tapped is obj.tapped or known.tapped == obj.tapped)
                    and (known.sick is obj.sick or known.sick == obj.sick)
                    and (known.attacking is attacking or known.attacking == attacking)
                    and (known.blocking is blocking or known.blocking == blocking)
                    and known.damage == obj.damage and known.attached_to == obj.attached_to
                    and known.controller == controller and known.power == power
                    and known.toughness == toughness and known.name == c.name
                    and known.owner == obj.owner
                    and (known.types is types or known.types == types)
                    and (known.counters is counters or known.counters == counters)
                    and known.marks is None):
                out.append(known)
                continue
            # Shared (``shared_view``): every seat that sees it keeps the one view.
            view = shared_view(new_object_view(i, c.name, obj.owner, controller, types,
                                               obj.tapped, obj.damage, power, toughness, counters,
                                               obj.attached_to, obj.sick, attacking, blocking, None))
            out.append(view)
            fresh.append(view)
        return out


def view_for(game: Game, seat: int, memo: ViewMemo | None = None) -> PlayerView:
    """Everything ``seat`` may see (``visible_to``): public zones, their own hand, counts of
    hidden zones, and the top card of a library where an effect lets ``seat`` see it (400.2:
    its owner's Garruk's Horde, anyone's Future Sight). A face-down permanent shows no name;
    face-down exiled cards are left out.

    ``memo``: that seat's memo from its previous views (the result is the same with or without
    one; with one, unchanged objects are not built again, and the memo tells what changed)."""
    st = game.state
    last = memo.view if memo is not None else None
    build = _Build(game, seat, last)
    before = last.players if last is not None else ()
    players = []
    # 400.2: a library shows nothing unless an effect shows its top card (asked once per player
    # only when some rule could: ``top_card_seen`` answers at once for the usual board).
    tops = bool(TOP_CARD_RULE)
    for n, p in enumerate(st.players):
        graveyard = tuple(build.zone(p.graveyard, "graveyard")) if p.graveyard else ()
        library_top: tuple[ObjectView, ...] = ()
        if tops and p.library:
            look, revealed = game.top_card_seen(p.seat)
            if revealed or (look and seat == p.seat):
                library_top = tuple(build.zone(p.library[:1], "library"))
        mana = tuple(sorted(p.mana.items())) if p.mana else ()
        # 408.2: the command zone is public: a dungeon there, the venture marker's room (309.4)
        # and the dungeons completed (309.7).
        dungeon = st.objects[p.command[0]].name if p.command else ""
        completed = tuple(p.completed_dungeons) if p.completed_dungeons else ()
        known = before[n] if n < len(before) else None
        # An unchanged player is the previous view's (the same object, so deltas see it at once).
        if (known is not None and known.life == p.life and known.hand_count == len(p.hand)
                and known.library_count == len(p.library) and known.mana == mana
                and known.graveyard == graveyard and known.lost == p.lost
                and known.poison == p.poison and known.seat == p.seat and known.name == p.name
                and known.library_top == library_top and known.dungeon == dungeon
                and known.room == p.room and known.completed_dungeons == completed):
            players.append(known)
        else:
            players.append(new_player_public(p.seat, p.name, p.life, p.poison, len(p.hand),
                                             len(p.library), graveyard, mana, p.lost, library_top,
                                             dungeon, p.room, completed))
    own = st.players[seat].hand
    hand = tuple(build.zone(own, "hand", seat)) if own else ()
    # Every permanent is shown; one that is face down without its name (708.2).
    battlefield = tuple(build.zone(st.battlefield, "battlefield"))
    objects = st.objects
    # 708.5: a face-down spell is named to its controller only (others see a nameless spell).
    stack = tuple([new_stack_item_view(o.id, "" if o.face_down and not visible_to(game, seat, o)
                                       else o.name, o.controller, bool(o.ability_kind), o.targets)
                   for o in (objects[i] for i in reversed(st.stack))]) if st.stack else ()
    exile = tuple(build.zone(st.exile, "exile")) if st.exile else ()  # an empty zone shows nothing
    view: PlayerView = new_player_view(seat, st.turn, st.step, st.active, st.priority, tuple(players),
                                       hand, battlefield, stack, exile, None)
    if memo is not None:
        memo.view = view
        memo.number += 1
        memo.changed = tuple(build.fresh)
        memo.removed = tuple(build.pending)
    return view
