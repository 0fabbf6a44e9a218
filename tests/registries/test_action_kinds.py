"""Every action kind (``ActionKind``; ``ACTION_KINDS`` is read off it, ``rules/state/_decisions.py``)
against every consumer that must take it.

A legal action of each kind for the table's priority decision, performed by the kernel
(``take_action``) and taken by a scenario of one step, through the scenario runner and its
director; and each kind listed among the steps in README.md's "Writing a scenario". The last test
adds a kind to the registry and sees every check report it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, get_args

import pytest

from spellstack.rules import Action, Decision, Game, is_player_ref, priority_decision, seat_of_ref, take_action
from spellstack.rules.state import _decisions
from spellstack.scenarios import run_scenario
from tests.registries.registry_samples import CARDS, SETUP, Missing, problem, table


def action_kinds() -> tuple[str, ...]:
    """The registry as it stands now (a test may add a kind to it)."""
    return _decisions.ACTION_KINDS


def sample_action(decision: Decision, kind: str) -> Action:
    """A legal action of ``kind`` for the table's priority decision: the first option of that
    kind with the first legal targets, or the bare kind (pass, concede)."""
    for option in decision.actions:
        if option.kind == kind:
            targets = tuple(t for req in option.targets for t in req.candidates[:req.min])
            return Action(kind, option.object_id, option.ability, targets)
    return Action(kind)


def kernel_missing_actions() -> Missing:
    """The action kinds ``take_action`` does not perform: a legal action of each kind, each in
    a fresh table."""
    missing: Missing = {}
    for kind in action_kinds():
        game, _ = table()
        try:
            take_action(game, 0, sample_action(priority_decision(game), kind))
        except Exception as err:
            missing[kind] = problem(err)
    return missing


def _ref_word(game: Game, ref: int) -> str:
    """How a scenario names a target: a player by name, an object by its name."""
    st = game.state
    return st.players[seat_of_ref(ref)].name if is_player_ref(ref) else st.objects[ref].name


async def director_missing_actions() -> Missing:
    """The action kinds a scenario can't take: for each, a scenario of one step taking a legal
    action of that kind (named as the format names it: ``cast = "Lightning Bolt"``), run by the
    scenario runner, whose director checks that the engine accepted it."""
    missing: Missing = {}
    for kind in action_kinds():
        game, _ = table()
        decision = priority_decision(game)
        action = sample_action(decision, kind)
        step: dict[str, Any] = {kind: True}
        if action.object_id:
            step[kind] = game.state.objects[action.object_id].name
        if action.ability > 1:
            step["ability"] = action.ability
        if action.targets:
            step["targets"] = [_ref_word(game, t) for t in action.targets]
        try:
            await run_scenario({"title": f"take a {kind} action", "setup": SETUP, "step": [step]},
                               f"registries ({kind})", CARDS)
        except Exception as err:
            missing[kind] = problem(err)
    return missing


def readme_missing_actions() -> Missing:
    """The action kinds the README's "Writing a scenario" does not list among the steps."""
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text("utf-8")
    section = readme.split("## Writing a scenario", 1)[1].split("\n## ", 1)[0]
    return {kind: "not listed" for kind in action_kinds() if f"`{kind}`" not in section}


def test_action_kinds_are_the_action_kind_literal() -> None:
    assert _decisions.ACTION_KINDS == get_args(_decisions.ActionKind)


def test_the_table_offers_every_action_kind_that_needs_an_object() -> None:
    # Otherwise the checks below would take bare actions of those kinds, which can't be legal.
    game, _ = table()
    offered = {o.kind for o in priority_decision(game).actions}
    assert offered >= {"pass", "cast", "activate", "play", "turn_face_up"}


def test_take_action_performs_every_action_kind() -> None:
    missing = kernel_missing_actions()
    assert not missing, f"take_action does not handle action kinds {missing}"


async def test_scenarios_take_every_action_kind() -> None:
    missing = await director_missing_actions()
    assert not missing, f"the scenario runner and Director do not handle action kinds {missing}"


def test_the_readme_lists_every_action_kind_as_a_step() -> None:
    missing = readme_missing_actions()
    assert not missing, f"README.md's scenario steps do not list action kinds {sorted(missing)}"


# ---------------------------------------------------------------------- the checks can fail


async def test_a_new_action_kind_is_reported_by_every_check(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_decisions, "ACTION_KINDS", (*_decisions.ACTION_KINDS, "ponder"))
    assert set(kernel_missing_actions()) == {"ponder"}
    assert set(await director_missing_actions()) == {"ponder"}
    assert set(readme_missing_actions()) == {"ponder"}
