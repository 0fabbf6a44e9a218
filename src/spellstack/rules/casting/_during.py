"""Casting a spell while another spell or ability resolves (608.2g).

The spell is cast by the same procedure as from priority (``begin_cast``, 601.2a-i, checked
completely before anything changes): its choices are asked as questions, in the order of
601.2b-d (which face or half, modes, the optional and alternative costs as one question, X,
then targets and any division), and make one ``Action``. An attempt that turns out illegal is
rewound (601.2): the card stays where it was and the resolving object goes on. Nobody
receives priority after the cast: the resolution continues (608.2g).
"""

from __future__ import annotations

from itertools import combinations
from typing import Final

from ..base import IllegalActionError
from ..definitions import CardDefinition
from ..game import SPELL_CASTER, Game
from ..legality import cast_refusal, for_caster, target_candidates, target_prompt, timing_refusal
from ..mana import ManaCost, ManaSupply
from ..state import Action, Answer, GameObject, Proc, ResolutionCast, new_choice
from ..views import ask_choose, visible_name
from ._boards import mana_sources
from ._casting import (
    WITHOUT_PAYING,
    CastForm,
    begin_cast,
    cast_as,
    cast_forms,
    division_total,
    spell_specs,
    total_cost,
)
from ._checks import sorcery_timing
from ._legal import target_requirements

__all__ = ["cast_while_resolving"]

_NO_COST: Final = ManaCost(())


def _mode_sets(face: CardDefinition) -> list[tuple[int, ...]]:
    """700.2: every choice of modes of a modal spell; one empty choice otherwise."""
    spell = face.spell
    if spell is None or not spell.modes:
        return [()]
    return list(combinations(range(1, len(spell.modes) + 1), spell.mode_count))


def _castable(game: Game, seat: int, obj: GameObject,
              permit: ResolutionCast) -> tuple[CastForm, ...]:
    """The ways ``obj`` could be cast now as ``permit`` allows, one per face (601.3e), as far
    as can be told before its choices are made: the mana value the spell would have (601.2e; a
    half's own, 709.3; X is 0, 107.3b), no restriction forbidding it (101.2, 307.1), and enough
    legal targets for some choice of modes (601.2c)."""
    out: list[CastForm] = []
    for form in cast_forms(game, seat, obj, permit):
        face = form.face
        value = (face.mana_cost or _NO_COST).mana_value(0)
        if 0 <= permit.max_mana_value < value:
            continue
        if cast_refusal(game, seat, obj, 0, face if face.name != obj.name else None) is not None:
            continue
        if not sorcery_timing(game, seat) and timing_refusal(game, seat, obj) is not None:
            continue
        if all(target_requirements(game, spell_specs(face, modes, False), seat, obj.id, obj) is None
               for modes in _mode_sets(face)):
            continue
        out.append(form)
    return tuple(out)


def _prompt(game: Game, permit: ResolutionCast, zone: str) -> str:
    limit = f" with mana value {permit.max_mana_value} or less" if permit.max_mana_value >= 0 else ""
    free = " without paying its mana cost" if permit.free else ""
    return (f"608.2g: {permit.source}: you may cast a spell{limit} from your {zone}{free} "
            "(choose it, or none)")


def _one(game: Game, seat: int, prompt: str, names: list[str]) -> Proc[int]:
    """Ask ``seat`` to choose one of ``names`` (answered automatically when there is one);
    returns its index."""
    if len(names) == 1:
        return 0
    reply = yield game.decision(seat, "choose", prompt, choices=tuple(
        new_choice(i, 0, n, 0) for i, n in enumerate(names)), min=1, max=1)
    assert isinstance(reply, Answer)
    return reply.keys[0]


def cast_while_resolving(game: Game, seat: int, candidates: tuple[int, ...],
                         permit: ResolutionCast, choose: bool) -> Proc[GameObject | None]:
    """``Game.cast_while_resolving``: 608.2g, ``seat`` may cast one of ``candidates`` as
    ``permit`` allows. ``choose``: which one is asked as one question, whose answer is a card
    or none, offering only the cards that could be cast (``_castable``); otherwise the one
    candidate is cast. Then the spell's choices are asked (601.2b-d) and it is cast by
    ``cast_spell``; returns the spell, or None (none cast: declined, or the attempt was illegal
    and rewound)."""
    st = game.state
    offered = {oid: forms for oid in candidates if oid in st.objects
               and (forms := _castable(game, seat, st.objects[oid], permit))}
    if choose:
        zone = st.objects[candidates[0]].zone if candidates else "hand"
        picked = yield from ask_choose(game, seat, _prompt(game, permit, zone), list(offered),
                                       0, 1)
        if not picked:
            return None
        oid = picked[0]
    else:
        oid = candidates[0] if candidates else 0
        if oid not in offered:
            if oid in st.objects:
                game.log("refused", f"{permit.source}: {st.objects[oid].name} can't be cast now "
                         "(601.2: no legal way to cast it)", player=seat, private_to=(seat,))
            return None
    obj = st.objects[oid]
    forms = offered[oid]
    card = game.cards[obj.name]
    # 601.2b, 601.3e: which face or half.
    half = "half" if card.layout == "split" else "face"
    form = forms[(yield from _one(game, seat, f"601.3e: {permit.source}: which {half} of "
                                  f"{obj.name} to cast", [f.face.name for f in forms]))]
    face, spell = form.face, form.face.spell
    # 601.2b, 700.2: the modes.
    modes: tuple[int, ...] = ()
    if spell is not None and spell.modes:
        reply = yield game.decision(seat, "choose", f"700.2: {face.name}: choose "
                                    f"{spell.mode_count} of its modes", choices=tuple(
                                        new_choice(i + 1, 0, m.text, 0)
                                        for i, m in enumerate(spell.modes)),
                                    min=spell.mode_count, max=spell.mode_count)
        assert isinstance(reply, Answer)
        modes = tuple(sorted(reply.keys))
    # 601.2b: the optional and alternative costs, as one question (the permit's own, ``free``,
    # is the alternative cost it is cast for: 118.9a, no other).
    required = (form.required_cost,) if form.required_cost else ()
    base = (WITHOUT_PAYING,) if form.required_cost == WITHOUT_PAYING.name else ()
    p = st.players[seat]
    supply = ManaSupply(p.mana, mana_sources(game, seat), life_available=p.life)
    options = [o for o in form.costs if o.name not in required
               and supply.can_pay(total_cost(face, (*base, o)), 0)]
    extra: list[str] = []
    if options:
        reply = yield game.decision(seat, "choose", f"601.2b: {face.name}: choose the optional "
                                    "costs to pay (none, one or more)", choices=tuple(
                                        new_choice(i, 0, o.name, 0) for i, o in enumerate(options)),
                                    min=0, max=len(options))
        assert isinstance(reply, Answer)
        extra = [options[k].name for k in sorted(reply.keys)]
    # 601.2b: X (107.3b: 0 for a spell cast without paying its mana cost).
    x = 0
    chosen = (*base, *(o for o in options if o.name in extra))
    cost = total_cost(face, chosen)
    if cost.has_x and not permit.free:
        most = supply.max_x(cost) or 0
        x = yield from _one(game, seat, f"601.2b: {face.name}: choose the value of X",
                            [str(n) for n in range(most + 1)])
    # 601.2c: the targets, requirement by requirement.
    targets: list[int] = []
    for spec in spell_specs(face, modes, False):
        spec = for_caster(game, spec, seat, obj, cast_as(obj, face))
        refs = [c for c in target_candidates(game, spec, seat, obj.id, obj, cast_as(obj, face))
                if c != obj.id]
        if len(refs) < spec.min:
            game.log("refused", f"{permit.source}: {face.name} has no legal "
                     f"{target_prompt(spec)} (601.2c); it is not cast", player=seat,
                     private_to=(seat,))
            return None
        targets += yield from ask_choose(game, seat, f"601.2c: {face.name}: choose "
                                         f"{target_prompt(spec)}", refs, spec.min, spec.max)
    # 601.2d: the division.
    divide: tuple[tuple[int, int], ...] = ()
    total = division_total(spell, x)
    if total and len(targets) > 1:
        reply = yield game.decision(seat, "divide", f"601.2d: {face.name}: divide {total} among "
                                    "its targets, at least 1 each", choices=tuple(
                                        new_choice(i, t, visible_name(game, t, seat), 0)
                                        for i, t in enumerate(targets)), max=total)
        assert isinstance(reply, Answer)
        shares: dict[int, int] = {}
        for k, n in reply.pairs:
            shares[targets[k]] = shares.get(targets[k], 0) + n
        divide = tuple(shares.items())
    action = Action("cast", oid, targets=tuple(targets), x=x, divide=divide,
                    face=face.name if card.faces else "", modes=modes,
                    costs=(*required, *extra))
    try:
        cast, rest = begin_cast(game, seat, action, permit)
    except IllegalActionError as err:
        # 601.2: the attempt is rewound (nothing changed); the resolution goes on.
        game.log("refused", f"{permit.source}: {err}", player=seat, private_to=(seat,))
        return None
    if rest is not None:
        yield from rest  # 601.2h: a cost that asks (jump-start's discard)
    return cast


SPELL_CASTER[:] = [cast_while_resolving]
