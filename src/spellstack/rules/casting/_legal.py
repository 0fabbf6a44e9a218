"""The actions legal now (117.1) and the automatic-pass test (117.3d), with the caches that make
them cheap: what a hand offers, whether any cost can be paid, and the last answer per seat.

``legal_actions`` is exact; ``only_pass_possible`` says without building the list whether passing
is all a seat can do (then the engine passes for it). Both read only what their cache keys cover.
"""

from __future__ import annotations

from itertools import combinations
from typing import Final

from ..definitions import CardDefinition, CostOption, TargetSpec
from ..game import Game, HandFacts, SeatBoard
from ..legality import (
    cast_permitted_somehow,
    cast_refusal,
    flash_permitted,
    for_caster,
    has_permissions,
    land_play_permitted_from,
    play_land_refusal,
    target_candidates,
    target_prompt,
    timing_refusal,
)
from ..mana import ManaCost, ManaSupply
from ..state import (
    ActionOption,
    GameObject,
    TargetRequirement,
    new_action_option,
    new_target_requirement,
)
from ._actions import spell_targets
from ._boards import can_tap, mana_sources, seat_board
from ._casting import (
    cast_as,
    cast_forms,
    face_down_face,
    instant_speed,
    is_face_down_cast,
    spell_specs,
    taxed,
    total_cost,
)
from ._checks import MAIN_STEPS, loyalty_refusal, sorcery_timing
from ._morph import face_up_cost

# ---------------------------------------------------------------------- legal actions

_NO_COST: Final = ManaCost(())
_ONLY_PASS: Final = (ActionOption("pass"),)


def target_requirements(game: Game, specs: tuple[TargetSpec, ...], seat: int,
                        source_id: int, source: GameObject, as_cast: CardDefinition | None = None,
                        ) -> tuple[TargetRequirement, ...] | None:
    """601.2c/602.2b: each target requirement of ``specs`` with the candidates ``seat`` could
    choose for it now; None when one has fewer than it needs (the spell or ability can't be cast
    or activated now). ``source_id``: the spell being cast, never its own target (115.5); 0 for
    an ability. ``as_cast``: the face the card ``source`` is cast as (``is_legal_target``)."""
    out = []
    for spec in specs:
        spec = for_caster(game, spec, seat, source, as_cast)
        cands = [c for c in target_candidates(game, spec, seat, source_id, source, as_cast)
                 if c != source_id]
        if len(cands) < spec.min:
            return None
        out.append(new_target_requirement(target_prompt(spec), spec.min, spec.max, tuple(cands)))
    return tuple(out)


def _castable_cards(game: Game, seat: int, permissions: bool | None = None) -> list[int]:
    """The cards ``seat`` might cast or play: their hand, then cards in other zones an effect
    lets them cast (601.2a; ``cast_permitted_from``) or their own rules do (``_own_zone_cards``).
    ``permissions``: ``has_permissions``, if the caller knows it."""
    st = game.state
    out = list(st.players[seat].hand)
    if has_permissions(game) if permissions is None else permissions:
        for zone in ("graveyard", "exile", "library"):
            ids = st.exile if zone == "exile" else st.zone_list(zone, seat)
            out.extend(i for i in ids if cast_permitted_somehow(game, seat, st.objects[i]))
    out.extend(i for i in _own_zone_cards(game, seat) if i not in out)
    return out


def _own_zone_cards(game: Game, seat: int) -> list[int]:
    """601.2a: ``seat``'s cards outside their hand that they may cast by the cards' own rules: a
    graveyard card with flashback (702.34a), an Adventure's creature in exile (715.4), a card
    whose text lets it be cast from where it is (Squee, 113.6b)."""
    st = game.state
    objects, cards = st.objects, game.cards
    known = game.caches.own_zone_casting
    if known is None:
        known = game.caches.own_zone_casting = any(
            cards[o.name].layout == "adventure" or cards[o.name].cast_zones
            or any(c.zone != "hand" for f in (cards[o.name], *(cards[n] for n in cards[o.name].faces))
                   for c in f.cost_options)
            for o in (*objects.values(), *st.lki.values()) if not o.ability_kind)
    if not known:
        return []
    out = [i for i in st.players[seat].graveyard
           if "graveyard" in cards[objects[i].name].cast_zones
           or any(o.zone == "graveyard" for o in cards[objects[i].name].cost_options)]
    if st.exile:
        out += [i for i in st.exile if objects[i].owner == seat and (
            objects[i].on_adventure or "exile" in cards[objects[i].name].cast_zones)]
    return out


def _form_options(game: Game, seat: int, obj: GameObject, supply: ManaSupply,
                  sorcery_ok: bool) -> list[ActionOption]:
    """The cast options of a card with faces or cost options (601.3e, 601.2b): one per face,
    alternative cost (or none) and choice of modes that could be cast now, each with the
    additional costs that could be paid on top of it."""
    out: list[ActionOption] = []
    exiled = obj.zone == "exile"  # 601.2f: an effect letting it be played may tax it
    for form in cast_forms(game, seat, obj):
        face = form.face
        if form.required_cost:
            alternatives: list[CostOption | None] = [form.required]
        else:
            alternatives = [None, *(o for o in form.costs if o.kind == "alternative")]
        additional = [o for o in form.costs if o.kind == "additional"]
        for alt in alternatives:
            base: tuple[CostOption, ...] = (alt,) if alt is not None else ()
            if not instant_speed(game, seat, obj, face, base) and not sorcery_ok:
                flash = next((o for o in additional if o.name == "flash"), None)
                if flash is None:
                    continue
                base += (flash,)  # 601.3c: Rout, "as though it had flash if you pay {2} more"
            cost = total_cost(face, base)
            if exiled:
                cost = taxed(game, seat, obj, cost)
            mx = supply.max_x(cost)
            if mx is None:
                continue
            # 708.4/601.3e: a card cast face down is checked as the face-down spell it would be.
            proposed = face_down_face(face) if is_face_down_cast(base) else face
            if all(cast_refusal(game, seat, obj, x, proposed) is not None
                   for x in range(min(mx, 1) + 1)):
                continue  # 601.2e/101.2, as for a card of one face
            extra = tuple(o.name for o in additional if o not in base
                          and supply.can_pay(taxed(game, seat, obj, total_cost(face, (*base, o)))
                                             if exiled else total_cost(face, (*base, o)), 0))
            named = "+".join(o.name for o in base)
            spell = proposed.spell
            mode_sets: list[tuple[int, ...]] = [()]
            if spell is not None and spell.modes:
                mode_sets = list(combinations(range(1, len(spell.modes) + 1), spell.mode_count))
            for modes in mode_sets:
                bestowed = alt is not None and alt.name == "bestow"
                reqs = target_requirements(game, spell_specs(proposed, modes, bestowed,
                                                             (alt.name,) if alt is not None else ()), seat, obj.id,
                                     obj, cast_as(obj, proposed))
                if reqs is None:
                    continue
                texts = tuple(spell.modes[m - 1].text for m in modes) if spell else ()
                out.append(new_action_option(
                    "cast", obj.id, face.name, 0, reqs, cost.has_x, mx,
                    bool(spell is not None and spell.divide), face.name if obj.name != face.name
                    or game.cards[obj.name].faces else "", modes, texts, extra, named))
    return out


def _mana_key(game: Game, seat: int, board: SeatBoard | None = None) -> tuple[object, ...]:
    """What ``seat``'s mana (``_seat_supply``) and the {T} abilities they could activate read: the
    epoch (their permanents and what those tap for, ``SeatBoard``), their life and pool, and
    which of their permanents are tapped or summoning sick. ``board``: their ``SeatBoard``, if the
    caller has it."""
    p = game.state.players[seat]
    objects = game.state.objects
    permanents = (seat_board(game, seat) if board is None else board).permanents
    # Which are tapped and which sick, two bits each in the order of ``permanents`` (the same
    # permanents while the epoch is: it is in the key): one int, where a tuple of pairs would
    # be a tuple made for each permanent at every look.
    flags = 0
    bit = 1
    for oid in permanents:
        o = objects[oid]
        if o.tapped:
            flags |= bit
        if o.sick:
            flags |= bit << 1
        bit <<= 2
    return (game.caches.epoch, p.life, tuple(p.mana.items()), flags)


def _actions_key(game: Game, seat: int, mana_key: tuple[object, ...] | None = None,
                 ) -> tuple[tuple[object, ...], tuple[object, ...]]:
    """What ``legal_actions`` reads, as a key: equal keys, equal answers. The epoch stands for
    every object's characteristics (613; ``Game.changed``: permanents entering and leaving,
    effects, counters, attachments), so for which permanents there are, who controls them, what
    they can tap for and what protects them; the rest changes without moving it: the step only
    as sorcery timing (307.1), the turn (606.3: a loyalty ability once each turn, its record
    ``GameObject.loyalty_turn``), the stack, the seat's hand, pool, life and land drop, the zones a
    permission may cast from, which players are still in, and which of the seat's permanents
    are tapped or summoning sick (no target, restriction or permission reads another's). In two
    parts: ``_mana_key`` (``mana_key``, if the caller has it), then the rest."""
    st = game.state
    p = st.players[seat]
    return (_mana_key(game, seat) if mana_key is None else mana_key,
            (seat, st.turn, sorcery_timing(game, seat), p.lands_played, tuple(p.hand),
             tuple(st.stack),
             tuple(p.graveyard), tuple(st.exile), tuple(p.library[:1]),
             tuple([q.lost for q in st.players])))


def _seat_supply(game: Game, seat: int, mana_key: tuple[object, ...]) -> ManaSupply:
    """What ``seat`` could pay with now (their pool and ``mana_sources``), kept per seat while
    its key (``_mana_key``) is the same."""
    memo = game.caches.mana.get(seat)
    if memo is not None and memo[0] == mana_key:
        return memo[1]
    p = game.state.players[seat]
    supply = ManaSupply(p.mana, mana_sources(game, seat), life_available=p.life)
    game.caches.mana[seat] = (mana_key, supply)
    return supply


def only_pass_possible(game: Game, seat: int) -> bool:
    """Whether passing is all ``seat`` can do now (117.3d: the engine then passes for it): True
    exactly when ``legal_actions`` is only ``pass``, without building that list where it can.
    Timing settles most grants (no land ``seat`` may play, no card they may cast now, from
    their hand or as a permission allows, no activated ability they could activate now); then
    whether the rest can be paid for at all (``ManaSupply``, no payment worked out); only when
    something can does ``legal_actions`` decide (cached: the priority decision that follows
    reuses it). Without a permission in play, what the hand offers is kept per seat
    (``HandFacts``), their mana per seat (``_seat_supply``) and whether any of the hand's costs
    can be paid with it, so that a pass between two changes costs a few lookups."""
    st = game.state
    p = st.players[seat]
    board = game.caches.seat_boards.get(seat)  # ``seat_board``'s kept board, without the call
    if board is None or board.epoch != game.caches.epoch:
        board = seat_board(game, seat)
    if board.permissions:
        return _only_pass_permitted(game, seat)
    if board.face_down:
        return len(legal_actions(game, seat)) == 1  # 702.37e: a morph cost may be payable
    if (game.caches.own_zone_casting is not False and (p.graveyard or st.exile)
            and _own_zone_cards(game, seat)):
        return len(legal_actions(game, seat)) == 1  # 601.2a: flashback, an Adventure's creature
    hand = tuple(p.hand)
    facts = game.caches.hand_facts.get(seat)
    if facts is None or facts.hand != hand or (facts.epoch != game.caches.epoch and facts.epoch >= 0):
        facts = _hand_facts(game, seat, hand)
    sorcery_ok = st.active == seat and st.step in MAIN_STEPS and not st.stack  # 307.1
    if sorcery_ok:
        if facts.land and p.lands_played < 1 and play_land_refusal(game, seat) is None:
            return False  # 305.1: playing a land needs nothing more
        hand_costs = facts.sorcery
    else:
        hand_costs = facts.instant
    abilities = board.activator
    if not (hand_costs or abilities):
        return True
    mana_key = _mana_key(game, seat, board)
    supply = _seat_supply(game, seat, mana_key)
    if not abilities:
        # The hand's costs alone: whether one can be paid is kept with the supply and the
        # costs it was asked about (both kept objects: the same objects, the same answer).
        memo = game.caches.payable.get(seat)
        if memo is not None and memo[0] is supply and memo[1] is hand_costs:
            payable = memo[2]
        else:
            payable = any(supply.can_pay(cost, 0) for cost in hand_costs)
            game.caches.payable[seat] = (supply, hand_costs, payable)
        if not payable:
            return True  # what legal_actions would find: nothing payable
        return len(_cached_actions(game, seat, _actions_key(game, seat, mana_key))) == 1
    costs = [(cost, 0) for cost in hand_costs]  # what might be done: its cost, the permanent tapped
    costs += _ability_costs(game, seat, sorcery_ok)
    for cost, tapped in costs:
        if supply.without(tapped).can_pay(cost, 0):
            return len(_cached_actions(game, seat, _actions_key(game, seat, mana_key))) == 1
    return True


def _land_face(game: Game, obj: GameObject) -> str:
    """712.12: the name of the land face of a modal double-faced card, or ""."""
    defn = game.cards[obj.name]
    return next((n for n in defn.faces if "Land" in game.cards[n].card_types), "") if (
        defn.faces) else ""


def _hand_facts(game: Game, seat: int, hand: tuple[int, ...]) -> HandFacts:
    """``HandFacts`` for ``seat``'s ``hand`` now (kept in ``Game.hand_facts``)."""
    layers = game.caches.layers  # characteristics by id (613)
    land = False
    instant: dict[int, ManaCost] = {}
    sorcery: dict[int, ManaCost] = {}
    cards, objects = game.cards, game.state.objects
    for oid in hand:
        c = layers[oid]
        if "Land" in c.card_types:
            land = True
            continue
        cost = c.mana_cost or _NO_COST
        sorcery[id(cost)] = cost
        defn = cards[objects[oid].name]
        # 601.3d: a card with flash while a condition holds counts as one that might have it.
        if "Instant" in c.card_types or "flash" in c.keywords or defn.flash_if is not None:
            instant[id(cost)] = cost
        if defn.faces or defn.cost_options:
            # 601.3e, 601.2b: every face and every cost it may be cast for, and when.
            for face in (cards[n] for n in defn.faces) if defn.faces else (defn,):
                if "Land" in face.card_types:
                    land = True  # 712.12: a modal double-faced card's land face
                    continue
                fast = "Instant" in face.card_types or "flash" in face.keywords
                for option in (None, *face.cost_options):
                    if option is not None and option.zone != "hand":
                        continue
                    total = total_cost(face, (option,) if option is not None else ())
                    if option is None or option.kind == "alternative":
                        sorcery[id(total)] = total
                    if fast or (option is not None and option.name == "flash"):
                        instant[id(total)] = total
    stable = game.caches.stable
    epoch = -1 if all(oid in stable for oid in hand) else game.caches.epoch
    facts = game.caches.hand_facts[seat] = HandFacts(hand, epoch, land, tuple(instant.values()),
                                                     tuple(sorcery.values()))
    return facts


def _ability_costs(game: Game, seat: int, sorcery_ok: bool) -> list[tuple[ManaCost, int]]:
    """The costs of the activated abilities other than mana abilities ``seat`` could activate
    now but for their mana (602.2, 602.5), each with the permanent its {T} taps (0: none)."""
    st = game.state
    layers = game.caches.layers
    costs: list[tuple[ManaCost, int]] = []
    for oid in st.battlefield:
        c = layers[oid]
        if c.controller != seat or not c.activated:
            continue
        obj = st.objects[oid]
        for _, _, ab in c.activated:
            if (ab.is_mana_ability or (ab.tap and not can_tap(game, obj))
                    or (ab.sorcery_speed and not sorcery_ok)
                    or any(obj.counters.get(kind, 0) < n for kind, n in ab.remove_counters)
                    or (ab.loyalty is not None and loyalty_refusal(game, obj, ab) is not None)):
                continue
            costs.append((ab.mana_cost, oid if ab.tap else 0))
    return costs


def _only_pass_permitted(game: Game, seat: int) -> bool:
    """``only_pass_possible`` with a permission in play (702.8a, 601.2a): every castable card
    looked at afresh."""
    st = game.state
    p = st.players[seat]
    sorcery_ok = st.active == seat and st.step in MAIN_STEPS and not st.stack  # 307.1
    layers = game.caches.layers  # characteristics by id (613): this runs at every priority
    permissions = has_permissions(game)  # without one, nothing is cast as though it had flash
    costs: list[tuple[ManaCost, int]] = []  # what might be done: its cost, the permanent tapped
    for oid in _castable_cards(game, seat, True) if permissions else p.hand:
        c = layers[oid]
        land = "Land" in c.card_types
        if ((land or _land_face(game, st.objects[oid])) and sorcery_ok and p.lands_played < 1
                and (st.objects[oid].zone == "hand" or land_play_permitted_from(game, seat, st.objects[oid]))
                and play_land_refusal(game, seat) is None):
            return False  # 305.1: playing a land (or a land face, 712.12) needs nothing more
        defn = game.cards[st.objects[oid].name]
        if not land and (defn.faces or defn.cost_options):
            # 601.3b/601.3e: a face or a cost may change what a permission admits (a bestowed
            # card is an Aura spell): the full list of actions settles it.
            return False
        if not land and (sorcery_ok or "Instant" in c.card_types or "flash" in c.keywords
              or defn.flash_if is not None
              or (permissions and flash_permitted(game, seat, st.objects[oid]))):
            costs.append((c.mana_cost or _NO_COST, 0))
    if seat_board(game, seat).activator:
        costs += _ability_costs(game, seat, sorcery_ok)
    if _face_down_permanents(game, seat):
        return len(legal_actions(game, seat)) == 1  # 702.37e: a morph cost may be payable
    if not costs:
        return True
    key = _actions_key(game, seat)
    memo = game.caches.actions.get(seat)
    if memo is not None and memo[0] == key:
        return len(memo[1]) == 1
    supply = _seat_supply(game, seat, key[0])
    for cost, tapped in costs:
        if supply.without(tapped).can_pay(cost, 0):
            return len(_cached_actions(game, seat, key)) == 1
    game.caches.actions[seat] = (key, _ONLY_PASS)  # what legal_actions would find: nothing payable
    return True


def legal_actions(game: Game, seat: int) -> tuple[ActionOption, ...]:
    """117.1: what ``seat`` may do now with priority. Passing is always listed first. Conceding
    (104.3a) is always legal and not listed; mana abilities on their own are not listed either
    (they are activated while paying). The answer is kept per seat with the key of what it read
    (``_actions_key``) and given again while the key is unchanged."""
    return _cached_actions(game, seat, _actions_key(game, seat))


def _cached_actions(game: Game, seat: int,
                   key: tuple[tuple[object, ...], tuple[object, ...]]) -> tuple[ActionOption, ...]:
    memo = game.caches.actions.get(seat)
    if memo is not None and memo[0] == key:
        return memo[1]
    options = _fresh_actions(game, seat, _seat_supply(game, seat, key[0]))
    game.caches.actions[seat] = (key, options)
    return options


def _fresh_actions(game: Game, seat: int, supply: ManaSupply | None = None) -> tuple[ActionOption, ...]:
    """``legal_actions`` computed afresh (no cache), with ``supply`` as the seat's mana if given."""
    st = game.state
    options: list[ActionOption] = [_ONLY_PASS[0]]  # frozen: one pass option serves every list
    p = st.players[seat]
    if supply is None:
        supply = ManaSupply(p.mana, mana_sources(game, seat), life_available=p.life)
    sorcery_ok = sorcery_timing(game, seat)
    lands_ok = sorcery_ok and p.lands_played < 1 and play_land_refusal(game, seat) is None
    layers = game.caches.layers  # characteristics by id (613)
    permissions = has_permissions(game)  # without one, nothing is cast as though it had flash
    for oid in _castable_cards(game, seat, permissions):
        obj = st.objects[oid]
        c = layers[oid]
        if "Land" in c.card_types:
            if lands_ok and (obj.zone == "hand" or land_play_permitted_from(game, seat, obj)):
                options.append(new_action_option("play", oid, obj.name, 0, (), False, 0, False,
                                                    "", (), (), (), ""))
            continue
        defn = game.cards[obj.name]
        if defn.faces and lands_ok and (obj.zone == "hand" or land_play_permitted_from(game, seat, obj)):
            for name in defn.faces:
                if "Land" in game.cards[name].card_types:  # 712.12: a land face is played
                    options.append(new_action_option("play", oid, name, 0, (), False, 0, False,
                                                     name, (), (), (), ""))
        if not sorcery_ok and timing_refusal(game, seat, obj) is not None:
            continue  # 307.1/101.2: a restriction allows spells only at a sorcery's timing
        spell = defn.spell
        if (defn.faces or defn.cost_options or obj.zone != "hand" or defn.flash_if is not None
                or (spell is not None and (spell.modes or spell.divide))):
            options.extend(_form_options(game, seat, obj, supply, sorcery_ok))
            continue
        # ``_instant_speed``, with the characteristics at hand.
        if not (sorcery_ok or "Instant" in c.card_types or "flash" in c.keywords
                or (permissions and flash_permitted(game, seat, obj))):
            continue
        cost = c.mana_cost or _NO_COST
        # Counting first (cheap, and most cards fail it), then targets (601.2c before 601.2g).
        mx = supply.max_x(cost)
        if mx is None:
            continue
        reqs = target_requirements(game, spell_targets(game.cards[obj.name]), seat, oid, obj)
        if reqs is None:
            continue
        # 601.2e/101.2: listed if X=0 or X=1 makes it castable (the filters test parity).
        if all(cast_refusal(game, seat, obj, x) is not None for x in range(min(mx, 1) + 1)):
            continue
        options.append(new_action_option("cast", oid, obj.name, 0, reqs, cost.has_x, mx, False,
                                         "", (), (), (), ""))
    for oid in st.battlefield if seat_board(game, seat).activator else ():
        c = layers[oid]
        if c.controller != seat or not c.activated:
            continue
        obj = st.objects[oid]
        for n, (_, _, ab) in enumerate(c.activated, start=1):
            if ab.is_mana_ability:
                continue
            if ab.tap and not can_tap(game, obj):
                continue
            if ab.sorcery_speed and not sorcery_ok:
                continue
            if any(obj.counters.get(kind, 0) < k for kind, k in ab.remove_counters):
                continue  # 118.3: a cost that can't be paid
            if ab.loyalty is not None and loyalty_refusal(game, obj, ab) is not None:
                continue  # 606.3: once each turn; 606.6: enough loyalty for a minus
            mx = supply.without(oid if ab.tap else 0).max_x(ab.mana_cost)
            if mx is None:
                continue
            reqs = target_requirements(game, ab.targets, seat, 0, obj)  # 115.5: its source is fair game
            if reqs is None:
                continue
            options.append(new_action_option("activate", oid, obj.name, n, reqs, ab.mana_cost.has_x,
                                             mx, False, "", (), (), (), ""))
    options.extend(_face_up_options(game, seat, supply))
    return tuple(options)


def _face_down_permanents(game: Game, seat: int) -> list[GameObject]:
    """The face-down permanents ``seat`` controls (708.5: they may look at them)."""
    objects = game.state.objects
    return [o for o in map(objects.__getitem__, seat_board(game, seat).permanents) if o.face_down]


def _face_up_options(game: Game, seat: int, supply: ManaSupply) -> list[ActionOption]:
    """116.2b/702.37e: the face-down permanents ``seat`` controls that they could turn face up
    now: any time they have priority, if they can pay its morph cost."""
    out: list[ActionOption] = []
    for obj in _face_down_permanents(game, seat):
        cost = face_up_cost(game, obj)
        if cost is not None and supply.can_pay(cost, 0):
            out.append(new_action_option("turn_face_up", obj.id, obj.name, 0, (), False, 0, False,
                                         "", (), (), (), ""))
    return out
