"""Combat damage rules no required card shows alone, through the real actors, with test-only
cards: trample (702.19), first and double strike (702.7, 702.4, 510.4), damage divided among
several blockers (510.1c, current rules without damage assignment order)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import trio

from spellstack.cards import load_card_file, load_cards
from spellstack.scenarios import run_scenario

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


def test_trample_over_assignment_is_corrected_to_lethal_first() -> None:
    # 702.19b: 5 to the player and none to the 2/2 blocker is not a legal assignment.
    run(scenario("Test Trampler", ["Grizzly Bears"], [
        {"attack": {"a": "bob"}},
        {"block": {"b0": "a"}},
        {"by": "alice", "choose": [{"bob": 5}]},
        {"advance": "end_of_combat",
         "expect": {"life": {"bob": 17}, "objects": {"b0": {"zone": "graveyard"}}}},
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
