"""Effect verbs about players: mana, damage and life, the cards they draw, discard and mill,
shuffling, and winning."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ..ending import lose_game
from ..mana import COLORS
from ..state import Proc
from ..views import ask_choose, ask_word
from ..zones import deal_damage, draw_cards, gain_life, lose_life, move_object
from ._arguments import Amount, ManaType, MoveZones, PlayerWord, Recipients, Share
from ._context import EffectContext, Verb


@dataclass(frozen=True, slots=True)
class AddMana(Verb):
    """106.3: add mana of one type to the controller's mana pool."""

    verb: ClassVar[str] = "add_mana"
    rule: ClassVar[str] = "106.3"
    mana: ManaType
    """The type of mana."""
    amount: Amount = 1
    """How much."""

    def adds_mana(self) -> tuple[str, ...]:
        return (self.mana,)

    def run(self, ctx: EffectContext) -> None:
        pool = ctx.game.state.players[ctx.controller].mana
        pool[self.mana] = pool.get(self.mana, 0) + ctx.amount(self.amount)


@dataclass(frozen=True, slots=True)
class AddManaOfAnyColor(Verb):
    """106.3: "add one mana of any color": the controller chooses the colour as it resolves
    (608.2d), asked as one question (W U B R G). A mana ability's colour is instead chosen as
    it is activated (605.3a): ``activate_ability`` runs it as ``add_mana`` of that colour, and
    a payment spends the colour the cost needs (601.2g)."""

    verb: ClassVar[str] = "add_mana_of_any_color"
    rule: ClassVar[str] = "106.3"
    amount: Amount = 1
    """How much."""

    def adds_mana(self) -> tuple[str, ...]:
        return COLORS

    def run(self, ctx: EffectContext) -> Proc[None]:
        game = ctx.game
        color = COLORS[(yield from ask_word(game, ctx.controller, f"106.3: {ctx.source.name}: add "
                                            "one mana of the colour of your choice", COLORS))]
        pool = game.state.players[ctx.controller].mana
        pool[color] = pool.get(color, 0) + ctx.amount(self.amount)


@dataclass(frozen=True, slots=True)
class DealDamage(Verb):
    """120.3: the source deals damage to each player or object ``to`` names: ``amount``, each
    one's share of a division, or the mana value of ``that_card`` (608.2h)."""

    verb: ClassVar[str] = "deal_damage"
    rule: ClassVar[str] = "120.3"
    amount: Share
    """How much, ``divided`` (each target's share, as the spell was cast) or
    ``that_card_mana_value``."""
    to: Recipients
    """Who or what is dealt it."""

    def run(self, ctx: EffectContext) -> None:
        if self.amount == "divided":
            # 601.2d/608.2b: each target still legal gets the share it was given as the spell was
            # cast; the shares of illegal ones are not dealt.
            shares = dict(ctx.obj.divide)
            for ref in ctx.recipients(self.to):
                if shares.get(ref, 0) > 0:
                    deal_damage(ctx.game, ctx.source, ref, shares[ref])
            return
        if self.amount == "that_card_mana_value":
            # 608.2h: read once, as the damage is dealt, from the card as it is now (in exile:
            # a split card's two halves together, 709.4; a modal double-faced card's front face,
            # 712.8a; an adventurer's creature, 715.4).
            amount = sum(ctx.game.mana_value(o) for o in ctx.objects("that_card"))
            if amount <= 0:
                return  # 120.8: 0 damage is no damage
        else:
            amount = ctx.amount(self.amount)
        for ref in ctx.recipients(self.to):
            deal_damage(ctx.game, ctx.source, ref, amount)


@dataclass(frozen=True, slots=True)
class GainLife(Verb):
    """119.3: the players gain life."""

    verb: ClassVar[str] = "gain_life"
    rule: ClassVar[str] = "119.3"
    amount: Amount
    """How much."""
    who: PlayerWord = "you"
    """Who gains it."""

    def run(self, ctx: EffectContext) -> None:
        for seat in ctx.players(self.who):
            gain_life(ctx.game, seat, ctx.amount(self.amount))


@dataclass(frozen=True, slots=True)
class LoseLife(Verb):
    """119.3: the players lose life."""

    verb: ClassVar[str] = "lose_life"
    rule: ClassVar[str] = "119.3"
    amount: Amount
    """How much."""
    who: PlayerWord = "you"
    """Who loses it."""

    def run(self, ctx: EffectContext) -> None:
        for seat in ctx.players(self.who):
            lose_life(ctx.game, seat, ctx.amount(self.amount))


@dataclass(frozen=True, slots=True)
class SetLife(Verb):
    """119.5: "your life total becomes N": they gain or lose the difference."""

    verb: ClassVar[str] = "set_life"
    rule: ClassVar[str] = "119.5"
    amount: Amount
    """The life total it becomes."""
    who: PlayerWord = "you"
    """Whose life total."""

    def run(self, ctx: EffectContext) -> None:
        n = ctx.amount(self.amount)
        for seat in ctx.players(self.who):
            life = ctx.game.state.players[seat].life
            if n > life:
                gain_life(ctx.game, seat, n - life)
            elif n < life:
                lose_life(ctx.game, seat, life - n)


@dataclass(frozen=True, slots=True)
class Draw(Verb):
    """121.1: the players draw cards."""

    verb: ClassVar[str] = "draw"
    rule: ClassVar[str] = "121.1"
    amount: Amount = 1
    """How many cards each."""
    who: PlayerWord = "you"
    """Who draws."""

    def run(self, ctx: EffectContext) -> None:
        for seat in ctx.players(self.who):
            draw_cards(ctx.game, seat, ctx.amount(self.amount))


@dataclass(frozen=True, slots=True)
class Discard(Verb):
    """701.8: the players discard cards; each discarding player chooses (608.2d)."""

    verb: ClassVar[str] = "discard"
    rule: ClassVar[str] = "701.8"
    amount: Amount
    """How many cards each (all they have, if fewer)."""
    who: PlayerWord = "you"
    """Who discards."""

    def run(self, ctx: EffectContext) -> Proc[None]:
        game = ctx.game
        for seat in ctx.players(self.who):
            hand = list(game.state.players[seat].hand)
            n = min(ctx.amount(self.amount), len(hand))
            picked = yield from ask_choose(game, seat, f"701.8: discard {n} card(s)", hand, n, n)
            for oid in picked:
                if oid not in game.state.objects:
                    continue  # they left the game while choosing (800.4a)
                new = move_object(game, oid, "graveyard")
                game.log("discard", f"{game.player_name(seat)} discards {new.name}", player=seat,
                         subject=new.id)


@dataclass(frozen=True, slots=True)
class DiscardHand(Verb):
    """701.8: each of the players discards their whole hand (no choice to make)."""

    verb: ClassVar[str] = "discard_hand"
    rule: ClassVar[str] = "701.8"
    who: PlayerWord = "you"
    """Who discards."""

    def run(self, ctx: EffectContext) -> None:
        game = ctx.game
        for seat in ctx.players(self.who):
            for oid in list(game.state.players[seat].hand):
                new = move_object(game, oid, "graveyard")
                game.log("discard", f"{game.player_name(seat)} discards {new.name}", player=seat,
                         subject=new.id)


@dataclass(frozen=True, slots=True)
class Mill(Verb):
    """701.13a: a player mills N cards: they put the top N cards of their library into their
    graveyard (all there are, if fewer), one at a time, in order."""

    verb: ClassVar[str] = "mill"
    rule: ClassVar[str] = "701.13"
    amount: Amount
    """How many cards each."""
    who: PlayerWord = "you"
    """Who mills."""

    def run(self, ctx: EffectContext) -> None:
        st = ctx.game.state
        for seat in ctx.players(self.who):
            library = st.players[seat].library
            for _ in range(min(ctx.amount(self.amount), len(library))):
                move_object(ctx.game, library[0], "graveyard")


@dataclass(frozen=True, slots=True)
class Shuffle(Verb):
    """701.20: the players shuffle their libraries."""

    verb: ClassVar[str] = "shuffle"
    rule: ClassVar[str] = "701.20"
    who: PlayerWord = "you"
    """Who shuffles."""

    def run(self, ctx: EffectContext) -> None:
        st = ctx.game.state
        for seat in ctx.players(self.who):
            st.rng.shuffle(st.players[seat].library)
            ctx.game.log("shuffle", f"{ctx.game.player_name(seat)} shuffles", player=seat)


@dataclass(frozen=True, slots=True)
class ShuffleIntoLibrary(Verb):
    """701.20: the player's cards in ``zones`` (the battlefield: permanents they own) go into
    their library, which they shuffle."""

    verb: ClassVar[str] = "shuffle_into_library"
    rule: ClassVar[str] = "701.20"
    zones: MoveZones
    """The zones whose cards go."""
    who: PlayerWord = "you"
    """Whose cards, into whose library."""

    def run(self, ctx: EffectContext) -> None:
        st = ctx.game.state
        for seat in ctx.players(self.who):
            moving: list[int] = []
            for zone in self.zones:
                ids = st.battlefield if zone == "battlefield" else st.zone_list(zone, seat)
                moving.extend(i for i in ids if st.objects[i].owner == seat)
            for oid in moving:
                if oid in st.objects:
                    move_object(ctx.game, oid, "library")
            st.rng.shuffle(st.players[seat].library)
            ctx.game.log("shuffle", f"{ctx.game.player_name(seat)} shuffles {len(moving)} card(s) into "
                         "their library", player=seat, amount=len(moving))


@dataclass(frozen=True, slots=True)
class WinGame(Verb):
    """104.2b: an effect says a player wins; every opponent loses. The loss reason reads after
    the loser's name: ``alice lost to bob's Felidar Sovereign (104.2b)``."""

    verb: ClassVar[str] = "win_game"
    rule: ClassVar[str] = "104.2b"
    who: PlayerWord = "you"
    """Who wins."""

    def run(self, ctx: EffectContext) -> None:
        st = ctx.game.state
        for seat in ctx.players(self.who):
            for other in st.living_seats():
                if other != seat:
                    lose_game(ctx.game, other,
                              f"lost to {st.players[seat].name}'s {ctx.source.name} (104.2b)")
