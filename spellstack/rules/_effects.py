"""Effect verbs: the closed registry of what abilities may do, and how each is carried out.

Verbs are keyword actions (701) and general primitives, never one card's special case.
Every verb declares its arguments, so a card file naming an unknown verb or argument fails
when it is loaded, not mid-game.
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from dataclasses import dataclass

from ._decisions import Proc
from ._definitions import Effect
from ._game import Game
from ._mana import MANA_TYPES
from ._replacement import add_shield, destroy_permanent, redirect
from ._sba import lose_game
from ._state import (
    STEPS,
    ContinuousEffect,
    DelayedTrigger,
    GameObject,
    is_player_ref,
    player_ref,
    seat_of_ref,
)
from ._zones import deal_damage, draw_cards, gain_life, lose_life, move_object

__all__ = [
    "ARG_KINDS",
    "EFFECT_VERBS",
    "OBJECT_WORDS",
    "PLAYER_WORDS",
    "EffectContext",
    "VerbSpec",
    "run_effects",
]

PLAYER_WORDS: frozenset[str] = frozenset({"you", "target", "each_player", "each_opponent"})
"""Words an effect may use for players: the controller, the targeted player(s), everyone."""
OBJECT_WORDS: frozenset[str] = frozenset({"self", "target", "subject", "each_creature"})
"""Words an effect may use for objects: the source, the target(s), the object the trigger event
was about, every creature."""
ZONES = frozenset({"hand", "library", "graveyard", "exile"})
COUNTER_KINDS = frozenset({"+1/+1", "-1/-1", "loyalty", "dream"})
MOVE_ZONES = frozenset({"hand", "graveyard", "battlefield", "exile"})
"""Zones whose cards ``shuffle_into_library`` may take (the battlefield: permanents owned)."""

# Argument kinds: how a value is checked when a card file is loaded.
ARG_KINDS: dict[str, Callable[[object], bool]] = {
    "amount": lambda v: (isinstance(v, int) and not isinstance(v, bool)) or v == "X",
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
}


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
        if w == "each_creature":
            return [st.objects[i] for i in st.battlefield if self.game.is_creature(st.objects[i])]
        raise AssertionError(word)

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


def _deal_damage(ctx: EffectContext, eff: Effect) -> None:
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


def _discard(ctx: EffectContext, eff: Effect) -> Proc[None]:
    """701.8: the discarding player chooses (608.2d) unless told otherwise."""
    game = ctx.game
    for seat in ctx.players(eff.get("who", "you")):
        hand = list(game.state.players[seat].hand)
        n = min(ctx.amount(eff), len(hand))
        picked = yield from game.ask_choose(seat, f"701.8: discard {n} card(s)", hand, n, n)
        for oid in picked:
            if oid not in game.state.objects:
                continue  # they left the game while choosing (800.4a)
            new = move_object(game, oid, "graveyard")
            game.log("discard", f"{game.player_name(seat)} discards {new.name}", player=seat,
                     subject=new.id)


def _destroy(ctx: EffectContext, eff: Effect) -> Proc[None]:
    """701.7: move a permanent to its owner's graveyard, unless a replacement effect replaces
    that (regeneration, 701.15a); ``cant_be_regenerated``: "it can't be regenerated"."""
    regenerate = not eff.get("cant_be_regenerated", False)
    for obj in ctx.objects(eff.get("what")):
        yield from destroy_permanent(ctx.game, obj.id, "", regenerate=regenerate)


def _put_into_zone(ctx: EffectContext, eff: Effect) -> None:
    """400.3: put objects into their owner's hand, library (on top), graveyard or exile."""
    zone = eff.get("zone")
    assert isinstance(zone, str)
    for obj in ctx.objects(eff.get("what")):
        move_object(ctx.game, obj.id, zone)


def _modify_pt(ctx: EffectContext, eff: Effect) -> None:
    """611.2a/613.4c: a P/T change until end of turn, locked to the objects it affects now."""
    st = ctx.game.state
    for obj in ctx.objects(eff.get("what")):
        if obj.zone != "battlefield":
            continue
        ts = st.new_timestamp()
        st.effects.append(
            ContinuousEffect(ts, ts, "modify_pt", (("power", ctx.amount(eff, "power", 0)),
                                                   ("toughness", ctx.amount(eff, "toughness", 0))),
                             (obj.id,), ctx.source.id, ctx.source.name, ctx.controller)
        )
        st.dirty = True


def _put_counters(ctx: EffectContext, eff: Effect) -> None:
    """122.1: put counters on permanents."""
    kind = eff.get("counter")
    assert isinstance(kind, str)
    n = ctx.amount(eff)
    if n <= 0:
        return
    for obj in ctx.objects(eff.get("what")):
        if obj.zone == "battlefield":
            obj.counters[kind] = obj.counters.get(kind, 0) + n
            ctx.game.state.dirty = True


def _counter(ctx: EffectContext, eff: Effect) -> None:
    """701.5: counter a spell: it goes from the stack to its owner's graveyard. ``instead``:
    "if that spell is countered this way, put it [there] instead of into that player's
    graveyard", a self-replacement effect of the spell (614.15; on top of a library)."""
    zone = eff.get("instead")
    instead = (redirect(f"{ctx.source.name}: put it into its owner's {zone} instead",
                        ctx.source.id, zone, from_zone="stack"),) if isinstance(zone, str) else ()
    for obj in ctx.objects(eff.get("what")):
        if obj.zone == "stack":
            ctx.game.log("counter", f"{obj.name} is countered", subject=obj.id)
            if obj.ability_kind:
                ctx.game.state.stack.remove(obj.id)
                del ctx.game.state.objects[obj.id]
            else:
                move_object(ctx.game, obj.id, "graveyard", instead=instead)


def _shuffle(ctx: EffectContext, eff: Effect) -> None:
    """701.20: shuffle a library."""
    st = ctx.game.state
    for seat in ctx.players(eff.get("who", "you")):
        st.rng.shuffle(st.players[seat].library)
        ctx.game.log("shuffle", f"{ctx.game.player_name(seat)} shuffles", player=seat)


def _win_game(ctx: EffectContext, eff: Effect) -> None:
    """104.2a: a player wins; every opponent loses."""
    st = ctx.game.state
    for seat in ctx.players(eff.get("who", "you")):
        for other in st.living_seats():
            if other != seat:
                lose_game(ctx.game, other, f"{st.players[seat].name} won ({ctx.source.name})")


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


def _regenerate(ctx: EffectContext, eff: Effect) -> None:
    """701.15a: "regenerate [permanent]": a shield replaces its next destruction this turn."""
    for obj in ctx.objects(eff.get("what")):
        if obj.zone == "battlefield":
            add_shield(ctx.game, "regenerate", obj.id, 1, ctx.source.name)
            ctx.game.log("shield", f"{obj.name} gets a regeneration shield (701.15a)",
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
    """400.3: put cards onto the battlefield under their owner's control; ``counter``: "with a
    [kind] counter on it" (614.1c: it enters with them; ``amount``, default 1)."""
    kind = eff.get("counter")
    counters = ((kind, ctx.amount(eff)),) if isinstance(kind, str) else ()
    for obj in ctx.objects(eff.get("what")):
        if obj.zone in ("graveyard", "hand", "exile", "library"):
            move_object(ctx.game, obj.id, "battlefield", controller=obj.owner, counters=counters)


EFFECT_VERBS: dict[str, VerbSpec] = {
    "add_mana": VerbSpec("106.3", {"mana": "mana"}, {"amount": "amount"}, _add_mana),
    "deal_damage": VerbSpec("120.3", {"amount": "amount", "to": "recipients"}, {}, _deal_damage),
    "gain_life": VerbSpec("119.3", {"amount": "amount"}, {"who": "players"}, _gain_life),
    "lose_life": VerbSpec("119.3", {"amount": "amount"}, {"who": "players"}, _lose_life),
    "draw": VerbSpec("121.1", {}, {"amount": "amount", "who": "players"}, _draw),
    "discard": VerbSpec("701.8", {"amount": "amount"}, {"who": "players"}, _discard),
    "destroy": VerbSpec("701.7", {"what": "objects"}, {"cant_be_regenerated": "flag"}, _destroy),
    "put_into_zone": VerbSpec("400.3", {"what": "objects", "zone": "zone"}, {}, _put_into_zone),
    "modify_pt": VerbSpec("613.4c", {"what": "objects"},
                          {"power": "amount", "toughness": "amount"}, _modify_pt),
    "put_counters": VerbSpec("122.1", {"what": "objects", "counter": "counter",
                                       "amount": "amount"}, {}, _put_counters),
    "counter": VerbSpec("701.5", {"what": "objects"}, {"instead": "zone"}, _counter),
    "shuffle": VerbSpec("701.20", {}, {"who": "players"}, _shuffle),
    "win_game": VerbSpec("104.2a", {}, {"who": "players"}, _win_game),
    "delayed_trigger": VerbSpec("603.7", {"at": "step", "effects": "effects"}, {},
                                _delayed_trigger),
    "regenerate": VerbSpec("701.15", {"what": "objects"}, {}, _regenerate),
    "prevent_damage": VerbSpec("615.7", {"to": "recipients", "amount": "amount"}, {},
                               _prevent_damage),
    "set_life": VerbSpec("119.5", {"amount": "amount"}, {"who": "players"}, _set_life),
    "shuffle_into_library": VerbSpec("701.20", {"zones": "zones"}, {"who": "players"},
                                     _shuffle_into_library),
    "put_onto_battlefield": VerbSpec("400.3", {"what": "objects"},
                                     {"counter": "counter", "amount": "amount"},
                                     _put_onto_battlefield),
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
