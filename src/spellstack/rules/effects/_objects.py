"""Effect verbs that move or change objects: sacrificing, destroying, exiling, countering,
putting into zones and onto the battlefield, counters, tapping, attaching, tokens and copies."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ..layers import add_counters
from ..legality import attach, countering_refusal
from ..mana import parse_mana_cost
from ..replacement import redirect
from ..state import Proc
from ..views import ask_choose, ask_yes_no, visible_name
from ..zones import (
    copy_card,
    create_token,
    destroy_permanent,
    move_object,
    move_object_proc,
    return_exiled,
    simultaneous_moves,
)
from ._arguments import (
    Amount,
    CardTypes,
    CounterKind,
    ExileUntil,
    Flag,
    ManaCostText,
    ObjectWord,
    PlayerWord,
    Recipients,
    Supertypes,
    TokenName,
    Under,
    Zone,
)
from ._context import EffectContext, Verb
from ._copies import copy_spell


@dataclass(frozen=True, slots=True)
class Sacrifice(Verb):
    """701.21a: its controller puts a permanent they control into its owner's graveyard (it is
    not destroyed: regeneration can't replace it)."""

    verb: ClassVar[str] = "sacrifice"
    rule: ClassVar[str] = "701.21a"
    what: ObjectWord
    """The permanents (those the controller controls)."""

    def run(self, ctx: EffectContext) -> Proc[None]:
        with simultaneous_moves(ctx.game):  # 603.10a
            for obj in ctx.objects(self.what):
                if obj.zone == "battlefield" and ctx.game.controller(obj) == ctx.controller:
                    ctx.game.log("sacrifice", f"{ctx.game.player_name(ctx.controller)} sacrifices "
                                 f"{visible_name(ctx.game, obj.id)}", player=ctx.controller,
                                 subject=obj.id)
                    # A proc: what it exiled "until" it leaves returns asking (610.3c, 614.12).
                    yield from move_object_proc(ctx.game, obj.id, "graveyard")


@dataclass(frozen=True, slots=True)
class PlayersSacrifice(Verb):
    """608.2e, 701.21a: "each player sacrifices a creature": each player ``who`` names chooses
    ``amount`` permanents they control of the ``types`` (all they have, if fewer), the choices
    made in APNAP order (101.4), then all of them are sacrificed at once."""

    verb: ClassVar[str] = "players_sacrifice"
    rule: ClassVar[str] = "608.2e"
    who: PlayerWord
    """The players who sacrifice."""
    amount: Amount = 1
    """How many permanents each."""
    types: CardTypes | None = None
    """Only permanents with any of these card types (None: any permanent)."""

    def run(self, ctx: EffectContext) -> Proc[None]:
        game = ctx.game
        n = ctx.amount(self.amount)
        kind = " or ".join(self.types).lower() if self.types is not None else "permanent"
        chosen: list[tuple[int, int]] = []
        for seat in ctx.players(self.who):
            if game.state.players[seat].lost:
                continue
            own = ctx.narrowed(list(game.controlled(seat)), self.types)
            picked = yield from ask_choose(game, seat, f"608.2e: {ctx.source.name}: sacrifice "
                                           f"{n} {kind}" + ("s" if n != 1 else ""),
                                           [o.id for o in own], n, n)
            chosen.extend((seat, oid) for oid in picked)
        with simultaneous_moves(game):  # 608.2e: the step happens at once (603.10a)
            for seat, oid in chosen:
                obj = game.state.objects.get(oid)
                if obj is not None and obj.zone == "battlefield" and game.controller(obj) == seat:
                    game.log("sacrifice", f"{game.player_name(seat)} sacrifices "
                             f"{visible_name(game, oid)}", player=seat, subject=oid)
                    move_object(game, oid, "graveyard")


@dataclass(frozen=True, slots=True)
class Destroy(Verb):
    """701.7: move a permanent to its owner's graveyard, unless a replacement effect replaces
    that (regeneration, 701.15a)."""

    verb: ClassVar[str] = "destroy"
    rule: ClassVar[str] = "701.7"
    what: ObjectWord
    """The permanents."""
    cant_be_regenerated: Flag = False
    """"It can't be regenerated"."""
    types: CardTypes | None = None
    """Only those with any of these card types ("destroy each artifact and creature")."""
    mana_value: Amount | None = None
    """Only those with this mana value (202.3)."""

    def run(self, ctx: EffectContext) -> Proc[None]:
        regenerate = not self.cant_be_regenerated
        with simultaneous_moves(ctx.game):  # 603.10a: "destroy all" is one event
            for obj in ctx.narrowed(ctx.objects(self.what), self.types, self.mana_value):
                yield from destroy_permanent(ctx.game, obj.id, "", regenerate=regenerate)


@dataclass(frozen=True, slots=True)
class PutIntoZone(Verb):
    """400.3: put objects into their owner's hand, library (on top), graveyard or exile."""

    verb: ClassVar[str] = "put_into_zone"
    rule: ClassVar[str] = "400.3"
    what: ObjectWord
    """The objects."""
    zone: Zone
    """Where they go."""

    def run(self, ctx: EffectContext) -> Proc[None]:
        with simultaneous_moves(ctx.game):  # 603.10a
            for obj in ctx.objects(self.what):
                # A proc: what it exiled "until" it leaves returns asking (610.3c, 614.12).
                yield from move_object_proc(ctx.game, obj.id, self.zone)


@dataclass(frozen=True, slots=True)
class PutOntoBattlefield(Verb):
    """400.3: put cards onto the battlefield under their owner's control, or (``under =
    "you"``) "under your control" (110.2a); ``counter``: "with a [kind] counter on it" (614.1c:
    it enters with them; ``amount``, default 1)."""

    verb: ClassVar[str] = "put_onto_battlefield"
    rule: ClassVar[str] = "400.3"
    what: ObjectWord
    """The cards (those in a graveyard, a hand, exile or a library)."""
    counter: CounterKind | None = None
    """The kind of counters it enters with."""
    amount: Amount = 1
    """How many of them."""
    under: Under | None = None
    """Whose control: the owner's, or ``you``."""

    def run(self, ctx: EffectContext) -> Proc[None]:
        counters = ((self.counter, ctx.amount(self.amount)),) if self.counter is not None else ()
        yours = self.under == "you"
        for obj in ctx.objects(self.what):
            if obj.zone in ("graveyard", "hand", "exile", "library"):
                # 614.12: as it enters, the player it enters under makes its choices (Clone's).
                yield from move_object_proc(ctx.game, obj.id, "battlefield", counters=counters,
                                            controller=ctx.controller if yours else obj.owner)


@dataclass(frozen=True, slots=True)
class PutCounters(Verb):
    """122.1: put counters on permanents."""

    verb: ClassVar[str] = "put_counters"
    rule: ClassVar[str] = "122.1"
    what: ObjectWord
    """The permanents."""
    counter: CounterKind
    """The kind of counter."""
    amount: Amount
    """How many on each."""

    def run(self, ctx: EffectContext) -> None:
        n = ctx.amount(self.amount)
        if n <= 0:
            return
        for obj in ctx.objects(self.what):
            if obj.zone == "battlefield":
                add_counters(ctx.game, obj, self.counter, n)


@dataclass(frozen=True, slots=True)
class Counter(Verb):
    """701.5: counter a spell: it goes from the stack to its owner's graveyard. ``instead``:
    "if that spell is countered this way, put it [there] instead of into that player's
    graveyard", a self-replacement effect of the spell (614.15; on top of a library)."""

    verb: ClassVar[str] = "counter"
    rule: ClassVar[str] = "701.5"
    what: ObjectWord
    """The spells or abilities."""
    instead: Zone | None = None
    """Where a countered spell goes instead of its owner's graveyard."""
    unless_pays: ManaCostText | None = None
    """118.12: "unless its controller pays [cost]"."""

    def run(self, ctx: EffectContext) -> Proc[None]:
        zone = self.instead
        instead = (redirect(f"{ctx.source.name}: put it into its owner's {zone} instead",
                            ctx.source.id, zone, from_zone="stack"),) if zone is not None else ()
        unless = self.unless_pays
        for obj in ctx.objects(self.what):
            if obj.zone == "stack":
                if not obj.ability_kind and (why := countering_refusal(ctx.game, obj)) is not None:
                    # 101.2: "Spells can't be countered." (Lier): nothing happens to it, and no
                    # payment is asked, since paying or not changes nothing.
                    ctx.game.log("counter", f"{visible_name(ctx.game, obj.id)} can't be countered ({why})",
                                 subject=obj.id)
                    continue
                if unless is not None:
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


@dataclass(frozen=True, slots=True)
class Exile(Verb):
    """406.3: exile objects. ``linked``: the source remembers them for "the exiled card"
    (607.2a). ``until = "source_leaves"`` (610.3): they return when the source leaves the
    battlefield, and (610.3c) nothing is exiled if the source has left already."""

    verb: ClassVar[str] = "exile"
    rule: ClassVar[str] = "406.3"
    what: ObjectWord
    """The objects."""
    linked: Flag = False
    """The source remembers them (607.2a)."""
    until: ExileUntil | None = None
    """610.3: they return when the source leaves the battlefield."""

    def run(self, ctx: EffectContext) -> Proc[None]:
        st = ctx.game.state
        until = self.until == "source_leaves"
        if until and (ctx.source.id not in st.objects
                      or st.objects[ctx.source.id].zone != "battlefield"):
            ctx.game.log("resolve", f"{ctx.source.name} has left the battlefield: nothing is exiled "
                         "(610.3c)", subject=ctx.source.id)
            return
        exiled = []
        for obj in ctx.objects(self.what):
            # A proc: what it exiled "until" it leaves returns asking (610.3c, 614.12).
            new = yield from move_object_proc(ctx.game, obj.id, "exile")
            exiled.append(new.id)
            if until or self.linked:
                new.exiled_by = ctx.source.id
                new.exiled_until = until
        if self.what == "chosen":
            ctx.remembered["that_card"] = tuple(exiled)  # "that card", the card now in exile (400.7)


@dataclass(frozen=True, slots=True)
class ExileTop(Verb):
    """406.3, 401.1: "exile the top card of your library": the top ``amount`` cards of each
    library of the players ``who`` names go to exile, one at a time; the later instructions name
    the last one ``that_card`` ("that card's mana value") and all of them ``those_cards`` ("the
    exiled cards"). An empty library exiles nothing."""

    verb: ClassVar[str] = "exile_top"
    rule: ClassVar[str] = "406.3"
    who: PlayerWord = "you"
    """Whose library."""
    amount: Amount = 1
    """How many cards."""

    def run(self, ctx: EffectContext) -> None:
        st = ctx.game.state
        made: list[int] = []
        for seat in ctx.players(self.who):
            for _ in range(ctx.amount(self.amount)):
                library = st.players[seat].library
                if not library:
                    break
                made.append(move_object(ctx.game, library[0], "exile").id)
        ctx.remembered["that_card"] = tuple(made)
        ctx.remembered["those_cards"] = (*ctx.remembered.get("those_cards", ()), *made)


@dataclass(frozen=True, slots=True)
class ReturnExiled(Verb):
    """607.2a: return the cards exiled with the source to the battlefield under their owners'
    control."""

    verb: ClassVar[str] = "return_exiled"
    rule: ClassVar[str] = "607.2a"

    def run(self, ctx: EffectContext) -> Proc[None]:
        yield from return_exiled(ctx.game, ctx.source.id)


@dataclass(frozen=True, slots=True)
class Tap(Verb):
    """701.26a: tap permanents."""

    verb: ClassVar[str] = "tap"
    rule: ClassVar[str] = "701.26"
    what: ObjectWord
    """The permanents."""

    def run(self, ctx: EffectContext) -> None:
        for obj in ctx.objects(self.what):
            if obj.zone == "battlefield" and not obj.tapped:
                obj.tapped = True
                ctx.game.log("tap", f"{visible_name(ctx.game, obj.id)} becomes tapped", subject=obj.id)


@dataclass(frozen=True, slots=True)
class Attach(Verb):
    """701.3a: attach the objects (an equip ability's: its source, 702.6a) to the first of
    ``to``; 701.3b: an illegal attachment does nothing."""

    verb: ClassVar[str] = "attach"
    rule: ClassVar[str] = "701.3"
    what: ObjectWord
    """The Auras or Equipment."""
    to: Recipients
    """What they are attached to (the first of them)."""

    def run(self, ctx: EffectContext) -> None:
        refs = ctx.recipients(self.to)
        for obj in ctx.objects(self.what):
            if refs:
                attach(ctx.game, obj, refs[0])


@dataclass(frozen=True, slots=True)
class CreateToken(Verb):
    """111.2: create tokens under the controller's control; ``attached_to``: created attached
    to that object (Role tokens, 303.7; one that can't legally be attached goes to the graveyard,
    704.5m)."""

    verb: ClassVar[str] = "create_token"
    rule: ClassVar[str] = "111.2"
    token: TokenName
    """The token's definition."""
    amount: Amount = 1
    """How many."""
    attached_to: ObjectWord | None = None
    """What each is created attached to."""

    def run(self, ctx: EffectContext) -> None:
        hosts = ctx.objects(self.attached_to) if self.attached_to else []
        if self.attached_to and not hosts:
            return
        for _ in range(ctx.amount(self.amount)):
            create_token(ctx.game, self.token, ctx.controller, attached_to=hosts[0].id if hosts else 0)


@dataclass(frozen=True, slots=True)
class CopyCard(Verb):
    """707.12: the controller makes a copy of each card ``what`` names, in the zone it is in, to
    cast it; the later instructions name it ``copy`` (704.5e: a copy left outside the stack
    and the battlefield ceases to exist)."""

    verb: ClassVar[str] = "copy_card"
    rule: ClassVar[str] = "707.12"
    what: ObjectWord
    """The cards."""

    def run(self, ctx: EffectContext) -> None:
        made: list[int] = []
        for obj in ctx.objects(self.what):
            if not obj.ability_kind and obj.zone != "stack" and obj.zone != "battlefield":
                made.append(copy_card(ctx.game, obj, ctx.controller).id)
        ctx.remembered["copy"] = tuple(made)


@dataclass(frozen=True, slots=True)
class CopySpell(Verb):
    """707.10: "copy target spell": a copy of each spell ``what`` names goes onto the stack
    under the controller's control (``copy_spell``); ``new_targets``: "you may choose new
    targets for the copy" (707.10c); ``except_supertypes``: 707.9b, "except the copy isn't
    legendary" (``["Legendary"]``). "Copy it" (``subject``) copies the spell as it last
    existed on the stack if it has left (608.2h)."""

    verb: ClassVar[str] = "copy_spell"
    rule: ClassVar[str] = "707.10"
    what: ObjectWord
    """The spells."""
    new_targets: Flag = False
    """The controller may choose new targets for the copy."""
    except_supertypes: Supertypes = ()
    """Supertypes the copy doesn't have."""

    def run(self, ctx: EffectContext) -> Proc[None]:
        for obj in ctx.last_known(self.what):
            if obj.zone == "stack" and not obj.ability_kind:
                yield from copy_spell(ctx.game, obj, ctx.controller, new_targets=self.new_targets,
                                      except_supertypes=self.except_supertypes)
