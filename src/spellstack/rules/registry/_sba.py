"""State-based actions (704.5): each one with what it looks at, the changes it reads (the marks
a change must set for it to be looked at again, ``SBAChanges``) and what it does.

The registry holds the entries; ``rules/sba`` defines the 704.5 actions and registers them, and
walks the registry at each check: the looks in ``SBA_LOOKS`` order, each look's actions in
registry order, then what they found performed all at once, outcome by outcome (704.3).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Generator
from dataclasses import dataclass
from typing import Any, Generic, Literal, TypeVar, get_args

from ._registry import Registry

GameT = TypeVar("GameT")
"""The game (``rules.game.Game``, which sits above this package)."""
SubjectT = TypeVar("SubjectT")
"""What an action looks at: a player, an object, or a permanent with its characteristics."""

SBAMark = Literal["players", "tokens", "objects", "board"]
"""A field of ``SBAChanges``: the part of the state a change was marked in. A player's life,
poison counters or draw from an empty library (``players``, by seat); a token or copy put into
another zone (``tokens``, by id); damage to a permanent (``objects``, by id); anything else about
any permanent, its characteristics, counters and attachments (``board``)."""
SBA_MARKS: tuple[SBAMark, ...] = get_args(SBAMark)

_PLAYERS: frozenset[SBAMark] = frozenset({"players"})
_TOKENS: frozenset[SBAMark] = frozenset({"tokens"})
_OBJECTS: frozenset[SBAMark] = frozenset({"objects"})
_BOARD: frozenset[SBAMark] = frozenset({"board"})
_NONE: frozenset[SBAMark] = frozenset()

SBA_READS: dict[str, frozenset[SBAMark]] = {
    "PlayerState.life": _PLAYERS,
    "PlayerState.poison": _PLAYERS,
    "PlayerState.drew_from_empty": _PLAYERS,
    "PlayerState.seat": _NONE,
    "PlayerState.name": _NONE,
    "PlayerState.lost": _NONE,
    "GameObject.zone": frozenset({"tokens", "board"}),
    "GameObject.is_token": _TOKENS,
    "GameObject.is_copy": _TOKENS,
    "GameObject.card_copy": _TOKENS,
    "GameObject.damage": _OBJECTS,
    "GameObject.deathtouch_damage": _OBJECTS,
    "GameObject.counters": _BOARD,
    "GameObject.attached_to": _BOARD,
    "GameObject.bestowed": _BOARD,
    "GameObject.timestamp": _BOARD,
    "GameObject.face_down": _BOARD,
    "GameObject.sector": _BOARD,
    "GameObject.id": _NONE,
    "GameObject.name": _NONE,
    "GameObject.owner": _NONE,
    "GameObject.controller": _BOARD,
    "GameObject.protector": _BOARD,
    "Characteristics.*": _BOARD,
}
"""What a state-based action may read of what it is shown, with the marks a change to it sets
(``SBAChanges``): an action that reads one must declare one of them (``StateBasedAction.marks``;
``tests/registries`` holds each registered action to it). An object's zone: a token or copy
moving marks ``tokens``, a permanent leaving the battlefield ``board``. Ids, names, owners,
seats and whether a player left need none (they never change, or leaving marks everything)."""

SBALook = Literal["players", "objects", "permanents", "legends", "worlds", "attachments", "roles"]
"""What a state-based action looks at; a check looks in this order:

- ``players``: each player still in the game (704.5a-c);
- ``objects``: each object that may have to cease to exist, tokens and copies (704.5d, e);
- ``permanents``: each permanent on its own (704.5f-i, q, r; ``StateBasedAction.only`` narrows
  which);
- ``legends``: the legendary permanents together (704.5j: a player chooses, as it is looked at);
- ``worlds``: the world permanents together (704.5k);
- ``attachments``: each attached permanent and each Aura (704.5m, n, p);
- ``roles``: the attached permanents together, for the Roles among them (704.5y).
 A look finds what its actions find in
the order of what it looks at (a permanent's actions in registry order), but for ``objects`` when
everything is looked at (each action's in turn); a permanent's reason found by a later look does
not replace one found by an earlier look."""
SBA_LOOKS: tuple[SBALook, ...] = get_args(SBALook)

SBAOutcome = Literal["lose", "cease", "keep_one", "graveyard", "unattach", "destroy", "annihilate",
                     "cap", "perform"]
"""What a state-based action does where it applies: the player loses the game (704.5a-c, one
event with every reason, 704.7), the object ceases to exist (704.5d, e), its controller keeps one
of each name and the rest go to the graveyard (704.5j), the permanent is put into its owner's
graveyard, becomes unattached, is destroyed, loses its +1/+1 and -1/-1 counters in pairs (704.5q),
or loses the counters beyond a cap (704.5r); or the action performs what it found itself
(``perform``: a mechanic's action that does something none of these does, such as a choice
made as it is performed: 704.5u's sectors, 704.5w's and 704.5x's new protectors). All are
performed at once (704.3), in this order but ``keep_one`` first: perform, unattach, cease,
graveyard and destroy (as one move), annihilate, cap, lose."""
SBA_OUTCOMES: tuple[SBAOutcome, ...] = get_args(SBAOutcome)


@dataclass(frozen=True, slots=True)
class SBAHit:
    """One thing a state-based action found to do."""

    subject: int
    """The player's seat (``lose``) or the object's id."""
    outcome: SBAOutcome
    """What is done to it."""
    why: str = ""
    """The reason in words, with its rule (``keep_one``: none; ``cap``: the counter kind;
    ``perform``: the name the action is registered by, whose ``perform`` does it)."""
    most: int = 0
    """``cap``: the most counters of the kind it may have."""


@dataclass(frozen=True, slots=True)
class StateBasedAction(Generic[GameT, SubjectT]):
    """A state-based action (704.5), registered by its rule (``"704.5a"``)."""

    does: str
    """What it is, in words."""
    looks_at: SBALook
    """What it looks at (the look it is part of)."""
    marks: frozenset[SBAMark]
    """The changes it reads: after a check that performed nothing, it is looked at again only
    where one of these was marked (``SBA_READS`` says which read needs which)."""
    outcomes: frozenset[SBAOutcome]
    """What it may do."""
    find: Callable[[GameT, Collection[SubjectT]], list[SBAHit]]
    """Where it applies among what it is shown (in that order), changing nothing."""
    only: str = ""
    """For a look at each permanent (``permanents``): only those with this card type (205.2a),
    or ``counters`` (with counters on them) or ``damaged`` (with damage marked, from a deathtouch
    source or not). A check picks them out once, for every action that names the same."""
    checked: Callable[[Collection[SubjectT]], None] | None = None
    """What a check (not a look) forgets of what it showed the action, once every action has
    looked: 704.5b and 704.5h read what happened "since the last check"."""
    perform: Callable[[GameT, list[int]], Generator[Any, Any, None]] | None = None
    """For an action with the outcome ``perform``: what it does, shown the subjects it found (in
    the order found), as a procedure of the batch (it may ask a player, and logs each change
    it makes as an event of the batch); it is run before the other outcomes are performed."""

    def __post_init__(self) -> None:
        if ("perform" in self.outcomes) != (self.perform is not None):
            raise ValueError(f"state-based action {self.does!r}: an action performs what it found "
                             "(perform) exactly when perform is among its outcomes")
        if self.looks_at not in SBA_LOOKS:
            raise ValueError(f"state-based action: looks_at {self.looks_at!r} is not one of {SBA_LOOKS}")
        if self.only and self.looks_at != "permanents":
            raise ValueError(f"state-based action {self.does!r}: only picks among the permanents "
                             f"a look at each permanent is shown (its look, {self.looks_at!r}, "
                             "picks its own)")
        if not self.marks or not self.marks <= frozenset(SBA_MARKS):
            raise ValueError(f"state-based action {self.does!r}: marks {sorted(self.marks)} must name "
                             f"the changes it reads, among {SBA_MARKS}")
        if not self.outcomes or not self.outcomes <= frozenset(SBA_OUTCOMES):
            raise ValueError(f"state-based action {self.does!r}: outcomes {sorted(self.outcomes)} "
                             f"must be among {SBA_OUTCOMES}")


SBA_ACTIONS: Registry[StateBasedAction[Any, Any]] = Registry("state-based action")
"""Every state-based action by its rule (704.5a ...), in the order a check walks them."""
