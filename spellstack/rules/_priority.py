"""Priority (117) and the priority cycle: what the game needs next, and taking actions.

``next_task`` is the one place that sequences a game: state-based actions and triggers before
any player receives priority (117.5, 704.3, 603.3), priority, resolving when all players pass
in succession (117.4, 608.1), moving to the next step. Whoever drives the kernel (the
coordinator actor, or ``play_sync`` in tests) performs the task it names.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

from ._casting import activate_ability, cast_spell, legal_actions, play_land, where
from ._decisions import Action, Answer, Decision, Proc, Reply
from ._errors import IllegalActionError, InvalidMessageError
from ._game import Game
from ._resolution import resolve_top
from ._sba import lose_game, state_based_actions
from ._triggers import place_triggers
from ._turn import advance, end_turn

__all__ = [
    "Task",
    "check_answer",
    "default_answer",
    "next_task",
    "play_sync",
    "priority_decision",
    "run_proc",
    "take_action",
]

Task = Literal["check_sba", "place_triggers", "priority", "resolve", "advance", "end_turn",
               "game_over"]


def next_task(game: Game) -> Task:
    """What must happen next."""
    st = game.state
    if st.game_over:
        return "game_over"
    if st.cycle == "check":
        if st.dirty:
            return "check_sba"
        if st.pending_triggers:
            return "place_triggers"
        if st.step == "cleanup" and not st.cleanup_acted:
            return "end_turn"
        return "priority"
    if st.cycle in ("priority", "resolve", "advance", "end_turn"):
        return st.cycle  # type: ignore[return-value]
    raise AssertionError(f"unknown cycle {st.cycle!r}")


def after_sba(game: Game, events_count: int) -> None:
    """Note the outcome of a state-based action check."""
    st = game.state
    if events_count and st.step == "cleanup":
        st.cleanup_acted = True  # 514.3a


def after_triggers(game: Game, placed: bool) -> None:
    """Note that triggers were put on the stack (players will get priority in cleanup)."""
    st = game.state
    if placed and st.step == "cleanup":
        st.cleanup_acted = True
    st.dirty = True


def priority_decision(game: Game) -> Decision:
    """117.1: the priority decision for the player who holds priority now."""
    st = game.state
    seat = st.priority
    st.cycle = "priority"
    st.decisions += 1
    return Decision(st.decisions, seat, "priority",
                    f"117.1: {st.players[seat].name}, you have priority ({st.step})",
                    actions=legal_actions(game, seat))


def take_action(game: Game, seat: int, action: Action) -> str:
    """Perform a priority action; returns what it was. Illegal actions raise
    IllegalActionError and change nothing."""
    st = game.state
    if st.game_over:
        raise IllegalActionError(f"104: the game is over ({st.end_reason})")
    if action.kind == "concede":
        lose_game(game, seat, "conceded (104.3a)")
        st.cycle = "check"
        return "concede"
    if st.cycle != "priority":
        # 117.5: state-based actions and triggers are dealt with before anyone gets priority.
        raise IllegalActionError(f"117.5: nobody holds priority yet; the game is at {st.cycle!r} "
                                 f"({where(game)})")
    if seat != st.priority:
        raise IllegalActionError(f"117.1: {st.players[seat].name} does not hold priority "
                                 f"({where(game)})")
    if action.kind == "pass":
        # 117.3d/117.4: pass; when all players pass in succession, resolve or move on.
        st.passes += 1
        if st.passes >= len(st.living_seats()):
            st.cycle = "resolve" if st.stack else "advance"
        else:
            st.priority = st.next_seat(seat)
            st.cycle = "check"
        return "pass"
    if action.kind == "cast":
        cast_spell(game, seat, action)
    elif action.kind == "activate":
        activate_ability(game, seat, action)
    elif action.kind == "play":
        play_land(game, seat, action)
    else:
        raise InvalidMessageError(f"unknown action kind {action.kind!r}")
    # 117.3c: after taking an action a player receives priority again.
    st.passes = 0
    st.priority = seat
    st.cycle = "check"
    st.dirty = True
    return action.kind


def check_answer(decision: Decision, reply: Reply) -> Answer:
    """Check that an answer fits its decision's shape and options (not for priority)."""
    if isinstance(reply, Action) or decision.kind == "priority":
        raise InvalidMessageError(f"decision {decision.id} ({decision.kind}) needs an answer, "
                                  f"got {type(reply).__name__}")
    if reply.decision_id != decision.id:
        raise InvalidMessageError(f"answer names decision {reply.decision_id}, but decision "
                                  f"{decision.id} is pending")
    keys = {c.key: c for c in decision.choices}
    kind = decision.kind
    if kind in ("choose", "yes_no"):
        if reply.pairs or len(set(reply.keys)) != len(reply.keys):
            raise IllegalActionError(f"decision {decision.id}: choose distinct options, got "
                                     f"{reply.keys!r}")
        if not decision.min <= len(reply.keys) <= decision.max:
            raise IllegalActionError(f"decision {decision.id}: choose {decision.min} to "
                                     f"{decision.max} options, got {len(reply.keys)}")
        bad = [k for k in reply.keys if k not in keys]
        if bad:
            raise IllegalActionError(f"decision {decision.id}: no option {bad[0]}")
    elif kind == "order":
        if sorted(reply.keys) != sorted(keys):
            raise IllegalActionError(f"decision {decision.id}: order must list each option "
                                     f"once, got {reply.keys!r}")
    elif kind in ("attackers", "blockers"):
        legal = set(decision.legal_pairs)
        firsts = [a for a, _ in reply.pairs]
        if len(set(firsts)) != len(firsts):
            raise IllegalActionError(f"decision {decision.id}: a creature is declared twice")
        for a, b in reply.pairs:
            if (a, b) in legal:
                continue
            if kind == "attackers":
                what = keys[a].name if a in keys else f"option {a}"
                raise IllegalActionError(f"508.1a: {what} can't attack "
                                         f"{keys[b].name if b in keys else f'option {b}'}")
            blocker = keys[a].name if a in keys else f"option {a}"
            attacker = keys[b].name if b in keys else f"option {b}"
            raise IllegalActionError(f"509.1a: {blocker} can't block {attacker}")
    elif kind == "divide":
        if any(k not in keys or amt < 0 for k, amt in reply.pairs):
            raise IllegalActionError(f"decision {decision.id}: bad division {reply.pairs!r}")
        if sum(amt for _, amt in reply.pairs) != decision.max:
            raise IllegalActionError(f"decision {decision.id}: the division must total "
                                     f"{decision.max}")
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
    if decision.kind == "choose":
        return Answer(decision.id, keys[: decision.min])
    if decision.kind == "divide":
        return Answer(decision.id, (), ((keys[0], decision.max),))
    return Answer(decision.id)


def run_proc(proc: Proc[object], answer: Callable[[Decision], Reply]) -> object:
    """Drive a kernel procedure synchronously, answering each decision with ``answer``."""
    try:
        decision = next(proc)
        while True:
            reply = check_answer(decision, answer(decision))
            decision = proc.send(reply)
    except StopIteration as stop:
        return stop.value


def play_sync(game: Game, answer: Callable[[Decision], Reply],
              on_action: Callable[[Game], None] | None = None, max_tasks: int = 1_000_000,
              *, until: Callable[[Game, Task], bool] | None = None) -> None:
    """Play a game to its end without actors (tests, and the reference for the coordinator).

    ``until``: stop before performing the first task for which it returns True.
    """
    for _ in range(max_tasks):
        task = next_task(game)
        if task == "game_over" or (until is not None and until(game, task)):
            return
        if task == "check_sba":
            events = run_proc(state_based_actions(game), answer)
            assert isinstance(events, tuple)
            after_sba(game, len(events))
        elif task == "place_triggers":
            placed = run_proc(place_triggers(game), answer)
            after_triggers(game, bool(placed))
        elif task == "priority":
            decision = priority_decision(game)
            reply = answer(decision)
            assert isinstance(reply, Action)
            take_action(game, decision.player, reply)
        elif task == "resolve":
            run_proc(resolve_top(game), answer)
        elif task == "advance":
            run_proc(advance(game), answer)
        elif task == "end_turn":
            run_proc(end_turn(game), answer)
        if on_action is not None:
            on_action(game)
    raise RuntimeError(f"game did not end within {max_tasks} tasks"
                       + (" or reach the stop condition" if until is not None else ""))
