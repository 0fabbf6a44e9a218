"""Each seat's permanents and mana abilities in one epoch (``SeatBoard``), and the mana sources a
payment may use (605.1a, 106.4; summoning sickness 302.6).
"""

from __future__ import annotations

from ..definitions import ActivatedAbility
from ..game import Game, PermanentFacts, SeatBoard
from ..layers import add_counters
from ..legality import (
    has_permissions,
)
from ..mana import ManaSource, Payment
from ..state import (
    Characteristics,
    GameObject,
)
from ..views import visible_name
from ..zones import move_object, simultaneous_moves
from ._checks import named_for, refusal


def _tap_mana(game: Game, obj: GameObject) -> tuple[str, ...] | None:
    """The mana types the permanent's first {T}-only mana ability adds, or None if it has none
    (the abilities it has now: layer 6)."""
    for _, _, ab in game.caches.layers[obj.id].activated:
        if ab.tap_mana is not None:
            return ab.tap_mana
    return None


def can_tap(game: Game, obj: GameObject) -> bool:
    """302.6: a creature's {T} abilities need it under control since the turn began."""
    if obj.tapped:
        return False
    if not obj.sick:
        return True
    c = game.caches.layers[obj.id]
    return "Creature" not in c.card_types or "haste" in c.keywords




def _permanent_facts(oid: int, c: Characteristics) -> PermanentFacts:
    produces = None  # ``_tap_mana``: the first {T}-only mana ability's mana
    activator = False
    for _, _, ab in c.activated:
        if not ab.is_mana_ability:
            activator = True
        elif produces is None and ab.tap_mana is not None:
            produces = ab.tap_mana
    sickness = "Creature" in c.card_types and "haste" not in c.keywords  # 302.6
    mana = None if produces is None else (oid, ManaSource(oid, produces), sickness)
    return PermanentFacts(c, mana, "Land" in c.card_types, activator, not c.name)


def seat_board(game: Game, seat: int) -> SeatBoard:
    """``SeatBoard`` for ``seat`` now, kept while the epoch is the same (made for every seat at
    once: one look at the battlefield). When the only change since the last ones is a permanent
    entering (the usual new epoch), or none, they are brought up to date rather than made
    afresh."""
    board = game.caches.seat_boards.get(seat)
    if board is not None and board.epoch == game.caches.epoch:
        return board
    st = game.state
    battlefield = st.battlefield
    n = len(st.players)
    boards = game.caches.seat_boards
    characteristics = list(map(game.caches.layers.__getitem__, battlefield))  # 613
    basis = game.caches.board_basis
    if basis is not None and len(boards) == n:
        ids, before = basis
        k = len(ids)
        if len(battlefield) == k + 1 and battlefield[:k] == ids and characteristics[:k] == before:
            game.caches.board_basis = (list(battlefield), characteristics)
            return _board_entered(game, seat, battlefield[k], characteristics[k])
        if battlefield == ids and characteristics == before:
            permissions = has_permissions(game)
            for s in range(n):
                b = boards[s]
                boards[s] = SeatBoard(game.caches.epoch, b.permanents, b.mana, b.lands, b.activator,
                                      permissions, b.face_down)
            return boards[seat]
    game.caches.board_basis = (list(battlefield), characteristics)
    permanents: list[list[int]] = [[] for _ in range(n)]
    lands: list[list[tuple[int, ManaSource, bool]]] = [[] for _ in range(n)]
    others: list[list[tuple[int, ManaSource, bool]]] = [[] for _ in range(n)]
    activator = [False] * n
    face_down = [False] * n
    known = game.caches.permanent_facts
    facts: dict[int, PermanentFacts] = {}
    for oid, c in zip(battlefield, characteristics, strict=True):
        f = known.get(oid)
        if f is None or f.characteristics is not c:
            f = _permanent_facts(oid, c)
        facts[oid] = f
        controller = c.controller
        permanents[controller].append(oid)
        if f.activator:
            activator[controller] = True
        if f.face_down:
            face_down[controller] = True
        if f.mana is not None:
            (lands if f.land else others)[controller].append(f.mana)
    game.caches.permanent_facts = facts
    permissions = has_permissions(game)
    for s in range(n):
        boards[s] = SeatBoard(game.caches.epoch, tuple(permanents[s]), tuple(lands[s] + others[s]),
                              len(lands[s]), activator[s], permissions, face_down[s])
    return boards[seat]


def _board_entered(game: Game, seat: int, oid: int, c: Characteristics) -> SeatBoard:
    """The seats' boards after permanent ``oid`` (with characteristics ``c``) entered the
    battlefield, last, and nothing else about the others changed."""
    f = game.caches.permanent_facts[oid] = _permanent_facts(oid, c)
    permissions = has_permissions(game)
    boards = game.caches.seat_boards
    for s in range(len(game.state.players)):
        b = boards[s]
        if s != c.controller:
            boards[s] = SeatBoard(game.caches.epoch, b.permanents, b.mana, b.lands, b.activator,
                                  permissions, b.face_down)
            continue
        mana, lands = b.mana, b.lands
        if f.mana is not None:  # lands first, then other permanents, each in entering order
            if f.land:
                mana, lands = (*mana[:lands], f.mana, *mana[lands:]), lands + 1
            else:
                mana = (*mana, f.mana)
        boards[s] = SeatBoard(game.caches.epoch, (*b.permanents, oid), mana, lands,
                              b.activator or f.activator, permissions, b.face_down or f.face_down)
    return boards[seat]


def mana_sources(game: Game, seat: int, only: tuple[int, ...] = (), *,
                 tapped: int = 0) -> list[ManaSource]:
    """The {T} mana abilities ``seat`` could activate now: lands first, then other permanents,
    each in the order they entered (the scenario format's automatic payment rule). With
    ``only``: ``named_mana_sources`` (any mana ability of those permanents, whatever its cost);
    ``tapped``, with ``only``: a permanent whose {T} the cost being paid already includes."""
    if only:
        return named_mana_sources(game, seat, only, tapped=tapped)
    objects = game.state.objects
    out = []
    for oid, source, sickness in seat_board(game, seat).mana:
        obj = objects[oid]
        if not obj.tapped and not (sickness and obj.sick):  # 302.6
            out.append(source)
    return out


def named_mana_sources(game: Game, seat: int, only: tuple[int, ...], *,
                       tapped: int = 0) -> list[ManaSource]:
    """601.2g/605.3a: one activation of a mana ability for each permanent named in ``only``, in
    that order, whatever the ability's cost (602.2b: {T}, removing counters, sacrificing the
    permanent; no mana). A permanent named several times is activated several times: each time
    its first mana ability whose cost is still payable after the activations before it (a {T}
    once, a counter for each counter on it, a sacrifice once, and nothing after it). Refused
    (601.2g) naming the permanent when there is none. Nothing is changed: the costs are paid
    by ``pay_mana_abilities``. ``tapped``: a permanent whose {T} is already part of the cost."""
    st = game.state
    used_tap: set[int] = {tapped} if tapped else set()
    removed: dict[tuple[int, str], int] = {}
    gone: set[int] = set()
    out: list[ManaSource] = []
    for oid in only:
        obj = st.objects.get(oid)
        if obj is None or obj.zone != "battlefield" or game.controller(obj) != seat:
            raise refusal(game, "601.2g", f"#{oid} is not a permanent you control")
        found: tuple[int, tuple[str, ...], ActivatedAbility] | None = None
        if oid not in gone:
            for n, (_, _, ab) in enumerate(game.activated(obj), start=1):
                if not ab.mana_produces or ab.mana_cost.symbols:
                    continue
                if ab.tap and (oid in used_tap or not can_tap(game, obj)):
                    continue
                if any(obj.counters.get(kind, 0) - removed.get((oid, kind), 0) < k
                       for kind, k in ab.remove_counters):
                    continue
                found = n, ab.mana_produces, ab
                break
        if found is None:
            again = " again" if any(source.source_id == oid for source in out) else ""
            raise refusal(game, "601.2g", f"{named_for(game, oid, seat)} has no mana ability you "
                          f"can activate{again} now")
        n, produces, ab = found
        if ab.tap:
            used_tap.add(oid)
        for kind, k in ab.remove_counters:
            removed[(oid, kind)] = removed.get((oid, kind), 0) + k
        if ab.sacrifice:
            gone.add(oid)
        out.append(ManaSource(oid, produces, n))
    return out


def pay_mana_abilities(game: Game, seat: int, plan: Payment) -> None:
    """601.2g/605.3a: activate the mana abilities of the plan, paying their costs (602.2b): tap
    the permanent, remove its counters (118.3), sacrifice it (701.17a: it goes to its owner's
    graveyard; a token then ceases to exist, 704.5d). The mana they add is spent at once on the
    cost being paid (``pay_plan``). Sacrifices come last, together (603.10a), once every other cost
    is paid."""
    st = game.state
    if not plan.abilities:
        for oid, _mana in plan.activations:
            st.objects[oid].tapped = True
        return
    sacrificed: list[int] = []
    for (oid, _mana), n in zip(plan.activations, plan.abilities, strict=True):
        obj = st.objects[oid]
        if not n:
            obj.tapped = True
            continue
        ab = game.activated(obj)[n - 1][2]
        if ab.tap:
            obj.tapped = True
        for kind, k in ab.remove_counters:
            add_counters(game, obj, kind, -k)
        if ab.sacrifice:
            sacrificed.append(oid)
    if sacrificed:
        with simultaneous_moves(game):
            for oid in sacrificed:
                sacrifice_permanent(game, seat, oid)


def sacrifice_permanent(game: Game, seat: int, oid: int) -> None:
    """701.17a: ``seat`` sacrifices a permanent they control as a cost: it is put into its
    owner's graveyard (it is not destroyed)."""
    game.log("sacrifice", f"{game.player_name(seat)} sacrifices {visible_name(game, oid)}",
             player=seat, subject=oid)
    move_object(game, oid, "graveyard")
