"""Priority (117): taking the actions players send (117.3c) and checking their answers, every
value read as what it may be (anything a player sends). Passing and the priority decision are
``_passing.py``'s; what the game needs next and the loop that performs it the driver's
(``_driver.py``: ``next_task``, ``GameLoop``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from operator import attrgetter

from ..base import IllegalActionError, InvalidMessageError, in_int64, quote
from ..casting import (
    activate_ability,
    begin_cast,
    play_land,
    turn_face_up,
    where,
)
from ..ending import CONCEDED, lose_game
from ..game import Game
from ..state import (
    DECISION_KINDS,
    FIRST_OBJECT_ID,
    Action,
    Answer,
    Decision,
    Proc,
    Reply,
    is_player_ref,
    seat_of_ref,
)
from ._combat import check_trample_division
from ._passing import record_pass

_FIELDS_USED: dict[str, tuple[str, ...]] = {
    "pass": (),
    "concede": (),
    "play": ("object_id", "face"),
    "cast": ("object_id", "targets", "x", "divide", "pay", "pay_as", "face", "modes", "costs"),
    "activate": ("object_id", "ability", "targets", "x", "pay", "pay_as"),
    "turn_face_up": ("object_id", "pay", "pay_as"),
}
"""The fields of an ``Action`` each kind reads; every other field must keep its default."""
_KIND_RULE = {"pass": "117.3d", "concede": "104.3a", "play": "305.1", "cast": "601.2",
              "activate": "602.2", "turn_face_up": "702.37e"}
_ACTION_DEFAULTS = Action("pass")
_ACTION_FIELDS = ("object_id", "ability", "targets", "x", "divide", "pay", "pay_as", "face",
                  "modes", "costs")
"""The fields of an ``Action`` besides its kind, in the order a refusal names them."""
# Typed as what it is for any number of names: typeshed's overloads say a tuple, which compiled
# code (mypyc) would check, and one name gives the value itself.
_getter: Callable[..., Callable[[Action], object]] = attrgetter
_UNUSED: dict[str, tuple[Callable[[Action], object], object]] = {
    kind: (_getter(*unused), _getter(*unused)(_ACTION_DEFAULTS))
    for kind, used in _FIELDS_USED.items()
    for unused in [tuple(n for n in _ACTION_FIELDS if n not in used)]}
"""For each kind: what reads the fields it does not use at once (``attrgetter``: a tuple, or
the one value) and what it reads on an action that leaves them at their defaults."""
_RULE = re.compile(r"[1-9][0-9]{2}(\.[0-9]+[a-z]?)?")
_PAY_AS_WORDS = frozenset({"W", "U", "B", "R", "G", "C", "life"})
"""What a ``pay_as`` entry may say besides a generic number (107.4e/f: a colour or 2 life)."""


def _action_shape(action: object) -> Action:
    """Refuse a priority reply whose fields have the wrong types (InvalidMessageError): the
    protocol guarantees them on the wire, but in-process callers hand the kernel anything."""
    if not isinstance(action, Action):
        raise InvalidMessageError(f"a priority decision needs an Action, got "
                                  f"{type(action).__name__}")
    if type(action.kind) is not str:
        raise InvalidMessageError(f"action.kind: expected str, got {quote(action.kind)}")
    # Each field read by name, and a tuple's items only when it has some: this runs for every
    # action a seat takes, most of them with few fields set (a loop over the names, each
    # through ``getattr``, and a generator per tuple cost several times more).
    if (type(action.object_id) is not int or type(action.ability) is not int
            or type(action.x) is not int):
        for name in ("object_id", "ability", "x"):
            if type(getattr(action, name)) is not int:
                raise InvalidMessageError(f"action.{name}: expected int, got "
                                          f"{type(getattr(action, name)).__name__} "
                                          f"{quote(getattr(action, name))}")
    if type(action.face) is not str:
        raise InvalidMessageError(f"action.face: expected str, got {quote(action.face)}")
    _tuple_of(action.targets, "targets", int)
    _tuple_of(action.pay, "pay", int)
    _tuple_of(action.pay_as, "pay_as", str)
    _tuple_of(action.modes, "modes", int)
    _tuple_of(action.costs, "costs", str)
    divide = action.divide
    if type(divide) is not tuple or (divide and any(
            type(p) is not tuple or len(p) != 2 or type(p[0]) is not int or type(p[1]) is not int
            for p in divide)):
        raise InvalidMessageError(f"action.divide: expected a tuple of (int, int) pairs, got "
                                  f"{quote(divide)}")
    return action


def _tuple_of(value: object, name: str, item: type) -> None:
    """Refuse ``action.<name>`` unless it is a tuple of ``item``."""
    if type(value) is not tuple or (value and any(type(v) is not item for v in value)):
        raise InvalidMessageError(f"action.{name}: expected a tuple of {item.__name__}, "
                                  f"got {quote(value)}")


def _refuse(game: Game, rule: str, text: str) -> IllegalActionError:
    """The refusal of an action by ``rule``, saying where the game is."""
    return IllegalActionError(f"{rule}: {text} ({where(game)})")


def _check_references(game: Game, seat: int, action: Action) -> None:
    """Refuse, before any rule looks at the action, every field the kind does not use and
    every value that can name nothing in this game: ints beyond the protocol's range,
    target refs that are neither a seat of this game nor an object id, object ids below
    ``FIRST_OBJECT_ID``, a negative X, a ``pay_as`` word that names no way of paying.

    Whether an object id names an object where the action needs it is left to the rule that
    needs it, which answers the same for a hidden id and one that never existed (400.2).
    """
    st = game.state
    kind = action.kind
    rule = _KIND_RULE.get(kind)
    if rule is None:
        raise InvalidMessageError(f"unknown action kind {quote(kind)}; expected one of "
                                  f"{', '.join(_FIELDS_USED)}")

    # The fields the kind does not use, read at once (``_UNUSED``) and compared with their
    # defaults as one tuple; only a mismatch looks at them one by one, for the message.
    unused, defaults = _UNUSED[kind]
    if unused(action) != defaults:
        used = _FIELDS_USED[kind]
        for name in _ACTION_FIELDS:
            value = getattr(action, name)
            if name not in used and value != getattr(_ACTION_DEFAULTS, name):
                why = "601.2d" if name == "divide" else rule
                raise _refuse(game, why, f"a {kind} action takes no {name}, got {quote(value)}")
    # Every int in range (the usual action's are: one test each, and the list of what each
    # one is made only to name the one that is not).
    if not (in_int64(action.object_id) and in_int64(action.ability) and in_int64(action.x)
            and (not action.targets or all(map(in_int64, action.targets)))
            and (not action.pay or all(map(in_int64, action.pay)))
            and (not action.modes or all(map(in_int64, action.modes)))
            and (not action.divide or all(in_int64(v) for pair in action.divide for v in pair))):
        ints = [(rule, "object_id", action.object_id), ("602.2", "ability", action.ability),
                ("601.2b", "X", action.x)]
        ints += [("115.1", "target", t) for t in action.targets]
        ints += [("601.2g", "pay entry", p) for p in action.pay]
        ints += [("601.2b", "mode", m) for m in action.modes]
        ints += [("601.2d", "divide entry", v) for pair in action.divide for v in pair]
        for why, name, value in ints:
            if not in_int64(value):
                raise _refuse(game, why, f"{name} {quote(value)} is out of range")
    if kind in ("play", "cast", "activate", "turn_face_up") and action.object_id < FIRST_OBJECT_ID:
        raise _refuse(game, rule, f"{action.object_id} is not an object id (objects are numbered "
                     f"from {FIRST_OBJECT_ID})")
    n = len(st.players)
    for t in action.targets:
        if is_player_ref(t):
            if seat_of_ref(t) >= n:
                raise _refuse(game, "115.1", f"target {t} names no player: this game's players are "
                             f"1 to {n}")
        elif t < FIRST_OBJECT_ID:
            raise _refuse(game, "115.1", f"target {t} is neither a player (1 to {n}) nor an object id")
    if action.x < 0:
        raise _refuse(game, "601.2b", f"X must be 0 or more, got {action.x}")
    for p in action.pay:
        if p < FIRST_OBJECT_ID:
            raise _refuse(game, "601.2g", f"pay names {p}, which is not an object id")
    for entry in action.pay_as:
        if entry not in _PAY_AS_WORDS and not (entry.isdigit() and entry.isascii()
                                                and len(entry) <= 2):
            raise _refuse(game, "601.2h", f"pay_as entry {quote(entry)} is not a colour letter, a "
                         "generic number or 'life'")


def take_action(game: Game, seat: int, action: Action) -> Proc[object] | None:
    """Perform a priority action. Illegal actions raise IllegalActionError (malformed ones
    InvalidMessageError) and change nothing: every field is checked against this game before
    any rule runs (``_check_references``). Returns None, or, for an action taken whose end asks
    a question (614.12: a land played whose "as it enters" choice is asked), the procedure that
    finishes it, which the caller drives before anything else happens."""
    st = game.state
    _action_shape(action)
    if not 0 <= seat < len(st.players):
        raise IllegalActionError(f"102.1: seat {quote(seat)} is not a seat of this game")
    if st.game_over:
        raise IllegalActionError(f"104: the game is over ({st.end_reason})")
    _check_references(game, seat, action)
    if action.kind == "concede":
        lose_game(game, seat, CONCEDED)
        st.cycle = "check"
        return None
    if st.cycle != "priority":
        # 117.5: state-based actions and triggers are dealt with before anyone gets priority.
        raise IllegalActionError(f"117.5: nobody holds priority yet; the game is at {st.cycle!r} "
                                 f"({where(game)})")
    if seat != st.priority:
        raise IllegalActionError(f"117.1: {st.players[seat].name} does not hold priority "
                                 f"({where(game)})")
    if action.kind == "pass":
        record_pass(st, seat)
        return None
    rest: Proc[object] | None = None
    if action.kind == "cast":
        _, rest = begin_cast(game, seat, action)
    elif action.kind == "activate":
        activate_ability(game, seat, action)
    elif action.kind == "turn_face_up":
        turn_face_up(game, seat, action)  # 116.2b: a special action; it uses no stack
    else:
        rest = play_land(game, seat, action)
    # 117.3c: after taking an action a player receives priority again.
    st.passes = 0
    st.priority = seat
    st.cycle = "check"
    # What the action changed marks itself (``SBAChanges``): a land entering the battlefield
    # or a life payment does; a spell moved to the stack or mana spent does not.
    return rest


def _answer_shape(decision: Decision, reply: object) -> Answer:
    """Refuse an answer of the wrong type or with fields of the wrong types
    (InvalidMessageError), as the protocol would: in-process callers hand the kernel anything."""
    if not isinstance(reply, Answer) or decision.kind == "priority":
        raise InvalidMessageError(f"decision {decision.id} ({decision.kind}) needs an answer, "
                                  f"got {type(reply).__name__}")
    if type(reply.decision_id) is not int:
        raise InvalidMessageError(f"answer.decision_id: expected int, got "
                                  f"{quote(reply.decision_id)}")
    if type(reply.keys) is not tuple or any(type(k) is not int for k in reply.keys):
        raise InvalidMessageError(f"answer.keys: expected a tuple of int, got {quote(reply.keys)}")
    if type(reply.pairs) is not tuple or any(
            type(p) is not tuple or len(p) != 2 or type(p[0]) is not int or type(p[1]) is not int
            for p in reply.pairs):
        raise InvalidMessageError(f"answer.pairs: expected a tuple of (int, int) pairs, got "
                                  f"{quote(reply.pairs)}")
    if reply.decision_id != decision.id:
        raise InvalidMessageError(f"answer names decision {quote(reply.decision_id)}, but "
                                  f"decision {decision.id} is pending")
    return reply


def check_answer(decision: Decision, reply: Reply) -> Answer:
    """Check that an answer fits its decision's shape and options (not for priority): every
    key names one of the decision's options, and the field the kind does not use is empty
    (``keys`` for choose, order and yes/no; ``pairs`` for attackers, blockers and divide)."""
    reply = _answer_shape(decision, reply)
    # Every prompt starts with the rule that asks it ("509.1: declare blockers").
    head = decision.prompt.split(":", 1)[0]
    rule = head if _RULE.fullmatch(head) else "117.1"

    def refuse(text: str) -> IllegalActionError:
        return IllegalActionError(f"{rule}: decision {decision.id}: {text}")

    keys = {c.key: c for c in decision.choices}
    kind = decision.kind
    uses_pairs = kind in ("attackers", "blockers", "divide")
    unused = reply.keys if uses_pairs else reply.pairs
    if unused:
        field = "keys" if uses_pairs else "pairs"
        raise refuse(f"the {kind} decision takes no {field}, got {quote(unused)}")
    if kind in ("choose", "yes_no", "starting_player", "mulligan", "mulligan_bottom"):
        if len(set(reply.keys)) != len(reply.keys):
            raise refuse(f"choose distinct options, got {quote(reply.keys)}")
        if not decision.min <= len(reply.keys) <= decision.max:
            raise refuse(f"choose {decision.min} to {decision.max} options, got "
                         f"{len(reply.keys)}")
        bad = [k for k in reply.keys if k not in keys]
        if bad:
            raise refuse(f"no option {quote(bad[0])}")
    elif kind == "order":
        if sorted(reply.keys) != sorted(keys):
            raise refuse(f"order must list each option once, got {quote(reply.keys)}")
    elif kind in ("attackers", "blockers"):
        legal = set(decision.legal_pairs)
        firsts = [a for a, _ in reply.pairs]
        if len(set(firsts)) != len(firsts):
            raise refuse("a creature is declared twice")
        for a, b in reply.pairs:
            if (a, b) in legal:
                continue
            first = keys[a].name if a in keys else f"option {quote(a)}"
            second = keys[b].name if b in keys else f"option {quote(b)}"
            if kind == "attackers":
                raise IllegalActionError(f"508.1a: {first} can't attack {second}")
            # The prompt names the restriction that forbids it, if one does (509.1b).
            note = f"; {first} can't block: "
            why = (f" ({decision.prompt.split(note, 1)[1].split('; ', 1)[0]})"
                   if note in decision.prompt else "")
            raise IllegalActionError(f"509.1a: {first} can't block {second}{why}")
    elif kind == "divide":
        if any(k not in keys or amt < 0 for k, amt in reply.pairs):
            raise refuse(f"bad division {quote(reply.pairs)}")
        if sum(amt for _, amt in reply.pairs) != decision.max:
            raise refuse(f"the division must total {decision.max}")
        check_trample_division(decision, reply.pairs)
    else:  # the kernel asked something it has no rule for: its own bug, not the player's
        raise ValueError(f"decision {decision.id}: no check for a {kind!r} decision "
                         f"(DECISION_KINDS: {', '.join(DECISION_KINDS)})")
    return reply


def default_answer(decision: Decision) -> Reply:
    """The first legal answer in the order the options are listed: the fewest choices, the
    order as listed, no attackers or blockers, all damage to the first recipient, pass."""
    if decision.kind == "priority":
        return Action("pass")
    keys = tuple(c.key for c in decision.choices)
    if decision.kind == "order":
        return Answer(decision.id, keys)
    if decision.kind == "yes_no":
        return Answer(decision.id, (0,))
    if decision.kind in ("choose", "mulligan_bottom"):
        return Answer(decision.id, keys[: decision.min])
    if decision.kind == "starting_player":
        return Answer(decision.id, (decision.player,))  # the chooser takes the first turn
    if decision.kind == "mulligan":
        return Answer(decision.id, (keys[0],))  # keep
    if decision.kind == "divide":
        return Answer(decision.id, (), ((keys[0], decision.max),))
    if decision.kind in ("attackers", "blockers"):
        return Answer(decision.id)
    raise ValueError(f"decision {decision.id}: no default answer to a {decision.kind!r} decision "
                     f"(DECISION_KINDS: {', '.join(DECISION_KINDS)})")
