"""Leaving a multiplayer game (800.4): what leaves with the player, in 800.4a's order; a turn
without an active player (800.4j); passes of a player who left don't count (117.4). Games of
three and four players, built from scenario setups and driven on the kernel directly, and one
through the real actors (a forfeit, as the coordinator performs it)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import trio

from spellstack.actors import SeatConfig, play_game
from spellstack.cards import load_cards
from spellstack.rules import (
    Action,
    Answer,
    Decision,
    DelayedTrigger,
    Game,
    PendingTrigger,
    PlayerView,
    Reply,
    advance,
    create_object,
    default_answer,
    lose_game,
    new_game,
    next_task,
    play_sync,
    player_ref,
    priority_decision,
    resolve_top,
    run_proc,
    take_action,
)
from spellstack.scenarios import build_game

CARDS = load_cards()
ALICE, BOB, CAROL, DAVE = 0, 1, 2, 3
NAMES = ["alice", "bob", "carol", "dave"]


def game_with(n: int, step: str = "precombat_main", **players: dict[str, Any]) -> Game:
    setup: dict[str, Any] = {"players": NAMES[:n], "step": step, **players}
    game, _ = build_game(setup, 0, CARDS, "test")
    return game


def to_priority(game: Game, answer: Callable[[Decision], Reply] = default_answer) -> Decision:
    """Play on (state-based actions, triggers, steps) to the next grant of priority."""
    play_sync(game, answer, max_tasks=200, until=lambda g, task: task == "priority")
    return priority_decision(game)


def owned_by(game: Game, seat: int) -> list[str]:
    return [o.name for o in game.state.objects.values() if o.owner == seat]


# ---------------------------------------------------------------------- 800.4a: objects


def test_everything_the_leaver_owns_leaves_the_game_from_every_zone() -> None:
    game = game_with(3, bob={"library": ["Island", "Island"], "hand": ["Shock"],
                             "graveyard": ["Divination"], "exile": ["Unsummon"],
                             "battlefield": ["Grizzly Bears", "Mountain"]},
                     alice={"battlefield": ["Forest", {"card": "Hill Giant", "owner": "bob"}]})
    st = game.state
    take_action(game, BOB, Action("concede"))
    assert st.players[BOB].lost and not st.game_over
    assert owned_by(game, BOB) == []
    p = st.players[BOB]
    assert (p.library, p.hand, p.graveyard) == ([], [], [])
    # Owned by bob, controlled by alice: it leaves too; alice keeps her own Forest.
    assert [st.objects[i].name for i in st.battlefield] == ["Forest"]
    assert st.exile == []


def test_what_the_leaver_controls_but_does_not_own_is_exiled() -> None:
    game = game_with(4, bob={"battlefield": ["Grizzly Bears",
                                             {"card": "Hill Giant", "owner": "carol"}]})
    st = game.state
    giant = next(o for o in st.objects.values() if o.name == "Hill Giant")
    take_action(game, BOB, Action("concede"))
    assert st.battlefield == []
    assert [(st.objects[i].name, st.objects[i].owner, st.objects[i].controller)
            for i in st.exile] == [("Hill Giant", CAROL, CAROL)]
    assert giant.id not in st.objects  # it is a new object in exile (400.7)


def test_the_leavers_spells_and_abilities_leave_the_stack_and_a_spell_they_control_is_exiled() -> None:
    game = game_with(3, alice={"hand": ["Shock"], "battlefield": ["Mountain"]},
                     bob={"battlefield": ["Grizzly Bears"]})
    st = game.state
    shock = st.players[ALICE].hand[0]
    assert to_priority(game).player == ALICE
    take_action(game, ALICE, Action("cast", shock, targets=(player_ref(CAROL),)))
    # Direct state: a spell bob controls but carol owns, and an ability bob controls.
    borrowed = create_object(game, "Lightning Bolt", CAROL, "stack", controller=BOB)
    ability = create_object(game, "Grizzly Bears", BOB, "stack")
    ability.ability_kind, ability.ability_index, ability.card = "activated", 1, 0
    bears = st.battlefield[0]
    st.pending_triggers.append(PendingTrigger(BOB, bears, "Grizzly Bears", 1))
    st.pending_triggers.append(PendingTrigger(CAROL, bears, "Grizzly Bears", 1))
    st.delayed_triggers.append(DelayedTrigger(900, BOB, bears, "Grizzly Bears", 1,
                                              "end_of_combat", ("Grizzly Bears", 1, 0)))
    lose_game(game, BOB, "test")
    assert [st.objects[i].name for i in st.stack] == ["Shock"]  # alice's spell stays
    assert borrowed.id not in st.objects and ability.id not in st.objects
    assert [(st.objects[i].name, st.objects[i].owner) for i in st.exile] == [
        ("Lightning Bolt", CAROL)]
    assert [t.controller for t in st.pending_triggers] == [CAROL]
    assert st.delayed_triggers == []


def test_a_leaving_blocker_is_removed_from_combat_and_the_attacker_stays_blocked() -> None:
    game = game_with(3, step="beginning_of_combat", alice={"battlefield": ["Hill Giant"]},
                     bob={"battlefield": ["Grizzly Bears"]})
    st = game.state
    giant, bears = st.battlefield

    def answer(decision: Decision) -> Reply:
        keys = {c.ref: c.key for c in decision.choices}
        if decision.kind == "attackers":
            return Answer(decision.id, (), ((keys[giant], keys[player_ref(BOB)]),))
        if decision.kind == "blockers":
            return Answer(decision.id, (), ((keys[bears], keys[giant]),))
        return default_answer(decision)

    play_sync(game, answer, max_tasks=200, until=lambda g, task: task == "priority"
              and g.state.step == "declare_blockers")
    assert st.combat is not None and st.combat.blockers == {bears: [giant]}
    take_action(game, BOB, Action("concede"))
    assert st.combat.blockers == {} and st.combat.blocked == {giant: [bears]}
    play_sync(game, answer, max_tasks=200, until=lambda g, task: g.state.step == "end_of_combat")
    # 509.1h: still blocked, no trample: it deals no damage, and nobody was hit.
    assert st.players[CAROL].life == 20 and st.objects[giant].damage == 0


# ------------------------------------------------------------ 117.4: passes that don't count


def cast_shock_at(game: Game, target: int) -> None:
    st = game.state
    shock = st.players[ALICE].hand[0]
    assert to_priority(game).player == ALICE
    take_action(game, ALICE, Action("cast", shock, targets=(target,)))


def test_the_pass_of_a_player_who_left_does_not_count() -> None:
    game = game_with(4, alice={"hand": ["Shock"], "battlefield": ["Mountain"]})
    st = game.state
    cast_shock_at(game, player_ref(DAVE))
    for seat in (ALICE, BOB):
        assert to_priority(game).player == seat
        take_action(game, seat, Action("pass"))
    assert to_priority(game).player == CAROL
    lose_game(game, BOB, "test")  # bob passed, then left
    assert to_priority(game).player == CAROL
    take_action(game, CAROL, Action("pass"))
    # Only alice and carol of the three left have passed: dave gets priority, nothing resolves.
    assert next_task(game) != "resolve"
    assert to_priority(game).player == DAVE
    assert st.players[DAVE].life == 20
    take_action(game, DAVE, Action("pass"))
    assert next_task(game) == "resolve"


def test_when_the_priority_holder_leaves_and_everyone_else_passed_the_top_resolves() -> None:
    game = game_with(3, alice={"hand": ["Shock"], "battlefield": ["Mountain"]})
    st = game.state
    cast_shock_at(game, player_ref(BOB))
    for seat in (ALICE, BOB):
        assert to_priority(game).player == seat
        take_action(game, seat, Action("pass"))
    assert to_priority(game).player == CAROL
    take_action(game, CAROL, Action("concede"))
    # 800.4a: priority would pass to alice, but all players still in the game have passed.
    play_sync(game, default_answer, max_tasks=50,
              until=lambda g, task: task in ("resolve", "priority"))
    assert next_task(game) == "resolve" and st.players[BOB].life == 20


def test_when_the_priority_holder_leaves_priority_passes_to_the_next_player() -> None:
    game = game_with(4, priority="bob")
    take_action(game, BOB, Action("concede"))
    assert game.state.priority == CAROL
    assert to_priority(game).player == CAROL


# ------------------------------------------------------------ 800.4j: no active player


def test_the_turn_goes_on_without_an_active_player_who_left() -> None:
    game = game_with(3, alice={"battlefield": ["Grizzly Bears"], "hand": ["Shock"] * 9},
                     bob={"library": ["Island"] * 3}, carol={"library": ["Island"] * 3})
    st = game.state
    asked: list[tuple[int, str, str, int]] = []

    def answer(decision: Decision) -> Reply:
        asked.append((st.turn, st.step, decision.kind, decision.player))
        return default_answer(decision)

    assert to_priority(game, answer).player == ALICE
    take_action(game, ALICE, Action("concede"))
    play_sync(game, answer, max_tasks=500,
              until=lambda g, task: task == "priority" and g.state.turn == 2
              and g.state.step == "precombat_main")
    assert st.active == BOB  # the next turn is the next player's
    turn_one = [(step, kind, seat) for turn, step, kind, seat in asked if turn == 1]
    assert all(seat != ALICE for _, _, seat in turn_one)
    assert not any(kind == "attackers" for _, kind, _ in turn_one)  # nobody attacks for her
    # In each step that gives priority, bob gets it first and carol too before it ends.
    for step in ("beginning_of_combat", "declare_attackers", "end_of_combat", "postcombat_main",
                 "end"):
        assert [seat for s, kind, seat in turn_one if s == step and kind == "priority"] == [
            BOB, CAROL], step
    assert st.players[ALICE].hand == []  # (her cards left the game; nobody discarded them)


def test_the_active_player_leaving_while_declaring_attackers_leaves_no_attack() -> None:
    # What the coordinator does when the asked player forfeits: the player loses during the
    # decision and the procedure goes on. 508.8: no attackers were declared.
    game = game_with(3, step="beginning_of_combat", alice={"battlefield": ["Grizzly Bears"]},
                     bob={"battlefield": ["Grizzly Bears"]})
    st = game.state

    def answer(decision: Decision) -> Reply:
        if decision.kind == "attackers":
            lose_game(game, ALICE, "forfeited: test")
            return Answer(decision.id, (), (decision.legal_pairs[0],))
        return default_answer(decision)

    run_proc(advance(game), answer)
    assert st.step == "declare_attackers" and st.combat is not None
    assert st.combat.attackers == {} and not st.combat.attackers_declared
    assert to_priority(game, answer).player == BOB


def test_attackers_declared_then_the_active_player_leaves_blockers_step_still_happens() -> None:
    # 508.8 and 800.4j together: creatures were declared as attackers, so the declare blockers
    # step happens although they have all left (with alice), and bob gets its priority.
    game = game_with(3, step="beginning_of_combat", alice={"battlefield": ["Grizzly Bears"]})
    st = game.state

    def answer(decision: Decision) -> Reply:
        if decision.kind == "attackers":
            return Answer(decision.id, (), (decision.legal_pairs[0],))
        return default_answer(decision)

    run_proc(advance(game), answer)
    assert st.combat is not None and list(st.combat.attackers) == st.battlefield
    assert to_priority(game, answer).player == ALICE
    take_action(game, ALICE, Action("concede"))
    for seat in (BOB, CAROL):
        assert to_priority(game, answer).player == seat
        take_action(game, seat, Action("pass"))
    assert to_priority(game, answer).player == BOB
    assert st.step == "declare_blockers"


# ------------------------------------------------------------ through the actors


class Recorder:
    """A policy that passes and declares nothing, noting every decision; it raises (and so
    forfeits, as the player actor reports) at a chosen one."""

    def __init__(self, log: list[tuple[int, str, str, int]], fail_at: str = "") -> None:
        self.log = log
        self.fail_at = fail_at

    async def decide(self, view: PlayerView, decision: Decision) -> Reply:
        self.log.append((view.turn, view.step, decision.kind, decision.player))
        if decision.kind == self.fail_at and view.step == "precombat_main":
            raise RuntimeError("this seat gives up")
        return default_answer(decision)

    def notify(self, msg: object) -> None:
        pass


async def test_a_forfeit_through_the_coordinator_lets_the_others_play_on() -> None:
    decks = [["Island"] * 30, ["Mountain"] * 30, ["Forest"] * 30]
    game = new_game(CARDS, list(zip(["alice", "bob", "carol"], decks, strict=True)), seed=3,
                    turn_limit=4)
    log: list[tuple[int, str, str, int]] = []
    policies = [Recorder(log, fail_at="priority"), Recorder(log), Recorder(log)]
    configs = [SeatConfig(auto_pass=False, timeout=60.0)] * 3
    with trio.fail_after(60):
        result = await play_game(game, policies, configs=configs)
    st = game.state
    assert result.forfeits and result.forfeits[0][0] == "alice"
    # Both players still in the game pass before alice's turn 1 end step ends; nobody passes
    # for her. Then the next turn is bob's.
    end_of_turn_one = [seat for turn, step, kind, seat in log
                       if (turn, step, kind) == (1, "end", "priority")]
    assert end_of_turn_one == [BOB, CAROL]
    assert [seat for turn, step, kind, seat in log if turn == 2][:1] == [BOB]
    assert st.players[ALICE].lost and owned_by(game, ALICE) == []
    assert result.turns == 4 and not st.players[BOB].lost and not st.players[CAROL].lost


# ------------------------------------------------------------ leaving during a resolution


def mind_rot_game() -> Game:
    game = game_with(3, alice={"hand": ["Mind Rot", "Island", "Forest", "Plains"],
                               "battlefield": ["Swamp", "Swamp", "Swamp"]},
                     bob={"hand": ["Island", "Forest", "Plains"]})
    assert to_priority(game).player == ALICE
    return game


def leave_when_asked_to_discard(game: Game, seat: int) -> Callable[[Decision], Reply]:
    def answer(decision: Decision) -> Reply:
        if decision.kind == "choose" and decision.player == seat:
            lose_game(game, seat, "forfeited: test")  # as the coordinator does on a forfeit
        return default_answer(decision)
    return answer


def test_a_player_who_leaves_while_discarding_for_a_spell_takes_their_hand() -> None:
    game = mind_rot_game()
    st = game.state
    take_action(game, ALICE, Action("cast", st.players[ALICE].hand[0],
                                    targets=(player_ref(BOB),)))
    run_proc(resolve_top(game), leave_when_asked_to_discard(game, BOB))
    assert st.players[BOB].lost and owned_by(game, BOB) == []
    assert [st.objects[i].name for i in st.players[ALICE].graveyard] == ["Mind Rot"]
    assert st.priority == ALICE and to_priority(game).player == ALICE


def test_the_active_player_leaving_during_their_own_spell_gives_priority_to_the_next() -> None:
    # 800.4j: after the resolution the active player would receive priority; they have left.
    game = mind_rot_game()
    st = game.state
    take_action(game, ALICE, Action("cast", st.players[ALICE].hand[0],
                                    targets=(player_ref(ALICE),)))
    run_proc(resolve_top(game), leave_when_asked_to_discard(game, ALICE))
    assert st.players[ALICE].lost and owned_by(game, ALICE) == [] and st.stack == []
    assert st.priority == BOB and to_priority(game).player == BOB
