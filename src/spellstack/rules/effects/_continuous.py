"""Effect verbs that make continuous effects (611.2) and shields: every layer primitive but
copying and characteristic-defining abilities (613; "target creature gets +3/+3 until end of
turn", "gain control of target creature"), rule-changing effects (613.11: "target creature
can't block this turn"), protection chosen on resolution, regeneration and prevention shields."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from ..definitions import ArgValue, arguments_of
from ..layers import LAYER_VERBS, add_effect, new_effect
from ..legality import protection_keyword
from ..mana import COLORS
from ..replacement import add_shield
from ..state import ContinuousEffect, Proc, player_ref
from ..views import ask_word, visible_name
from ._arguments import (
    Amount,
    CardTypes,
    Colors,
    Duration,
    Flag,
    Keywords,
    ManaCostText,
    ObjectWord,
    PlayerWord,
    Positions,
    ProtectionChoice,
    Recipients,
    SpellFilter,
    TextWord,
    Value,
    Words,
)
from ._context import EffectContext, Verb

# ----------------------------------------------------------------------------- layer primitives


class LayerVerb(Verb):
    """611.2a/611.2c: a resolving spell or ability's continuous effect (a layer primitive from
    ``LAYER_VERBS``, 613) on the objects ``what`` names now (their set is locked), lasting
    ``until`` (None: the primitive's default, until end of turn or, for a control change,
    indefinitely). Its other fields are the primitive's arguments (None: not given); X is read
    as its value now."""

    __slots__ = ()
    what: ObjectWord
    until: Duration | None

    def run(self, ctx: EffectContext) -> None:
        game = ctx.game
        objs = [o for o in ctx.objects(self.what) if o.zone == "battlefield"]
        if not objs:
            return
        until = self.until if self.until is not None else LAYER_VERBS[self.verb].default_until
        args: list[tuple[str, ArgValue]] = []
        for key, name in _LAYER_ARGS[type(self)]:
            value = getattr(self, name)
            if value is not None:
                args.append((key, ctx.x if value == "X" else value))
        add_effect(game, new_effect(game, self.verb, tuple(args), tuple(o.id for o in objs), ctx.source,
                                    until, controller=ctx.controller))


@dataclass(frozen=True, slots=True)
class GainControl(LayerVerb):
    """613.1b: "gain control of [what]": the controller controls them (layer 2)."""

    verb: ClassVar[str] = "gain_control"
    rule: ClassVar[str] = "613.1b"
    what: ObjectWord
    """The permanents."""
    until: Duration | None = None
    """How long (default: indefinitely)."""


@dataclass(frozen=True, slots=True)
class ChangeText(LayerVerb):
    """612.2: one word of their abilities' text becomes another (layer 3)."""

    verb: ClassVar[str] = "change_text"
    rule: ClassVar[str] = "612.2"
    what: ObjectWord
    """The permanents."""
    from_: TextWord = field(metadata={"key": "from"})
    """The word changed."""
    to: TextWord
    """The word it becomes."""
    until: Duration | None = None
    """How long (default: until end of turn)."""


@dataclass(frozen=True, slots=True)
class AddTypes(LayerVerb):
    """205.1b: they gain card types, subtypes and supertypes "in addition to [their] other
    types" (layer 4)."""

    verb: ClassVar[str] = "add_types"
    rule: ClassVar[str] = "205.1b"
    what: ObjectWord
    """The permanents."""
    types: CardTypes | None = None
    """Card types gained."""
    subtypes: Words | None = None
    """Subtypes gained."""
    supertypes: Words | None = None
    """Supertypes gained."""
    until: Duration | None = None
    """How long (default: until end of turn)."""


@dataclass(frozen=True, slots=True)
class RemoveTypes(LayerVerb):
    """613.1d: they lose card types and subtypes (layer 4)."""

    verb: ClassVar[str] = "remove_types"
    rule: ClassVar[str] = "613.1d"
    what: ObjectWord
    """The permanents."""
    types: CardTypes | None = None
    """Card types lost."""
    subtypes: Words | None = None
    """Subtypes lost."""
    until: Duration | None = None
    """How long (default: until end of turn)."""


@dataclass(frozen=True, slots=True)
class SetTypes(LayerVerb):
    """205.1a: "becomes a ...": their card types (and subtypes, if given) are replaced (layer 4)."""

    verb: ClassVar[str] = "set_types"
    rule: ClassVar[str] = "205.1a"
    what: ObjectWord
    """The permanents."""
    types: CardTypes | None = None
    """Their card types."""
    subtypes: Words | None = None
    """Their subtypes."""
    until: Duration | None = None
    """How long (default: until end of turn)."""


@dataclass(frozen=True, slots=True)
class SetColors(LayerVerb):
    """105.3: they become these colours (layer 5)."""

    verb: ClassVar[str] = "set_colors"
    rule: ClassVar[str] = "105.3"
    what: ObjectWord
    """The permanents."""
    colors: Colors
    """Their colours (``""``: colourless)."""
    until: Duration | None = None
    """How long (default: until end of turn)."""


@dataclass(frozen=True, slots=True)
class AddColors(LayerVerb):
    """105.3: they are these colours in addition to their others (layer 5)."""

    verb: ClassVar[str] = "add_colors"
    rule: ClassVar[str] = "105.3"
    what: ObjectWord
    """The permanents."""
    colors: Colors
    """The colours added."""
    until: Duration | None = None
    """How long (default: until end of turn)."""


@dataclass(frozen=True, slots=True)
class AddAbilities(LayerVerb):
    """613.1f: they gain keyword abilities and printed abilities of the source's definition
    (layer 6)."""

    verb: ClassVar[str] = "add_abilities"
    rule: ClassVar[str] = "613.1f"
    what: ObjectWord
    """The permanents."""
    keywords: Keywords | None = None
    """Keyword abilities gained."""
    abilities: Positions | None = None
    """Printed abilities of the source gained, by position."""
    until: Duration | None = None
    """How long (default: until end of turn)."""


@dataclass(frozen=True, slots=True)
class LoseAllAbilities(LayerVerb):
    """613.1f: they lose every ability (layer 6)."""

    verb: ClassVar[str] = "lose_all_abilities"
    rule: ClassVar[str] = "613.1f"
    what: ObjectWord
    """The permanents."""
    until: Duration | None = None
    """How long (default: until end of turn)."""


@dataclass(frozen=True, slots=True)
class LoseAbilities(LayerVerb):
    """613.1f: they lose these keyword abilities (layer 6)."""

    verb: ClassVar[str] = "lose_abilities"
    rule: ClassVar[str] = "613.1f"
    what: ObjectWord
    """The permanents."""
    keywords: Keywords | None = None
    """Keyword abilities lost."""
    until: Duration | None = None
    """How long (default: until end of turn)."""


@dataclass(frozen=True, slots=True)
class SetPt(LayerVerb):
    """613.4b: their power and/or toughness become values (layer 7b)."""

    verb: ClassVar[str] = "set_pt"
    rule: ClassVar[str] = "613.4b"
    what: ObjectWord
    """The creatures."""
    power: Value | None = None
    """Their power (None: unchanged)."""
    toughness: Value | None = None
    """Their toughness (None: unchanged)."""
    until: Duration | None = None
    """How long (default: until end of turn)."""


@dataclass(frozen=True, slots=True)
class ModifyPt(LayerVerb):
    """613.4c: "[what] gets +N/+N": their power and toughness go up or down (layer 7c)."""

    verb: ClassVar[str] = "modify_pt"
    rule: ClassVar[str] = "613.4c"
    what: ObjectWord
    """The creatures."""
    power: Value | None = None
    """The change to power (None: 0)."""
    toughness: Value | None = None
    """The change to toughness (None: 0)."""
    until: Duration | None = None
    """How long (default: until end of turn)."""


@dataclass(frozen=True, slots=True)
class SwitchPt(LayerVerb):
    """613.4d: their power and toughness are switched (layer 7d)."""

    verb: ClassVar[str] = "switch_pt"
    rule: ClassVar[str] = "613.4d"
    what: ObjectWord
    """The creatures."""
    until: Duration | None = None
    """How long (default: until end of turn)."""


LAYER_EFFECT_VERBS: tuple[type[LayerVerb], ...] = (
    GainControl, ChangeText, AddTypes, RemoveTypes, SetTypes, SetColors, AddColors, AddAbilities,
    LoseAllAbilities, LoseAbilities, SetPt, ModifyPt, SwitchPt)
"""The layer primitives a resolving spell or ability may create (611.2): every one of
``LAYER_VERBS`` but a copy effect (707.2) and a characteristic-defining ability (604.3)."""

_LAYER_ARGS: dict[type[LayerVerb], tuple[tuple[str, str], ...]] = {
    cls: tuple((a.name, a.field) for a in arguments_of(cls) if a.name not in ("what", "until"))
    for cls in LAYER_EFFECT_VERBS
}
"""Each class's primitive arguments: (name in card files and effect records, field)."""


# ----------------------------------------------------------------------------- rule changes


class RuleVerb(Verb):
    """613.11/611.2c: a resolving spell or ability's effect that changes a rule for the
    permanents ``what`` names now, lasting ``until``."""

    __slots__ = ()
    what: ObjectWord
    until: Duration

    def run(self, ctx: EffectContext) -> None:
        objs = [o for o in ctx.objects(self.what) if o.zone == "battlefield"]
        if not objs:
            return
        add_effect(ctx.game, new_effect(ctx.game, self.verb, (), tuple(o.id for o in objs), ctx.source,
                                        self.until, controller=ctx.controller))


@dataclass(frozen=True, slots=True)
class CantBlock(RuleVerb):
    """509.1b: "[what] can't block [this turn]" (613.11)."""

    verb: ClassVar[str] = "cant_block"
    rule: ClassVar[str] = "509.1b"
    what: ObjectWord
    """The creatures."""
    until: Duration = "end_of_turn"
    """How long."""


@dataclass(frozen=True, slots=True)
class CantAttack(RuleVerb):
    """508.1c: "[what] can't attack [this turn]" (613.11)."""

    verb: ClassVar[str] = "cant_attack"
    rule: ClassVar[str] = "508.1c"
    what: ObjectWord
    """The creatures."""
    until: Duration = "end_of_turn"
    """How long."""


@dataclass(frozen=True, slots=True)
class CastAsThoughFlash(Verb):
    """702.8a: "until your next turn, you may cast sorcery spells as though they had flash": an
    effect that changes a rule for the players ``who`` names now (613.11/611.2c), for the spells
    ``filter`` admits, lasting ``until`` (``your_next_turn`` ends as its controller's next turn
    begins, 611.2b)."""

    verb: ClassVar[str] = "cast_as_though_flash"
    rule: ClassVar[str] = "702.8a"
    filter: SpellFilter
    """Which spells."""
    who: PlayerWord = "you"
    """Who may."""
    until: Duration = "end_of_turn"
    """How long."""

    def run(self, ctx: EffectContext) -> None:
        seats = [s for s in ctx.players(self.who) if not ctx.game.state.players[s].lost]
        if not seats:
            return
        add_effect(ctx.game, new_effect(ctx.game, self.verb, (("filter", self.filter),),
                                        tuple(player_ref(s) for s in seats), ctx.source, self.until,
                                        controller=ctx.controller))


@dataclass(frozen=True, slots=True)
class MayPlay(Verb):
    """601.2a, 305.1: "you may play the exiled cards until the end of your next turn": an
    effect that changes a rule (613.11) for the cards in exile ``what`` names now (611.2c: those
    objects; one that leaves exile is a new object, 400.7): the controller may play them, a land
    as their land drop (305.2), a spell following the usual timing and costs, while it lasts."""

    verb: ClassVar[str] = "may_play"
    rule: ClassVar[str] = "601.2a"
    what: ObjectWord
    """The cards in exile."""
    until: Duration = "end_of_your_next_turn"
    """How long (``indefinite``: "for as long as that card remains exiled": the effect locks
    onto the card in exile, 400.7)."""
    owner_may: Flag = False
    """"Its owner may play it" (rather than the controller)."""
    costs_more: ManaCostText | None = None
    """601.2f: "a spell cast this way costs {2} more to cast"."""

    def run(self, ctx: EffectContext) -> None:
        cards = [o for o in ctx.objects(self.what) if o.zone == "exile"]
        if not cards:
            return
        args: tuple[tuple[str, ArgValue], ...] = (
            (("costs_more", self.costs_more),) if self.costs_more is not None else ())
        for who, mine in ((s, [o for o in cards if not self.owner_may or o.owner == s])
                          for s in sorted({o.owner for o in cards} if self.owner_may
                                          else {ctx.controller})):
            add_effect(ctx.game, new_effect(ctx.game, self.verb, args, tuple(o.id for o in mine),
                                            ctx.source, self.until, controller=who))


# ----------------------------------------------------------------------------- protection, shields


@dataclass(frozen=True, slots=True)
class GainProtection(Verb):
    """702.16: the objects gain protection from a quality the controller chooses on resolution
    (608.2d), until end of turn (a layer 6 effect). ``from = "artifacts_or_color"``: artifacts or
    one colour, asked as one question."""

    verb: ClassVar[str] = "gain_protection"
    rule: ClassVar[str] = "702.16"
    what: ObjectWord
    """The permanents."""
    from_: ProtectionChoice = field(metadata={"key": "from"})
    """What the quality may be."""

    def run(self, ctx: EffectContext) -> Proc[None]:
        game = ctx.game
        st = game.state
        targets = [o for o in ctx.objects(self.what) if o.zone == "battlefield"]
        if not targets:
            return
        words = ("artifacts", *COLORS)
        chosen = yield from ask_word(game, ctx.controller, f"702.16: {ctx.source.name}: protection "
                                     "from artifacts or from the colour of your choice", words)
        keyword = protection_keyword(words[chosen])
        ts = st.new_timestamp()
        add_effect(game, ContinuousEffect(ts, ts, "add_abilities", (("keywords", (keyword,)),),
                                          tuple(o.id for o in targets), ctx.source.id,
                                          ctx.source.name, ctx.controller))
        game.log("effect", ", ".join(visible_name(game, o.id) for o in targets) + f" gains {keyword} until end of turn",
                 subject=targets[0].id, refs=tuple(o.id for o in targets))


@dataclass(frozen=True, slots=True)
class Regenerate(Verb):
    """701.15a: "regenerate [permanent]": a shield replaces its next destruction this turn."""

    verb: ClassVar[str] = "regenerate"
    rule: ClassVar[str] = "701.15"
    what: ObjectWord
    """The permanents."""

    def run(self, ctx: EffectContext) -> None:
        for obj in ctx.objects(self.what):
            if obj.zone == "battlefield":
                add_shield(ctx.game, "regenerate", obj.id, 1, ctx.source.name)
                ctx.game.log("shield", f"{visible_name(ctx.game, obj.id)} gets a regeneration shield "
                             "(701.15a)",
                             subject=obj.id)


@dataclass(frozen=True, slots=True)
class PreventDamage(Verb):
    """615.7: "prevent the next N damage that would be dealt to [it] this turn"."""

    verb: ClassVar[str] = "prevent_damage"
    rule: ClassVar[str] = "615.7"
    to: Recipients
    """The players or objects."""
    amount: Amount
    """How much damage to each."""

    def run(self, ctx: EffectContext) -> None:
        n = ctx.amount(self.amount)
        for ref in ctx.recipients(self.to):
            add_shield(ctx.game, "prevent", ref, n, ctx.source.name)
