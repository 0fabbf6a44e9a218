"""608.2g: a spell cast while another spell or ability resolves (Electrodominance) follows
601.2a-i, its choices asked as questions in the order of 601.2b-d; nobody receives priority
until the resolving object has finished; "whenever you cast" abilities trigger; a restriction to
a sorcery's timing stops it; an illegal attempt is rewound and the resolution goes on."""

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
    IllegalActionError,
    Reply,
    default_answer,
    legal_actions,
    play_sync,
    player_ref,
    resolve_top,
    run_proc,
    take_action,
)
from spellstack.rules.casting import cast_spell
from spellstack.rules.state import ResolutionCast
from tests.rules.scenario_games import at_first_priority

CARDS = {**load_cards(), **load_card_file(Path(__file__).with_name("test_only_cards.toml"))}
MOUNTAINS = ["Mountain"] * 4


def game_with(alice: dict[str, list[str]], bob: dict[str, list[str]] | None = None) -> Game:
    return at_first_priority({"players": ["alice", "bob"], "alice": alice, "bob": bob or {}},
                             CARDS)


def card(game: Game, name: str) -> int:
    return next(o.id for o in game.state.objects.values() if o.name == name)


def names(game: Game, ids: list[int]) -> list[str]:
    return [game.state.objects[i].name for i in ids]


class Script:
    """Answers questions from a list of choice names (a list for several, a dict for a
    division), passes every priority, and records each question with the stack as it was."""

    def __init__(self, game: Game, answers: list[Any]) -> None:
        self.game = game
        self.answers = list(answers)
        self.asked: list[tuple[str, str, list[str]]] = []
        """Each question: its kind, its prompt, the stack's names as it was asked."""
        self.choices: list[list[str]] = []
        """Each question's choices, by name."""

    def __call__(self, decision: Decision) -> Reply:
        self.asked.append((decision.kind, decision.prompt,
                           names(self.game, self.game.state.stack)))
        self.choices.append([c.name for c in decision.choices])
        if decision.kind == "priority":
            return Action("pass")
        raw = self.answers.pop(0)
        by_name = {c.name: c.key for c in decision.choices}
        if decision.kind == "divide":
            return Answer(decision.id, (), tuple((by_name[k], n) for k, n in raw.items()))
        if decision.kind == "yes_no":
            return Answer(decision.id, (1 if raw == "yes" else 0,))
        if raw == "no":
            return Answer(decision.id, ())
        return Answer(decision.id, tuple(by_name[n] for n in (raw if isinstance(raw, list)
                                                              else [raw])))


def resolve(game: Game, answers: list[Any]) -> Script:
    """Resolve the top of the stack, answering with ``answers``; all of them must be used."""
    script = Script(game, answers)
    run_proc(resolve_top(game), script)
    assert not script.answers, f"answers left: {script.answers}"
    return script


def cast_electrodominance(game: Game, x: int) -> None:
    take_action(game, 0, Action("cast", card(game, "Electrodominance"), targets=(player_ref(1),),
                                x=x))
    play_sync(game, default_answer, max_tasks=20, until=lambda g, task: task == "priority")


def test_nobody_receives_priority_between_the_cast_and_the_end_of_the_resolution() -> None:
    game = game_with({"hand": ["Electrodominance", "Shock"], "battlefield": MOUNTAINS})
    cast_electrodominance(game, 2)
    st = game.state
    script = Script(game, ["Shock", "bob"])
    play_sync(game, script, max_tasks=200, until=lambda g, task: st.resolutions >= 1
              and task == "priority" and bool(st.stack))
    # Every question of the resolution was asked with Electrodominance still on the stack,
    # and no priority among them: the first priority after it sees Shock alone (608.2g).
    during = [(kind, stack) for kind, _, stack in script.asked if "Electrodominance" in stack]
    assert [kind for kind, _ in during] == ["priority", "priority", "choose", "choose"]
    assert all(stack == ["Electrodominance"] for _, stack in during)
    assert names(game, st.stack) == ["Shock"]
    assert names(game, st.players[0].graveyard) == ["Electrodominance"]
    assert st.players[1].life == 18
    assert st.priority == 0  # 117.3b: the active player, once the resolution is over


def test_the_questions_come_in_the_order_of_601_2b_to_d() -> None:
    # Fire // Ice: the card, the half (601.3e), the targets (601.2c), the division (601.2d).
    game = game_with({"hand": ["Electrodominance", "Fire // Ice"], "battlefield": MOUNTAINS},
                     {"battlefield": ["Grizzly Bears"]})
    cast_electrodominance(game, 2)
    script = resolve(game, ["Fire // Ice", "Fire", ["Grizzly Bears", "bob"],
                            {"Grizzly Bears": 1, "bob": 1}])
    assert [(kind, prompt.split(":", 1)[0]) for kind, prompt, _ in script.asked] == [
        ("choose", "608.2g"), ("choose", "601.3e"), ("choose", "601.2c"), ("divide", "601.2d")]
    spell = game.state.objects[game.state.stack[-1]]
    assert spell.name == "Fire" and spell.cast_costs == ("free",)
    assert sorted(n for _, n in spell.divide) == [1, 1]
    # Burst Lightning: the card, the optional costs as one question (601.2b), the target.
    game = game_with({"hand": ["Electrodominance", "Burst Lightning"],
                      "battlefield": MOUNTAINS * 2},
                     {"battlefield": ["Grizzly Bears"]})
    cast_electrodominance(game, 1)
    script = resolve(game, ["Burst Lightning", ["kicker"], "bob"])
    assert [(kind, prompt.split(":", 1)[0]) for kind, prompt, _ in script.asked] == [
        ("choose", "608.2g"), ("choose", "601.2b"), ("choose", "601.2c")]
    spell = game.state.objects[game.state.stack[-1]]
    assert spell.cast_costs == ("free", "kicker")
    # 601.2f: Electrodominance's {1}{R}{R}, then the kicker's {4}, and nothing for the {R}.
    assert [o.tapped for o in map(game.state.objects.__getitem__, game.state.battlefield)
            if o.name == "Mountain"] == [True] * 7 + [False]


def test_a_spell_with_mana_value_above_x_is_not_offered_and_is_refused() -> None:
    game = game_with({"hand": ["Electrodominance", "Shock", "Doom Blade", "Rolling Thunder"],
                      "battlefield": [*MOUNTAINS, "Swamp"]},
                     {"battlefield": ["Grizzly Bears"]})
    cast_electrodominance(game, 1)
    st = game.state
    # Cast straight through cast_spell as Electrodominance would let it be: refused, nothing
    # changed (601.2e).
    before = st.state_hash()
    permit = ResolutionCast("Electrodominance", free=True, max_mana_value=1)
    with pytest.raises(IllegalActionError, match=r"601\.2e: .*mana value 1 or less.*Doom Blade's "
                       r"is 2"):
        cast_spell(game, 0, Action("cast", card(game, "Doom Blade"),
                                   targets=(card(game, "Grizzly Bears"),), costs=("free",)),
                   permit)
    # 107.3b: X is 0 for a spell cast without paying its mana cost.
    with pytest.raises(IllegalActionError, match=r"107\.3b"):
        cast_spell(game, 0, Action("cast", card(game, "Rolling Thunder"), x=1, costs=("free",)),
                   ResolutionCast("Electrodominance", free=True, max_mana_value=3))
    # 118.9a: "free" is the one alternative cost it may be cast for.
    with pytest.raises(IllegalActionError, match=r"608\.2g: .*without paying its mana cost"):
        cast_spell(game, 0, Action("cast", card(game, "Shock"), targets=(player_ref(1),)), permit)
    assert st.state_hash() == before
    # As it resolves, only Shock is offered (Doom Blade's mana value is 2).
    script = resolve(game, ["Shock", "bob"])
    assert script.asked[0][1].startswith("608.2g: Electrodominance: you may cast a spell with "
                                         "mana value 1 or less from your hand")
    assert script.choices[0] == ["Shock"]  # Rolling Thunder's is 2 too, with X = 0
    assert names(game, st.stack) == ["Shock"]


def test_the_sorcery_timing_restriction_stops_a_spell_cast_during_resolution() -> None:
    # 601 (seed 002): under Teferi, Time Raveler's "each opponent can cast spells only any time
    # they could cast a sorcery", Electrodominance can't cast a spell as it resolves.
    game = game_with({"hand": ["Electrodominance", "Shock"], "battlefield": MOUNTAINS},
                     {"battlefield": ["Test Time Warden"]})
    st = game.state
    assert {o.name for o in legal_actions(game, 0) if o.kind == "cast"} == {
        "Electrodominance", "Shock"}  # alice's main phase, empty stack: a sorcery's timing
    cast_electrodominance(game, 2)
    assert not [o for o in legal_actions(game, 0) if o.kind == "cast"]  # the stack isn't empty
    permit = ResolutionCast("Electrodominance", free=True, max_mana_value=2)
    before = st.state_hash()
    with pytest.raises(IllegalActionError, match=r"101\.2: Test Time Warden: .*sorcery \(307\.1\)"):
        cast_spell(game, 0, Action("cast", card(game, "Shock"), targets=(player_ref(1),),
                                   costs=("free",)), permit)
    assert st.state_hash() == before
    script = resolve(game, [])  # no card can be cast: "you may cast" is not even asked
    assert script.asked == []
    assert names(game, st.players[0].hand) == ["Shock"]
    assert names(game, st.players[0].graveyard) == ["Electrodominance"]
    assert st.players[1].life == 18 and not st.stack


def test_whenever_you_cast_triggers_for_a_spell_cast_during_resolution() -> None:
    game = game_with({"hand": ["Electrodominance", "Shock"],
                      "battlefield": [*MOUNTAINS, "Test Spell Watcher"]})
    st = game.state
    cast_electrodominance(game, 2)
    assert names(game, st.stack) == ["Electrodominance", "Test Spell Watcher"]
    resolve(game, [])  # the watcher's trigger for Electrodominance: alice gains 1
    resolve(game, ["Shock", "bob"])
    # 601.2i: Shock became cast, so the watcher triggered; 603.3: it waits until a player would
    # receive priority, after Electrodominance is done.
    assert [t.subject for t in st.pending_triggers] == [st.stack[-1]]
    assert names(game, st.stack) == ["Shock"]
    play_sync(game, default_answer, max_tasks=20, until=lambda g, task: task == "priority")
    assert names(game, st.stack) == ["Shock", "Test Spell Watcher"]


def test_an_illegal_attempt_is_rewound_and_the_resolution_goes_on() -> None:
    # Fire's 2 damage divided 2 and 0 between two targets is illegal (601.2d: at least 1 each):
    # the cast is rewound, Fire // Ice stays in the hand, Electrodominance finishes.
    game = game_with({"hand": ["Electrodominance", "Fire // Ice"], "battlefield": MOUNTAINS},
                     {"battlefield": ["Grizzly Bears"]})
    st = game.state
    cast_electrodominance(game, 2)
    resolve(game, ["Fire // Ice", "Fire", ["Grizzly Bears", "bob"], {"Grizzly Bears": 2, "bob": 0}])
    assert names(game, st.players[0].hand) == ["Fire // Ice"]
    assert names(game, st.players[0].graveyard) == ["Electrodominance"]
    assert not st.stack and st.players[1].life == 18
    assert all(game.state.objects[i].tapped for i in st.battlefield
               if game.state.objects[i].name == "Mountain")


def test_declining_casts_nothing() -> None:
    game = game_with({"hand": ["Electrodominance", "Shock"], "battlefield": MOUNTAINS})
    cast_electrodominance(game, 2)
    resolve(game, ["no"])
    assert names(game, game.state.players[0].hand) == ["Shock"]
    assert not game.state.stack

