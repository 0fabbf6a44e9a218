"""Decisions: the closed set of questions the kernel asks players, and their answers.

The kernel never waits on a player. Where a rule needs a choice it yields a
``Decision``; whoever drives the kernel (an actor, a test, a scenario) sends
back an ``Answer`` or, for priority, an ``Action``. Every decision carries its
legal options, so a client can answer legally without knowing the rules.
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from dataclasses import dataclass
from typing import Literal, TypeVar, get_args

from ..base import builder

DecisionKind = Literal["priority", "choose", "order", "yes_no", "attackers", "blockers", "divide",
                       "starting_player", "mulligan", "mulligan_bottom"]
"""The closed set of decision kinds: the one place they are registered (``Decision.kind``)."""
DECISION_KINDS: tuple[DecisionKind, ...] = get_args(DecisionKind)
"""``DecisionKind`` as a tuple, in order."""
ActionKind = Literal["pass", "cast", "activate", "play", "concede", "turn_face_up"]
"""The closed set of priority action kinds (117.1, 104.3a; 116.2b/702.37e: the special action
of turning a face-down permanent face up): the one place they are registered."""
ACTION_KINDS: tuple[ActionKind, ...] = get_args(ActionKind)
"""``ActionKind`` as a tuple, in order."""


@dataclass(frozen=True, slots=True)
class Choice:
    """One option of a decision."""

    key: int
    """What the answer names to pick this option."""
    ref: int
    """The object id or player ref it stands for; 0 for a word."""
    name: str
    """Its visible name: a card name, a player name, or a word such as ``yes``."""
    group: int = 0
    """For attackers/blockers/divide: 0 for the creature side, 1 for what it attacks or blocks."""


@dataclass(frozen=True, slots=True)
class TargetRequirement:
    """A target requirement of an action the player may take, with its legal targets now."""

    prompt: str
    """What it asks for, e.g. ``target creature``."""
    min: int
    """Fewest targets."""
    max: int
    """Most targets."""
    candidates: tuple[int, ...]
    """Legal target refs now."""


@dataclass(frozen=True, slots=True)
class ActionOption:
    """An action legal now for the player holding priority (117.1)."""

    kind: str
    """``pass``, ``cast``, ``activate``, ``play``, ``concede`` or ``turn_face_up`` (702.37e:
    the face-down permanent ``object_id`` may be turned face up for its morph cost now)."""
    object_id: int = 0
    """The card or permanent acted with."""
    name: str = ""
    """Its name."""
    ability: int = 0
    """For ``activate``: the ability's number among the activated abilities, from 1."""
    targets: tuple[TargetRequirement, ...] = ()
    """Target requirements and their legal targets."""
    has_x: bool = False
    """Whether an X value must be chosen."""
    max_x: int = 0
    """The largest X the player can pay for now."""
    divide: bool = False
    """Whether an amount is divided among the targets (601.2d)."""
    face: str = ""
    """601.3e: the face, half or Adventure this option casts (or, for ``play``, the land face
    played), by name; empty for a card with one face."""
    modes: tuple[int, ...] = ()
    """700.2: the modes this option casts, numbered from 1 in printed order, as the action
    names them (a modal spell is offered once per choice of modes); empty if not modal."""
    mode_texts: tuple[str, ...] = ()
    """The text of each of those modes."""
    costs: tuple[str, ...] = ()
    """601.2b: the optional additional costs the player could also pay now (``kicker``)."""
    required_cost: str = ""
    """The alternative cost this option casts with, which the action must name (``flashback``
    from a graveyard, ``evoke``, ``bestow``, ``dash``; 118.9a: only one), or the additional cost
    its timing needs (Rout's ``flash``); empty for the mana cost alone."""


@dataclass(frozen=True, slots=True)
class Decision:
    """A question for one player (the design's closed set of decision kinds)."""

    id: int
    """Numbered per seat from 1, counting only the decisions asked of ``player``, so that an
    answer names the question it answers and the id tells the seat nothing else (400.2)."""
    player: int
    """Seat of the player who must answer."""
    kind: DecisionKind
    """One of ``DECISION_KINDS`` (a decoded decision of any other kind is refused)."""
    prompt: str
    """What is asked, in words, naming the rule that asks it."""
    choices: tuple[Choice, ...] = ()
    """The options (for ``choose``, ``order``, ``yes_no``, ``attackers``, ``blockers``, ``divide``)."""
    actions: tuple[ActionOption, ...] = ()
    """For ``priority``: the actions available now."""
    min: int = 0
    """Fewest choices to pick (``choose``), or fewest pairs."""
    max: int = 0
    """Most choices to pick (``choose``), or the total to divide (``divide``)."""
    legal_pairs: tuple[tuple[int, int], ...] = ()
    """For ``attackers``/``blockers``: every (creature key, attacked/blocked key) allowed."""
    lethal: tuple[tuple[int, int], ...] = ()
    """For ``divide`` with trample (702.19b): (blocker key, lethal damage) for each blocker; no
    damage may go to an unlisted key unless every listed key gets at least its lethal damage."""


# Constructors taking every field in order, built without the frozen ``__init__``'s
# ``object.__setattr__`` per field (``builder``): the kernel makes these at every priority
# decision (``legal_actions``, ``priority_decision``).
new_choice: Callable[[int, int, str, int], Choice] = builder(Choice)
"""``Choice(key, ref, name, group)``."""
new_target_requirement: Callable[[str, int, int, tuple[int, ...]], TargetRequirement] = builder(
    TargetRequirement)
"""``TargetRequirement(prompt, min, max, candidates)``."""
new_action_option: Callable[..., ActionOption] = builder(ActionOption)
"""``ActionOption(kind, object_id, name, ability, targets, has_x, max_x, divide, face, modes,
mode_texts, costs, required_cost)``, every field given."""
new_decision: Callable[[int, int, DecisionKind, str, tuple[Choice, ...], tuple[ActionOption, ...], int, int,
                        tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]], Decision] = builder(
    Decision)
"""``Decision(id, player, kind, prompt, choices, actions, min, max, legal_pairs, lethal)``."""


@dataclass(frozen=True, slots=True)
class Action:
    """What a player does with priority (117.1), fully specified (601.2 choices included)."""

    kind: str
    """One of ``ACTION_KINDS``."""
    object_id: int = 0
    """The card to cast or play, the permanent whose ability to activate, or the face-down
    permanent to turn face up (702.37e)."""
    ability: int = 0
    """For ``activate``: which activated ability, from 1 in printed order."""
    targets: tuple[int, ...] = ()
    """Target refs in the order the card names its targets (601.2c)."""
    x: int = 0
    """The value of X (601.2b)."""
    divide: tuple[tuple[int, int], ...] = ()
    """(target ref, amount) for damage divided among targets (601.2d)."""
    pay: tuple[int, ...] = ()
    """Permanents whose mana abilities to activate to pay (601.2g; a morph cost too, 702.37e);
    empty for automatic payment."""
    pay_as: tuple[str, ...] = ()
    """How to pay each hybrid or Phyrexian symbol: a colour letter or ``life``."""
    face: str = ""
    """601.3e: which face, half or Adventure to cast (or, for ``play``, which land face to
    play), by name; empty for the card's only or front face."""
    modes: tuple[int, ...] = ()
    """601.2b/700.2: the chosen modes, numbered from 1 in printed order."""
    costs: tuple[str, ...] = ()
    """601.2b: the optional additional and alternative costs to pay, by name (``kicker``,
    ``flashback``, ``evoke``, ``bestow``, ``dash``, a card's own such as Rout's ``flash``)."""


@dataclass(frozen=True, slots=True)
class ResolutionCast:
    """608.2g: what lets a spell be cast while another spell or ability resolves ("you may
    cast ... without paying its mana cost"): the cast follows 601.2a-i, ignores timing
    permissions, and no player receives priority after it."""

    source: str
    """The name of the resolving spell or ability's source, for prompts and refusals."""
    free: bool = False
    """118.9: it is cast without paying its mana cost (the alternative cost ``free``); X is 0
    (107.3b)."""
    max_mana_value: int = -1
    """601.2e: only a spell with this mana value or less (as it would be cast); -1 for any."""
    transformed: bool = False
    """"Cast it transformed" (712.1): a transforming double-faced card is cast as its back face."""


@dataclass(frozen=True, slots=True)
class Answer:
    """The answer to a decision other than priority."""

    decision_id: int
    """The decision it answers."""
    keys: tuple[int, ...] = ()
    """Chosen choice keys (``choose``); a permutation (``order``); (1,) yes or (0,) no (``yes_no``)."""
    pairs: tuple[tuple[int, int], ...] = ()
    """(creature key, attacked/blocked key) for attackers and blockers; (key, amount) for ``divide``."""


Reply = Answer | Action
T = TypeVar("T")
Proc = Generator[Decision, Reply, T]
"""A kernel procedure: yields decisions, is sent replies, returns its result."""
