"""A seeded random bot: legal, reproducible, and eager enough that games end."""

from __future__ import annotations

from collections.abc import Sequence

from ..rules import Action, ActionOption, Answer, Decision, GameRandom, ObjectView, PlayerView, Reply

__all__ = ["RandomBot", "keeps"]


_KEEP = 0
"""The ``mulligan`` decision's key for keeping the hand."""
_MULLIGAN = 1
"""Its key for taking a mulligan."""


def keeps(hand: Sequence[ObjectView]) -> bool:
    """The built-in bots' mulligan rule (103.5): keep a hand with at least two lands and at least
    two spells; always keep five cards or fewer."""
    lands = sum(1 for o in hand if "Land" in o.types)
    return len(hand) <= 5 or (lands >= 2 and len(hand) - lands >= 2)


class RandomBot:
    """Picks uniformly among legal options, with a lean towards doing something: it plays a
    land when it can, acts rather than passes most of the time, and attacks often."""

    views_at_priority = False
    """It acts on the priority decision's actions alone: its priority requests carry no view."""

    def __init__(self, seed: int) -> None:
        self.rng = GameRandom.from_seed(seed)
        """Its own generator: the bot's choices depend only on its seed and what it is asked."""

    def decide(self, view: PlayerView, decision: Decision) -> Reply:
        """Answer any decision legally."""
        rng = self.rng
        if decision.kind == "priority":
            return self._priority(decision)
        keys = [c.key for c in decision.choices]
        if decision.kind in ("choose", "yes_no"):
            n = decision.min + rng.below(decision.max - decision.min + 1)
            rng.shuffle(keys)
            return Answer(decision.id, tuple(keys[:n]))
        if decision.kind == "order":
            rng.shuffle(keys)
            return Answer(decision.id, tuple(keys))
        if decision.kind in ("attackers", "blockers"):
            pairs = list(decision.legal_pairs)
            rng.shuffle(pairs)
            used: set[int] = set()
            out = []
            for a, b in pairs:
                if a not in used and rng.below(3) != 0:
                    used.add(a)
                    out.append((a, b))
            return Answer(decision.id, (), tuple(out))
        if decision.kind == "divide":
            return self._divide(decision, keys)
        if decision.kind == "starting_player":
            return Answer(decision.id, (view.seat,))  # playing first is the usual choice
        if decision.kind == "mulligan":
            return Answer(decision.id, (_KEEP if keeps(view.hand) else _MULLIGAN,))
        if decision.kind == "mulligan_bottom":
            return Answer(decision.id, self._bottom(view, decision))
        raise ValueError(f"RandomBot can't answer a {decision.kind!r} decision")

    def _bottom(self, view: PlayerView, decision: Decision) -> tuple[int, ...]:
        """Which cards to put on the bottom after a mulligan (103.5): whichever of lands and
        spells the hand has more of than its share (three lands in seven), chosen at random
        among them."""
        kinds = {o.id: "Land" in o.types for o in view.hand}
        lands = [c.key for c in decision.choices if kinds.get(c.ref, False)]
        spells = [c.key for c in decision.choices if not kinds.get(c.ref, False)]
        self.rng.shuffle(lands)
        self.rng.shuffle(spells)
        out: list[int] = []
        for _ in range(decision.min):
            kept = len(lands) + len(spells)
            # keep about 3/7 of what stays as lands
            pile = lands if lands and (not spells or len(lands) * 7 > 3 * kept) else spells
            out.append(pile.pop())
        return tuple(out)

    def _divide(self, decision: Decision, keys: list[int]) -> Answer:
        """A random division that is legal: with trample (702.19b, ``decision.lethal``) damage
        goes past the blockers only once each has its lethal damage."""
        rng = self.rng
        split = dict.fromkeys(keys, 0)
        need = dict(decision.lethal)
        total = decision.max
        if need and (sum(need.values()) > total or rng.below(2) == 0):
            keys = [k for k in keys if k in need]  # keep it all on the blockers
        elif need:
            for key, lethal in need.items():
                split[key] = lethal
            total -= sum(need.values())
        for _ in range(total):
            split[rng.choice(keys)] += 1
        return Answer(decision.id, (), tuple(split.items()))

    def _priority(self, decision: Decision) -> Action:
        rng = self.rng
        options = [o for o in decision.actions if o.kind != "pass"]
        lands = [o for o in options if o.kind == "play"]
        if lands:
            return Action("play", lands[0].object_id, face=lands[0].face)
        if not options or rng.below(4) == 0:
            return Action("pass")
        return self._fill(rng.choice(options))

    def _fill(self, option: ActionOption) -> Action:
        rng = self.rng
        x = rng.below(option.max_x + 1) if option.has_x else 0
        targets: list[int] = []
        for req in option.targets:
            # 115.3: one object may be chosen once for each word "target".
            pool = list(req.candidates)
            high = req.max
            if option.divide:
                # 601.2d: a division gives each target at least 1; one target takes the whole
                # amount without naming it, and with X = 0 there is nothing to give.
                high = min(high, 1 if not option.has_x or x > 0 else 0)
                if high < req.min:
                    x = max(x, 1)
                    high = req.min
            n = min(len(pool), req.min + rng.below(max(0, high - req.min) + 1))
            rng.shuffle(pool)
            targets.extend(pool[:n])
        # 601.2b: the option's own face, modes and alternative cost; each optional cost it
        # offers, half the time.
        costs = ((option.required_cost.split("+") if option.required_cost else [])
                 + [c for c in option.costs if rng.below(2) == 0])
        if option.kind == "play":
            return Action("play", option.object_id, face=option.face)
        return Action(option.kind, option.object_id, option.ability, tuple(targets), x,
                      face=option.face, modes=option.modes, costs=tuple(costs))
