"""Every message that crosses a channel between the actors of one game.

Each message is a frozen, slotted dataclass with a class-level ``KIND``, the
name it travels under, and ``ROUTES``, the (sender, receiver) pairs it travels
between. Messages carry ids, decisions, answers, views and events, never the
game state itself. Directions are given as sender→receiver.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import ClassVar, TypeAlias, get_args

from spellstack.protocol._stops import Stops
from spellstack.protocol._views import ViewDelta
from spellstack.rules.state import Action, Answer, Decision
from spellstack.rules.views import ClockState

__all__ = [
    "ACTORS",
    "GAME_EVENT_KINDS",
    "MESSAGE_TYPES",
    "Accepted",
    "AskPlayer",
    "CheckSBA",
    "Concede",
    "DecisionRequest",
    "ErrorReply",
    "Forfeit",
    "GameEvent",
    "GameOver",
    "Message",
    "PlayerReply",
    "PriorityRequest",
    "Rejected",
    "RequestFullView",
    "Resolve",
    "Resolved",
    "Routes",
    "SBABatch",
    "SetStops",
    "StopsSet",
    "SubmitAction",
    "SubmitAnswer",
]

ACTORS: tuple[str, ...] = ("coordinator", "player", "stack", "sba", "tracer")
"""The actors of a game, as message routes name them (the tracer is sent a copy of every message
as well; ``CoordinatorEvent`` goes to it alone)."""
Routes: TypeAlias = tuple[tuple[str, str], ...]
"""A message kind's routes: (sender, receiver) pairs, each an actor of ``ACTORS``."""


@dataclass(frozen=True, slots=True)
class PriorityRequest:
    """Coordinator→player: the player holds priority (117) and must act or pass."""

    KIND: ClassVar[str] = "PriorityRequest"
    ROUTES: ClassVar[Routes] = (("coordinator", "player"),)

    decision: Decision
    """The ``priority`` decision, listing the actions available now."""
    view: ViewDelta | None
    """What the player may see now, as a change of the seat's previous view (or in full);
    None for a seat whose views come only with its other questions (``SeatConfig.
    priority_views``): it acts without reading one, and may ask for it (``RequestFullView``)."""
    clock: ClockState | None = None
    """The seat's game clock: its time left and its increment; None when it plays without one."""


@dataclass(frozen=True, slots=True)
class DecisionRequest:
    """Coordinator→player: any question other than priority."""

    KIND: ClassVar[str] = "DecisionRequest"
    ROUTES: ClassVar[Routes] = (("coordinator", "player"),)

    decision: Decision
    """The question, with its legal options."""
    view: ViewDelta
    """What the player may see now, as a change of the seat's previous view (or in full)."""
    clock: ClockState | None = None
    """The seat's game clock: its time left and its increment; None when it plays without one."""


@dataclass(frozen=True, slots=True)
class SubmitAction:
    """Player→coordinator: what the player does with priority."""

    KIND: ClassVar[str] = "SubmitAction"
    ROUTES: ClassVar[Routes] = (("player", "coordinator"),)

    decision_id: int
    """The priority decision this answers."""
    action: Action
    """The action, fully specified."""


@dataclass(frozen=True, slots=True)
class SubmitAnswer:
    """Player→coordinator: the answer to a decision other than priority."""

    KIND: ClassVar[str] = "SubmitAnswer"
    ROUTES: ClassVar[Routes] = (("player", "coordinator"),)

    answer: Answer
    """The answer; it names the decision it answers."""


@dataclass(frozen=True, slots=True)
class RequestFullView:
    """Player→coordinator, in place of the reply to a request: send that request again with
    the full view (the player cannot apply its view delta). The request stays open."""

    KIND: ClassVar[str] = "RequestFullView"
    ROUTES: ClassVar[Routes] = (("player", "coordinator"),)

    decision_id: int
    """The decision of the open request."""


@dataclass(frozen=True, slots=True)
class SetStops:
    """Player→coordinator, in place of the reply to a request: the seat's stops from now on.

    The request stays open: the coordinator answers ``StopsSet`` (or ``ErrorReply`` for an
    invalid setting, which changes nothing) and waits again for the reply, without sending
    the request again.
    """

    KIND: ClassVar[str] = "SetStops"
    ROUTES: ClassVar[Routes] = (("player", "coordinator"),)

    stops: Stops
    """Where the seat wants priority even when it could act."""


@dataclass(frozen=True, slots=True)
class StopsSet:
    """Coordinator→player: the seat's stops are now the ones it sent; its request is still open."""

    KIND: ClassVar[str] = "StopsSet"
    ROUTES: ClassVar[Routes] = (("coordinator", "player"),)

    stops: Stops
    """The stops now in force."""


@dataclass(frozen=True, slots=True)
class Accepted:
    """Coordinator→player: the action or answer was legal and has been applied."""

    KIND: ClassVar[str] = "Accepted"
    ROUTES: ClassVar[Routes] = (("coordinator", "player"),)

    decision_id: int
    """The decision that was answered."""


@dataclass(frozen=True, slots=True)
class Rejected:
    """Coordinator→player: the action or answer was illegal; nothing changed."""

    KIND: ClassVar[str] = "Rejected"
    ROUTES: ClassVar[Routes] = (("coordinator", "player"),)

    decision_id: int
    """The decision that is still open."""
    reason: str
    """Why, naming the rule."""


@dataclass(frozen=True, slots=True)
class ErrorReply:
    """Coordinator→sender: the message received could not be decoded or was unexpected."""

    KIND: ClassVar[str] = "ErrorReply"
    ROUTES: ClassVar[Routes] = (("coordinator", "player"),)

    reason: str
    """What was wrong with it."""


@dataclass(frozen=True, slots=True)
class Forfeit:
    """Player→coordinator: the player leaves the game (its policy crashed, hung or conceded)."""

    KIND: ClassVar[str] = "Forfeit"
    ROUTES: ClassVar[Routes] = (("player", "coordinator"),)

    reason: str
    """Why the player forfeits."""


@dataclass(frozen=True, slots=True)
class Concede:
    """Player→coordinator: the player concedes the game (104.3a: at any time, whatever it is
    asked); it loses the game by concession, not by forfeit, and is asked nothing more."""

    KIND: ClassVar[str] = "Concede"
    ROUTES: ClassVar[Routes] = (("player", "coordinator"),)


@dataclass(frozen=True, slots=True)
class CheckSBA:
    """Coordinator→SBA checker: check and perform state-based actions (704.3)."""

    KIND: ClassVar[str] = "CheckSBA"
    ROUTES: ClassVar[Routes] = (("coordinator", "sba"),)


@dataclass(frozen=True, slots=True)
class SBABatch:
    """SBA checker→coordinator: the state-based actions performed as one event (704.3), by
    their count. What happened is in the trace, as the ``GameEvent``s the checker sent before
    this reply: each event is carried once."""

    KIND: ClassVar[str] = "SBABatch"
    ROUTES: ClassVar[Routes] = (("sba", "coordinator"),)

    count: int
    """How many events the batch made; 0 when no state-based action applied (704.3: the
    check is made again until none applies)."""


@dataclass(frozen=True, slots=True)
class Resolve:
    """Coordinator→stack: resolve the top object of the stack (608.1)."""

    KIND: ClassVar[str] = "Resolve"
    ROUTES: ClassVar[Routes] = (("coordinator", "stack"),)

    object_id: int
    """The stack object expected on top."""


@dataclass(frozen=True, slots=True)
class Resolved:
    """Stack→coordinator: the object resolved (or was removed on resolution, 608.2b)."""

    KIND: ClassVar[str] = "Resolved"
    ROUTES: ClassVar[Routes] = (("stack", "coordinator"),)

    object_id: int
    """The stack object that resolved."""
    name: str
    """Its name."""
    count: int
    """How many events its resolution made (what they were is in the trace, as the
    ``GameEvent``s the stack actor sent before this reply: each event is carried once)."""


@dataclass(frozen=True, slots=True)
class AskPlayer:
    """Stack or SBA checker→coordinator: a question mid-resolution (608.2d) or SBA (704.5j)."""

    KIND: ClassVar[str] = "AskPlayer"
    ROUTES: ClassVar[Routes] = (("stack", "coordinator"), ("sba", "coordinator"))

    decision: Decision
    """The question; its ``player`` says who must answer."""


@dataclass(frozen=True, slots=True)
class PlayerReply:
    """Coordinator→stack or SBA checker: the player's answer to an ``AskPlayer``."""

    KIND: ClassVar[str] = "PlayerReply"
    ROUTES: ClassVar[Routes] = (("coordinator", "stack"), ("coordinator", "sba"))

    answer: Answer
    """The answer, naming the decision it answers."""


@dataclass(frozen=True, slots=True)
class GameOver:
    """Coordinator→players: the game has ended."""

    KIND: ClassVar[str] = "GameOver"
    ROUTES: ClassVar[Routes] = (("coordinator", "player"),)

    winner: str
    """The winner's name; empty for a draw."""
    losers: tuple[str, ...]
    """The losers' names."""
    reason: str
    """How the game ended, naming the rule."""


GAME_EVENT_KINDS: Mapping[str, str] = MappingProxyType({
    # What the kernel logs as the rules are applied (``Game.log``).
    "turn": "a turn begins (500.1): player is the active player",
    "step": "a step or phase begins (500.1)",
    "starting_player": "103.1: who chose who takes the first turn, and whom",
    "mulligan": "103.5: a player takes a mulligan (a hand shuffled away)",
    "mulligan_bottom": "103.5: cards put on the bottom after a mulligan",
    "draw": "121: a card is drawn (private_to the drawer when it names the card)",
    "draw_empty": "704.5b's cause: a player tried to draw from an empty library",
    "zone": "400.7: an object changes zones; zones gives (left, entered)",
    "play": "305.1: a land is played",
    "cast": "601.2i: a spell becomes cast",
    "activate": "602.2: an ability is activated",
    "face_up": "702.37e/116.2b: a face-down permanent is turned face up for its morph cost (a "
               "special action); subject: the permanent, the same object (708.8)",
    "reveal": "708.9: a face-down permanent or spell that leaves the battlefield or the stack is "
              "revealed to all; subject: its id there",
    "look": "400.2: a player looks at another player's hidden cards (private_to the looker, who "
            "is told their names)",
    "trigger": "603.3: a triggered ability is put on the stack",
    "trigger_removed": "603.8 and 603.4: a trigger that won't go on the stack is removed",
    "resolve": "608.2: a spell or ability resolves",
    "counter": "701.5 or 608.2b: a spell or ability is countered (or doesn't resolve)",
    "copy": "707.10: a copy of a spell is put onto the stack (refs: the spell copied, then the copy's "
            "targets), or gets new targets (707.10c)",
    "pay": "118.12: a player pays a cost a resolving spell or ability asks for (\"unless ... pays\")",
    "effect": "an effect of a resolving spell or ability that changes no zone, life or damage",
    "damage": "120: damage is dealt; refs gives (source, recipient)",
    "prevent": "615: damage is prevented",
    "life": "119: a life total changes (amount: the change)",
    "poison": "122: poison counters are given",
    "attack": "508.1: a creature is declared as an attacker; refs gives (attacker, attacked)",
    "block": "509.1: a creature is declared as a blocker; refs gives (blocker, attacker)",
    "tap": "701.26: a permanent becomes tapped by an effect",
    "destroy": "701.8: a permanent is destroyed",
    "sacrifice": "701.21: a permanent is sacrificed",
    "discard": "701.9: a card is discarded",
    "shuffle": "701.24: a library is shuffled",
    "scry": "701.22a: a player scries (amount: how many cards they looked at)",
    "venture": "701.49: a player ventures into the dungeon: a dungeon is put into their command "
               "zone, their venture marker enters a room (309.4c), or a dungeon is completed "
               "as they venture (309.7); subject: the dungeon",
    "token": "111: a token is created",
    "attach": "701.3: an Aura or Equipment becomes attached",
    "shield": "701.15a: a regeneration shield is created",
    "regenerate": "701.15: a regeneration shield is used",
    "replace": "614.6: a replacement effect applies",
    "sba": "704: a state-based action is performed",
    "lose": "104.3: a player loses the game",
    "leave": "800.4a: a player's cards leave the game with them",
    "game_over": "104.1: the game is over (text: how)",
    # What the coordinator does and sees (``Coordinator``).
    "priority": "117.1: a player receives priority and is asked; amount 1: no state-based action "
                "check was made before it, as nothing one reads had changed (704.3)",
    "pass": "117.3d: the player holding priority passes (its own answer)",
    "auto_pass": "117.3d: the engine passes for a player (it can only pass, or it has no stop "
                 "here); amount 1 as for priority",
    "refused": "a player's action or answer is refused as illegal (text: why); the state is unchanged",
    "malformed": ("a player's message can't be read or is out of place (text: why); the state is "
                  "unchanged. If it could not be read at all, the line's `bytes` holds what was sent"),
    "ordered": "603.3b: a player chose the order of simultaneous triggers; refs gives them in order",
    "forfeit": "a player leaves the game: its bot crashed, hung, broke the protocol or conceded",
})
"""The kinds of ``GameEvent``, each with its meaning: the one place they are registered."""


@dataclass(frozen=True, slots=True)
class GameEvent:
    """Engine→tracer only: something that happened in the game, for the trace; never sent to a
    seat. The kernel's events (a step begins, an attack, damage, a zone change, a state-based
    action, ...) are sent by the actor whose work caused them, the coordinator's own (a grant
    of priority, a pass, a refusal, a forfeit, a trigger order chosen) by the coordinator;
    each is numbered before the message that follows it (``docs/trace-format.md``)."""

    KIND: ClassVar[str] = "GameEvent"
    ROUTES: ClassVar[Routes] = (("coordinator", "tracer"), ("stack", "tracer"), ("sba", "tracer"))

    turn: int
    """The turn it happened in (0 before the first)."""
    step: str
    """The step it happened in (a name of ``rules.STEPS``)."""
    kind: str
    """What happened: one of ``GAME_EVENT_KINDS``' keys."""
    player: int
    """The seat it concerns, -1 for none."""
    text: str
    """A readable account."""
    subject: int = 0
    """The object id it concerns, 0 for none."""
    amount: int = 0
    """A number it carries (damage, life, counters, cards)."""
    refs: tuple[int, ...] = ()
    """Other objects (ids) and players (refs, seat + 1) it names, by kind: damage (source,
    recipient); block (blocker, attacker); attack (attacker, what it attacks); a trigger
    order (the triggers' ids in the order chosen)."""
    zones: tuple[str, ...] = ()
    """A zone change: (the zone left, the zone entered)."""
    private_to: tuple[int, ...] = ()
    """If not empty: only these seats could see it (it names a card hidden from the others);
    empty: public."""


Message: TypeAlias = (
    PriorityRequest
    | DecisionRequest
    | SubmitAction
    | SubmitAnswer
    | RequestFullView
    | SetStops
    | StopsSet
    | Accepted
    | Rejected
    | ErrorReply
    | Forfeit
    | Concede
    | CheckSBA
    | SBABatch
    | Resolve
    | Resolved
    | AskPlayer
    | PlayerReply
    | GameOver
    | GameEvent
)
"""Any inter-actor message: the one list of message classes (``MESSAGE_TYPES`` is read off it)."""

MESSAGE_TYPES: dict[str, type[Message]] = {cls.KIND: cls for cls in get_args(Message)}
"""Message class by ``KIND``: the registry of message kinds, read off ``Message``."""
