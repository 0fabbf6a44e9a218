"""The kernel's handle on one game: its state, the card definitions, and characteristic queries."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from ._decisions import Answer, Choice, Decision, Proc
from ._definitions import CardDefinition
from ._events import Event
from ._state import GameObject, GameState
from ._visibility import PUBLIC_SEAT, visible_name

__all__ = ["Game"]


@dataclass(slots=True)
class Game:
    """A game: plain-data state plus the read-only card definitions it refers to by name."""

    state: GameState
    """The game state (plain data, hashable)."""
    cards: Mapping[str, CardDefinition]
    """Card and token definitions by name."""
    events: list[Event] = field(default_factory=list)
    """Events recorded since the caller last collected them (bookkeeping, not game state)."""
    history: list[Event] | None = None
    """If a list: every event of the game is also kept here, for a narrated account."""
    memo: dict[str, tuple[str, ...] | None] = field(default_factory=dict)
    """Facts derived from the (immutable) card definitions, by card name: a cache only."""

    # ------------------------------------------------------------------ definitions

    def definition(self, obj: GameObject) -> CardDefinition:
        """The definition an object's characteristics come from (for an ability: its source's)."""
        return self.cards[obj.name]

    # ---------------------------------------------- characteristics (613, as far as the pool needs)

    def card_types(self, obj: GameObject) -> tuple[str, ...]:
        """Card types (205.2a)."""
        return self.cards[obj.name].card_types

    def is_type(self, obj: GameObject, card_type: str) -> bool:
        """Whether the object has this card type now."""
        return card_type in self.cards[obj.name].card_types

    def is_creature(self, obj: GameObject) -> bool:
        """Whether the object is a creature now."""
        return "Creature" in self.cards[obj.name].card_types

    def colors(self, obj: GameObject) -> tuple[str, ...]:
        """Colours (105)."""
        return self.cards[obj.name].colors

    def keywords(self, obj: GameObject) -> tuple[str, ...]:
        """Keyword abilities it has now (702)."""
        return self.cards[obj.name].keywords

    def has_keyword(self, obj: GameObject, keyword: str) -> bool:
        """Whether it has this keyword ability now."""
        return keyword in self.cards[obj.name].keywords

    def is_legendary(self, obj: GameObject) -> bool:
        """Whether it has the legendary supertype (205.4d)."""
        return "Legendary" in self.cards[obj.name].supertypes

    def power(self, obj: GameObject) -> int:
        """Power after layer 7 (613.4): printed, then effects, then counters."""
        base = self.cards[obj.name].power or 0
        return base + self._pt_delta(obj)[0]

    def toughness(self, obj: GameObject) -> int:
        """Toughness after layer 7 (613.4)."""
        base = self.cards[obj.name].toughness or 0
        return base + self._pt_delta(obj)[1]

    def _pt_delta(self, obj: GameObject) -> tuple[int, int]:
        p = t = 0
        for eff in self.state.effects:
            if obj.id in eff.affected and eff.verb == "modify_pt":
                ep, et = eff.get("power", 0), eff.get("toughness", 0)
                assert isinstance(ep, int) and isinstance(et, int)
                p += ep
                t += et
        plus = obj.counters.get("+1/+1", 0)
        minus = obj.counters.get("-1/-1", 0)
        return p + plus - minus, t + plus - minus

    def mana_value(self, obj: GameObject) -> int:
        """202.3: mana value; X is its chosen value on the stack, 0 elsewhere."""
        cost = self.cards[obj.name].mana_cost
        if cost is None:
            return 0
        return cost.mana_value(obj.x if obj.zone == "stack" else 0)

    # ------------------------------------------------------------------ bookkeeping

    def log(self, kind: str, text: str, *, player: int = -1, subject: int = 0, amount: int = 0,
            private_to: tuple[int, ...] = ()) -> None:
        """Record an event for the current batch (collected by whoever drives the kernel)."""
        event = Event(kind, player, subject, amount, text, private_to)
        self.events.append(event)
        if self.history is not None:
            self.history.append(event)

    def take_events(self) -> tuple[Event, ...]:
        """Collect and clear the events recorded so far."""
        evs = tuple(self.events)
        self.events.clear()
        return evs

    def player_name(self, seat: int) -> str:
        """A player's name."""
        return self.state.players[seat].name

    def ref_name(self, ref: int, seat: int = PUBLIC_SEAT) -> str:
        """The name of an object or player reference as ``seat`` may know it (every player,
        by default); ``#N`` for anything hidden from them or that never existed, any int."""
        return visible_name(self, ref, seat)

    def decision(self, player: int, kind: str, prompt: str, *, choices: tuple[Choice, ...] = (),
                 min: int = 0, max: int = 0,
                 legal_pairs: tuple[tuple[int, int], ...] = ()) -> Decision:
        """A new numbered decision (not yet asked)."""
        self.state.decisions += 1
        return Decision(self.state.decisions, player, kind, prompt, choices, (), min, max,
                        legal_pairs)

    def ask_choose(self, player: int, prompt: str, refs: list[int], lo: int, hi: int) -> Proc[list[int]]:
        """Ask ``player`` to choose between ``lo`` and ``hi`` of ``refs``; answered automatically
        when only one answer is legal."""
        hi = min(hi, len(refs))
        lo = min(lo, hi)
        if hi == 0:
            return []
        if lo == hi == len(refs):
            return list(refs)
        # The asked player is told only names they may see (400.2).
        choices = tuple(Choice(i, r, self.ref_name(r, player)) for i, r in enumerate(refs))
        reply = yield self.decision(player, "choose", prompt, choices=choices, min=lo, max=hi)
        assert isinstance(reply, Answer)
        return [refs[k] for k in reply.keys]

    def ask_yes_no(self, player: int, prompt: str) -> Proc[bool]:
        """Ask a yes/no question ("you may")."""
        choices = (Choice(1, 0, "yes"), Choice(0, 0, "no"))
        reply = yield self.decision(player, "yes_no", prompt, choices=choices, min=1, max=1)
        assert isinstance(reply, Answer)
        return reply.keys == (1,)

