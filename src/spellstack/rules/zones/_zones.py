"""Zones and zone changes: 400.7 object identity, last known information, drawing, damage."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from ..base import builder, rare_builder
from ..definitions import definition_named
from ..game import Game
from ..layers import add_counters, become_copy, end_with_source, reads_zone_sizes, snapshot_leaving
from ..legality import enter_refusal, protected_from
from ..registry import EXILED_LEAVING_STACK
from ..replacement import MoveEvent, Replacement, prevent_damage, replace_move, run_sync
from ..state import GameObject, Proc, is_player_ref, seat_of_ref
from ..triggers import trigger_enters, trigger_leaves
from ..views import PUBLIC_SEAT, visible_name, visible_to


@contextmanager
def simultaneous_moves(game: Game) -> Iterator[None]:
    """603.10a: the moves made inside are one event (704.3's state-based actions, "destroy
    all"): a leaves-the-battlefield ability of a permanent leaving in it triggers on every other
    permanent leaving in it too, whichever moves first (``GameState.leaving_together``)."""
    st = game.state
    if st.leaving_together is not None:  # already inside one event
        yield
        return
    st.leaving_together = []
    try:
        yield
    finally:
        st.leaving_together = None


_new_object: Callable[[int, int, str, int, int, str, int, bool], GameObject] = rare_builder(
    GameObject, ("id", "card", "name", "owner", "controller", "zone", "timestamp", "is_token"))
"""``GameObject(id, card, name, owner, controller, zone, timestamp, is_token)``, the rest at their
defaults (``rare_builder``): one for every zone change."""


def create_object(
    game: Game,
    name: str,
    owner: int,
    zone: str,
    *,
    controller: int | None = None,
    is_token: bool = False,
    card: int = 0,
    top: bool = False,
    moved_from: str = "",
) -> GameObject:
    """Put a new object into a zone (no triggers: used for set-up and token creation's first step).
    ``moved_from``: the zone the object it replaces left (``move_object``)."""
    st = game.state
    # ``st.new_id()`` and ``st.new_timestamp()``, inline: every zone change makes an object.
    oid = st.next_id
    st.next_id = oid + 1
    timestamp = st.next_timestamp
    st.next_timestamp = timestamp + 1
    obj = _new_object(oid, card or oid, name, owner, owner if controller is None else controller,
                      zone, timestamp, is_token)
    st.objects[oid] = obj
    lst = st.zone_list(zone, owner)
    if top:
        lst.insert(0, oid)
    else:
        lst.append(oid)
    if is_token and zone != "battlefield":
        st.sba.tokens.add(oid)  # 704.5d: it will cease to exist
    if "battlefield" in (zone, moved_from) or reads_zone_sizes(game):
        # What enters or leaves the battlefield can change any permanent (611.3a); a move
        # elsewhere only changes counts a characteristic-defining ability may read.
        game.changed()
    return obj


def copy_card(game: Game, obj: GameObject, seat: int) -> GameObject:
    """707.12: ``seat`` makes a copy of the card ``obj`` in the zone it is in, to cast it: the
    copy has the card's copiable values (707.2: its name, and so its definition) and is owned
    and controlled by ``seat``; outside the stack and the battlefield it ceases to exist at the
    next check of state-based actions (704.5e)."""
    copy = create_object(game, obj.name, seat, obj.zone)
    copy.card_copy = True
    if copy.zone != "stack" and copy.zone != "battlefield":
        game.state.sba.tokens.add(copy.id)
    game.log("effect", f"{game.player_name(seat)} copies {obj.name} (707.12)", player=seat,
             subject=copy.id, refs=(obj.id,))
    return copy


_new_move: Callable[[int, str, str, bool, bool, tuple[tuple[str, int], ...], bool, str, int, int,
                     int], MoveEvent] = builder(MoveEvent)
"""``MoveEvent(object_id, from_zone, to_zone, top, shuffle, counters, tapped, face, copy_of,
controller, protector)``, every field given (``builder``): one for every zone change."""


def move_object(
    game: Game,
    oid: int,
    to_zone: str,
    *,
    controller: int | None = None,
    top: bool = True,
    cause: str = "",
    counters: tuple[tuple[str, int], ...] = (),
    instead: tuple[Replacement[MoveEvent], ...] = (),
    event: MoveEvent | None = None,
    copy_of: int = 0,
    name: str = "",
    face_down: bool = False,
    return_now: bool = True,
) -> GameObject:
    """Move an object to another zone; it becomes a new object (400.7) and the old one is kept
    as last known information. Library moves go on top unless ``top`` is false. Returns the
    new object (or, when it can't enter the battlefield, the object where it stays: 101.2,
    ``_stays_out``). Zone-change triggers are checked (603.6, 603.10).

    The move is logged as ``visible_to`` allows (400.2): see ``_log_move``. ``cause``:
    ``draw`` words it as a draw (121.1).

    614.6: replacement effects change the move first (``_replacement.replace_move``, in
    timestamp order here; ``move_object_proc`` asks 616.1's question): ``counters``, it enters
    the battlefield with them (614.1c); ``instead``, the moving effect's self-replacements
    (614.15); ``event``, a move already replaced (by ``move_object_proc``). ``copy_of``: it
    enters the battlefield as a copy of that object (614.1c, 707.2; ``event.copy_of`` otherwise). ``name``:
    the face, half or Adventure it becomes on the stack (601.3e); elsewhere a card of several
    faces has its whole card's name (709.4, 712.8a, 715.4), except a face put onto the
    battlefield, which keeps its own. ``face_down``: it is turned face down as it moves to the
    stack (708.3, 702.37c: cast face down); a face-down spell that resolves enters the
    battlefield face down (708.4, 702.37c). 708.9: a face-down permanent or spell that moves
    anywhere else is revealed to every player as it moves (``GameObject.revealed``).
    ``return_now``: what a permanent leaving exiled "until" it leaves returns at once (610.3c),
    as it enters choosing nothing (False: the caller returns it, asking, ``move_object_proc``).
    """
    st = game.state
    if event is None:
        event = _new_move(oid, st.objects[oid].zone, to_zone, top, False, counters, False,
                          name if to_zone == "battlefield" else "", 0,
                          -1 if controller is None else controller, -1)
        if instead or _may_be_replaced(game, oid, to_zone, event.face):
            event = run_sync(replace_move(game, event, instead, ask=False))
    to_zone, top, copy_of = event.to_zone, event.top, copy_of or event.copy_of
    moving = st.objects[oid]
    if to_zone == "battlefield" and moving.zone != "stack" and _stays_out(game, moving, event.face):
        return moving
    if moving.zone == "stack" and moving.cast_costs and not EXILED_LEAVING_STACK.isdisjoint(moving.cast_costs):
        # 702.34a, 702.133a: a spell cast with flashback or jump-start (a cost option saying so)
        # is exiled whenever it would leave the stack.
        to_zone = "exile"
    snapshot_leaving(game, moving)  # 603.10: as it last existed on the battlefield
    old = st.objects.pop(oid)
    stays_face_down = old.face_down and old.zone == "stack" and to_zone == "battlefield"
    if old.face_down and old.zone in ("battlefield", "stack") and not stays_face_down:
        old.revealed = True  # 708.9: revealed to all as it moves (its last known information)
    st.zone_list(old.zone, old.owner).remove(oid)
    if old.zone != "library":
        # No longer in a zone: nothing changes it, so no copy is needed. A card that leaves a
        # library keeps none: nobody saw it there (400.2), so no rule or player can name the
        # old object (a seat that names its id is told what it is told of an id that never
        # existed), and the dozens drawn in a game need not stay in memory.
        st.lki[oid] = old
        # Its kept characteristics (``Caches.stable``) go with it: its last known information
        # gives the same ones if asked (``characteristics``), and a game keeps less.
        game.caches.stable.pop(oid, None)
    # 611.2c / 400.7: effects that applied to the old object stop; it is a new object now.
    if any(oid in e.affected for e in st.effects):
        st.effects = [e for e in st.effects if oid not in e.affected or len(e.affected) > 1]
    if st.combat is not None and old.zone == "battlefield":
        _remove_from_combat(game, oid)
    if not name:
        name = old.name
        if to_zone != "battlefield" and to_zone != "stack":
            name = game.cards[name].card_name or name
    new = create_object(
        game,
        name,
        old.owner,
        to_zone,
        controller=(old.owner if controller is None else controller),
        is_token=old.is_token,
        card=old.card,
        top=top if to_zone == "library" else False,
        moved_from=old.zone,
    )
    if old.merged and old.zone == "battlefield":
        # 725.3: one permanent leaves, and each other card or token of it goes to the same zone
        # as a new object of its own (a token there ceases to exist, 704.5d).
        for card, part, token in old.merged[1:]:
            create_object(game, part if to_zone == "battlefield" else game.cards[part].card_name or part,
                          old.owner, to_zone, is_token=token, card=card,
                          top=top if to_zone == "library" else False, moved_from=old.zone)
        if to_zone != "battlefield":
            new.merged = old.merged  # what "it" finds there: each of them (``EffectContext``)
    if old.is_copy:
        new.except_supertypes = old.except_supertypes  # 707.9b: part of its copiable values
        if to_zone == "battlefield":
            # 608.3f: a copy of a permanent spell becomes a token as it enters.
            new.is_token = True
        else:
            new.is_copy = True
            st.sba.tokens.add(new.id)  # 704.5e: it will cease to exist
    if old.card_copy:
        new.card_copy = True  # 707.12: still a copy of a card
        if to_zone != "stack" and to_zone != "battlefield":
            st.sba.tokens.add(new.id)  # 704.5e: will cease to exist
    if face_down or stays_face_down:
        new.face_down = True  # 708.3/708.4: it is face down there (2/2, no name: 708.2a)
        game.changed()
    if to_zone == "battlefield":
        if old.zone == "stack" and (old.cast_costs or old.bestowed):
            # 702.74a, 702.109a: the permanent remembers how its spell was cast; 702.103e: a
            # bestowed spell enters as a bestowed Aura (``_enter_battlefield`` attaches it).
            new.cast_costs = old.cast_costs
            new.bestowed = old.bestowed
            game.changed()
        # 302.6: a permanent that just came under its controller's control is "sick".
        new.sick = True
        if event.protector >= 0:
            new.protector = event.protector  # 310.11a: chosen as it entered
        new.tapped = event.tapped  # 614.1c: it enters tapped, or with counters
        for kind, n in event.counters:
            add_counters(game, new, kind, n)
        original = st.objects.get(copy_of) or st.lki.get(copy_of)
        if original is not None:
            become_copy(game, new, original, new)  # before its enters triggers (603.6d)
        if original is not None or game.cards[new.name].loyalty is not None:
            _enters_with_loyalty(game, new)
    if event.shuffle:
        st.rng.shuffle(st.players[new.owner].library)
    if old.zone == "battlefield":
        end_with_source(game, oid)  # 611.2b: "for as long as" it remains on the battlefield
    if old.revealed:
        game.log("reveal", f"{game.player_name(old.owner)} reveals the face-down "
                 f"{'permanent' if old.zone == 'battlefield' else 'spell'} #{old.id}: it is "
                 f"{old.name} (708.9)", player=old.owner, subject=old.id, refs=(old.id,))
    _log_move(game, old, new, cause)
    if old.zone == "battlefield":
        trigger_leaves(game, old, to_zone, new.id)
        if st.leaving_together is not None:
            st.leaving_together.append(oid)
    if to_zone == "battlefield":
        trigger_enters(game, new)
    if old.zone == "battlefield" and st.exile and return_now:
        # 610.3c: what it exiled "until it leaves the battlefield" returns at once.
        run_sync(return_exiled(game, oid, only_until=True, ask=False))
    return new


def move_object_proc(game: Game, oid: int, to_zone: str, *, controller: int | None = None,
                     top: bool = True, cause: str = "", counters: tuple[tuple[str, int], ...] = (),
                     instead: tuple[Replacement[MoveEvent], ...] = (),
                     name: str = "") -> Proc[GameObject]:
    """``move_object`` where a player can be asked: 616.1, the moving object's controller
    chooses the order of the replacement effects that apply, and a replacement that asks
    (614.12, "as it enters, you may pay 3 life") asks. ``name``: as for ``move_object``; the
    face it enters the battlefield with, whose replacement abilities apply."""
    ev = yield from replace_entering(game, oid, to_zone, controller=controller, top=top,
                                     counters=counters, instead=instead, name=name)
    leaves = game.state.objects[oid].zone == "battlefield"
    new = move_object(game, oid, to_zone, controller=controller, top=top, cause=cause, event=ev,
                      name=name, return_now=False)
    if leaves and game.state.exile:
        # 610.3c: what it exiled "until it leaves the battlefield" returns at once, its owner
        # making the choices as it enters (614.12).
        yield from return_exiled(game, oid, only_until=True)
    return new


def replace_entering(game: Game, oid: int, to_zone: str, *, controller: int | None = None,
                     top: bool = True, counters: tuple[tuple[str, int], ...] = (),
                     instead: tuple[Replacement[MoveEvent], ...] = (),
                     name: str = "") -> Proc[MoveEvent]:
    """The move of ``oid`` to ``to_zone`` after the replacement effects that apply, asking
    (616.1; 614.12: the choices made as it enters the battlefield, by the player it enters
    under), for ``move_object(event=...)``: what ``move_object_proc`` moves, and what a
    resolving permanent spell checks before it enters (608.3e)."""
    ev = _new_move(oid, game.state.objects[oid].zone, to_zone, top, False, counters, False,
                   name if to_zone == "battlefield" else "", 0,
                   -1 if controller is None else controller, -1)
    if instead or _may_be_replaced(game, oid, to_zone, ev.face):
        ev = yield from replace_move(game, ev, instead)
    return ev


def _stays_out(game: Game, obj: GameObject, face: str) -> bool:
    """101.2/614.12: whether ``obj``, put onto the battlefield from a zone other than the stack by
    any effect or rule, can't enter it ("Lands can't enter the battlefield": Worms of the Earth;
    as ``face``, the face it would enter with, if named); then it stays where it is. A spell
    that can't enter is resolution's to handle (608.3e)."""
    why = enter_refusal(game, obj, game.cards[face].card_types if face else None)
    if why is None:
        return False
    game.log("zone", f"{visible_name(game, obj.id)} can't enter the battlefield: {why}; it stays "
             f"in {_zone_words(game, obj.zone, obj.owner)}", subject=obj.id)
    return True


def _may_be_replaced(game: Game, oid: int, to_zone: str, face: str = "") -> bool:
    """Whether a static replacement effect might apply to ``oid`` moving to ``to_zone`` (614.6,
    614.12): the object's own (``enters``, ``to_graveyard``, "enter as a copy": its definition
    now, layer 1, has one; entering with another face, ``face``'s) or, for a graveyard, a permanent's for any card
    (``_graveyard_watched``). When none might, ``_replacement.move_replacements`` would find
    none: the move is not offered to them."""
    if to_zone != "graveyard" and to_zone != "battlefield":
        return False  # no replacement ability watches another zone (``REPLACEMENT_EVENTS``)
    defn = definition_named(game.cards, face or game.caches.layers[oid].definition)
    replacements = defn.replacements
    if to_zone == "battlefield":
        return bool(defn.enters_as_copy) or any(r.event == "enters" for r in replacements)
    return any(r.event == "to_graveyard" for r in replacements) or _graveyard_watched(game)


def _graveyard_watched(game: Game) -> bool:
    """Whether a permanent's definition now has a replacement ability for any card going to a
    graveyard (``applies_to = "any"``), kept per epoch (what permanents there are and what they
    are move it)."""
    found = game.caches.graveyard_watchers.get(game.caches.epoch)
    if found is None:
        layers, cards = game.caches.layers, game.cards
        found = any(r.event == "to_graveyard" and r.applies_to == "any"
                    for oid in game.state.battlefield
                    for r in definition_named(cards, layers[oid].definition).replacements)
        game.caches.graveyard_watchers.clear()
        game.caches.graveyard_watchers[game.caches.epoch] = found
    return found


def return_exiled(game: Game, source_id: int, *, only_until: bool = False,
                  ask: bool = True) -> Proc[None]:
    """607.2a/610.3c: the cards exiled with ``source_id`` return to the battlefield under their
    owners' control (``only_until``: only those exiled "until" it leaves), each owner making the
    choices as it enters (614.12; ``ask`` False: nobody is asked, ``run_sync``). One that can't
    enter the battlefield (``enter_refusal``) stays in exile.

    Simplification: an Aura returned this way should have its owner choose what it enchants
    (303.4f); it returns unattached and 704.5m puts it into the graveyard.
    """
    st = game.state
    for oid in [i for i in st.exile if st.objects[i].exiled_by == source_id
                and (st.objects[i].exiled_until or not only_until)]:
        obj = st.objects[oid]
        why = enter_refusal(game, obj)
        if why is not None:
            game.log("zone", f"{obj.name} stays in exile: {why}", subject=oid)
            continue
        if ask:
            yield from move_object_proc(game, oid, "battlefield", controller=obj.owner)
        else:
            move_object(game, oid, "battlefield", controller=obj.owner)


def _enters_with_loyalty(game: Game, new: GameObject) -> None:
    """306.5b: a planeswalker has the intrinsic ability "This permanent enters with a number of
    loyalty counters on it equal to its printed loyalty number" (a copy's: the copied one's,
    707.2; a face-down permanent has none, 708.2)."""
    c = game.characteristics(new)
    if "Planeswalker" in c.card_types and c.loyalty:
        add_counters(game, new, "loyalty", c.loyalty)


def create_token(game: Game, name: str, controller: int, *, attached_to: int = 0) -> GameObject:
    """111.2: a token enters the battlefield under ``controller``'s control (603.6a: its
    enters triggers trigger); ``attached_to``: it is created attached to that object (303.7)."""
    new = create_object(game, name, controller, "battlefield", is_token=True)
    new.sick = True
    new.attached_to = attached_to
    game.changed()
    if game.cards[name].loyalty is not None:
        _enters_with_loyalty(game, new)  # 306.5b
    game.log("token", f"{game.player_name(controller)} creates a {name} token"
             + (f" attached to {visible_name(game, attached_to)}" if attached_to else ""),
             player=controller, subject=new.id)
    trigger_enters(game, new)
    return new


def _zone_words(game: Game, zone: str, owner: int) -> str:
    if zone in ("battlefield", "stack"):
        return f"the {zone}"
    if zone == "exile":
        return "exile"
    return f"{game.player_name(owner)}'s {zone}"


def _log_move(game: Game, old: GameObject, new: GameObject, cause: str) -> None:
    """Log a zone change so that nobody learns what they may not see (400.2, 406.3, 708).

    A seat learns the card's name if it may see the object in the zone it left or in the one
    it enters, and its new id only if it may see the new object. When every seat may know the
    name, one public event names it; otherwise a public event says only that a card moved
    ("alice draws a card") and, if any seat may know the name, a second event private to those
    seats names it.
    """
    if not game.logging():
        return  # nobody would read these events (``Game.end_batch``)
    owner = game.player_name(old.owner)
    public_new = visible_to(game, PUBLIC_SEAT, new)
    if visible_to(game, PUBLIC_SEAT, old) or public_new:
        text = (f"{owner} draws {new.name}" if cause == "draw" else
                f"{old.name} moves from {_zone_words(game, old.zone, old.owner)} to "
                f"{_zone_words(game, new.zone, new.owner)}")
        # The object it was, by its old id, when everyone could see it (a target that left).
        game.log(cause or "zone", text, subject=new.id if public_new else 0, player=old.owner,
                 zones=(old.zone, new.zone),
                 refs=(old.id,) if visible_to(game, PUBLIC_SEAT, old) else ())
        return
    draw = cause == "draw"
    where = "" if draw else (f"from {_zone_words(game, old.zone, old.owner)} to "
                             f"{_zone_words(game, new.zone, new.owner)}")
    game.log(cause or "zone", f"{owner} draws a card" if draw else
             f"a card moves {where}", player=old.owner, amount=1, zones=(old.zone, new.zone))
    # Players are in seat order: ``seats_seeing`` of either, merged.
    seers = tuple([s for s in range(len(game.state.players))
                   if visible_to(game, s, old) or visible_to(game, s, new)])
    if seers:
        # The new id only to seats that may see the new object (a card put into a library
        # keeps its new id from its owner too).
        shown = all(visible_to(game, s, new) for s in seers)
        game.log(cause or "zone", f"{owner} draws {new.name}" if draw else
                 f"{new.name} moves {where}", player=old.owner, subject=new.id if shown else 0,
                 amount=1, private_to=seers, zones=(old.zone, new.zone))


def _remove_from_combat(game: Game, oid: int) -> None:
    """506.4: a permanent that leaves the battlefield is removed from combat."""
    combat = game.state.combat
    assert combat is not None
    combat.attackers.pop(oid, None)
    combat.blockers.pop(oid, None)


def draw_cards(game: Game, seat: int, n: int) -> None:
    """121.2: draw ``n`` cards one at a time; drawing from an empty library is noted for 704.5b."""
    p = game.state.players[seat]
    for _ in range(n):
        if not p.library:
            p.drew_from_empty = True
            game.state.sba.players.add(seat)  # 704.5b
            game.log("draw_empty", f"{p.name} tries to draw from an empty library", player=seat)
            continue
        move_object(game, p.library[0], "hand", cause="draw")


def gain_life(game: Game, seat: int, amount: int) -> None:
    """119.3: gaining life."""
    if amount <= 0:
        return
    p = game.state.players[seat]
    p.life += amount  # no state-based action can follow from it (704.5a reads 0 or less)
    game.log("life", f"{p.name} gains {amount} life ({p.life})", player=seat, amount=amount)


def lose_life(game: Game, seat: int, amount: int) -> None:
    """119.3: losing life."""
    if amount <= 0:
        return
    p = game.state.players[seat]
    p.life -= amount
    game.state.sba.players.add(seat)  # 704.5a
    if game.logging():
        game.log("life", f"{p.name} loses {amount} life ({p.life})", player=seat, amount=-amount)


def deal_damage(game: Game, source: GameObject, target: int, amount: int) -> int:
    """120.3: damage from ``source`` to a player or permanent ref; returns the damage dealt.

    Infect (702.90) turns it into poison counters or -1/-1 counters, deathtouch (702.2) marks
    it for 704.5h, lifelink (702.15) makes the source's controller gain that much life.
    """
    st = game.state
    if amount <= 0:
        return 0
    amount = prevent_damage(game, source, target, amount)  # 615.7: prevention shields
    if amount <= 0:
        return 0
    infect = game.has_keyword(source, "infect")
    if is_player_ref(target):
        seat = seat_of_ref(target)
        p = st.players[seat]
        if p.lost:
            return 0
        if infect:
            p.poison += amount
            st.sba.players.add(seat)  # 704.5c
            game.log("poison", f"{visible_name(game, source.id)} gives {p.name} {amount} poison ({p.poison})",
                     player=seat, amount=amount)
        else:
            if game.logging():
                game.log("damage", f"{visible_name(game, source.id)} deals {amount} damage to {p.name}", player=seat,
                         subject=source.id, amount=amount, refs=(source.id, target))
            lose_life(game, seat, amount)
    else:
        victim = st.objects.get(target)
        if victim is None or victim.zone != "battlefield":
            return 0
        if protected_from(game, victim, source):
            # 702.16e: damage from a source with the quality is prevented.
            game.log("prevent", f"damage from {visible_name(game, source.id)} to "
                     f"{visible_name(game, victim.id)} is prevented "
                     "(702.16e: protection)", subject=victim.id, amount=amount)
            return 0
        if game.logging():
            game.log("damage", f"{visible_name(game, source.id)} deals {amount} damage to "
                     f"{visible_name(game, victim.id)}",
                     subject=victim.id, amount=amount, refs=(source.id, victim.id))
        if game.is_type(victim, "Planeswalker"):
            # 120.3c: damage to a planeswalker removes that many loyalty counters.
            add_counters(game, victim, "loyalty", -amount)
        elif game.is_type(victim, "Battle"):
            # 120.3h, 310.6: damage to a battle removes that many defense counters.
            add_counters(game, victim, "defense", -min(amount, victim.counters.get("defense", 0)))
        if game.is_creature(victim):
            if infect:
                add_counters(game, victim, "-1/-1", amount)
            else:
                victim.damage += amount
            if game.has_keyword(source, "deathtouch"):
                victim.deathtouch_damage = True
            st.sba.objects.add(victim.id)  # 704.5g, 704.5h (counters mark the board)
    if game.has_keyword(source, "lifelink"):
        gain_life(game, game.controller(source), amount)
    return amount
