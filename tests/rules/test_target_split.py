"""601.2c: a flat target list is matched to the requirements in order, and an "up to one"
requirement may take none when a later requirement needs the target."""

from __future__ import annotations

from pathlib import Path

import pytest
import trio

from spellstack.cards import load_card_file, load_cards
from spellstack.scenarios import ScenarioFailure, run_scenario

CARDS = {**load_cards(), **load_card_file(Path(__file__).with_name("test_only_cards.toml"))}


def run(targets: list[str], expect: dict[str, object] | None = None) -> None:
    data = {
        "title": "split",
        "setup": {
            "players": ["alice", "bob"],
            "alice": {"hand": ["Test Split Decision"], "battlefield": ["Mountain"]},
            "bob": {"battlefield": [{"card": "Savannah Lions", "label": "lions"},
                                    {"card": "Grizzly Bears", "label": "bears"}]},
        },
        "step": [
            {"cast": "Test Split Decision", "targets": targets},
            {"resolve": 1, "expect": expect or {}},
        ],
    }
    trio.run(run_scenario, data, "test", CARDS)


def test_one_target_goes_to_the_requirement_that_needs_it() -> None:
    # Lions (2/1) take 1 damage and survive only if they got +1/+1 too; here they get no bonus.
    run(["lions"], {"objects": {"lions": {"zone": "graveyard"},
                                         "bears": {"power": 2, "damage": 0}}})


def test_two_targets_fill_both_requirements_in_order() -> None:
    run(["bears", "lions"], {"objects": {"lions": {"zone": "graveyard"},
                                                  "bears": {"power": 3, "toughness": 3}}})


def test_the_same_creature_may_be_named_once_for_each_word_target() -> None:
    # 115.3: +1/+1 and then 1 damage to the same Lions: a 3/2 with 1 damage survives.
    run(["lions", "lions"], {"objects": {"lions": {"zone": "battlefield",
                                                            "damage": 1, "power": 3}}})


def test_too_many_targets_are_refused() -> None:
    with pytest.raises(ScenarioFailure, match=r"601\.2c"):
        run(["lions", "bears", "lions"])
