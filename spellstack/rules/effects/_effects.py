"""Effect verbs: the closed registry of what abilities may do, and how each is carried out.

Verbs are keyword actions (701) and general primitives, never one card's special case.
Every verb declares its arguments, so a card file naming an unknown verb or argument fails
when it is loaded, not mid-game.
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from dataclasses import dataclass, field

from ..definitions import COST_OPTIONS, Effect
from ..ending import lose_game
from ..game import Game
from ..layers import (
    DURATIONS,
    LAYER_ARG_KINDS,
    LAYER_VERBS,
    PLAYER_RULE_EFFECT_VERBS,
    REQUIRED_ARGS,
    RULE_EFFECT_VERBS,
    add_counters,
    add_effect,
    is_value,
    new_effect,
)
from ..legality import COLOR_WORDS, RESTRICTION_FILTERS, attach, countering_refusal, protection_keyword
from ..mana import COLORS, MANA_TYPES, ManaCostSyntaxError, parse_mana_cost
from ..replacement import add_shield, redirect
from ..state import (
    STEPS,
    Answer,
    Choice,
    ContinuousEffect,
    DelayedTrigger,
    GameObject,
    Proc,
    ResolutionCast,
    is_player_ref,
    player_ref,
    seat_of_ref,
)
from ..views import ask_choose, ask_yes_no, visible_name
from ..zones import (
    copy_card,
    create_token,
    deal_damage,
    destroy_permanent,
    draw_cards,
    gain_life,
    lose_life,
    move_object,
    return_exiled,
    simultaneous_moves,
)
from ._copies import copy_spell

PLAYER_WORDS: frozenset[str] = frozenset({"you", "target", "each_player", "each_opponent"})
"""Words an effect may use for players: the controller, the targeted player(s), everyone."""
OBJECT_WORDS: frozenset[str] = frozenset({"self", "target", "subject", "each_creature",
                                         "each_permanent", "self_in_graveyard", "exiled",
                                         "chosen", "copy"})
"""Words an effect may use for objects: the source, the target(s), the object the trigger event
was about, every creature, every permanent (``destroy`` narrows it with ``types`` and
``mana_value``), the card the source became in its owner's graveyard (603.6e), the cards exiled
with the source ("the exiled card", 607.2a), the card an earlier instruction of the ability
chose (``choose_card``) and the copy it made (``copy_card``)."""
ZONES = frozenset({"hand", "library", "graveyard", "exile"})
from ..registry import COUNTER_KINDS  # noqa: E402, I001  (the counter kinds live with the registries)
MOVE_ZONES = frozenset({"hand", "graveyard", "battlefield", "exile"})
"""Zones whose cards ``shuffle_into_library`` may take (the battlefield: permanents owned)."""

# Argument kinds: how a value is checked when a card file is loaded.
ARG_KINDS: dict[str, Callable[[object], bool]] = {
    "amount": lambda v: (isinstance(v, int) and not isinstance(v, bool)) or v == "X",
    # 601.2d: each recipient's share of what the spell divided as it was cast.
    "share": lambda v: (isinstance(v, int) and not isinstance(v, bool)) or v in ("X", "divided"),
    "cost_name": lambda v: isinstance(v, str) and v in COST_OPTIONS,
    "mana_cost": lambda v: isinstance(v, str) and _is_mana_cost(v),
    "int": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "players": lambda v: isinstance(v, str) and _word(v) in PLAYER_WORDS,
    "objects": lambda v: isinstance(v, str) and _word(v) in OBJECT_WORDS,
    "recipients": lambda v: isinstance(v, str) and (_word(v) in OBJECT_WORDS | PLAYER_WORDS),
    "mana": lambda v: isinstance(v, str) and v in MANA_TYPES,
    "zone": lambda v: isinstance(v, str) and v in ZONES,
    "counter": lambda v: isinstance(v, str) and v in COUNTER_KINDS,
    "step": lambda v: isinstance(v, str) and v in STEPS,
    "effects": lambda v: isinstance(v, tuple) and all(isinstance(e, Effect) for e in v),
    "flag": lambda v: isinstance(v, bool),
    "zones": lambda v: isinstance(v, tuple) and bool(v) and all(z in MOVE_ZONES for z in v),
    "token": lambda v: isinstance(v, str) and bool(v),
    "exile_until": lambda v: v == "source_leaves",
    "protection_choice": lambda v: v == "artifacts_or_color",
    # Layer primitives' arguments (613), and a resolved effect's duration (611.2).
    **LAYER_ARG_KINDS,
    "value": lambda v: is_value(v) or v == "X",
    "duration": lambda v: isinstance(v, str) and v in DURATIONS,
    "under": lambda v: v == "you",
    # 101.2: which spells or cards a permission or restriction is about (``RESTRICTION_FILTERS``).
    "filter": lambda v: isinstance(v, str) and v in RESTRICTION_FILTERS,
}


def _is_mana_cost(text: str) -> bool:
    try:
        parse_mana_cost(text)
    except ManaCostSyntaxError:
        return False
    return True


def _word(value: str) -> str:
    """``target:1`` -> ``target``: a target word may name its requirement by index."""
    return value.split(":", 1)[0]


@dataclass(slots=True)
class EffectContext:
    """What a resolving spell or ability's effects refer to."""

    game: Game
    """The game."""
    obj: GameObject
    """The resolving object: the spell, or the ability on the stack."""
    controller: int
    """Its controller's seat."""
    source: GameObject
    """The source of its damage and effects: the spell itself, or the ability's source (LKI)."""
    targets: tuple[tuple[int, ...], ...]
    """Per target requirement, the targets still legal (608.2b)."""
    x: int
    """The value of X."""
    subject: int
    """The object its trigger event was about."""
    position: int
    """The ability's position on its source (for delayed triggers it creates)."""
    remembered: dict[str, tuple[int, ...]] = field(default_factory=dict)
    """What earlier instructions chose or made, by object word (``chosen``, ``copy``), for the
    later ones that refer to it ("the copy", 608.2c)."""

    def amount(self, eff: Effect, name: str = "amount", default: int = 1) -> int:
        """A numeric argument, X read as the chosen value."""
        v = eff.get(name, default)
        if v == "X":
            return self.x
        assert isinstance(v, int)
        return v

    def _target_refs(self, word: str) -> list[int]:
        index = int(word.split(":", 1)[1]) if ":" in word else 0
        return list(self.targets[index]) if index < len(self.targets) else []

    def players(self, word: object) -> list[int]:
        """Seats a player word stands for, in APNAP order for ``each`` words (101.4)."""
        assert isinstance(word, str)
        st = self.game.state
        w = _word(word)
        if w == "you":
            return [self.controller]
        if w == "target":
            return [seat_of_ref(r) for r in self._target_refs(word) if is_player_ref(r)]
        if w == "each_player":
            return st.apnap()
        if w == "each_opponent":
            return [s for s in st.apnap() if s != self.controller]
        raise AssertionError(word)

    def objects(self, word: object) -> list[GameObject]:
        """Objects an object word stands for, as they are now (absent ones dropped)."""
        assert isinstance(word, str)
        st = self.game.state
        w = _word(word)
        if w == "self":
            return [self.obj] if self.obj.zone == "stack" and not self.obj.ability_kind else (
                [st.objects[self.source.id]] if self.source.id in st.objects else [])
        if w == "target":
            return [st.objects[r] for r in self._target_refs(word) if r in st.objects]
        if w == "subject":
            return [st.objects[self.subject]] if self.subject in st.objects else []
        if w == "self_in_graveyard":
            # 603.6e: an Aura's "when enchanted creature dies" ability finds the new object the
            # Aura became in its owner's graveyard (400.7).
            return [st.objects[i] for i in st.players[self.source.owner].graveyard
                    if self.source.card and st.objects[i].card == self.source.card]
        if w == "exiled":
            # 607.2a: the cards the source's linked ability exiled.
            return [st.objects[i] for i in st.exile if st.objects[i].exiled_by == self.source.id]
        if w == "chosen" or w == "copy":
            return [st.objects[i] for i in self.remembered.get(w, ()) if i in st.objects]
        if w == "each_creature":
            return [st.objects[i] for i in st.battlefield if self.game.is_creature(st.objects[i])]
        if w == "each_permanent":
            return [st.objects[i] for i in st.battlefield]
        raise AssertionError(word)

    def narrowed(self, eff: Effect, objs: list[GameObject]) -> list[GameObject]:
        """The objects among ``objs`` that an "each" effect's ``types`` (any of these card
        types) and ``mana_value`` (202.3; an int or X) arguments admit, as they are now: "each
        artifact, creature, and enchantment with mana value X"."""
        game = self.game
        types = eff.get("types")
        if isinstance(types, tuple):
            objs = [o for o in objs if any(game.is_type(o, t) for t in types if isinstance(t, str))]
        if eff.get("mana_value") is not None:
            wanted = self.amount(eff, "mana_value")
            objs = [o for o in objs if game.mana_value(o) == wanted]
        if eff.get("mana_value_at_most") is not None:
            most = self.amount(eff, "mana_value_at_most")
            objs = [o for o in objs if game.mana_value(o) <= most]
        return objs

    def recipients(self, word: object) -> list[int]:
        """Refs (players or objects) a word stands for, for damage."""
        assert isinstance(word, str)
        w = _word(word)
        if w == "target":
            return self._target_refs(word)
        if w in PLAYER_WORDS:
            return [player_ref(s) for s in self.players(word)]
        return [o.id for o in self.objects(word)]


Executor = Callable[[EffectContext, Effect], "Proc[None] | None"]


@dataclass(frozen=True, slots=True)
class VerbSpec:
    """A registered verb: its arguments and its executor."""

    rule: str
    """The rule it implements."""
    required: dict[str, str]
    """Required argument name -> argument kind."""
    optional: dict[str, str]
    """Optional argument name -> argument kind."""
    run: Executor
    """Carries it out."""


def _add_mana(ctx: EffectContext, eff: Effect) -> None:
    mana = eff.get("mana")
    assert isinstance(mana, str)
    pool = ctx.game.state.players[ctx.controller].mana
    pool[mana] = pool.get(mana, 0) + ctx.amount(eff)


def _add_mana_of_any_color(ctx: EffectContext, eff: Effect) -> Proc[None]:
    """106.3: "add one mana of any color": the controller chooses the colour as it resolves
    (608.2d), asked as one question (W U B R G). A mana ability's colour is instead chosen as
    it is activated (605.3a): ``activate_ability`` runs it as ``add_mana`` of that colour, and
    a payment spends the colour the cost needs (601.2g)."""
    game = ctx.game
    choices = tuple(Choice(i, 0, c) for i, c in enumerate(COLORS))
    reply = yield game.decision(ctx.controller, "choose", f"106.3: {ctx.source.name}: add one "
                                "mana of the colour of your choice", choices=choices, min=1,
                                max=1)
    assert isinstance(reply, Answer)
    pool = game.state.players[ctx.controller].mana
    color = COLORS[reply.keys[0]]
    pool[color] = pool.get(color, 0) + ctx.amount(eff)


def _deal_damage(ctx: EffectContext, eff: Effect) -> None:
    if eff.get("amount") == "divided":
        # 601.2d/608.2b: each target still legal gets the share it was given as the spell was
        # cast; the shares of illegal ones are not dealt.
        shares = dict(ctx.obj.divide)
        for ref in ctx.recipients(eff.get("to")):
            if shares.get(ref, 0) > 0:
                deal_damage(ctx.game, ctx.source, ref, shares[ref])
        return
    amount = ctx.amount(eff)
    for ref in ctx.recipients(eff.get("to")):
        deal_damage(ctx.game, ctx.source, ref, amount)


def _gain_life(ctx: EffectContext, eff: Effect) -> None:
    for seat in ctx.players(eff.get("who", "you")):
        gain_life(ctx.game, seat, ctx.amount(eff))


def _lose_life(ctx: EffectContext, eff: Effect) -> None:
    for seat in ctx.players(eff.get("who", "you")):
        lose_life(ctx.game, seat, ctx.amount(eff))


def _draw(ctx: EffectContext, eff: Effect) -> None:
    for seat in ctx.players(eff.get("who", "you")):
        draw_cards(ctx.game, seat, ctx.amount(eff))


def _mill(ctx: EffectContext, eff: Effect) -> None:
    """701.13a: a player mills N cards: they put the top N cards of their library into their
    graveyard (all there are, if fewer), one at a time, in order."""
    st = ctx.game.state
    for seat in ctx.players(eff.get("who", "you")):
        library = st.players[seat].library
        for _ in range(min(ctx.amount(eff), len(library))):
            move_object(ctx.game, library[0], "graveyard")


def _player_rule_effect(ctx: EffectContext, eff: Effect) -> None:
    """613.11/611.2c: a resolving spell or ability's effect that changes a rule for the players
    ``who`` names now ("until your next turn, you may cast sorcery spells as though they had
    flash": 702.8a, the spells ``filter`` admits), lasting ``until`` (default: until end of
    turn; ``your_next_turn`` ends as its controller's next turn begins, 611.2b)."""
    seats = [s for s in ctx.players(eff.get("who", "you")) if not ctx.game.state.players[s].lost]
    if not seats:
        return
    until = eff.get("until", "end_of_turn")
    assert isinstance(until, str)
    args = tuple((k, v) for k, v in eff.args if k in ("filter",))
    add_effect(ctx.game, new_effect(ctx.game, eff.verb, args, tuple(player_ref(s) for s in seats),
                                    ctx.source, until, controller=ctx.controller))


def _discard(ctx: EffectContext, eff: Effect) -> Proc[None]:
    """701.8: the discarding player chooses (608.2d) unless told otherwise."""
    game = ctx.game
    for seat in ctx.players(eff.get("who", "you")):
        hand = list(game.state.players[seat].hand)
        n = min(ctx.amount(eff), len(hand))
        picked = yield from ask_choose(game, seat, f"701.8: discard {n} card(s)", hand, n, n)
        for oid in picked:
            if oid not in game.state.objects:
                continue  # they left the game while choosing (800.4a)
            new = move_object(game, oid, "graveyard")
            game.log("discard", f"{game.player_name(seat)} discards {new.name}", player=seat,
                     subject=new.id)


def _discard_hand(ctx: EffectContext, eff: Effect) -> None:
    """701.8: each of the players discards their whole hand (no choice to make)."""
    game = ctx.game
    for seat in ctx.players(eff.get("who", "you")):
        for oid in list(game.state.players[seat].hand):
            new = move_object(game, oid, "graveyard")
            game.log("discard", f"{game.player_name(seat)} discards {new.name}", player=seat,
                     subject=new.id)


def _sacrifice(ctx: EffectContext, eff: Effect) -> None:
    """701.21a: its controller puts a permanent they control into its owner's graveyard (it is
    not destroyed: regeneration can't replace it)."""
    with simultaneous_moves(ctx.game):  # 603.10a
        for obj in ctx.objects(eff.get("what")):
            if obj.zone == "battlefield" and ctx.game.controller(obj) == ctx.controller:
                ctx.game.log("sacrifice", f"{ctx.game.player_name(ctx.controller)} sacrifices "
                             f"{visible_name(ctx.game, obj.id)}", player=ctx.controller,
                             subject=obj.id)
                move_object(ctx.game, obj.id, "graveyard")


def _destroy(ctx: EffectContext, eff: Effect) -> Proc[None]:
    """701.7: move a permanent to its owner's graveyard, unless a replacement effect replaces
    that (regeneration, 701.15a); ``cant_be_regenerated``: "it can't be regenerated"."""
    regenerate = not eff.get("cant_be_regenerated", False)
    with simultaneous_moves(ctx.game):  # 603.10a: "destroy all" is one event
        for obj in ctx.narrowed(eff, ctx.objects(eff.get("what"))):
            yield from destroy_permanent(ctx.game, obj.id, "", regenerate=regenerate)


def _put_into_zone(ctx: EffectContext, eff: Effect) -> None:
    """400.3: put objects into their owner's hand, library (on top), graveyard or exile."""
    zone = eff.get("zone")
    assert isinstance(zone, str)
    with simultaneous_moves(ctx.game):  # 603.10a
        for obj in ctx.objects(eff.get("what")):
            move_object(ctx.game, obj.id, zone)


def _continuous(ctx: EffectContext, eff: Effect) -> None:
    """611.2a/611.2c: a resolving spell or ability's continuous effect (a layer primitive, 613)
    on the objects ``what`` names now (their set is locked), lasting ``until`` (default: until
    end of turn, or indefinitely for a control change). X is read as its value now."""
    game = ctx.game
    spec = LAYER_VERBS[eff.verb]
    objs = [o for o in ctx.objects(eff.get("what")) if o.zone == "battlefield"]
    if not objs:
        return
    until = eff.get("until", spec.default_until)
    assert isinstance(until, str)
    args = tuple((k, ctx.x if v == "X" else v) for k, v in eff.args if k not in ("what", "until"))
    add_effect(game, new_effect(game, eff.verb, args, tuple(o.id for o in objs), ctx.source, until,
                                controller=ctx.controller))


def _rule_effect(ctx: EffectContext, eff: Effect) -> None:
    """613.11/611.2c: a resolving spell or ability's effect that changes a rule for the
    permanents ``what`` names now ("target creature can't block this turn"), lasting ``until``
    (default: until end of turn)."""
    objs = [o for o in ctx.objects(eff.get("what")) if o.zone == "battlefield"]
    if not objs:
        return
    until = eff.get("until", "end_of_turn")
    assert isinstance(until, str)
    add_effect(ctx.game, new_effect(ctx.game, eff.verb, (), tuple(o.id for o in objs), ctx.source,
                                    until, controller=ctx.controller))


def _put_counters(ctx: EffectContext, eff: Effect) -> None:
    """122.1: put counters on permanents."""
    kind = eff.get("counter")
    assert isinstance(kind, str)
    n = ctx.amount(eff)
    if n <= 0:
        return
    for obj in ctx.objects(eff.get("what")):
        if obj.zone == "battlefield":
            add_counters(ctx.game, obj, kind, n)


def _counter(ctx: EffectContext, eff: Effect) -> Proc[None]:
    """701.5: counter a spell: it goes from the stack to its owner's graveyard. ``instead``:
    "if that spell is countered this way, put it [there] instead of into that player's
    graveyard", a self-replacement effect of the spell (614.15; on top of a library)."""
    zone = eff.get("instead")
    instead = (redirect(f"{ctx.source.name}: put it into its owner's {zone} instead",
                        ctx.source.id, zone, from_zone="stack"),) if isinstance(zone, str) else ()
    unless = eff.get("unless_pays")
    for obj in ctx.objects(eff.get("what")):
        if obj.zone == "stack":
            if not obj.ability_kind and (why := countering_refusal(ctx.game, obj)) is not None:
                # 101.2: "Spells can't be countered." (Lier): nothing happens to it, and no
                # payment is asked, since paying or not changes nothing.
                ctx.game.log("counter", f"{visible_name(ctx.game, obj.id)} can't be countered ({why})", subject=obj.id)
                continue
            if isinstance(unless, str):
                # 608.2d/118.12: "unless its controller pays": they choose as it resolves, and
                # may only if they can pay; the payment is automatic (601.2g-h's rule).
                game, payer, cost = ctx.game, ctx.game.controller(obj), parse_mana_cost(unless)
                if game.pay_mana(payer, cost, True) and (yield from ask_yes_no(
                        game, payer, f"118.12: pay {unless}, or {obj.name} is countered by "
                        f"{ctx.source.name}?")):
                    game.pay_mana(payer, cost, False)
                    game.log("pay", f"{game.state.players[payer].name} pays {unless}",
                             player=payer, subject=obj.id)
                    continue
            ctx.game.log("counter", f"{visible_name(ctx.game, obj.id)} is countered", subject=obj.id)
            if obj.ability_kind:
                ctx.game.state.stack.remove(obj.id)
                del ctx.game.state.objects[obj.id]
            else:
                move_object(ctx.game, obj.id, "graveyard", instead=instead)


def _copy_spell(ctx: EffectContext, eff: Effect) -> Proc[None]:
    """707.10: "copy target spell": a copy of each spell ``what`` names goes onto the stack
    under the controller's control (``copy_spell``); ``new_targets``: "you may choose new
    targets for the copy" (707.10c); ``except_supertypes``: 707.9b, "except the copy isn't
    legendary" (``["Legendary"]``)."""
    lacks = eff.get("except_supertypes", ())
    assert isinstance(lacks, tuple)
    for obj in ctx.objects(eff.get("what")):
        if obj.zone == "stack" and not obj.ability_kind:
            yield from copy_spell(ctx.game, obj, ctx.controller,
                                  new_targets=bool(eff.get("new_targets", False)),
                                  except_supertypes=tuple(str(t) for t in lacks))


def _shuffle(ctx: EffectContext, eff: Effect) -> None:
    """701.20: shuffle a library."""
    st = ctx.game.state
    for seat in ctx.players(eff.get("who", "you")):
        st.rng.shuffle(st.players[seat].library)
        ctx.game.log("shuffle", f"{ctx.game.player_name(seat)} shuffles", player=seat)


def _win_game(ctx: EffectContext, eff: Effect) -> None:
    """104.2b: an effect says a player wins; every opponent loses. The loss reason reads after
    the loser's name: ``alice lost to bob's Felidar Sovereign (104.2b)``."""
    st = ctx.game.state
    for seat in ctx.players(eff.get("who", "you")):
        for other in st.living_seats():
            if other != seat:
                lose_game(ctx.game, other,
                          f"lost to {st.players[seat].name}'s {ctx.source.name} (104.2b)")


def _delayed_trigger(ctx: EffectContext, eff: Effect) -> None:
    """603.7: create a delayed triggered ability; it refers to the same objects as its creator."""
    st = ctx.game.state
    at = eff.get("at")
    assert isinstance(at, str)
    defn = ctx.game.cards[ctx.obj.name]
    index = 0
    for ability in defn.triggered:
        if ability.position == ctx.position:
            index = ability.effects.index(eff)
    st.delayed_triggers.append(
        DelayedTrigger(st.new_id(), ctx.controller, ctx.source.id, ctx.obj.name, ctx.position, at,
                       (ctx.obj.name, ctx.position, index), ctx.subject)
    )


def _attach(ctx: EffectContext, eff: Effect) -> None:
    """701.3a: attach the objects (an equip ability's: its source, 702.6a) to the first of
    ``to``; 701.3b: an illegal attachment does nothing."""
    refs = ctx.recipients(eff.get("to"))
    for obj in ctx.objects(eff.get("what")):
        if refs:
            attach(ctx.game, obj, refs[0])


def _create_token(ctx: EffectContext, eff: Effect) -> None:
    """111.2: create tokens under the controller's control; ``attached_to``: created attached
    to that object (Role tokens, 303.7; one that can't legally be attached goes to the graveyard,
    704.5m)."""
    name = eff.get("token")
    assert isinstance(name, str)
    hosts = ctx.objects(eff.get("attached_to")) if eff.get("attached_to") else []
    if eff.get("attached_to") and not hosts:
        return
    for _ in range(ctx.amount(eff)):
        create_token(ctx.game, name, ctx.controller, attached_to=hosts[0].id if hosts else 0)


def _tap(ctx: EffectContext, eff: Effect) -> None:
    """701.26a: tap permanents."""
    for obj in ctx.objects(eff.get("what")):
        if obj.zone == "battlefield" and not obj.tapped:
            obj.tapped = True
            ctx.game.log("tap", f"{visible_name(ctx.game, obj.id)} becomes tapped", subject=obj.id)


def _exile(ctx: EffectContext, eff: Effect) -> None:
    """406.3: exile objects. ``linked``: the source remembers them for "the exiled card"
    (607.2a). ``until = "source_leaves"`` (610.3): they return when the source leaves the
    battlefield, and (610.3c) nothing is exiled if the source has left already."""
    st = ctx.game.state
    until = eff.get("until") == "source_leaves"
    if until and (ctx.source.id not in st.objects
                  or st.objects[ctx.source.id].zone != "battlefield"):
        ctx.game.log("resolve", f"{ctx.source.name} has left the battlefield: nothing is exiled "
                     "(610.3c)", subject=ctx.source.id)
        return
    for obj in ctx.objects(eff.get("what")):
        new = move_object(ctx.game, obj.id, "exile")
        if until or eff.get("linked"):
            new.exiled_by = ctx.source.id
            new.exiled_until = until


def _if_paid(ctx: EffectContext, eff: Effect) -> Proc[None]:
    """702.33d and the like: "if this spell was kicked" (or its [cost] was paid): the effects,
    else the ``otherwise`` ones. A permanent's ability asks about the spell it was (702.74a)."""
    paid = eff.get("cost") in (ctx.obj.cast_costs if not ctx.obj.ability_kind
                               else ctx.source.cast_costs)
    yield from run_effects(ctx, eff.effects() if paid else eff.effects("otherwise"))


def _return_exiled(ctx: EffectContext, eff: Effect) -> None:
    """607.2a: return the cards exiled with the source to the battlefield under their owners'
    control."""
    return_exiled(ctx.game, ctx.source.id)


def _may(ctx: EffectContext, eff: Effect) -> Proc[None]:
    """608.2d: "you may": the controller chooses as the ability resolves."""
    inner = eff.effects()
    words = ", ".join(e.verb.replace("_", " ") for e in inner if e.verb != "may")
    if (yield from ask_yes_no(ctx.game, ctx.controller, f"608.2d: {ctx.source.name}: you may "
                                       f"{words}")):
        yield from run_effects(ctx, inner)


def _choose_card(ctx: EffectContext, eff: Effect) -> Proc[None]:
    """608.2d: the controller chooses a card of theirs in ``zone`` that ``types`` (any of these
    card types) and ``mana_value_at_most`` admit, as one question (``optional``: "you may", the
    answer a card or none); the later instructions name it ``chosen`` ("you may exile an
    instant card with mana value 2 or less from your hand")."""
    game = ctx.game
    st = game.state
    zone = eff.get("zone")
    assert isinstance(zone, str)
    seat = ctx.controller
    ids = st.exile if zone == "exile" else st.zone_list(zone, seat)
    objs = ctx.narrowed(eff, [st.objects[i] for i in ids if st.objects[i].owner == seat])
    optional = bool(eff.get("optional", False))
    types = eff.get("types")
    kind = " or ".join(t for t in types if isinstance(t, str)).lower() + " " if isinstance(
        types, tuple) else ""
    most = eff.get("mana_value_at_most")
    limit = f" with mana value {ctx.amount(eff, 'mana_value_at_most')} or less" if (
        most is not None) else ""
    picked = yield from ask_choose(game, seat, f"608.2d: {ctx.source.name}: choose a {kind}card"
                                   f"{limit} from your {zone}" + (", or none" if optional else ""),
                                   [o.id for o in objs], 0 if optional else 1, 1)
    ctx.remembered["chosen"] = tuple(picked)


def _copy_card(ctx: EffectContext, eff: Effect) -> None:
    """707.12: the controller makes a copy of each card ``what`` names, in the zone it is in, to
    cast it; the later instructions name it ``copy`` (704.5e: a copy left outside the stack
    and the battlefield ceases to exist)."""
    made: list[int] = []
    for obj in ctx.objects(eff.get("what")):
        if not obj.ability_kind and obj.zone != "stack" and obj.zone != "battlefield":
            made.append(copy_card(ctx.game, obj, ctx.controller).id)
    ctx.remembered["copy"] = tuple(made)


def _cast(ctx: EffectContext, eff: Effect) -> Proc[None]:
    """608.2g: the controller casts a spell while this one resolves, following 601.2a-i, and
    nobody receives priority after it. ``from`` (default ``hand``): "you may cast a spell ...
    from your [zone]",
    which card (or none) asked as one question; ``what``: the cards named ("the copy"; wrap it
    in ``may`` for "you may"). ``without_paying_mana_cost`` (118.9), ``mana_value_at_most``
    ("with mana value X or less", 601.2e)."""
    game = ctx.game
    most = ctx.amount(eff, "mana_value_at_most") if eff.get("mana_value_at_most") is not None else -1
    permit = ResolutionCast(ctx.source.name, bool(eff.get("without_paying_mana_cost", False)),
                            most)
    zone = eff.get("from", "hand" if eff.get("what") is None else None)
    if isinstance(zone, str):
        st = game.state
        ids = st.exile if zone == "exile" else st.zone_list(zone, ctx.controller)
        mine = tuple(i for i in ids if st.objects[i].owner == ctx.controller or zone != "exile")
        yield from game.cast_while_resolving(ctx.controller, mine, permit, True)
        return
    for obj in ctx.objects(eff.get("what")):
        if game.state.players[ctx.controller].lost:
            return
        yield from game.cast_while_resolving(ctx.controller, (obj.id,), permit, False)


def _gain_protection(ctx: EffectContext, eff: Effect) -> Proc[None]:
    """702.16: the objects gain protection from a quality the controller chooses on resolution
    (608.2d), until end of turn (a layer 6 effect). ``from = "artifacts_or_color"``: artifacts or
    one colour, asked as one question."""
    game = ctx.game
    st = game.state
    targets = [o for o in ctx.objects(eff.get("what")) if o.zone == "battlefield"]
    if not targets:
        return
    words = ("artifacts", *COLOR_WORDS)
    choices = tuple(Choice(i, 0, w) for i, w in enumerate(words))
    reply = yield game.decision(ctx.controller, "choose", f"702.16: {ctx.source.name}: protection "
                                "from artifacts or from the colour of your choice", choices=choices,
                                min=1, max=1)
    assert isinstance(reply, Answer)
    keyword = protection_keyword(words[reply.keys[0]])
    ts = st.new_timestamp()
    add_effect(game, ContinuousEffect(ts, ts, "add_abilities", (("keywords", (keyword,)),),
                                      tuple(o.id for o in targets), ctx.source.id,
                                      ctx.source.name, ctx.controller))
    game.log("effect", ", ".join(visible_name(game, o.id) for o in targets) + f" gains {keyword} until end of turn",
             subject=targets[0].id, refs=tuple(o.id for o in targets))


def _regenerate(ctx: EffectContext, eff: Effect) -> None:
    """701.15a: "regenerate [permanent]": a shield replaces its next destruction this turn."""
    for obj in ctx.objects(eff.get("what")):
        if obj.zone == "battlefield":
            add_shield(ctx.game, "regenerate", obj.id, 1, ctx.source.name)
            ctx.game.log("shield", f"{visible_name(ctx.game, obj.id)} gets a regeneration shield "
                         "(701.15a)",
                         subject=obj.id)


def _prevent_damage(ctx: EffectContext, eff: Effect) -> None:
    """615.7: "prevent the next N damage that would be dealt to [it] this turn"."""
    n = ctx.amount(eff)
    for ref in ctx.recipients(eff.get("to")):
        add_shield(ctx.game, "prevent", ref, n, ctx.source.name)


def _set_life(ctx: EffectContext, eff: Effect) -> None:
    """119.5: "your life total becomes N": they gain or lose the difference."""
    n = ctx.amount(eff)
    for seat in ctx.players(eff.get("who", "you")):
        life = ctx.game.state.players[seat].life
        if n > life:
            gain_life(ctx.game, seat, n - life)
        elif n < life:
            lose_life(ctx.game, seat, life - n)


def _shuffle_into_library(ctx: EffectContext, eff: Effect) -> None:
    """701.20: the player's cards in ``zones`` (the battlefield: permanents they own) go into
    their library, which they shuffle."""
    st = ctx.game.state
    zones = eff.get("zones")
    assert isinstance(zones, tuple)
    for seat in ctx.players(eff.get("who", "you")):
        moving: list[int] = []
        for zone in zones:
            ids = st.battlefield if zone == "battlefield" else st.zone_list(str(zone), seat)
            moving.extend(i for i in ids if st.objects[i].owner == seat)
        for oid in moving:
            if oid in st.objects:
                move_object(ctx.game, oid, "library")
        st.rng.shuffle(st.players[seat].library)
        ctx.game.log("shuffle", f"{ctx.game.player_name(seat)} shuffles {len(moving)} card(s) into "
                     "their library", player=seat, amount=len(moving))


def _put_onto_battlefield(ctx: EffectContext, eff: Effect) -> None:
    """400.3: put cards onto the battlefield under their owner's control, or (``under =
    "you"``) "under your control" (110.2a); ``counter``: "with a [kind] counter on it" (614.1c:
    it enters with them; ``amount``, default 1)."""
    kind = eff.get("counter")
    counters = ((kind, ctx.amount(eff)),) if isinstance(kind, str) else ()
    yours = eff.get("under") == "you"
    for obj in ctx.objects(eff.get("what")):
        if obj.zone in ("graveyard", "hand", "exile", "library"):
            move_object(ctx.game, obj.id, "battlefield",
                        controller=ctx.controller if yours else obj.owner, counters=counters)


def _any_player_may(ctx: EffectContext, eff: Effect) -> Proc[None]:
    """"Any player may sacrifice N lands or have [this] deal N damage to that player. If a
    player does either, [then]": each player in APNAP order (101.4) chooses, until one does
    (701.21 sacrifice: their choice of lands; 120.3: the damage is dealt by the source)."""
    game = ctx.game
    st = game.state
    lands = ctx.amount(eff, "sacrifice_lands", 0)
    damage = ctx.amount(eff, "damage", 0)
    then = eff.effects("then")
    for seat in st.apnap():
        own = [o.id for o in game.controlled(seat) if game.is_type(o, "Land")]
        words = ([f"sacrifice {lands} lands"] if lands and len(own) >= lands else []) + (
            [f"{damage} damage"] if damage else []) + ["no"]
        if len(words) == 1:
            continue
        reply = yield game.decision(seat, "choose", f"608.2d: {ctx.source.name}: "
                                    + " or ".join(words[:-1]) + ", or no",
                                    choices=tuple(Choice(i, 0, w) for i, w in enumerate(words)),
                                    min=1, max=1)
        assert isinstance(reply, Answer)
        word = words[reply.keys[0]]
        if word == "no" or st.players[seat].lost:
            continue
        if word.startswith("sacrifice"):
            picked = yield from ask_choose(game, seat, f"701.21: sacrifice {lands} lands", own,
                                                lands, lands)
            for oid in picked:
                if oid in st.objects:
                    game.log("sacrifice", f"{game.player_name(seat)} sacrifices "
                             f"{st.objects[oid].name}", player=seat, subject=oid)
                    move_object(game, oid, "graveyard")
        else:
            deal_damage(game, ctx.source, player_ref(seat), damage)
        yield from run_effects(ctx, then)
        return


EFFECT_VERBS: dict[str, VerbSpec] = {
    "add_mana": VerbSpec("106.3", {"mana": "mana"}, {"amount": "amount"}, _add_mana),
    "add_mana_of_any_color": VerbSpec("106.3", {}, {"amount": "amount"}, _add_mana_of_any_color),
    "deal_damage": VerbSpec("120.3", {"amount": "share", "to": "recipients"}, {}, _deal_damage),
    "gain_life": VerbSpec("119.3", {"amount": "amount"}, {"who": "players"}, _gain_life),
    "lose_life": VerbSpec("119.3", {"amount": "amount"}, {"who": "players"}, _lose_life),
    "draw": VerbSpec("121.1", {}, {"amount": "amount", "who": "players"}, _draw),
    "discard": VerbSpec("701.8", {"amount": "amount"}, {"who": "players"}, _discard),
    "discard_hand": VerbSpec("701.8", {}, {"who": "players"}, _discard_hand),
    "sacrifice": VerbSpec("701.21a", {"what": "objects"}, {}, _sacrifice),
    "destroy": VerbSpec("701.7", {"what": "objects"}, {"cant_be_regenerated": "flag",
                                                       "types": "types", "mana_value": "amount"},
                        _destroy),
    "put_into_zone": VerbSpec("400.3", {"what": "objects", "zone": "zone"}, {}, _put_into_zone),
    "put_counters": VerbSpec("122.1", {"what": "objects", "counter": "counter",
                                       "amount": "amount"}, {}, _put_counters),
    "counter": VerbSpec("701.5", {"what": "objects"}, {"instead": "zone", "unless_pays": "mana_cost"},
                        _counter),
    "if_paid": VerbSpec("702.33d", {"cost": "cost_name", "effects": "effects"},
                        {"otherwise": "effects"}, _if_paid),
    "shuffle": VerbSpec("701.20", {}, {"who": "players"}, _shuffle),
    "win_game": VerbSpec("104.2b", {}, {"who": "players"}, _win_game),
    "delayed_trigger": VerbSpec("603.7", {"at": "step", "effects": "effects"}, {},
                                _delayed_trigger),
    # 611.2: "target creature gets +3/+3 until end of turn", "becomes a 2/2 creature until end of
    # turn", "gain control of target creature": every layer primitive but copying and CDAs.
    **{verb: VerbSpec(spec.rule, {"what": "objects", **{k: v for k, v in spec.args.items()
                                                        if k in REQUIRED_ARGS}},
                      {"until": "duration", **{k: v for k, v in spec.args.items()
                                               if k not in REQUIRED_ARGS}}, _continuous)
       for verb, spec in LAYER_VERBS.items() if verb not in ("copy_of", "set_base_pt_cda")},
    # 613.11: "target creature can't block this turn".
    **{verb: VerbSpec(rule, {"what": "objects"}, {"until": "duration"}, _rule_effect)
       for verb, rule in RULE_EFFECT_VERBS.items() if verb not in PLAYER_RULE_EFFECT_VERBS},
    # 702.8a, 611.2b: "until your next turn, you may cast sorcery spells as though they had flash".
    "cast_as_though_flash": VerbSpec(RULE_EFFECT_VERBS["cast_as_though_flash"],
                                     {"filter": "filter"}, {"who": "players", "until": "duration"},
                                     _player_rule_effect),
    "mill": VerbSpec("701.13", {"amount": "amount"}, {"who": "players"}, _mill),
    "attach": VerbSpec("701.3", {"what": "objects", "to": "recipients"}, {}, _attach),
    "create_token": VerbSpec("111.2", {"token": "token"}, {"amount": "amount",
                                                           "attached_to": "objects"}, _create_token),
    "tap": VerbSpec("701.26", {"what": "objects"}, {}, _tap),
    "regenerate": VerbSpec("701.15", {"what": "objects"}, {}, _regenerate),
    "prevent_damage": VerbSpec("615.7", {"to": "recipients", "amount": "amount"}, {},
                               _prevent_damage),
    "set_life": VerbSpec("119.5", {"amount": "amount"}, {"who": "players"}, _set_life),
    "shuffle_into_library": VerbSpec("701.20", {"zones": "zones"}, {"who": "players"},
                                     _shuffle_into_library),
    "put_onto_battlefield": VerbSpec("400.3", {"what": "objects"},
                                     {"counter": "counter", "amount": "amount",
                                      "under": "under"},
                                     _put_onto_battlefield),
    "exile": VerbSpec("406.3", {"what": "objects"}, {"linked": "flag", "until": "exile_until"},
                      _exile),
    "return_exiled": VerbSpec("607.2a", {}, {}, _return_exiled),
    "may": VerbSpec("608.2d", {"effects": "effects"}, {}, _may),
    "choose_card": VerbSpec("608.2d", {"zone": "zone"}, {"types": "types",
                                                         "mana_value_at_most": "amount",
                                                         "optional": "flag"}, _choose_card),
    "copy_card": VerbSpec("707.12", {"what": "objects"}, {}, _copy_card),
    "cast": VerbSpec("608.2g", {}, {"from": "zone", "what": "objects",
                                    "mana_value_at_most": "amount",
                                    "without_paying_mana_cost": "flag"}, _cast),
    "any_player_may": VerbSpec("101.4", {"then": "effects"}, {"sacrifice_lands": "amount",
                                                               "damage": "amount"},
                               _any_player_may),
    "copy_spell": VerbSpec("707.10", {"what": "objects"}, {"new_targets": "flag",
                                                         "except_supertypes": "supertypes"},
                           _copy_spell),
    "gain_protection": VerbSpec("702.16", {"what": "objects", "from": "protection_choice"}, {},
                                _gain_protection),
}
"""The closed registry of effect verbs."""


def run_effects(ctx: EffectContext, effects: tuple[Effect, ...]) -> Proc[None]:
    """608.2c: follow the instructions in order."""
    for eff in effects:
        if ctx.game.state.game_over:
            return
        result = EFFECT_VERBS[eff.verb].run(ctx, eff)
        if isinstance(result, Generator):
            yield from result
