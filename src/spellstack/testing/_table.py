"""``Table``: a game position for a test, in the words of a scenario file's ``[setup]``."""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..cards import load_cards
from ..rules import CardDefinition, Decision, Game, GameObject, Reply
from ..scenarios import build_game
from ._answers import no_questions, to_priority

__all__ = ["Card", "Table"]


@dataclass(frozen=True, slots=True)
class Card:
    """One object of a ``Table``: a scenario setup's object table (a card or a token)."""

    name: str
    """The card's (or, with ``token``, the token's) name, as ``spellstack cards`` prints it."""
    label: str | None = None
    """A name to find the object by (``Table.obj``); unique in the table, never a player's."""
    token: bool = False
    """A token from the pool's token list rather than a card."""
    owner: str | None = None
    """Its owner, when not the player it is listed under (permanents only)."""
    tapped: bool = False
    """Tapped."""
    sick: bool = False
    """Came under its controller's control this turn (summoning sick)."""
    damage: int = 0
    """Damage marked on it."""
    counters: Mapping[str, int] = field(default_factory=dict)
    """Counters on it by kind, e.g. ``{"+1/+1": 2}``."""
    attached_to: str | None = None
    """The label of the permanent, or the name of the player, it is attached to."""
    face_down: bool = False
    """Face down."""

    def setup(self) -> str | dict[str, Any]:
        """This object as an entry of a setup zone list: the bare name when nothing else is
        set, else a table with only the keys that differ from the defaults."""
        entry: dict[str, Any] = {"token" if self.token else "card": self.name}
        if self.label is not None:
            entry["label"] = self.label
        if self.owner is not None:
            entry["owner"] = self.owner
        for key in ("tapped", "sick", "face_down"):
            if getattr(self, key):
                entry[key] = True
        if self.damage:
            entry["damage"] = self.damage
        if self.counters:
            entry["counters"] = dict(self.counters)
        if self.attached_to is not None:
            entry["attached_to"] = self.attached_to
        return self.name if entry == {"card": self.name} else entry


class Table:
    """A game position, built up step by step and made into a ``Game`` by the scenario runner's
    own setup code (``spellstack.scenarios.build_game``): a table means what the same
    ``[setup]`` means in a scenario file.

    The first player named is the active player and holds priority unless ``priority`` names
    another; seats are numbered in the order the players are named (``seat``). A table does not
    change: each method returns a new table with something added, so that calls chain and one
    table can be the start of many.
    """

    def __init__(self, *players: str, seed: int = 0, turn: int = 1,
                 step: str = "precombat_main", priority: str | None = None,
                 cards: Mapping[str, CardDefinition] | None = None) -> None:
        """``players`` in turn order (two or more, the first active); ``seed`` for the game's
        generator; ``turn``, ``step`` and who holds ``priority`` first (default the active
        player); ``cards``: the card definitions (default every card the package defines)."""
        self._players = list(players)
        self._seed = seed
        self._top: dict[str, Any] = {"players": self._players}
        if turn != 1:
            self._top["turn"] = turn
        if step != "precombat_main":
            self._top["step"] = step
        if priority is not None:
            self._top["priority"] = priority
        self._cards = cards
        self._labels: dict[str, int] = {}

    @classmethod
    def from_setup(cls, setup: Mapping[str, Any], *, seed: int = 0,
                   cards: Mapping[str, CardDefinition] | None = None) -> Table:
        """The table a scenario file's ``[setup]`` describes (``seed`` as its ``seed``)."""
        table = cls(seed=seed, cards=cards)
        table._top = copy.deepcopy(dict(setup))
        players = table._top.get("players")
        table._players = players if isinstance(players, list) else []
        return table

    # ------------------------------------------------------------------ building it up

    def when(self, *, turn: int | None = None, step: str | None = None,
             priority: str | None = None) -> Table:
        """With the turn number, the step play starts in or the player who holds priority
        first set; what is not given keeps its value."""
        new = self._copy()
        for key, value in (("turn", turn), ("step", step), ("priority", priority)):
            if value is not None:
                new._top[key] = value
        return new

    def player(self, name: str, *, life: int | None = None, poison: int | None = None,
               mana: str | None = None, lands_played: int | None = None) -> Table:
        """With ``name``'s life total, poison counters, mana pool (a mana string such as
        ``"{R}{R}"``) or lands played this turn set; what is not given keeps its value."""
        new = self._copy()
        table = new._player(name)
        for key, value in (("life", life), ("poison", poison), ("mana", mana),
                           ("lands_played", lands_played)):
            if value is not None:
                table[key] = value
        return new

    def hand(self, name: str, *objects: str | Card) -> Table:
        """With cards added to ``name``'s hand."""
        return self._add(name, "hand", objects)

    def library(self, name: str, *objects: str | Card) -> Table:
        """With cards added to ``name``'s library, below those already there (the first given is on
        top)."""
        return self._add(name, "library", objects)

    def graveyard(self, name: str, *objects: str | Card) -> Table:
        """With cards added to ``name``'s graveyard."""
        return self._add(name, "graveyard", objects)

    def exile(self, name: str, *objects: str | Card) -> Table:
        """With cards added to exile, owned by ``name``."""
        return self._add(name, "exile", objects)

    def battlefield(self, name: str, *objects: str | Card) -> Table:
        """With permanents added that ``name`` controls (and owns, unless ``Card.owner`` says
        otherwise)."""
        return self._add(name, "battlefield", objects)

    def _player(self, name: str) -> dict[str, Any]:
        if name not in self._players:
            raise ValueError(f"{name!r} is not a player at this table ({self._players})")
        table: dict[str, Any] = self._top.setdefault(name, {})
        return table

    def _add(self, name: str, zone: str, objects: tuple[str | Card, ...]) -> Table:
        new = self._copy()
        entries = new._player(name).setdefault(zone, [])
        entries.extend(o.setup() if isinstance(o, Card) else o for o in objects)
        return new

    def _copy(self) -> Table:
        return Table.from_setup(self._top, seed=self._seed, cards=self._cards)

    # ------------------------------------------------------------------ reading it

    def setup(self) -> dict[str, Any]:
        """The table as a scenario file's ``[setup]`` (a copy: changing it changes nothing
        here)."""
        return copy.deepcopy(self._top)

    def seat(self, name: str) -> int:
        """The seat of the player called ``name`` (seats count from 0 in turn order)."""
        if name not in self._players:
            raise ValueError(f"{name!r} is not a player at this table ({self._players})")
        return self._players.index(name)

    def build(self) -> tuple[Game, dict[str, int]]:
        """The game, and its labels (label -> the physical card's id, ``GameObject.card``)."""
        cards = load_cards() if self._cards is None else self._cards
        game, labels = build_game(self.setup(), self._seed, cards, "table")
        self._labels = labels
        return game, labels

    def game(self, *, history: bool = False) -> Game:
        """The game as set up, before anything happens: the state-based actions and triggers
        due before the first grant of priority (117.5) still to come. ``history``: the game
        also keeps every event (``Game.history``)."""
        game, _ = self.build()
        if history:
            game.history = []
        return game

    def at_priority(self, answer: Callable[[Decision], Reply] = no_questions) -> Game:
        """The game at its first grant of priority (``to_priority``), the priority decision
        made; ``answer`` answers any question asked on the way (by default none may be)."""
        game = self.game()
        to_priority(game, answer)
        return game

    def obj(self, game: Game, label: str) -> GameObject:
        """The object in ``game`` (built from this table) that is the card labelled ``label``
        now, wherever it went (a label follows its card across zones, as in scenarios)."""
        if not self._labels:
            self.build()
        if label not in self._labels:
            raise KeyError(f"no object is labelled {label!r} at this table")
        card = self._labels[label]
        for obj in game.state.objects.values():
            if obj.card == card:
                return obj
        raise LookupError(f"the card labelled {label!r} is no longer in the game")
