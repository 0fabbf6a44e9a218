"""Word resolution: what a resolving spell or ability's effects refer to (``EffectContext``), the
base of the verb classes (``Verb``) and following an ability's instructions in order."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import cast

from ..definitions import Effect
from ..game import Game
from ..state import GameObject, Proc, is_player_ref, player_ref, seat_of_ref
from ._arguments import PLAYER_WORDS, word_of

_REMEMBERED = frozenset({"chosen", "copy", "that", "that_card", "those_cards"})
"""Object words for what earlier instructions of the ability chose, made or are handling."""


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
    """What earlier instructions chose, made or are handling, by object word (``chosen``,
    ``copy``, ``that``, ``that_card``, ``those_cards``), for the later ones that refer to it
    ("the copy", 608.2c)."""

    def amount(self, value: int | str) -> int:
        """A numeric argument (``Amount``), X read as the chosen value."""
        return value if isinstance(value, int) else self.x

    def _target_refs(self, word: str) -> list[int]:
        index = int(word.split(":", 1)[1]) if ":" in word else 0
        return list(self.targets[index]) if index < len(self.targets) else []

    def players(self, word: str) -> list[int]:
        """Seats a player word stands for, in APNAP order for ``each`` words (101.4)."""
        st = self.game.state
        w = word_of(word)
        if w == "you":
            return [self.controller]
        if w == "target":
            return [seat_of_ref(r) for r in self._target_refs(word) if is_player_ref(r)]
        if w == "each_player":
            return st.apnap()
        if w == "each_opponent":
            return [s for s in st.apnap() if s != self.controller]
        raise AssertionError(word)

    def objects(self, word: str) -> list[GameObject]:
        """Objects an object word stands for, as they are now (absent ones dropped)."""
        st = self.game.state
        w = word_of(word)
        if w == "self":
            return [self.obj] if self.obj.zone == "stack" and not self.obj.ability_kind else (
                [st.objects[self.source.id]] if self.source.id in st.objects else [])
        if w == "target":
            return [st.objects[r] for r in self._target_refs(word) if r in st.objects]
        if w == "subject":
            it = st.objects.get(self.subject)
            if it is None:
                return []
            if it.merged and it.zone != "battlefield":
                # 725.3, 400.7: a merged permanent that left is each of the cards it became
                # ("return it": each returns, as a permanent of its own).
                cards = {card for card, _, _ in it.merged[1:]}
                return [it, *(o for o in st.objects.values() if o.card in cards and o.zone == it.zone
                              and not o.ability_kind)]
            return [it]
        if w == "self_in_graveyard":
            # 603.6e: an Aura's "when enchanted creature dies" ability finds the new object the
            # Aura became in its owner's graveyard (400.7).
            return [st.objects[i] for i in st.players[self.source.owner].graveyard
                    if self.source.card and st.objects[i].card == self.source.card]
        if w == "exiled":
            # 607.2a: the cards the source's linked ability exiled.
            return [st.objects[i] for i in st.exile if st.objects[i].exiled_by == self.source.id]
        if w in _REMEMBERED:
            return [st.objects[i] for i in self.remembered.get(w, ()) if i in st.objects]
        if w == "each_creature":
            return [st.objects[i] for i in st.battlefield if self.game.is_creature(st.objects[i])]
        if w == "each_creature_that_attacked":  # "each creature that attacked this turn"
            turn, ids = st.attacked_this_turn
            return [st.objects[i] for i in ids if turn == st.turn and i in st.objects
                    and st.objects[i].zone == "battlefield" and self.game.is_creature(st.objects[i])]
        if w == "each_creature_you_control":
            return [st.objects[i] for i in st.battlefield if self.game.is_creature(st.objects[i])
                    and self.game.controller(st.objects[i]) == self.controller]
        if w == "each_permanent":
            return [st.objects[i] for i in st.battlefield]
        raise AssertionError(word)

    def last_known(self, word: str) -> list[GameObject]:
        """608.2h: the objects ``word`` stands for, the trigger's subject as it is now or, once
        it has left its zone, as it last existed there (last known information): "copy it"
        copies a spell that has left the stack (707.10). Other words as ``objects`` (a target
        that is gone is illegal, 608.2b)."""
        if word_of(word) != "subject":
            return self.objects(word)
        st = self.game.state
        found = st.objects.get(self.subject) or st.lki.get(self.subject)
        return [found] if found is not None else []

    def narrowed(self, objs: list[GameObject], types: tuple[str, ...] | None = None,
                 mana_value: int | str | None = None,
                 mana_value_at_most: int | str | None = None) -> list[GameObject]:
        """The objects among ``objs`` that an "each" effect's ``types`` (any of these card
        types) and ``mana_value`` (202.3; an int or X) or ``mana_value_at_most`` arguments
        admit, as they are now: "each artifact, creature, and enchantment with mana value X"."""
        game = self.game
        if types is not None:
            objs = [o for o in objs if any(game.is_type(o, t) for t in types)]
        if mana_value is not None:
            wanted = self.amount(mana_value)
            objs = [o for o in objs if game.mana_value(o) == wanted]
        if mana_value_at_most is not None:
            most = self.amount(mana_value_at_most)
            objs = [o for o in objs if game.mana_value(o) <= most]
        return objs

    def recipients(self, word: str) -> list[int]:
        """Refs (players or objects) a word stands for, for damage."""
        w = word_of(word)
        if w == "target":
            return self._target_refs(word)
        if w == "that":  # a player or an object (608.2f: "that permanent or player")
            return [r for r in self.remembered.get(w, ()) if is_player_ref(r) or r in self.game.state.objects]
        if w in PLAYER_WORDS:
            return [player_ref(s) for s in self.players(word)]
        return [o.id for o in self.objects(word)]


class Verb(Effect):
    """An effect verb's class: a frozen, slotted dataclass whose fields are the verb's arguments
    (typed with the argument vocabulary), whose docstring names the rule it follows, and whose
    ``run`` carries it out (a generator where it asks a player)."""

    __slots__ = ()

    def run(self, ctx: EffectContext) -> Proc[None] | None:
        """Carry it out in ``ctx`` (returns a procedure if it asks a player something)."""
        raise NotImplementedError(self.verb)


def run_effects(ctx: EffectContext, effects: tuple[Effect, ...]) -> Proc[None]:
    """608.2c: follow the instructions in order."""
    for eff in effects:
        if ctx.game.state.game_over:
            return
        # Every effect a definition holds was built from EFFECT_VERBS by the card loader.
        result = cast(Verb, eff).run(ctx)
        if result is not None:
            yield from result
