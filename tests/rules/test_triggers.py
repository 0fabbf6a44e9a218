"""Triggered abilities through the real actors, with test-only cards where no required card
shows the rule: dies triggers and look-back (603.6c, 603.10a), simultaneous triggers ordered by
their controllers in APNAP order (603.3b), targets chosen as a trigger is put on the stack
(603.3d)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import trio

from spellstack.cards import load_card_file, load_cards
from spellstack.scenarios import ScenarioFailure, run_scenario

CARDS = {**load_cards(), **load_card_file(Path(__file__).with_name("test_only_cards.toml"))}
DRAWER = "ability: Test Dies Drawer"


def run(data: dict[str, Any]) -> None:
    trio.run(run_scenario, {"title": "triggers", **data}, "test", CARDS)


def zenith_kills_three(order: list[str]) -> dict[str, Any]:
    return {
        "setup": {
            "players": ["alice", "bob"],
            "alice": {"hand": ["Black Sun's Zenith"], "library": ["Island", "Island", "Island"],
                      "battlefield": ["Swamp", "Swamp", "Swamp",
                                      {"card": "Test Dies Drawer", "label": "a1"},
                                      {"card": "Test Dies Drawer", "label": "a2"}]},
            "bob": {"library": ["Forest", "Forest"],
                    "battlefield": [{"card": "Test Dies Drawer", "label": "b1"}]},
        },
        "step": [
            {"cast": "Black Sun's Zenith", "x": 1},
            {"by": "alice", "choose": [order]},
            # 603.3b: alice's two go on the stack first (in her order), then bob's: his is on top.
            {"resolve": 1, "expect": {"stack": [DRAWER, DRAWER, DRAWER],
                                       "graveyard": {"alice": ["Test Dies Drawer"] * 2,
                                                     "bob": ["Test Dies Drawer"]}}},
            {"resolve": 1, "expect": {"hand_count": {"alice": 0, "bob": 1}, "stack_count": 2}},
            {"resolve": "all", "expect": {"hand_count": {"alice": 2, "bob": 1}}},
        ],
    }


def test_simultaneous_dies_triggers_are_ordered_and_stacked_in_apnap_order() -> None:
    run(zenith_kills_three([DRAWER, DRAWER]))


def test_the_order_must_name_each_trigger_once() -> None:
    with pytest.raises(ScenarioFailure, match="not a legal answer"):
        run(zenith_kills_three([DRAWER, DRAWER, DRAWER]))


def test_a_creature_returned_to_hand_does_not_die() -> None:
    run({
        "setup": {
            "players": ["alice", "bob"],
            "alice": {"hand": ["Unsummon"], "battlefield": ["Island",
                                                           {"card": "Test Dies Drawer",
                                                            "label": "d"}]},
        },
        "step": [
            {"cast": "Unsummon", "targets": ["d"]},
            {"resolve": 1, "expect": {"stack": [], "hand": {"alice": ["Test Dies Drawer"]}}},
        ],
    })


def test_an_attack_trigger_targets_as_it_goes_on_the_stack() -> None:
    run({
        "setup": {
            "players": ["alice", "bob"],
            "alice": {"battlefield": [{"card": "Test Attack Pinger", "label": "p"}]},
            "bob": {"battlefield": [{"card": "Grizzly Bears", "label": "bears"}]},
        },
        "step": [
            {"by": "alice", "choose": ["bob"]},
            {"attack": {"p": "bob"}, "expect": {"stack": ["ability: Test Attack Pinger"]}},
            {"resolve": 1, "expect": {"life": {"bob": 19}}},
            {"advance": "end_of_combat", "expect": {"life": {"bob": 18}}},
        ],
    })
