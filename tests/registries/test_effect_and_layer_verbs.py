"""Every effect verb (``EFFECT_VERBS``, ``rules/effects/_verbs.py``, each a class whose ``run``
does it) and every layer verb (``LAYER_VERBS``, ``rules/layers/_vocabulary.py``) against the card
loader, the kernel and the card data format's docs.

For each effect verb, a card file whose {0} sorcery has that one effect, with its argument types'
example values: the loader takes it and the kernel resolves it. Every layer verb but a copy
effect and a characteristic-defining ability is an effect verb too (611.2), with the layer
verb's arguments and rule. For each layer verb, a card file whose static ability uses it: the
loader takes each but those that are not card data, and the layer vocabulary's docstring lists
each. The last two tests add a verb to a registry and see the checks report it.
"""

from __future__ import annotations

import ast
import dataclasses
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any, ClassVar

import pytest

from spellstack.build._compile import source_path
from spellstack.cards import load_card_file
from spellstack.cards._reference import toml_value
from spellstack.rules import (
    CONDITIONS,
    EFFECT_VERBS,
    Action,
    CardDefinition,
    Decision,
    Reply,
    default_answer,
    play_sync,
)
from spellstack.rules.definitions import arguments_of
from spellstack.rules.effects import LAYER_EFFECT_VERBS, Verb
from spellstack.rules.layers import LAYER_VERBS, REQUIRED_ARGS, RULE_EFFECT_VERBS, _vocabulary
from tests.registries.registry_samples import CARDS, NAMES, Missing, problem, table


def examples(cls: type, required_only: bool = True) -> dict[str, Any]:
    """A card file's arguments for the verb or condition class ``cls``: each argument (each
    required one, by default) with its type's example value."""
    return {a.name: a.kind.example for a in arguments_of(cls) if a.required or not required_only}


def probe_name(verb: str) -> str:
    """The name of the card that tries ``verb``."""
    return f"Probe {verb}"


def effect_card(verb: str, args: Mapping[str, Any]) -> str:
    """A card file: a sorcery costing {0} whose one effect is ``verb`` with ``args`` (name ->
    value)."""
    effect = {"verb": verb, **args}
    return (f'[[card]]\nname = "{probe_name(verb)}"\ncost = "{{0}}"\ntype = "Sorcery"\n'
            f'text = "Probe."\nspell.effects = [{toml_value(effect)}]\n')


def static_card(verb: str, args: Mapping[str, Any]) -> str:
    """A card file: an enchantment with a static ability whose one effect is ``verb`` with
    ``args``."""
    effect = {"verb": verb, **args}
    return (f'[[card]]\nname = "{probe_name(verb)}"\ncost = "{{0}}"\ntype = "Enchantment"\n'
            f'text = "Probe."\n  [[card.static]]\n  text = "Probe."\n  affected = "self"\n'
            f'  effects = [{toml_value(effect)}]\n')


def loader_missing(verbs: Iterator[tuple[str, Mapping[str, Any]]], card: Callable[[str, Mapping[str, Any]], str],
                   folder: Path) -> tuple[Missing, dict[str, Mapping[str, CardDefinition]]]:
    """The verbs the card loader refuses in a card file written by ``card``, and the cards it
    loaded for the others."""
    missing: Missing = {}
    loaded: dict[str, Mapping[str, CardDefinition]] = {}
    for verb, args in verbs:
        path = folder / f"{verb}.toml"
        try:
            path.write_text(card(verb, args), "utf-8")
            loaded[verb] = load_card_file(path)
        except Exception as err:
            missing[verb] = problem(err)
    return missing, loaded


def effect_verbs(required_only: bool = True) -> Iterator[tuple[str, Mapping[str, Any]]]:
    """Each registered effect verb with an example of each of its required arguments (or of
    every argument), the registry as it stands now."""
    return ((verb, examples(cls, required_only)) for verb, cls in EFFECT_VERBS.items())


EFFECT_SETUP: dict[str, Any] = {
    "players": list(NAMES),
    "alice": {"battlefield": [{"card": "Grizzly Bears", "label": "bears"}, "Forest"],
              "graveyard": ["Lightning Bolt"]},
    "bob": {"hand": ["Forest", "Forest"], "battlefield": ["Grizzly Bears"]},
}
"""Creatures and players for an effect to act on; the probe card joins alice's hand."""


def resolve_probe(cards: Mapping[str, CardDefinition], name: str) -> None:
    """Cast the {0} sorcery ``name`` from alice's hand and play until it has resolved, every
    question answered as the kernel would (``default_answer``). Raises if it can't."""
    setup = {**EFFECT_SETUP, "alice": {**EFFECT_SETUP["alice"], "hand": [name]}}
    game, _ = table(setup, {**CARDS, **cards})
    st = game.state

    def answer(decision: Decision) -> Reply:
        if decision.kind == "priority" and decision.player == 0:
            for option in decision.actions:
                if option.kind == "cast" and option.name == name:
                    return Action("cast", option.object_id)
        return default_answer(decision)

    play_sync(game, answer, max_tasks=200, until=lambda g, task: st.resolutions >= 1)
    assert st.resolutions >= 1 or st.game_over, f"{name} did not resolve"
    assert not any(st.objects[i].name == name for i in st.stack), f"{name} is still on the stack"


def handler_missing(loaded: Mapping[str, Mapping[str, CardDefinition]]) -> Missing:
    """The effect verbs whose handler fails: each loaded probe sorcery cast and resolved."""
    missing: Missing = {}
    for verb, cards in loaded.items():
        try:
            resolve_probe(cards, probe_name(verb))
        except Exception as err:
            missing[verb] = problem(err)
    return missing


NOT_CARD_DATA = {"copy_of": "707.2: a copy effect comes from become_copy (enters_as_copy), not a "
                            "static ability's effects"}
"""Layer verbs the card loader refuses in static abilities, and why."""


def layer_verbs() -> Iterator[tuple[str, Mapping[str, Any]]]:
    """Each registered layer verb with the arguments it can't do without (their examples, from
    the effect verb of the same name; none for a verb that is not one)."""
    return ((verb, {k: v for k, v in examples(EFFECT_VERBS[verb]).items() if k in REQUIRED_ARGS}
                    if verb in EFFECT_VERBS else {})
            for verb in LAYER_VERBS)


def layer_loader_missing(folder: Path) -> Missing:
    """The layer verbs the loader refuses in a static ability, but for ``NOT_CARD_DATA``, and
    any of ``NOT_CARD_DATA`` it takes."""
    refused, _ = loader_missing(layer_verbs(), static_card, folder)
    missing = {verb: why for verb, why in refused.items() if verb not in NOT_CARD_DATA}
    missing.update({verb: f"taken, though {why}" for verb, why in NOT_CARD_DATA.items()
                    if verb in LAYER_VERBS and verb not in refused})
    return missing


def docs_missing_layer_verbs() -> Missing:
    """The layer verbs the layer vocabulary's docstring (the card data format) does not list."""
    # From the source file: a compiled module (the optional build) keeps no docstring.
    doc = ast.get_docstring(ast.parse(source_path(_vocabulary.__name__).read_text("utf-8"))) or ""
    return {verb: "not listed" for verb in LAYER_VERBS if f"``{verb}``" not in doc}


def test_the_loader_takes_every_argument_example(tmp_path: Path) -> None:
    # Each verb with every argument, optional ones too, at its type's example value.
    missing, _ = loader_missing(effect_verbs(required_only=False), effect_card, tmp_path)
    assert not missing, f"the card loader refuses argument examples of verbs {missing}"


def test_every_verb_holding_effects_gives_them_to_walkers(tmp_path: Path) -> None:
    # Whatever walks a card's effects (the heuristic bot, the verb-use sweep) finds nested ones
    # through nested(): a verb with a field of effects must give each such field there.
    _, loaded = loader_missing(effect_verbs(required_only=False), effect_card, tmp_path)
    for verb, cls in EFFECT_VERBS.items():
        spell = loaded[verb][probe_name(verb)].spell
        assert spell is not None
        holding = {a.name for a in arguments_of(cls) if a.kind.name == "effects"}
        assert {name for name, inner in spell.effects[0].nested() if inner} == holding, verb


def test_the_loader_takes_every_condition(tmp_path: Path) -> None:
    missing: Missing = {}
    for test, cls in CONDITIONS.items():
        condition = {"test": test, **examples(cls)}
        path = tmp_path / f"{test}.toml"
        path.write_text(f'[[card]]\nname = "Probe {test}"\ncost = "{{0}}"\ntype = "Creature — Elf"\n'
                        f'pt = "1/1"\ntext = "Probe."\n  [[card.triggered]]\n  event = "enters"\n'
                        f'  condition = {toml_value(condition)}\n  effects = [{{ verb = "draw" }}]\n', "utf-8")
        try:
            loaded = load_card_file(path)[f"Probe {test}"].triggered[0].condition
            assert loaded == cls(**{a.field: a.kind.example for a in arguments_of(cls)}), loaded
        except Exception as err:
            missing[test] = problem(err)
    assert not missing, f"the card loader does not take conditions {missing}"


def test_the_loader_takes_every_effect_verb(tmp_path: Path) -> None:
    missing, _ = loader_missing(effect_verbs(), effect_card, tmp_path)
    assert not missing, f"the card loader does not take effect verbs {missing}"


def test_every_effect_verb_has_a_working_handler(tmp_path: Path) -> None:
    refused, loaded = loader_missing(effect_verbs(), effect_card, tmp_path)
    assert not refused
    missing = handler_missing(loaded)
    assert not missing, f"the kernel's effect handlers fail for verbs {missing}"


def test_every_layer_verb_but_copies_and_cdas_is_an_effect_verb() -> None:
    # 611.2: a resolving spell creates a continuous effect with any layer primitive but a copy
    # effect (707.2) or a characteristic-defining ability (604.3).
    missing = sorted(set(LAYER_VERBS) - {"copy_of", "set_base_pt_cda"} - set(EFFECT_VERBS))
    assert not missing, f"layer verbs with no effect verb: {missing}"
    assert {cls.verb for cls in LAYER_EFFECT_VERBS} == set(LAYER_VERBS) - {"copy_of", "set_base_pt_cda"}


def test_a_layer_effect_verb_takes_its_layer_verbs_arguments() -> None:
    # The effect verb takes what the layer primitive takes, plus the objects and the duration;
    # it follows the same rule.
    for cls in LAYER_EFFECT_VERBS:
        spec = LAYER_VERBS[cls.verb]
        args = {a.name: a for a in arguments_of(cls)}
        assert set(args) == {*spec.args, "what", "until"}, cls.verb
        assert {k for k, a in args.items() if a.required} == {"what", *(set(spec.args) & REQUIRED_ARGS)}
        assert all(args[k].kind.name == kind for k, kind in spec.args.items()), cls.verb
        assert cls.rule == spec.rule, cls.verb
    for verb, rule in RULE_EFFECT_VERBS.items():
        assert EFFECT_VERBS[verb].rule == rule


def test_the_loader_takes_exactly_the_layer_verbs(tmp_path: Path) -> None:
    missing = layer_loader_missing(tmp_path)
    assert not missing, f"the card loader does not take layer verbs {missing}"


def test_the_layer_docs_list_every_layer_verb() -> None:
    missing = docs_missing_layer_verbs()
    assert not missing, f"rules/layers/_vocabulary.py's docstring does not list layer verbs {sorted(missing)}"


# ---------------------------------------------------------------------- the checks can fail


@dataclasses.dataclass(frozen=True, slots=True)
class Ponder(Verb):
    """701.99: a verb whose ``run`` is not written yet (``Verb.run`` raises)."""

    verb: ClassVar[str] = "ponder"
    rule: ClassVar[str] = "701.99"


def test_a_new_effect_verb_without_a_handler_is_reported(monkeypatch: pytest.MonkeyPatch,
                                                         tmp_path: Path) -> None:
    # The loader reads EFFECT_VERBS itself, so it takes the new verb: only the handler fails.
    monkeypatch.setitem(EFFECT_VERBS, "ponder", Ponder)
    refused, loaded = loader_missing(effect_verbs(), effect_card, tmp_path)
    assert not refused
    assert set(handler_missing({"ponder": loaded["ponder"], "draw": loaded["draw"]})) == {"ponder"}


def test_a_new_layer_verb_is_reported_by_the_docs_check(monkeypatch: pytest.MonkeyPatch,
                                                        tmp_path: Path) -> None:
    # The loader reads LAYER_VERBS itself, so it takes the new verb.
    monkeypatch.setitem(LAYER_VERBS, "shrink", dataclasses.replace(LAYER_VERBS["modify_pt"]))
    assert set(docs_missing_layer_verbs()) == {"shrink"}
    assert not layer_loader_missing(tmp_path)
