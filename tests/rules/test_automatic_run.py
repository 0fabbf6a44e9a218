"""``run_automatic``: the automatic passes (117.3d) and the step changes that ask nobody (117.4,
500.2, 514.3) in one call, performing exactly what the task-by-task loop performs, and stopping
where someone is needed: a seat left to its caller or one that can act, a state-based action
check (704.3), triggers to put on the stack (603.3), a question a turn-based action asks."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from spellstack.cards import load_cards
from spellstack.rules import (
    AutoRun,
    Decision,
    Game,
    Proc,
    Task,
    advance,
    automatic_pass,
    check_answer,
    default_answer,
    end_turn,
    next_task,
    play_sync,
    priority_decision,
    run_automatic,
    run_proc,
)
from spellstack.scenarios import build_game

CARDS = load_cards()
BOTH = (True, True)


def game_with(alice: dict[str, Any], bob: dict[str, Any] | None = None, step: str = "upkeep",
              turn: int = 2, priority: str = "alice") -> Game:
    game, _ = build_game({"players": ["alice", "bob"], "step": step, "turn": turn,
                          "priority": priority, "alice": alice, "bob": bob or {}}, 0, CARDS,
                         "test")
    # The first state-based action check (everything is new), as any game starts.
    play_sync(game, default_answer, max_tasks=5, until=lambda g, task: task == "priority")
    return game


def one_task_at_a_time(game: Game, auto: Sequence[bool], task: Task) -> tuple[list[int], Task]:
    """The same tasks performed one per step of the loop, as the coordinator performed them
    before ``run_automatic``: ``automatic_pass`` for each grant, ``advance``/``end_turn``
    driven to their end (these games ask nothing in them)."""
    passed: list[int] = []
    while True:
        if task == "priority":
            seat = game.state.priority
            if not auto[seat] or not automatic_pass(game, seat):
                return passed, task
            passed.append(seat)
        elif task in ("advance", "end_turn"):
            run_proc(advance(game) if task == "advance" else end_turn(game), default_answer)
        else:
            return passed, task
        task = next_task(game)


def finish(rest: Proc[None], decision: Decision) -> None:
    """Drive a started procedure to its end, answering as ``one_task_at_a_time`` does."""
    try:
        while True:
            decision = rest.send(check_answer(decision, default_answer(decision)))
    except StopIteration:
        pass


def same_game(a: Game, b: Game) -> None:
    assert a.state.state_hash() == b.state.state_hash()
    assert (a.state.decisions, a.state.cycle) == (b.state.decisions, b.state.cycle)


def test_the_steps_nobody_acts_in_pass_as_one_task_at_a_time() -> None:
    # Nothing to do but pass: a card nobody can pay for in hand; one card left in each library.
    setup = {"hand": ["Giant Growth"], "library": ["Giant Growth"]}
    game, reference = game_with(setup, setup), game_with(setup, setup)
    task = next_task(game)
    run = run_automatic(game, BOTH, task)
    passed, stop = one_task_at_a_time(reference, BOTH, next_task(reference))
    assert run == AutoRun(tuple(passed), stop)
    same_game(game, reference)
    # Through alice's turn and bob's, each player passing in each step that has priority
    # (upkeep, draw, both main phases, beginning of combat, declare attackers, end of combat,
    # end: 508.8 skips the rest), until alice draws from her empty library: 704.3, the check.
    st = game.state
    assert (run.task, st.turn, st.step, st.active) == ("check_sba", 4, "draw", 0)
    assert run.passed == (0, 1) * 8 + (1, 0) * 8 + (0, 1)


def test_a_seat_left_to_the_caller_stops_it_at_its_grant() -> None:
    game = game_with({}, {}, step="end")
    run = run_automatic(game, (True, False), next_task(game))
    assert run == AutoRun((0,), "priority")
    assert (game.state.priority, game.state.step, next_task(game)) == (1, "end", "priority")


def test_a_seat_that_can_act_stops_it_with_nothing_changed() -> None:
    game = game_with({"hand": ["Grizzly Bears"], "battlefield": ["Forest", "Forest"]}, {},
                     step="precombat_main")
    before = game.state.state_hash()
    run = run_automatic(game, BOTH, next_task(game))
    assert run == AutoRun((), "priority", can_act=True)
    assert game.state.state_hash() == before
    assert len(priority_decision(game).actions) > 1  # 117.1: it may cast the Bears


def test_a_turn_based_action_that_asks_is_handed_back_started() -> None:
    bears = {"battlefield": [{"card": "Grizzly Bears", "sick": False}], "library": ["Forest"]}
    game = game_with(bears, {"library": ["Forest"]}, step="beginning_of_combat")
    reference = game_with(bears, {"library": ["Forest"]}, step="beginning_of_combat")
    run = run_automatic(game, BOTH, next_task(game))
    assert (run.passed, run.task) == ((0, 1), "advance")
    assert run.rest is not None and run.decision is not None
    assert (run.decision.kind, run.decision.player, game.state.step) == (
        "attackers", 0, "declare_attackers")  # 508.1, asked before anything else happens
    finish(run.rest, run.decision)  # no attackers
    # From there on, as one task at a time (which answers the same question the same way).
    again = run_automatic(game, BOTH, next_task(game))
    passed, stop = one_task_at_a_time(reference, BOTH, next_task(reference))
    assert (list(run.passed + again.passed), again.task) == (passed, stop)
    same_game(game, reference)


def test_a_trigger_at_the_beginning_of_a_step_stops_it_before_priority() -> None:
    felidar = {"battlefield": [{"card": "Felidar Sovereign", "sick": False}], "life": 40,
               "library": ["Forest"]}
    game = game_with(felidar, {"library": ["Giant Growth"]}, step="end", turn=1, priority="bob")
    run = run_automatic(game, BOTH, next_task(game))
    # Alice's end step (bob holds priority), her cleanup, bob's turn, then at the beginning of
    # alice's upkeep her Sovereign triggers: 603.3, put on the stack before anyone gets priority.
    st = game.state
    assert (run.task, st.turn, st.step, len(st.pending_triggers)) == ("place_triggers", 3,
                                                                        "upkeep", 1)
    assert run.passed == (1, 0) + (1, 0) * 8  # bob passes first in his own turn's 8 steps
