"""Attachments (301.5, 303.4, 701.3) and their state-based actions (704.5m, 704.5n, 704.5p,
704.5y), with test-only Equipment and Role cards where no pool card shows the rule alone."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from spellstack.cards import load_card_file, load_cards
from spellstack.rules import (
    Action,
    Answer,
    Decision,
    Game,
    GameObject,
    IllegalActionError,
    default_answer,
    legal_actions,
    move_object,
    play_sync,
    priority_decision,
    resolve_top,
    run_proc,
    state_based_actions,
    take_action,
)
from spellstack.scenarios import build_game

CARDS = {**load_cards(), **load_card_file(Path(__file__).with_name("test_only_cards.toml"))}


def setup(alice: dict[str, Any], bob: dict[str, Any] | None = None,
          step: str = "precombat_main") -> Game:
    game, _ = build_game({"players": ["alice", "bob"], "step": step, "alice": alice,
                          "bob": bob or {}}, 0, CARDS, "test")
    return game


def to_priority(game: Game) -> Game:
    play_sync(game, default_answer, max_tasks=20, until=lambda g, task: task == "priority")
    priority_decision(game)
    return game


def named(game: Game, name: str) -> GameObject:
    return next(o for o in game.state.objects.values() if o.name == name)


def artifacts(decision: Decision) -> Answer:
    """Answer Apostle's Blessing's question with its first option, ``artifacts``."""
    assert decision.kind == "choose" and decision.choices[0].name == "artifacts"
    return Answer(decision.id, (0,))


def sba(game: Game) -> None:
    run_proc(state_based_actions(game), default_answer)


def test_an_aura_spell_needs_a_target_it_could_enchant() -> None:
    game = to_priority(setup({"hand": ["Pacifism"], "battlefield": ["Plains", "Plains", "Forest"]},
                             {"battlefield": ["Hill Giant"]}))
    pacifism, giant, forest = named(game, "Pacifism"), named(game, "Hill Giant"), named(game, "Forest")
    option = next(o for o in legal_actions(game, 0) if o.kind == "cast")
    assert option.targets[0].candidates == (giant.id,)  # 303.4a: enchant creature
    for targets in ((), (forest.id,)):
        with pytest.raises(IllegalActionError, match=r"601\.2c"):
            take_action(game, 0, Action("cast", pacifism.id, targets=targets))


def test_an_aura_spell_whose_target_left_goes_to_the_graveyard() -> None:
    game = to_priority(setup({"hand": ["Pacifism"], "battlefield": ["Plains", "Plains"]},
                             {"battlefield": ["Hill Giant"]}))
    take_action(game, 0, Action("cast", named(game, "Pacifism").id,
                                targets=(named(game, "Hill Giant").id,)))
    move_object(game, named(game, "Hill Giant").id, "hand")
    run_proc(resolve_top(game), default_answer)
    assert named(game, "Pacifism").zone == "graveyard"  # 608.2b: it doesn't resolve


def test_an_aura_attached_to_nothing_or_to_what_left_goes_to_the_graveyard() -> None:
    game = setup({"battlefield": [{"card": "Grizzly Bears", "label": "b"},
                                  {"card": "Pacifism", "attached_to": "b"}, "Pacifism"]})
    sba(game)  # 704.5m: the unattached one
    assert sorted(o.zone for o in game.state.objects.values() if o.name == "Pacifism") == [
        "battlefield", "graveyard"]
    move_object(game, named(game, "Grizzly Bears").id, "hand")
    sba(game)
    assert [o.zone for o in game.state.objects.values() if o.name == "Pacifism"] == [
        "graveyard", "graveyard"]


def test_equip_only_as_a_sorcery_then_attaches() -> None:
    alice = {"battlefield": ["Plains", "Plains", "Grizzly Bears", "Test Plain Equipment"]}
    upkeep = to_priority(setup(alice, step="upkeep"))
    eq, bears = named(upkeep, "Test Plain Equipment"), named(upkeep, "Grizzly Bears")
    assert [o.kind for o in legal_actions(upkeep, 0)] == ["pass"]
    with pytest.raises(IllegalActionError, match=r"602\.5d"):
        take_action(upkeep, 0, Action("activate", eq.id, 1, (bears.id,)))
    game = to_priority(setup(alice))
    eq, bears = named(game, "Test Plain Equipment"), named(game, "Grizzly Bears")
    take_action(game, 0, Action("activate", eq.id, 1, (bears.id,)))
    run_proc(resolve_top(game), default_answer)
    assert eq.attached_to == bears.id


def test_equip_can_target_only_a_creature_you_control() -> None:
    game = to_priority(setup({"battlefield": ["Plains", "Test Plain Equipment"]},
                             {"battlefield": ["Hill Giant"]}))
    with pytest.raises(IllegalActionError, match=r"601\.2c"):
        take_action(game, 0, Action("activate", named(game, "Test Plain Equipment").id, 1,
                                    (named(game, "Hill Giant").id,)))


def test_equipment_on_a_noncreature_becomes_unattached_and_stays() -> None:
    game = setup({"battlefield": [{"card": "Forest", "label": "f"},
                                  {"card": "Test Plain Equipment", "attached_to": "f"}]})
    sba(game)  # 704.5n
    eq = named(game, "Test Plain Equipment")
    assert (eq.zone, eq.attached_to) == ("battlefield", 0)


def test_an_attached_creature_becomes_unattached() -> None:
    game = setup({"battlefield": [{"card": "Grizzly Bears", "label": "b"},
                                  {"card": "Test Equipment Creature", "attached_to": "b"}]})
    sba(game)  # 704.5p
    golem = named(game, "Test Equipment Creature")
    assert (golem.zone, golem.attached_to) == ("battlefield", 0)


def test_only_the_newest_role_of_one_player_stays() -> None:
    game = setup({"battlefield": [{"card": "Grizzly Bears", "label": "b"},
                                  {"token": "Test Role", "attached_to": "b"},
                                  {"token": "Test Role", "attached_to": "b"}]},
                 {"battlefield": [{"token": "Test Role", "owner": "bob", "attached_to": "b"}]})
    roles = [o for o in game.state.objects.values() if o.name == "Test Role"]
    sba(game)  # 704.5y: alice's older Role goes; bob's is another player's and stays
    left = [o for o in game.state.objects.values() if o.name == "Test Role"
            and o.zone == "battlefield"]
    assert sorted(o.id for o in left) == sorted([roles[1].id, roles[2].id])


def test_protection_from_artifacts_makes_equipment_fall_off() -> None:
    game = to_priority(setup({"hand": ["Apostle's Blessing"],
                              "battlefield": ["Plains", "Plains", {"card": "Grizzly Bears",
                                                                   "label": "b"},
                                              {"card": "Test Plain Equipment",
                                               "attached_to": "b"}]}))
    bears = named(game, "Grizzly Bears")
    take_action(game, 0, Action("cast", named(game, "Apostle's Blessing").id,
                                targets=(bears.id,)))
    run_proc(resolve_top(game), artifacts)
    assert "protection from artifacts" in game.keywords(bears)
    sba(game)  # 702.16d, 704.5n
    assert named(game, "Test Plain Equipment").attached_to == 0
