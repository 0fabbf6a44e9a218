"""Effect verbs that hold or steer other instructions: "you may", "if it was kicked", "for each
of them" (608.2f), an option
each player is offered, delayed triggers, choosing a card for later instructions, and casting a
spell while this one resolves."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from ..definitions import Effect
from ..state import (
    Answer,
    Choice,
    DelayedTrigger,
    Proc,
    ResolutionCast,
    is_player_ref,
    player_ref,
    seat_of_ref,
)
from ..views import ask_choose, ask_word, ask_yes_no, visible_name
from ..zones import deal_damage, move_object
from ._arguments import (
    Amount,
    CardTypes,
    CostName,
    Effects,
    Flag,
    ObjectWord,
    PlayerWord,
    Recipients,
    Step,
    Zone,
)
from ._context import EffectContext, Verb, run_effects


@dataclass(frozen=True, slots=True)
class May(Verb):
    """608.2d: "you may": the controller chooses as the ability resolves."""

    verb: ClassVar[str] = "may"
    rule: ClassVar[str] = "608.2d"
    inner_targets: ClassVar[bool] = True
    effects: Effects
    """What they may do."""

    def nested(self) -> tuple[tuple[str, tuple[Effect, ...]], ...]:
        return (("effects", self.effects),)

    def run(self, ctx: EffectContext) -> Proc[None]:
        words = ", ".join(e.verb.replace("_", " ") for e in self.effects if e.verb != "may")
        if (yield from ask_yes_no(ctx.game, ctx.controller, f"608.2d: {ctx.source.name}: you may "
                                  f"{words}")):
            yield from run_effects(ctx, self.effects)


@dataclass(frozen=True, slots=True)
class ForEach(Verb):
    """608.2f: "for each of them, [instructions]": what can't be done to them all at once is
    done to each player or object ``what`` names in turn: in APNAP order (101.4) of the players
    they are or that control them, and, among a player and the permanents that player controls,
    in the order the controller of the spell or ability chooses (asked once, as one order of
    all those it chooses among); the instructions name the one being handled ``that``."""

    verb: ClassVar[str] = "for_each"
    rule: ClassVar[str] = "608.2f"
    inner_targets: ClassVar[bool] = True
    what: Recipients
    """The players or objects (those still legal, for targets: 608.2b)."""
    effects: Effects
    """What is done for each."""

    def nested(self) -> tuple[tuple[str, tuple[Effect, ...]], ...]:
        return (("effects", self.effects),)

    def run(self, ctx: EffectContext) -> Proc[None]:
        game = ctx.game
        st = game.state
        apnap = st.apnap()
        groups: dict[int, list[int]] = {}
        for ref in ctx.recipients(self.what):
            seat = seat_of_ref(ref) if is_player_ref(ref) else game.controller(st.objects[ref])
            groups.setdefault(seat, []).append(ref)
        order = sorted(groups, key=lambda s: apnap.index(s) if s in apnap else len(apnap) + s)
        chosen = [r for s in order if len(groups[s]) >= 2 for r in groups[s]]
        if chosen:
            choices = tuple(Choice(i, r, visible_name(game, r, ctx.controller))
                            for i, r in enumerate(chosen))
            reply = yield game.decision(ctx.controller, "order", f"608.2f: {ctx.source.name}: the "
                                        "order in which to handle each player and the permanents "
                                        "they control (first listed first; players in APNAP "
                                        "order)", choices=choices, min=len(chosen), max=len(chosen))
            assert isinstance(reply, Answer)
            rank = {chosen[k]: n for n, k in enumerate(reply.keys)}
            for s in order:
                groups[s].sort(key=lambda r: rank.get(r, 0))
        for ref in [r for s in order for r in groups[s]]:
            if st.game_over:
                return
            ctx.remembered["that"] = (ref,)
            yield from run_effects(ctx, self.effects)


@dataclass(frozen=True, slots=True)
class IfPaid(Verb):
    """702.33d and the like: "if this spell was kicked" (or its [cost] was paid): the effects,
    else the ``otherwise`` ones. A permanent's ability asks about the spell it was (702.74a)."""

    verb: ClassVar[str] = "if_paid"
    rule: ClassVar[str] = "702.33d"
    inner_targets: ClassVar[bool] = True
    cost: CostName
    """The cost option asked about."""
    effects: Effects
    """What it does if that cost was paid."""
    otherwise: Effects = ()
    """What it does if not."""

    def nested(self) -> tuple[tuple[str, tuple[Effect, ...]], ...]:
        return (("effects", self.effects), ("otherwise", self.otherwise))

    def run(self, ctx: EffectContext) -> Proc[None]:
        paid = self.cost in (ctx.obj.cast_costs if not ctx.obj.ability_kind
                             else ctx.source.cast_costs)
        yield from run_effects(ctx, self.effects if paid else self.otherwise)


@dataclass(frozen=True, slots=True)
class AnyPlayerMay(Verb):
    """"Any player may sacrifice N lands or have [this] deal N damage to that player. If a
    player does either, [then]": each player in APNAP order (101.4) chooses, until one does
    (701.21 sacrifice: their choice of lands; 120.3: the damage is dealt by the source)."""

    verb: ClassVar[str] = "any_player_may"
    rule: ClassVar[str] = "101.4"
    then: Effects
    """What happens once a player does."""
    sacrifice_lands: Amount = 0
    """How many lands they may sacrifice (0: that is not an option)."""
    damage: Amount = 0
    """How much damage they may take (0: that is not an option)."""

    def nested(self) -> tuple[tuple[str, tuple[Effect, ...]], ...]:
        return (("then", self.then),)

    def run(self, ctx: EffectContext) -> Proc[None]:
        game = ctx.game
        st = game.state
        lands = ctx.amount(self.sacrifice_lands)
        damage = ctx.amount(self.damage)
        for seat in st.apnap():
            own = [o.id for o in game.controlled(seat) if game.is_type(o, "Land")]
            words = ([f"sacrifice {lands} lands"] if lands and len(own) >= lands else []) + (
                [f"{damage} damage"] if damage else []) + ["no"]
            if len(words) == 1:
                continue
            chosen = yield from ask_word(game, seat, f"608.2d: {ctx.source.name}: "
                                         + " or ".join(words[:-1]) + ", or no", tuple(words))
            word = words[chosen]
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
            yield from run_effects(ctx, self.then)
            return


@dataclass(frozen=True, slots=True)
class CreateDelayedTrigger(Verb):
    """603.7: create a delayed triggered ability; it refers to the same objects as its creator
    (603.7c)."""

    verb: ClassVar[str] = "delayed_trigger"
    rule: ClassVar[str] = "603.7"
    at: Step
    """The step or phase whose beginning triggers it."""
    effects: Effects
    """What it does."""

    def nested(self) -> tuple[tuple[str, tuple[Effect, ...]], ...]:
        return (("effects", self.effects),)

    def run(self, ctx: EffectContext) -> None:
        st = ctx.game.state
        defn = ctx.game.cards[ctx.obj.name]
        index = 0
        for ability in defn.triggered:
            if ability.position == ctx.position:
                index = ability.effects.index(self)
        st.delayed_triggers.append(
            DelayedTrigger(st.new_id(), ctx.controller, ctx.source.id, ctx.obj.name, ctx.position,
                           self.at, (ctx.obj.name, ctx.position, index), ctx.subject)
        )


@dataclass(frozen=True, slots=True)
class ChooseCard(Verb):
    """608.2d: the controller chooses a card of theirs in ``zone`` that ``types`` (any of these
    card types) and ``mana_value_at_most`` admit, as one question (``optional``: "you may", the
    answer a card or none); the later instructions name it ``chosen`` ("you may exile an
    instant card with mana value 2 or less from your hand")."""

    verb: ClassVar[str] = "choose_card"
    rule: ClassVar[str] = "608.2d"
    zone: Zone
    """Where it is chosen from."""
    types: CardTypes | None = None
    """Only cards with any of these card types."""
    mana_value_at_most: Amount | None = None
    """Only cards with this mana value or less (202.3)."""
    optional: Flag = False
    """The controller may choose none."""
    whose: PlayerWord = "you"
    """Whose zone: another player's hand is looked at first ("look at target opponent's hand.
    You may exile a nonland card from it"): the controller is shown its cards."""
    nonland: Flag = False
    """Only nonland cards (205.4a: "nonland" means without the card type land)."""

    def run(self, ctx: EffectContext) -> Proc[None]:
        game = ctx.game
        st = game.state
        zone = self.zone
        seat = ctx.controller
        if self.whose != "you":
            yield from self._look(ctx)
            return
        ids = st.exile if zone == "exile" else st.zone_list(zone, seat)
        objs = ctx.narrowed([st.objects[i] for i in ids if st.objects[i].owner == seat], self.types,
                            mana_value_at_most=self.mana_value_at_most)
        if self.nonland:
            objs = [o for o in objs if not game.is_type(o, "Land")]
        optional = self.optional
        types = self.types
        kind = " or ".join(types).lower() + " " if types is not None else ""
        most = self.mana_value_at_most
        limit = f" with mana value {ctx.amount(most)} or less" if most is not None else ""
        picked = yield from ask_choose(game, seat, f"608.2d: {ctx.source.name}: choose a {kind}card"
                                       f"{limit} from your {zone}" + (", or none" if optional else ""),
                                       [o.id for o in objs], 0 if optional else 1, 1)
        ctx.remembered["chosen"] = tuple(picked)

    def _look(self, ctx: EffectContext) -> Proc[None]:
        """The controller looks at another player's cards in ``zone`` (shown to them alone,
        400.2) and chooses among those admitted, naming them as they see them."""
        game = ctx.game
        st = game.state
        seat = ctx.controller
        for owner in ctx.players(self.whose):
            ids = st.zone_list(self.zone, owner)
            game.log("look", f"{game.player_name(seat)} looks at {game.player_name(owner)}'s "
                     f"{self.zone}: {', '.join(st.objects[i].name for i in ids) or 'no cards'}",
                     player=seat, private_to=(seat,))
            for i in ids:  # 400.2: from now on they may see these cards there
                obj = st.objects[i]
                if seat != owner and seat not in obj.looked_at_by:
                    obj.looked_at_by = (*obj.looked_at_by, seat)
            objs = ctx.narrowed([st.objects[i] for i in ids], self.types,
                                mana_value_at_most=self.mana_value_at_most)
            if self.nonland:
                objs = [o for o in objs if not game.is_type(o, "Land")]
            if not objs:
                ctx.remembered["chosen"] = ()
                continue
            lo = 0 if self.optional else 1
            choices = tuple(Choice(i, o.id, o.name, 0) for i, o in enumerate(objs))
            reply = yield game.decision(seat, "choose", f"608.2d: {ctx.source.name}: choose a card "
                                        f"from {game.player_name(owner)}'s {self.zone}"
                                        + (", or none" if self.optional else ""),
                                        choices=choices, min=lo, max=1)
            assert isinstance(reply, Answer)
            ctx.remembered["chosen"] = tuple(objs[k].id for k in reply.keys)


@dataclass(frozen=True, slots=True)
class Cast(Verb):
    """608.2g: the controller casts a spell while this one resolves, following 601.2a-i, and
    nobody receives priority after it. ``from`` (default ``hand``): "you may cast a spell ...
    from your [zone]", which card (or none) asked as one question; ``what``: the cards named
    ("the copy"; wrap it in ``may`` for "you may"). ``without_paying_mana_cost`` (118.9),
    ``mana_value_at_most`` ("with mana value X or less", 601.2e)."""

    verb: ClassVar[str] = "cast"
    rule: ClassVar[str] = "608.2g"
    from_: Zone | None = field(default=None, metadata={"key": "from"})
    """The zone it is cast from (default: the hand, unless ``what`` is given)."""
    what: ObjectWord | None = None
    """The cards that may be cast."""
    mana_value_at_most: Amount | None = None
    """Only a spell with this mana value or less (202.3)."""
    without_paying_mana_cost: Flag = False
    """118.9: cast without paying its mana cost."""
    transformed: Flag = False
    """"Cast it transformed": a transforming double-faced card's back face (712.1, 310.11b)."""

    def run(self, ctx: EffectContext) -> Proc[None]:
        game = ctx.game
        most = ctx.amount(self.mana_value_at_most) if self.mana_value_at_most is not None else -1
        permit = ResolutionCast(ctx.source.name, self.without_paying_mana_cost, most, self.transformed)
        if self.what is None or self.from_ is not None:
            zone = self.from_ if self.from_ is not None else "hand"
            st = game.state
            ids = st.exile if zone == "exile" else st.zone_list(zone, ctx.controller)
            mine = tuple(i for i in ids if st.objects[i].owner == ctx.controller or zone != "exile")
            yield from game.cast_while_resolving(ctx.controller, mine, permit, True)
            return
        for obj in ctx.objects(self.what):
            if game.state.players[ctx.controller].lost:
                return
            yield from game.cast_while_resolving(ctx.controller, (obj.id,), permit, False)
