"""Combat (506-511): declaring attackers and blockers, and combat damage."""

from __future__ import annotations

from dataclasses import replace
from typing import Final

from ..base import IllegalActionError
from ..game import Game
from ..legality import attack_refusal, block_refusal, protected_from
from ..state import (
    Answer,
    Choice,
    CombatState,
    Decision,
    GameObject,
    Proc,
    is_player_ref,
    new_choice,
    player_ref,
    seat_of_ref,
)
from ..triggers import trigger_attacks, trigger_blocks
from ..views import visible_name
from ..zones import deal_damage


def _can_attack(game: Game, obj: GameObject) -> bool:
    """508.1a: untapped, no summoning sickness (302.6) unless haste, no defender (702.3b)."""
    return (game.is_creature(obj) and not obj.tapped
            and not (obj.sick and not game.has_keyword(obj, "haste"))
            and not game.has_keyword(obj, "defender")
            and attack_refusal(game, obj) is None)  # 508.1c: restrictions (Pacifism)


def _can_block(game: Game, blocker: GameObject, attacker: GameObject) -> bool:
    """509.1a/b: an untapped creature; flying (702.9b) needs flying or reach (702.17b);
    702.16f: not one with a quality the attacker has protection from; 509.1b: restrictions
    (Pacifism, Void Winnower)."""
    if not game.is_creature(blocker) or blocker.tapped:
        return False
    if protected_from(game, attacker, blocker) or block_refusal(game, blocker) is not None:
        return False
    return not (game.has_keyword(attacker, "flying")
                and not (game.has_keyword(blocker, "flying") or game.has_keyword(blocker, "reach")))


ATTACK_PROMPT: Final = "508.1: declare attackers"
"""The attackers decision's prompt (its rule heads a refusal, ``check_answer``)."""
BLOCK_PROMPT: Final = "509.1: declare blockers"
"""The blockers decision's prompt, before the notes of 509.1b restrictions."""


def attack_options(game: Game) -> tuple[tuple[Choice, ...], int, tuple[tuple[int, int], ...]]:
    """508.1a: what the active player may declare: the choices (the creatures that can attack,
    then the players, planeswalkers and battles they can attack: 508.1b, a battle the player
    doesn't protect, 310.5), how many of them are creatures, and the legal (creature key,
    defender key) pairs; no pairs if no creature could attack."""
    st = game.state
    seat = st.active
    layers = game.caches.layers
    attackers = [st.objects[i] for i in st.battlefield
                 if layers[i].controller == seat and _can_attack(game, st.objects[i])]
    defenders: list[int] = [player_ref(s) for s in st.apnap() if s != seat]
    for oid in st.battlefield:
        c = layers[oid]
        if c.controller != seat and "Planeswalker" in c.card_types:
            defenders.append(oid)
        elif "Battle" in c.card_types and st.objects[oid].protector not in (seat, -1):
            defenders.append(oid)
    n = len(attackers)
    choices = tuple(new_choice(i, a.id, a.name, 0) for i, a in enumerate(attackers)) + tuple(
        new_choice(n + j, d, visible_name(game, d), 1) for j, d in enumerate(defenders))
    pairs = tuple((i, n + j) for i in range(n) for j in range(len(defenders)))
    return choices, n, pairs


def block_options(game: Game, seat: int) -> tuple[tuple[Choice, ...], int,
                                                  tuple[tuple[int, int], ...], str]:
    """509.1a: what defending player ``seat`` may declare: the choices (their untapped
    creatures, then the attackers attacking them or their planeswalkers), how many of them are
    creatures, the legal (blocker key, attacker key) pairs (none if no creature could block) and
    the prompt, naming the restrictions that forbid a block (509.1b, read by ``check_answer``)."""
    st = game.state
    combat = st.combat
    attacking = combat.attackers if combat is not None else {}
    mine = [a for a in st.battlefield
            if a in attacking and _defends(game, seat, attacking[a])]
    blockers = [st.objects[i] for i in st.battlefield
                if game.controller(st.objects[i]) == seat and game.is_creature(st.objects[i])
                and not st.objects[i].tapped]
    nb = len(blockers)
    legal = tuple((bi, nb + ai) for bi, b in enumerate(blockers) for ai, a in enumerate(mine)
                  if _can_block(game, b, st.objects[a]))
    choices = tuple(new_choice(i, b.id, b.name, 0) for i, b in enumerate(blockers)) + tuple(
        new_choice(nb + j, a, visible_name(game, a, seat), 1) for j, a in enumerate(mine))
    notes = "".join(f"; {b.name} can't block: 101.2: {why}" for b in blockers
                    if (why := block_refusal(game, b)) is not None)
    return choices, nb, legal, BLOCK_PROMPT + notes


def declare_attackers(game: Game) -> Proc[None]:
    """508.1: the active player declares attackers; attackers without vigilance tap (508.1f);
    508.3a: attack triggers."""
    st = game.state
    st.combat = CombatState()
    seat = st.active
    if st.players[seat].lost:
        return  # 800.4j: a turn without an active player has no attackers
    choices, n, pairs = attack_options(game)
    if not pairs:
        return
    reply = yield game.decision(seat, "attackers", ATTACK_PROMPT, choices=choices,
                                min=0, max=n, legal_pairs=pairs)
    assert isinstance(reply, Answer)
    if st.players[seat].lost:
        return  # 800.4a: they left the game while declaring; their creatures left with them
    chosen = [(choices[a].ref, choices[d].ref) for a, d in reply.pairs]
    st.combat.attackers_declared = bool(chosen)
    if chosen:  # "each creature that attacked this turn"
        turn, before = st.attacked_this_turn
        st.attacked_this_turn = (st.turn, (before if turn == st.turn else ()) + tuple(a for a, _ in chosen))
    for aid, target in chosen:
        obj = st.objects[aid]
        st.combat.attackers[aid] = target
        if not game.has_keyword(obj, "vigilance"):
            obj.tapped = True
        game.log("attack", f"{visible_name(game, aid)} attacks {visible_name(game, target)}", player=seat,
                 subject=aid, refs=(aid, target))
    for aid, _target in chosen:
        trigger_attacks(game, st.objects[aid])


def _defends(game: Game, seat: int, target: int) -> bool:
    """506.2: whether ``seat`` is the player attacked, the planeswalker's controller or the
    battle's protector (310.8)."""
    if is_player_ref(target):
        return seat_of_ref(target) == seat
    obj = game.state.objects.get(target)
    if obj is not None and game.is_type(obj, "Battle"):
        return obj.protector == seat
    return obj is not None and game.controller(obj) == seat


def declare_blockers(game: Game) -> Proc[None]:
    """509.1: each defending player declares blockers, in APNAP order; 509.1i/509.3: block
    triggers."""
    st = game.state
    combat = st.combat
    if combat is None or not combat.attackers:
        return
    declared: list[tuple[int, int]] = []
    for seat in st.apnap():
        if seat == st.active:
            continue
        choices, nb, legal, prompt = block_options(game, seat)
        if not legal:
            continue
        # 509.1b: a refusal can name the effect that forbids a block (check_answer reads this).
        reply = yield game.decision(seat, "blockers", prompt, choices=choices, min=0, max=nb,
                                    legal_pairs=legal)
        assert isinstance(reply, Answer)
        declared.extend((choices[b].ref, choices[a].ref) for b, a in reply.pairs)
    # 800.4a: a player who left while declaring took their creatures with them.
    declared = [(b, a) for b, a in declared if b in st.objects and a in combat.attackers]
    for bid, aid in declared:
        combat.blockers.setdefault(bid, []).append(aid)
        combat.blocked.setdefault(aid, []).append(bid)
        game.log("block", f"{visible_name(game, bid)} blocks {visible_name(game, aid)}",
                 player=game.controller(st.objects[bid]), subject=bid, refs=(bid, aid))
    for bid, aid in declared:
        trigger_blocks(game, st.objects[bid], aid)


def _strikes_first(game: Game, obj: GameObject) -> bool:
    return game.has_keyword(obj, "first strike") or game.has_keyword(obj, "double strike")


def has_first_strike_step(game: Game) -> bool:
    """510.4: a first-strike damage step happens if an attacker or blocker has first strike or
    double strike as the combat damage step begins."""
    combat = game.state.combat
    if combat is None:
        return False
    ids = list(combat.attackers) + list(combat.blockers)
    return any(i in game.state.objects and _strikes_first(game, game.state.objects[i])
               for i in ids)


def _deals_now(game: Game, obj: GameObject, first: bool) -> bool:
    """510.4: in the first-strike step only first/double strikers deal damage; in the regular
    step those that didn't, plus double strikers."""
    combat = game.state.combat
    assert combat is not None
    if first:
        return _strikes_first(game, obj)
    if game.has_keyword(obj, "double strike"):
        return True
    return obj.id not in combat.first_strike_dealt


def combat_damage(game: Game, first: bool) -> Proc[None]:
    """510.1-510.2: assign combat damage, then deal it all at once.

    Current rules (2024, no damage assignment order): an attacker blocked by several creatures
    divides its damage among them as its controller chooses; with trample (702.19b) it must
    assign lethal damage to every blocker before assigning the rest to the player, counting
    damage already marked and damage other creatures assigned to that blocker in this step.
    """
    st = game.state
    combat = st.combat
    if combat is None:
        return
    assignments: list[tuple[GameObject, int, int]] = []  # (source, target ref, amount)
    assigned: dict[int, int] = {}  # 702.19b: damage assigned so far this step, by recipient
    to_divide: list[tuple[GameObject, list[int], int, int]] = []

    def assign(source: GameObject, ref: int, amount: int) -> None:
        if amount > 0:
            assignments.append((source, ref, amount))
            assigned[ref] = assigned.get(ref, 0) + amount

    # Assignments that leave no choice first, so that every division sees them (702.19b).
    for aid in [a for a in st.battlefield if a in combat.attackers]:
        attacker = st.objects[aid]
        if not _deals_now(game, attacker, first):
            continue
        power = game.power(attacker)
        if power <= 0:
            continue
        target = combat.attackers[aid]
        if aid not in combat.blocked:
            assign(attacker, target, power)
            continue
        blockers = [b for b in combat.blocked[aid] if b in st.objects
                    and st.objects[b].zone == "battlefield"]
        trample = game.has_keyword(attacker, "trample")
        if not blockers:
            # 509.1h/702.19e: it stays blocked; only trample lets it hit the player.
            if trample:
                assign(attacker, target, power)
        elif len(blockers) == 1 and not trample:
            assign(attacker, blockers[0], power)
        else:
            to_divide.append((attacker, blockers, target if trample else 0, power))
    for attacker, blockers, player, power in to_divide:
        if attacker.id not in st.objects:
            continue  # its controller left the game during an earlier division (800.4a)
        split = yield from _divide(game, attacker, blockers, player, power, assigned)
        if attacker.id not in st.objects:
            continue  # its controller left the game while dividing (800.4a)
        for ref, amt in split:
            assign(attacker, ref, amt)
    for bid in [b for b in st.battlefield if b in combat.blockers]:
        blocker = st.objects[bid]
        if not _deals_now(game, blocker, first):
            continue
        power = game.power(blocker)
        targets = [a for a in combat.blockers[bid] if a in st.objects]
        if power > 0 and targets:
            assignments.append((blocker, targets[0], power))
    if first:
        combat.first_strike_dealt.extend(
            a for a in list(combat.attackers) + list(combat.blockers)
            if a in st.objects and _strikes_first(game, st.objects[a]))
    # 510.2: all combat damage is dealt simultaneously.
    for source, ref, amount in assignments:
        if source.id in st.objects:
            deal_damage(game, source, ref, amount)  # marks what it damages (704.5a, g, h)


def _lethal(game: Game, attacker: GameObject, blocker: GameObject, assigned: int) -> int:
    """702.19b: the damage still needed to be lethal, counting damage already marked (120.6)
    and damage other creatures assigned to it this step; 702.2c: with deathtouch any nonzero
    amount is lethal."""
    left = max(0, game.toughness(blocker) - blocker.damage - assigned)
    if game.has_keyword(attacker, "deathtouch"):
        return min(1, left)
    return left


def check_trample_division(decision: Decision, pairs: tuple[tuple[int, int], ...]) -> None:
    """702.19b: a trampler's controller may assign damage to the player or planeswalker it
    attacks only once each blocker is assigned lethal damage (``decision.lethal``).

    Raises IllegalActionError naming the first blocker left short; the decision is unanswered.
    """
    if not decision.lethal:
        return
    given: dict[int, int] = {}
    for key, amount in pairs:
        given[key] = given.get(key, 0) + amount
    need = dict(decision.lethal)
    if not any(amount for key, amount in given.items() if key not in need):
        return
    names = {c.key: c.name for c in decision.choices}
    for key, lethal in decision.lethal:
        if given.get(key, 0) < lethal:
            raise IllegalActionError(
                f"702.19b: decision {decision.id}: {names.get(key, f'option {key}')} must be "
                f"assigned lethal damage ({lethal}) before any damage tramples over; got "
                f"{given.get(key, 0)}")


def _divide(game: Game, attacker: GameObject, blockers: list[int], player: int, power: int,
            assigned: dict[int, int]) -> Proc[list[tuple[int, int]]]:
    """Ask the attacker's controller to divide its damage (510.1c/d); with trample the decision
    lists each blocker's lethal damage and an answer that sends damage on too early is refused
    (702.19b) before anything changes, so the player is asked again."""
    st = game.state
    refs = blockers + ([player] if player else [])
    choices = tuple(new_choice(i, r, visible_name(game, r), 0) for i, r in enumerate(refs))
    lethal = tuple((i, _lethal(game, attacker, st.objects[b], assigned.get(b, 0)))
                   for i, b in enumerate(blockers)) if player else ()
    prompt = f"510.1c: divide {attacker.name}'s {power} combat damage"
    if player:
        prompt += " (702.19b trample: lethal damage to each blocker first: " + ", ".join(
            f"{choices[k].name} {amt}" for k, amt in lethal) + ")"
    decision = replace(game.decision(game.controller(attacker), "divide", prompt, choices=choices,
                                     min=0, max=power), lethal=lethal)
    reply = yield decision
    assert isinstance(reply, Answer)
    check_trample_division(decision, reply.pairs)
    split: dict[int, int] = {}
    for k, amt in reply.pairs:
        split[refs[k]] = split.get(refs[k], 0) + amt
    return list(split.items())
