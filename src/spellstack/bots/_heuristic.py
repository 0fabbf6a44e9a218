"""A heuristic bot: plays a land each turn, casts what it can by a simple value rule (else
raises a planeswalker's loyalty), points harm at the opponent and help at itself, burns the
opponent's face when that is lethal, and attacks and blocks without throwing creatures away.
What it has no rule for it answers as the random bot does, from its own seed."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..cards import load_cards
from ..rules import (
    Action,
    ActionOption,
    Answer,
    CardDefinition,
    Decision,
    Effect,
    ObjectView,
    PlayerView,
    Reply,
    is_player_ref,
    player_ref,
    seat_of_ref,
)
from ..rules.effects import DealDamage, ModifyPt
from ._random import RandomBot, keeps

__all__ = ["HARMFUL_VERBS", "HeuristicBot"]

HARMFUL_VERBS = frozenset({"deal_damage", "destroy", "exile", "tap", "counter", "sacrifice",
                           "lose_life", "discard", "discard_hand", "put_into_zone",
                           "lose_all_abilities", "lose_abilities", "gain_control"})
"""Effect verbs that hurt what they are pointed at: their targets are the opponent's. A targeted
spell with none of them helps its targets (``modify_pt`` with a negative change hurts too)."""

_KEEP, _MULLIGAN = 0, 1


def _all_effects(effects: Sequence[Effect]) -> list[Effect]:
    """The effects and those nested in them (``may``, delayed triggers; not what an unpaid
    ``if_paid`` does ``otherwise``)."""
    out: list[Effect] = []
    for eff in effects:
        out.append(eff)
        for key, inner in eff.nested():
            if key != "otherwise":
                out.extend(_all_effects(inner))
    return out


def harms(defn: CardDefinition | None) -> bool:
    """Whether the card's spell hurts what it targets (an Aura: whether it restricts what it
    enchants, as "can't attack or block" does)."""
    if defn is None:
        return False
    if defn.enchant and any(r.objects == "enchanted" for r in defn.restrictions):
        return True
    if defn.spell is None:
        return False
    for eff in _all_effects(defn.spell.effects):
        if eff.verb in HARMFUL_VERBS:
            return True
        if isinstance(eff, ModifyPt) and isinstance(eff.toughness, int) and eff.toughness < 0:
            return True
    return False


def damage_of(defn: CardDefinition | None) -> int:
    """The fixed damage the card's spell deals to its target (0 if none or not fixed)."""
    if defn is None or defn.spell is None:
        return 0
    total = 0
    for eff in _all_effects(defn.spell.effects):
        if isinstance(eff, DealDamage) and eff.to == "target" and isinstance(eff.amount, int):
            total += eff.amount
    return total


class HeuristicBot:
    """Plays sensibly (a land a turn, the costliest castable spell, harm at the opponent, help
    at itself, lethal burn to the face, attacks that survive, blocks that kill or save the
    game), deterministic from its seed."""

    def __init__(self, seed: int, cards: Mapping[str, CardDefinition] | None = None) -> None:
        self.fallback = RandomBot(seed)
        """Answers what it has no rule for."""
        self.cards = cards if cards is not None else load_cards()
        """Card definitions, to read a spell's cost and effects."""

    def decide(self, view: PlayerView, decision: Decision) -> Reply:
        """Answer any decision legally."""
        kind = decision.kind
        if kind == "priority":
            return self._priority(view, decision)
        if kind == "attackers":
            return self._attack(view, decision)
        if kind == "blockers":
            return self._block(view, decision)
        if kind == "mulligan":
            return Answer(decision.id, (_KEEP if keeps(view.hand) else _MULLIGAN,))
        return self.fallback.decide(view, decision)

    # ------------------------------------------------------------------ priority

    def _priority(self, view: PlayerView, decision: Decision) -> Reply:
        options = [o for o in decision.actions if o.kind in ("play", "cast")]
        lands = [o for o in options if o.kind == "play"]
        if lands:
            return Action("play", lands[0].object_id, face=lands[0].face)
        me = view.seat
        opponents = [p for p in view.players if p.seat != me and not p.lost]
        if not opponents:
            return Action("pass")
        foe = min(opponents, key=lambda p: p.life)
        best: tuple[int, Action] | None = None
        for option in options:
            defn = self.cards.get(option.name)
            action = self._fill(view, option, defn, foe.seat, foe.life)
            if action is None:
                continue
            value = self._value(view, option, defn, action, foe.life)
            if best is None or value > best[0]:
                best = (value, action)
        if best is None:
            return self._loyalty(decision) or Action("pass")
        return best[1]

    def _loyalty(self, decision: Decision) -> Action | None:
        """606.3: with nothing to cast, a loyalty ability of one of its planeswalkers (offered
        only when legal: once each turn, as a sorcery): the untargeted one adding the most
        loyalty, which keeps the planeswalker alive; never a minus."""
        best: tuple[int, ActionOption] | None = None
        for option in decision.actions:
            if option.kind != "activate" or option.targets:
                continue
            defn = self.cards.get(option.name)
            if defn is None or not 1 <= option.ability <= len(defn.activated):
                continue
            cost = defn.activated[option.ability - 1].loyalty
            if cost is None or cost < 0:
                continue
            if best is None or cost > best[0]:
                best = (cost, option)
        if best is None:
            return None
        return Action("activate", best[1].object_id, best[1].ability)

    def _value(self, view: PlayerView, option: ActionOption, defn: CardDefinition | None,
               action: Action, foe_life: int) -> int:
        """How much it wants to take ``action``: lethal burn first, then the costliest spell;
        creatures and sorcery-speed spells only in its own main phase."""
        if damage_of(defn) >= foe_life and any(is_player_ref(t) for t in action.targets):
            return 1000
        cost = defn.mana_cost.mana_value(action.x) if defn is not None and defn.mana_cost else 0
        mine = view.active == view.seat and view.step in ("precombat_main", "postcombat_main")
        instant = defn is not None and ("Instant" in defn.card_types or "flash" in defn.keywords)
        if not instant and not mine:
            return -1  # it could only be cast now because the engine allows it: still fine
        return 10 + cost

    def _fill(self, view: PlayerView, option: ActionOption, defn: CardDefinition | None,
              foe: int, foe_life: int) -> Action | None:
        """The action with targets chosen, or None: no sensible target."""
        board = {o.id: o for o in view.battlefield}
        hurt = harms(defn)
        damage = damage_of(defn)
        targets: list[int] = []
        for req in option.targets:
            pool = list(req.candidates)
            if hurt:
                picks = self._harm_targets(pool, board, view.seat, foe, damage, foe_life)
            else:
                picks = self._help_targets(pool, board, view.seat)
            need = req.min
            # 601.2d: a divided amount goes whole to one target (no division to name).
            most = min(req.max, 1) if option.divide else req.max
            chosen = picks[:max(need, min(most, len(picks)))]
            if len(chosen) < need:
                return None  # only its own things (or nothing sensible) to point it at
            targets.extend(chosen)
        x = option.max_x if option.has_x else 0
        if option.has_x and x == 0:
            return None
        # 601.2b: the option's face, modes and the cost it is cast with, as offered.
        costs = tuple(option.required_cost.split("+")) if option.required_cost else ()
        return Action(option.kind, option.object_id, option.ability, tuple(targets), x,
                      face=option.face, modes=option.modes, costs=costs)

    @staticmethod
    def _harm_targets(pool: list[int], board: Mapping[int, ObjectView], me: int, foe: int,
                      damage: int, foe_life: int) -> list[int]:
        """Targets to hurt, best first: the opponent's face when the damage is lethal, then the
        opponent's creatures it kills (the strongest first), then the face, then their other
        things; never its own."""
        face = player_ref(foe)
        theirs = [r for r in pool if not is_player_ref(r) and r in board and board[r].controller != me]
        kills = [r for r in theirs if damage == 0 or board[r].toughness - board[r].damage <= damage]
        kills.sort(key=lambda r: (-board[r].power, r))
        rest = [r for r in theirs if r not in kills]
        out: list[int] = []
        if face in pool and damage and damage >= foe_life:
            out.append(face)
        out += kills
        if face in pool and damage and face not in out:
            out.append(face)
        out += rest
        others = [r for r in pool if is_player_ref(r) and seat_of_ref(r) not in (me, foe)]
        return out + others

    @staticmethod
    def _help_targets(pool: list[int], board: Mapping[int, ObjectView], me: int) -> list[int]:
        """Targets to help, best first: its own strongest creatures, then itself."""
        mine = [r for r in pool if not is_player_ref(r) and r in board and board[r].controller == me]
        mine.sort(key=lambda r: (-board[r].power, r))
        if player_ref(me) in pool:
            mine.append(player_ref(me))
        return mine

    # ------------------------------------------------------------------ combat

    def _attack(self, view: PlayerView, decision: Decision) -> Answer:
        """Attack with each creature that no untapped opposing creature can block and kill
        while surviving: at a battle of its own while its defense is not yet covered (310.5:
        defeating its Siege casts the back face), else at the opponent (a player rather than a
        planeswalker or another's battle)."""
        board = {o.id: o for o in view.battlefield}
        ref_of = {c.key: c.ref for c in decision.choices}
        blockers = [o for o in view.battlefield
                    if o.controller != view.seat and "Creature" in o.types and not o.tapped]
        defense = {o.id: dict(o.counters).get("defense", 0) for o in view.battlefield
                   if o.controller == view.seat and "Battle" in o.types}

        def rank(pair: tuple[int, int]) -> tuple[int, tuple[int, int]]:
            ref = ref_of.get(pair[1], 0)
            return (0 if ref in defense else 1 if is_player_ref(ref) else 2), pair

        pairs: list[tuple[int, int]] = []
        used: set[int] = set()
        for a, b in sorted(decision.legal_pairs, key=rank):
            if a in used:
                continue
            attacker = board.get(ref_of.get(a, 0))
            if attacker is None:
                continue
            target = ref_of.get(b, 0)
            if target in defense and (defense[target] <= 0 or attacker.power <= 0):
                continue  # covered already: this creature goes elsewhere
            punished = any(o.power >= attacker.toughness - attacker.damage
                           and attacker.power < o.toughness - o.damage for o in blockers)
            if not punished:
                used.add(a)
                pairs.append((a, b))
                if target in defense:
                    defense[target] -= attacker.power
        return Answer(decision.id, (), tuple(pairs))

    def _block(self, view: PlayerView, decision: Decision) -> Answer:
        """Block where the blocker kills the attacker and survives, trade where the attacker is
        at least as strong, and chump only when the unblocked damage would be lethal."""
        board = {o.id: o for o in view.battlefield}
        ref_of = {c.key: c.ref for c in decision.choices}
        by_attacker: dict[int, list[int]] = {}
        for blocker, attacker in decision.legal_pairs:
            by_attacker.setdefault(attacker, []).append(blocker)
        life = next(p.life for p in view.players if p.seat == view.seat)

        def obj(key: int) -> ObjectView | None:
            return board.get(ref_of.get(key, 0))

        def power(key: int) -> int:
            o = obj(key)
            return o.power if o is not None else 0

        attackers = sorted(by_attacker, key=lambda k: -power(k))
        incoming = sum(o.power for k in attackers if (o := obj(k)) is not None)
        used: set[int] = set()
        pairs: list[tuple[int, int]] = []
        for a in attackers:
            att = obj(a)
            if att is None:
                continue
            free = [b for b in by_attacker[a] if b not in used and obj(b) is not None]

            def survives(b: int, att: ObjectView = att) -> bool:
                blk = obj(b)
                return blk is not None and att.power < blk.toughness - blk.damage

            def kills(b: int, att: ObjectView = att) -> bool:
                blk = obj(b)
                return blk is not None and blk.power >= att.toughness - att.damage

            good = [b for b in free if kills(b) and survives(b)]
            trade = [b for b in free if kills(b) and power(b) <= att.power]
            wall = [b for b in free if survives(b)]
            pick = (good or wall or trade or (free if incoming >= life else []))
            if pick:
                b = min(pick, key=lambda k: (power(k), k))
                used.add(b)
                pairs.append((b, a))
                incoming -= att.power
        return Answer(decision.id, (), tuple(pairs))
