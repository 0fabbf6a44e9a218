"""Copies of spells (707.10): put on the stack, not cast, with every choice made for the
original, and "you may choose new targets for the copy" (707.10c) as one question.
"""

from __future__ import annotations

from typing import Final

from ..definitions import TargetSpec
from ..game import Game
from ..legality import BESTOW_TARGETS, group_ok, is_legal_target, spell_target_specs, target_candidates
from ..state import GameObject, Proc, new_choice
from ..views import ask_keys, visible_name
from ..zones import create_object

__all__ = ["NEW_TARGET_TRIES", "copy_spell", "spell_target_requirements"]

NEW_TARGET_TRIES: Final = 3
"""707.10c: how often the new-targets question is asked again after an answer naming targets
that can't be chosen; after that the copy keeps its targets (a player can't stall the game)."""


def spell_target_requirements(game: Game, spell: GameObject) -> tuple[TargetSpec, ...]:
    """601.2c: the target requirements of a spell on the stack, as it was cast: its chosen
    modes' in printed order (700.2), a bestowed spell's enchant creature (702.103b), an Aura's
    (303.4a), or its spell ability's."""
    if spell.bestowed:
        return BESTOW_TARGETS
    defn = game.cards[spell.name]
    if defn.spell is not None and defn.spell.modes:
        return tuple(t for m in sorted(spell.modes) for t in defn.spell.modes[m - 1].targets)
    if defn.spell is not None:
        return defn.spell.targets
    return spell_target_specs(defn)


_CHOICES: Final = ("targets", "target_groups", "x", "modes", "divide", "cast_costs", "bestowed")
"""The choices made for a spell as it was cast that a copy of it copies (707.10)."""


def copy_spell(game: Game, spell: GameObject, controller: int, *, new_targets: bool = True,
               except_supertypes: tuple[str, ...] = ()) -> Proc[GameObject]:
    """707.10: put a copy of ``spell`` (on the stack) onto the stack; returns the copy.

    The copy is owned and controlled by ``controller``, the player who puts it there (707.10),
    and copies every choice made for the original as it was cast: modes, X, targets, the
    division among them (601.2d) and the optional and alternative costs paid (a kicked spell's
    copy is kicked). It is not cast: no "whenever you cast" ability triggers (601.2i is
    ``cast_spell``'s alone). ``except_supertypes``: 707.9b, "except the copy isn't legendary".
    ``new_targets``: 707.10c, "you may choose new targets for the copy", asked of
    ``controller`` as one question only when the copy has targets (``choose_new_targets``).
    """
    st = game.state
    copy = create_object(game, spell.name, controller, "stack", controller=controller)
    copy.is_copy = True
    for name in _CHOICES:
        value = getattr(spell, name)
        if value != getattr(GameObject, name):  # a rare field keeps only what is not its default
            setattr(copy, name, value)
    # 707.9b: a copy of a copy copies the exceptions too (they are copiable values).
    exceptions = tuple(dict.fromkeys(spell.except_supertypes + except_supertypes))
    if exceptions:
        copy.except_supertypes = exceptions
    if game.logging():
        tgt = (" targeting " + ", ".join(visible_name(game, t) for t in copy.targets)
               if copy.targets else "")
        game.log("copy", f"{st.players[controller].name} puts a copy of {copy.name} onto the "
                 f"stack{tgt} (707.10)", player=controller, subject=copy.id,
                 refs=(spell.id, *copy.targets))
    if new_targets and copy.targets:
        yield from choose_new_targets(game, copy)
    return copy


def choose_new_targets(game: Game, copy: GameObject) -> Proc[None]:
    """707.10c: "you may choose new targets for the copy": one question to the copy's
    controller, answered with no choice (keep every target) or with one target for each of
    the copy's targets, in the order the spell names them; each takes the place of the target
    at the same position, with its share of any division (601.2d). A target left as it was may
    stay even if it is illegal now; a new one must be legal. An answer naming one that can't be
    chosen is refused and asked again (``NEW_TARGET_TRIES`` times at most; then the copy keeps
    its targets)."""
    st = game.state
    seat = copy.controller
    specs = spell_target_requirements(game, copy)
    # The requirement of each position (601.2c: ``target_groups`` says how many each took).
    position_specs: list[TargetSpec] = []
    group_of: list[int] = []
    for g, (spec, size) in enumerate(zip(specs, copy.target_groups, strict=False)):
        position_specs.extend([spec] * size)
        group_of.extend([g] * size)
    old = copy.targets
    if len(position_specs) != len(old):
        return  # targets not as the spell's requirements say (never from a cast): keep them
    refs = list(dict.fromkeys([*old, *(r for spec in dict.fromkeys(position_specs) for r in
                                       target_candidates(game, spec, seat, copy.id, copy))]))
    now = ", ".join(visible_name(game, t, seat) for t in old)
    choices = tuple(new_choice(i, r, visible_name(game, r, seat), 0) for i, r in enumerate(refs))
    why = ""
    for _ in range(NEW_TARGET_TRIES):
        keys = yield from ask_keys(
            game, seat, f"707.10c: you may choose new targets for the copy of {copy.name} "
            f"(now: {now}): choose none to keep them, or "
            + ("its new target" if len(old) == 1 else
               f"{len(old)} targets, one for each in the order the spell names them")
            + why, choices, 0, len(old))
        if not keys:
            return
        new = tuple(refs[k] for k in keys)
        why = _new_targets_refusal(game, copy, position_specs, group_of, specs, new)
        if not why:
            shares = [amount for _, amount in copy.divide]
            copy.targets = new
            if copy.divide and len(shares) == len(new):
                copy.divide = tuple(zip(new, shares, strict=True))
            game.log("copy", f"{st.players[seat].name} chooses new targets for the copy of "
                     f"{copy.name}: " + ", ".join(visible_name(game, t) for t in new)
                     + " (707.10c)", player=seat, subject=copy.id, refs=new)
            return
        game.log("copy", f"{st.players[seat].name}'s new targets for the copy of {copy.name} "
                 f"are refused: {why}", player=seat, subject=copy.id)
        why = f" (refused: {why})"
    game.log("copy", f"the copy of {copy.name} keeps its targets (707.10c)", player=seat,
             subject=copy.id)


def _new_targets_refusal(game: Game, copy: GameObject, position_specs: list[TargetSpec],
                         group_of: list[int], specs: tuple[TargetSpec, ...],
                         new: tuple[int, ...]) -> str:
    """Why these new targets can't be chosen for the copy (707.10c); empty if they can."""
    seat = copy.controller
    old = copy.targets
    if len(new) != len(old):
        return (f"name {len(old)} targets, one for each of the copy's, or none; got {len(new)} "
                "(707.10c)")
    for i, (ref, spec) in enumerate(zip(new, position_specs, strict=True)):
        if ref != old[i] and not is_legal_target(game, spec, ref, seat, copy):
            return (f"{visible_name(game, ref, seat)} can't be target {i + 1} "
                    f"({spec.kind.replace('_', ' ')}; 707.10c, 115.1)")
    for g, spec in enumerate(specs):
        group = tuple(r for r, h in zip(new, group_of, strict=True) if h == g)
        if len(set(group)) != len(group) or not group_ok(game, spec, group):
            return f"the targets of requirement {g + 1} must differ (115.3, 601.2c)"
    return ""
