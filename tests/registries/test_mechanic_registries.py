"""The registries the mechanics (``rules/mechanics``) register into besides the keyword triggers:
cost options (``COST_OPTIONS``, 601.2b) and layouts (``LAYOUTS``, 709, 712, 715), with the
counter kind loyalty adds (``COUNTER_KINDS``).

The sweeps: every entry names its rule; every entry is registered by a mechanic (its module's
record says so), but the few the core registers itself (flash's own words, 601.3c; the counter
kinds of 122.1); every entry is used by a card of the pool and taken by the card loader, which
refuses a name not registered, naming the file, the card and the field. Each sweep's last test
adds an entry to its registry and sees the sweep report it, and the loader take it.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest

from spellstack.cards import load_card_file
from spellstack.rules import (
    COST_OPTIONS,
    COUNTER_KINDS,
    LAYOUTS,
    MECHANICS,
    Action,
    CardDefinitionError,
    Game,
    default_answer,
    resolve_top,
    run_proc,
)
from spellstack.rules.base import CARD_ZONES
from spellstack.rules.casting import cast_spell
from spellstack.rules.registry import CostOptionRule, Layout
from spellstack.rules.state import GameObject
from tests.registries.registry_samples import CARDS, Missing, problem, table

RULE = re.compile(r"\d{3}\.\d+[a-z]?$")

CORE_COST_OPTIONS = frozenset({"flash"})
"""Cost options the core registers (``rules/definitions``): 601.3c, a card's own words, no mechanic."""


def owned(registry: str) -> set[str]:
    """The entries of ``registry`` a mechanic's record says its module registers."""
    return {entry for m in MECHANICS.values() for reg, entry in m.registers if reg == registry}


def loader_missing(names: Iterable[str], card: str, folder: Path) -> Missing:
    """The names the card loader refuses in the card file ``card`` (``{name}`` in it replaced)."""
    missing: Missing = {}
    for i, name in enumerate(names):
        path = folder / f"probe{i}.toml"
        path.write_text(card.replace("{name}", name), "utf-8")
        try:
            load_card_file(path)
        except Exception as err:
            missing[name] = problem(err)
    return missing


# ====================================================================== cost options


COST_CARD = """[[card]]
name = "Probe Cost"
cost = "{1}{R}"
type = "Creature — Goblin"
pt = "2/2"
text = "Probe {2}"
cost_options = [{ name = "{name}", cost = "{2}", text = "Probe {2}" }]
"""
"""A card file: a creature with one cost option, named ``{name}``."""


def cost_options_used() -> set[str]:
    """The cost options the pool's cards name: their own, and those their permissions grant."""
    return ({o.name for card in CARDS.values() for o in card.cost_options}
            | {p.cost for card in CARDS.values() for p in card.permissions if p.cost})


def test_every_cost_option_names_its_rule_what_paying_it_means_and_a_zone_of_cards() -> None:
    for name, option in COST_OPTIONS.items():
        assert RULE.match(option.rule), (name, option.rule)
        assert option.zone in CARD_ZONES, (name, option.zone)
        assert option.means and option.means == option.means.strip(), name


def test_every_cost_option_is_a_mechanic_s_but_the_core_s_own() -> None:
    assert set(COST_OPTIONS) - owned("COST_OPTIONS") == CORE_COST_OPTIONS
    assert not owned("COST_OPTIONS") & CORE_COST_OPTIONS


def test_every_cost_option_is_named_by_a_card_and_taken_by_the_loader(tmp_path: Path) -> None:
    assert not set(COST_OPTIONS) - cost_options_used(), "cost options no card names"
    missing = loader_missing(COST_OPTIONS, COST_CARD, tmp_path)
    assert not missing, f"the card loader does not take cost options {missing}"


def test_the_loader_builds_a_cost_option_from_its_record(tmp_path: Path) -> None:
    path = tmp_path / "morph.toml"
    path.write_text(COST_CARD.replace("{name}", "morph"), "utf-8")
    (morph,) = load_card_file(path)["Probe Cost"].cost_options
    # 702.37c: cast face down for the {3} morph's record names; the card's {2} turns it face up.
    assert (morph.kind, str(morph.mana_cost), str(morph.face_up_cost)) == ("alternative", "{3}", "{2}")
    path.write_text(COST_CARD.replace("{name}", "flashback"), "utf-8")
    (flashback,) = load_card_file(path)["Probe Cost"].cost_options
    assert (flashback.zone, str(flashback.mana_cost), flashback.face_up_cost) == ("graveyard", "{2}", None)


def test_an_unknown_cost_option_fails_at_load_naming_file_card_and_field(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(COST_CARD.replace("{name}", "sandblast"), "utf-8")
    with pytest.raises(CardDefinitionError,
                       match=rf"^{re.escape(str(path))}: card 'Probe Cost': cost_options\[0\]\.name.*'sandblast'"):
        load_card_file(path)


GRANT_CARD = """[[card]]
name = "Probe Granter"
cost = "{1}{U}"
type = "Creature — Wizard"
pt = "1/1"
text = "Each instant card in your graveyard has it."

  [[card.permission]]
  text = "Each instant card in your graveyard has it."
  kind = "grant_cost"
  cost = "{name}"
  zone = "graveyard"
"""
"""A card file: a creature whose permission grants the cost option ``{name}`` (601.3e)."""


def test_a_granted_cost_option_is_read_live_and_an_unknown_one_names_file_card_and_field(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    assert not loader_missing(COST_OPTIONS, GRANT_CARD, tmp_path)
    path = tmp_path / "bad.toml"
    path.write_text(GRANT_CARD.replace("{name}", "sandblast"), "utf-8")
    with pytest.raises(CardDefinitionError,
                       match=rf"^{re.escape(str(path))}: card 'Probe Granter': permission\[0\]\.cost.*'sandblast'"):
        load_card_file(path)
    monkeypatch.setitem(COST_OPTIONS, "sandblast", CostOptionRule("alternative", "graveyard", "702.999a", "sand"))
    assert not loader_missing(["sandblast"], GRANT_CARD, tmp_path)


def test_a_cost_option_of_no_mechanic_nor_card_is_reported_and_the_loader_takes_it(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setitem(COST_OPTIONS, "sandblast", CostOptionRule("alternative", "hand", "702.999a", "sand"))
    assert set(COST_OPTIONS) - owned("COST_OPTIONS") == CORE_COST_OPTIONS | {"sandblast"}
    assert set(COST_OPTIONS) - cost_options_used() == {"sandblast"}
    assert not loader_missing(["sandblast"], COST_CARD, tmp_path)  # read live, as the card is loaded
    with pytest.raises(ValueError, match="kind 'instead'"):
        CostOptionRule("instead", "hand", "702.999a", "sand")  # type: ignore[arg-type]


DASHER: dict[str, Any] = {
    "players": ["alice", "bob"],
    "alice": {"hand": [{"card": "Goblin Heelcutter", "label": "goblin"}],
              "battlefield": ["Mountain", "Mountain", "Mountain"]},
}
"""Alice, able to cast Goblin Heelcutter for its dash cost {2}{R}."""


def dash_and_resolve() -> tuple[Game, GameObject]:
    """Alice casts Goblin Heelcutter for its dash cost and it resolves: the game and the goblin."""
    game, labels = table(DASHER)
    goblin = next(o for o in game.state.objects.values() if o.card == labels["goblin"])
    cast_spell(game, 0, Action("cast", goblin.id, costs=("dash",)))
    run_proc(resolve_top(game), default_answer)
    return game, next(o for o in game.state.objects.values() if o.card == labels["goblin"])


def test_the_core_reaches_a_mechanic_through_its_cost_option_s_hook(monkeypatch: pytest.MonkeyPatch) -> None:
    # 608.3 walks the on_enter hooks of the costs a spell was cast with: dash's sets up its return.
    game, goblin = dash_and_resolve()
    assert goblin.zone == "battlefield" and len(game.state.delayed_triggers) == 1
    entered: list[str] = []
    monkeypatch.setitem(COST_OPTIONS, "dash", dataclasses.replace(
        COST_OPTIONS["dash"], on_enter=lambda game, obj: entered.append(obj.name)))
    game, goblin = dash_and_resolve()
    assert entered == ["Goblin Heelcutter"] and not game.state.delayed_triggers


# ====================================================================== layouts


LAYOUT_CARD = """[[card]]
name = "Probe Front"
layout = "{name}"

  [[card.face]]
  name = "Probe Front"
  cost = "{1}{G}"
  type = "Creature — Bear"
  pt = "2/2"

  [[card.face]]
  name = "Probe Back"
  cost = "{G}"
  type = "Sorcery — Adventure"
  text = "You gain 1 life."
  spell.effects = [{ verb = "gain_life", amount = 1, who = "you" }]
"""
"""A card file: a card of the layout ``{name}``, named by its first face (a split card is named
by both halves, so the loader refuses this one as a split card)."""


def layouts_used() -> set[str]:
    """The layouts of the pool's cards."""
    return {card.layout for card in CARDS.values() if card.faces}


def test_every_layout_names_its_rule_and_is_a_mechanic_s() -> None:
    assert {"split", "adventure", "mdfc"} <= set(LAYOUTS)
    for name, layout in LAYOUTS.items():
        assert RULE.match(layout.rule), (name, layout.rule)
        assert layout.does, name
    assert set(LAYOUTS) == owned("LAYOUTS")


def test_every_layout_is_used_by_a_card_of_the_pool() -> None:
    assert not set(LAYOUTS) - layouts_used(), "layouts no card has"
    assert layouts_used() <= set(LAYOUTS)


def test_an_unknown_layout_fails_at_load_naming_file_card_and_field(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(LAYOUT_CARD.replace("{name}", "flip"), "utf-8")
    with pytest.raises(CardDefinitionError,
                       match=rf"^{re.escape(str(path))}: card 'Probe Front': layout.*'flip'"):
        load_card_file(path)


def test_a_layout_of_no_mechanic_nor_card_is_reported_and_the_loader_takes_it(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setitem(LAYOUTS, "flip", Layout("710.1", "two halves, one upside down"))
    assert set(LAYOUTS) - owned("LAYOUTS") == {"flip"}
    assert set(LAYOUTS) - layouts_used() == {"flip"}
    assert not loader_missing(["flip", "adventure", "mdfc"], LAYOUT_CARD, tmp_path)  # read live


# ====================================================================== counter kinds


def test_the_loyalty_counter_kind_is_the_loyalty_mechanic_s() -> None:
    # The other sweeps of counter kinds (named by a card, taken by the loader and the kernel)
    # are in test_rules_registries.py; here, who registers it.
    assert MECHANICS["loyalty"].registers == (("COUNTER_KINDS", "loyalty"),)
    assert "loyalty" in COUNTER_KINDS and COUNTER_KINDS["loyalty"].rule == "306.5b"
    assert owned("COUNTER_KINDS") <= set(COUNTER_KINDS)
