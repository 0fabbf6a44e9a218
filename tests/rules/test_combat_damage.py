"""Combat damage rules no required card shows alone, through the real actors, with test-only
cards: trample (702.19), first and double strike (702.7, 702.4, 510.4), damage divided among
several blockers (510.1c, current rules without damage assignment order), deathtouch damage
dealt as counters (704.5h); and the trample division driven on the kernel directly."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import trio

from spellstack.cards import load_card_file, load_cards
from spellstack.rules import (
    Answer,
    CombatState,
    Decision,
    Game,
    IllegalActionError,
    check_answer,
    combat_damage,
    player_ref,
)
from spellstack.scenarios import build_game, run_scenario

CARDS = {**load_cards(), **load_card_file(Path(__file__).with_name("test_only_cards.toml"))}


def scenario(attacker: str, blockers: list[str], steps: list[dict[str, Any]],
             defender_life: int = 20) -> dict[str, Any]:
    return {
        "title": "combat",
        "setup": {
            "players": ["alice", "bob"],
            "alice": {"battlefield": [{"card": attacker, "label": "a"}]},
            "bob": {"life": defender_life,
                    "battlefield": [{"card": b, "label": f"b{i}"} for i, b in enumerate(blockers)]},
        },
        "step": steps,
    }


def run(data: dict[str, Any]) -> None:
    trio.run(run_scenario, data, "test", CARDS)


def test_trample_assigns_lethal_to_the_blocker_and_the_rest_to_the_player() -> None:
    run(scenario("Test Trampler", ["Grizzly Bears"], [
        {"attack": {"a": "bob"}},
        {"block": {"b0": "a"}},
        {"by": "alice", "choose": [{"b0": 2, "bob": 3}]},
        {"advance": "end_of_combat",
         "expect": {"life": {"bob": 17}, "objects": {"b0": {"zone": "graveyard"}}}},
    ]))


def test_an_illegal_trample_split_is_refused_and_asked_again() -> None:
    # 702.19b: 5 to the player and none to the 2/2 blocker is not a legal assignment: it is
    # refused (not rewritten) and alice answers again.
    run(scenario("Test Trampler", ["Grizzly Bears"], [
        {"attack": {"a": "bob"}},
        {"block": {"b0": "a"}},
        {"by": "alice", "choose": [{"bob": 5}, {"b0": 3, "bob": 2}]},
        {"advance": "end_of_combat",
         "expect": {"life": {"bob": 18}, "objects": {"b0": {"zone": "graveyard"}}}},
    ]))


def test_trample_with_its_blocker_gone_assigns_everything_to_the_player() -> None:
    # 702.19e: a trampler whose blockers are all removed assigns all its damage to the player.
    run({
        "title": "trample, blocker gone",
        "setup": {
            "players": ["alice", "bob"],
            "alice": {"hand": ["Shock"], "battlefield": ["Mountain",
                                                        {"card": "Test Trampler", "label": "a"}]},
            "bob": {"battlefield": [{"card": "Grizzly Bears", "label": "b0"}]},
        },
        "step": [
            {"attack": {"a": "bob"}},
            {"block": {"b0": "a"}},
            {"cast": "Shock", "targets": ["b0"]},
            {"resolve": 1, "expect": {"objects": {"b0": {"zone": "graveyard"}}}},
            {"advance": "end_of_combat", "expect": {"life": {"bob": 15}}},
        ],
    })


def test_a_blocked_creature_without_trample_whose_blocker_is_gone_deals_no_damage() -> None:
    # 509.1h/506.4: it remains blocked.
    run({
        "title": "blocked, blocker gone",
        "setup": {
            "players": ["alice", "bob"],
            "alice": {"hand": ["Shock"], "battlefield": ["Mountain",
                                                        {"card": "Hill Giant", "label": "a"}]},
            "bob": {"battlefield": [{"card": "Savannah Lions", "label": "b0"}]},
        },
        "step": [
            {"attack": {"a": "bob"}},
            {"block": {"b0": "a"}},
            {"cast": "Shock", "targets": ["b0"]},
            {"resolve": 1},
            {"advance": "end_of_combat", "expect": {"life": {"bob": 20}}},
        ],
    })


def test_first_strike_kills_the_blocker_before_it_deals_damage() -> None:
    run(scenario("Test First Striker", ["Grizzly Bears"], [
        {"attack": {"a": "bob"}},
        {"block": {"b0": "a"}},
        {"advance": "first_strike_damage",
         "expect": {"objects": {"b0": {"zone": "graveyard"}, "a": {"damage": 0}}}},
        {"advance": "end_of_combat", "expect": {"objects": {"a": {"zone": "battlefield",
                                                                   "damage": 0}}}},
    ]))


def test_double_strike_deals_damage_in_both_steps() -> None:
    run(scenario("Test Double Striker", [], [
        {"attack": {"a": "bob"}},
        {"advance": "first_strike_damage", "expect": {"life": {"bob": 18}}},
        {"advance": "combat_damage", "expect": {"life": {"bob": 16}}},
    ]))


def test_two_blockers_divide_the_attackers_damage_as_its_controller_chooses() -> None:
    run(scenario("Hill Giant", ["Savannah Lions", "Savannah Lions"], [
        {"attack": {"a": "bob"}},
        {"block": {"b0": "a", "b1": "a"}},
        {"by": "alice", "choose": [{"b0": 1, "b1": 2}]},
        {"advance": "end_of_combat",
         "expect": {"objects": {"b0": {"zone": "graveyard"}, "b1": {"zone": "graveyard"},
                                "a": {"zone": "graveyard"}}, "life": {"bob": 20}}},
    ]))


def test_deathtouch_damage_dealt_as_counters_still_destroys() -> None:
    # 704.5h: infect deals damage to a creature as -1/-1 counters (702.90c); it is still damage
    # from a deathtouch source, so the 3/3 (a 2/2 after the counter) is destroyed.
    run(scenario("Test Deathtouch Infector", ["Hill Giant"], [
        {"attack": {"a": "bob"}},
        {"block": {"b0": "a"}},
        {"advance": "end_of_combat",
         "expect": {"objects": {"b0": {"zone": "graveyard"}, "a": {"zone": "graveyard"}}}},
    ]))


# ------------------------------------------------------------- the kernel, driven directly


def combat_damage_game(attackers: list[str], blocker: str) -> tuple[Game, list[int], int]:
    """alice's ``attackers`` all attack bob and are all blocked by bob's ``blocker`` (set up
    directly: no card in the pool blocks several creatures), at the combat damage step."""
    setup = {"players": ["alice", "bob"], "step": "combat_damage",
             "alice": {"battlefield": attackers}, "bob": {"battlefield": [blocker]}}
    game, _ = build_game(setup, 0, CARDS, "test")
    st = game.state
    ids = [o.id for o in game.controlled(0)]
    wall = game.controlled(1)[0].id
    st.combat = CombatState(attackers=dict.fromkeys(ids, player_ref(1)),
                            blockers={wall: list(ids)}, blocked={a: [wall] for a in ids})
    return game, ids, wall


def key_of(decision: Decision, ref: int) -> int:
    return next(c.key for c in decision.choices if c.ref == ref)


def test_trample_lethal_counts_damage_other_attackers_assign_to_the_blocker() -> None:
    # 702.19b: Hill Giant assigns 3 to the 2/4 Giant Spider, so 1 more is lethal and the
    # trampler may assign the other 4 to bob (whatever the order they attack in).
    game, (trampler, _giant), spider = combat_damage_game(["Test Trampler", "Hill Giant"],
                                                          "Giant Spider")
    proc = combat_damage(game, first=False)
    decision = next(proc)
    assert decision.kind == "divide" and decision.max == 5
    bob = key_of(decision, player_ref(1))
    with pytest.raises(StopIteration):
        proc.send(check_answer(decision, Answer(decision.id, (),
                                                ((key_of(decision, spider), 1), (bob, 4)))))
    st = game.state
    assert st.players[1].life == 16
    assert st.objects[spider].damage == 4
    assert trampler in st.objects
    assert decision.lethal == ((key_of(decision, spider), 1),)


def test_trample_refusal_names_the_rule_and_changes_nothing() -> None:
    game, _, bears = combat_damage_game(["Test Trampler"], "Grizzly Bears")
    proc = combat_damage(game, first=False)
    decision = next(proc)
    before = game.state.state_hash()
    bob = key_of(decision, player_ref(1))
    short = Answer(decision.id, (), ((key_of(decision, bears), 1), (bob, 4)))
    with pytest.raises(IllegalActionError, match=r"702\.19b.*Grizzly Bears.*lethal damage \(2\)"):
        check_answer(decision, short)
    assert game.state.state_hash() == before
    # Asked again, a legal answer goes through: all five to the blocker is legal too.
    with pytest.raises(StopIteration):
        proc.send(check_answer(decision, Answer(decision.id, (), ((key_of(decision, bears), 5),))))
    assert game.state.players[1].life == 20


def test_the_combat_procedure_itself_refuses_an_unchecked_illegal_split() -> None:
    game, _, _bears = combat_damage_game(["Test Trampler"], "Grizzly Bears")
    proc = combat_damage(game, first=False)
    decision = next(proc)
    before = game.state.state_hash()
    with pytest.raises(IllegalActionError, match=r"702\.19b"):
        proc.send(Answer(decision.id, (), ((key_of(decision, player_ref(1)), 5),)))
    assert game.state.state_hash() == before
