"""The test kit, ``spellstack.testing``: a ``Table`` means what the same ``[setup]`` means in a
scenario file (equal state hashes), it never changes once made, and its helpers fail where a
test should."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from spellstack.cards import load_cards, load_deck
from spellstack.rules import (
    Action,
    Answer,
    Decision,
    Reply,
    new_game,
    player_ref,
    resolve_top,
    run_proc,
    take_action,
)
from spellstack.scenarios import ScenarioError, build_game
from spellstack.testing import Card, Table, deck_game, no_questions, scripted, to_priority

SCENARIOS = Path(__file__).parent / "scenarios"

EVERYTHING = """
players = ["alice", "bob"]
turn = 4
step = "beginning_of_combat"
priority = "bob"

[alice]
life = 7
poison = 3
mana = "{R}{G}"
lands_played = 1
library = ["Forest", "Island"]
hand = ["Shock"]
graveyard = ["Divination"]
exile = [{ card = "Hill Giant", face_down = true }]
battlefield = [
    { card = "Mountain", tapped = true },
    { card = "Grizzly Bears", label = "bears", damage = 1, counters = { "+1/+1" = 2 }, sick = true },
    { card = "Bonesplitter", attached_to = "bears" },
    { token = "Treasure" },
]

[bob]
battlefield = [{ card = "Giant Spider", owner = "alice", label = "spider" }]
"""
"""A setup with every kind of thing a Table can say."""


def everything() -> Table:
    """``EVERYTHING``, said through ``Table``'s methods."""
    return (Table("alice", "bob", turn=4, step="beginning_of_combat", priority="bob")
            .player("alice", life=7, poison=3, mana="{R}{G}", lands_played=1)
            .library("alice", "Forest", "Island")
            .hand("alice", "Shock")
            .graveyard("alice", "Divination")
            .exile("alice", Card("Hill Giant", face_down=True))
            .battlefield("alice", Card("Mountain", tapped=True),
                         Card("Grizzly Bears", label="bears", damage=1, counters={"+1/+1": 2},
                              sick=True),
                         Card("Bonesplitter", attached_to="bears"), Card("Treasure", token=True))
            .battlefield("bob", Card("Giant Spider", owner="alice", label="spider")))


# ------------------------------------------------------------------ the same as a scenario


def test_a_table_and_the_same_scenario_setup_give_equal_state_hashes() -> None:
    setup = tomllib.loads(EVERYTHING)
    table = everything()
    assert table.setup() == setup
    from_scenario, labels = build_game(setup, 0, load_cards(), "test")
    game = table.game()
    assert game.state.state_hash() == from_scenario.state.state_hash()
    st = game.state
    assert (st.turn, st.step, st.active, st.priority) == (4, "beginning_of_combat", 0, 1)
    assert (st.players[0].life, st.players[0].poison, st.players[0].mana) == (7, 3, {"R": 1, "G": 1})
    bears, spider = table.obj(game, "bears"), table.obj(game, "spider")
    assert (bears.damage, dict(bears.counters), bears.sick, bears.tapped) == (1, {"+1/+1": 2}, True, False)
    assert (spider.owner, spider.controller) == (0, 1)
    assert bears.card == labels["bears"]
    # The comparison can fail: one thing different, a different hash.
    assert everything().player("alice", life=8).game().state.state_hash() != st.state_hash()
    assert table.game(history=True).history == []


def test_a_scenario_files_setup_as_a_table_gives_the_same_game() -> None:
    data = tomllib.loads((SCENARIOS / "704.5n-equipment-falls-off-land.toml").read_text())
    table = (Table("alice", "bob").hand("alice", "Naturalize")
             .battlefield("alice", "Forest", "Forest", Card("Nature's Revolt", label="revolt"),
                          Card("Mountain", label="m"), Card("Bonesplitter", label="bs", attached_to="m")))
    assert table.setup() == data["setup"]
    game, _ = build_game(data["setup"], data.get("seed", 0), load_cards(), "test")
    assert table.game().state.state_hash() == game.state.state_hash()
    assert Table.from_setup(data["setup"]).game().state.state_hash() == game.state.state_hash()


def test_a_table_never_changes_and_each_step_makes_a_new_one() -> None:
    base = Table("alice", "bob")
    with_bears = base.battlefield("alice", "Grizzly Bears")
    assert base.setup() == {"players": ["alice", "bob"]}
    assert with_bears.setup() == {"players": ["alice", "bob"], "alice": {"battlefield": ["Grizzly Bears"]}}
    assert base.when(step="end").setup()["step"] == "end" and "step" not in base.setup()
    assert base.game().state.battlefield == []


def test_seats_follow_the_order_the_players_are_named_and_the_first_is_active() -> None:
    table = Table("ben", "ann").hand("ann", "Shock")
    assert (table.seat("ben"), table.seat("ann")) == (0, 1)
    game = table.at_priority()
    assert game.state.active == 0 and game.state.players[1].name == "ann"
    assert [game.state.objects[o].name for o in game.state.players[1].hand] == ["Shock"]


def test_a_label_follows_its_card_to_another_zone() -> None:
    table = Table("alice", "bob").hand("alice", Card("Shock", label="shock")).battlefield(
        "alice", "Mountain", "Mountain")
    game = table.at_priority()
    take_action(game, 0, Action("cast", table.obj(game, "shock").id, targets=(player_ref(1),)))
    assert table.obj(game, "shock").zone == "stack"
    with pytest.raises(KeyError, match="'nothing'"):
        table.obj(game, "nothing")


def test_bad_tables_are_refused_naming_what_is_wrong() -> None:
    with pytest.raises(ValueError, match="'carol' is not a player"):
        Table("alice", "bob").hand("carol", "Shock")
    with pytest.raises(ValueError, match="'carol' is not a player"):
        Table("alice", "bob").seat("carol")
    # What build_game refuses in a scenario file, it refuses in a table.
    with pytest.raises(ScenarioError, match=r"setup\.alice\.hand"):
        Table("alice", "bob").hand("alice", "No Such Card").game()
    with pytest.raises(ScenarioError, match=r"setup\.step: 'cleanup'"):
        Table("alice", "bob", step="cleanup").game()


# ------------------------------------------------------------------ answers and priority


def two_legends() -> Table:
    """Alice controls two Isamarus: the legend rule asks her which to keep (704.5j)."""
    return Table("alice", "bob").battlefield(
        "alice", Card("Isamaru, Hound of Konda", label="old"),
        Card("Isamaru, Hound of Konda", label="new"))


def test_no_questions_fails_on_any_question() -> None:
    with pytest.raises(AssertionError, match="unexpected question to seat 0: choose"):
        two_legends().at_priority()


def test_scripted_answers_are_taken_in_order_by_name() -> None:
    table = two_legends()
    game = table.game()
    script = scripted(["Isamaru, Hound of Konda"])
    decision = to_priority(game, script)
    script.done()
    assert decision.kind == "priority" and decision.player == 0
    assert [d.kind for d in script.asked] == ["choose"]
    kept = [o for o in game.state.objects.values() if o.name == "Isamaru, Hound of Konda"]
    assert [o.zone for o in kept] == ["battlefield", "graveyard"]


def test_a_script_fails_when_it_runs_out_or_has_answers_left() -> None:
    with pytest.raises(AssertionError, match="no scripted answer left for seat 0's choose"):
        to_priority(two_legends().game(), scripted())
    script = scripted(["Isamaru, Hound of Konda"], "yes")
    to_priority(two_legends().game(), script)
    with pytest.raises(AssertionError, match=r"scripted answers not taken: \['yes'\]"):
        script.done()
    with pytest.raises(AssertionError, match="'Grizzly Bears' is none of the choices"):
        to_priority(two_legends().game(), scripted("Grizzly Bears"))


def test_a_script_takes_keys_answers_functions_and_passes() -> None:
    seen: list[Decision] = []

    def first(decision: Decision) -> Reply:
        seen.append(decision)
        return Answer(decision.id, (decision.choices[0].key,))

    for answer in (first, 0, [0]):
        game = two_legends().game()
        to_priority(game, scripted(answer))
        assert sum(o.zone == "graveyard" for o in game.state.objects.values()) == 1
    assert len(seen) == 1
    passing = scripted(passes=True)
    assert passing(to_priority(two_legends().game(), scripted(0))) == Action("pass")
    assert passing.left == []


def test_to_priority_does_state_based_actions_first_and_nothing_else() -> None:
    game = Table("alice", "bob").battlefield("alice", Card("Grizzly Bears", damage=2)).game()
    decision = to_priority(game)
    assert decision.player == 0
    assert [game.state.objects[o].name for o in game.state.players[0].graveyard] == ["Grizzly Bears"]
    # Both players pass: the step would end. That is not for to_priority to do.
    take_action(game, 0, Action("pass"))
    to_priority(game)
    take_action(game, 1, Action("pass"))
    with pytest.raises(AssertionError, match="the kernel's next task is 'advance', not priority"):
        to_priority(game)


def test_to_priority_puts_triggers_on_the_stack() -> None:
    # Fiend Hunter's enter trigger targets: the one creature it could exile is chosen alone.
    table = Table("alice", "bob").hand("alice", "Fiend Hunter").battlefield(
        "alice", "Plains", "Plains", "Plains").battlefield("bob", "Grizzly Bears")
    game = table.at_priority()
    hunter = game.state.players[0].hand[0]
    take_action(game, 0, Action("cast", hunter))
    for seat in (0, 1):
        to_priority(game)
        take_action(game, seat, Action("pass"))
    run_proc(resolve_top(game), no_questions)
    to_priority(game)
    assert [game.state.objects[o].name for o in game.state.stack] == ["Fiend Hunter"]
    assert game.state.objects[game.state.stack[0]].zone == "stack"


# ------------------------------------------------------------------ games from decks


def test_deck_game_is_new_game_with_the_decks_loaded() -> None:
    cards = load_cards()
    game = deck_game("gruul", "orzhov", seed=7)
    same = new_game(cards, [("alice", load_deck("gruul", cards).cards),
                            ("bob", load_deck("orzhov", cards).cards)], 7)
    assert game.state.state_hash() == same.state.state_hash()
    bears = deck_game(["Grizzly Bears"] * 40, ["Grizzly Bears"] * 40, names=("Ann", "Ben"), seed=3)
    assert [p.name for p in bears.state.players] == ["Ann", "Ben"]
    assert {o.name for o in bears.state.objects.values()} == {"Grizzly Bears"}
    assert deck_game("gruul", "orzhov", seed=8).state.state_hash() != game.state.state_hash()
    with pytest.raises(ValueError, match="2 decks but 3 names"):
        deck_game("gruul", "orzhov", names=("a", "b", "c"))
