"""The records whose ``repr`` the state hash reads (last known characteristics: their costs and
abilities) write it out by hand, for speed: each must read exactly as ``dataclass`` writes it."""

from __future__ import annotations

from dataclasses import fields, is_dataclass, replace
from typing import Any

from spellstack.bots import RandomBot
from spellstack.cards import DECKS, load_cards, load_deck
from spellstack.rules import new_game, play_sync, view_for
from spellstack.rules.mana import ManaCost, ManaSymbol, parse_mana_cost
from spellstack.rules.state import AbilityRef, Characteristics

WRITTEN_OUT = (ManaSymbol, ManaCost, AbilityRef, Characteristics)


def _as_dataclass_writes_it(value: Any) -> str:
    """``repr(value)`` as ``dataclass`` writes it for these records (the class's name, then each
    field shown, in order, as ``name=repr``), and as Python writes every other value."""
    if type(value) in WRITTEN_OUT and is_dataclass(value):
        shown = ", ".join(f"{f.name}={_as_dataclass_writes_it(getattr(value, f.name))}"
                          for f in fields(value) if f.repr)
        return f"{type(value).__qualname__}({shown})"
    if type(value) is tuple:
        items = [_as_dataclass_writes_it(v) for v in value]
        return f"({items[0]},)" if len(items) == 1 else f"({', '.join(items)})"
    return repr(value)


def test_every_card_s_costs_read_as_dataclass_writes_them() -> None:
    costs = [d.mana_cost for d in load_cards().values() if d.mana_cost is not None]
    costs += [parse_mana_cost(text) for text in ("{X}{X}{R}", "{2/W}{G/U}{B/P}", "{0}", "")]
    assert len(costs) > 90
    for cost in costs:
        assert repr(cost) == _as_dataclass_writes_it(cost)
        for symbol in cost.symbols:
            assert repr(symbol) == _as_dataclass_writes_it(symbol)


def test_last_known_characteristics_read_as_dataclass_writes_them() -> None:
    cards = load_cards()
    game = new_game(cards, [(f"P{d}", load_deck(DECKS[d], cards).cards) for d in (0, 2)], 3)
    bots = [RandomBot(5), RandomBot(6)]
    play_sync(game, lambda d: bots[d.player].decide(view_for(game, d.player), d))
    kept = list(game.state.lki_characteristics.values())
    assert len(kept) >= 5 and any(c.abilities for c in kept)
    one = kept[0]
    kept += [replace(one, mana_cost=None, power=None, toughness=None, loyalty=3,
                     text_changes=(("Forest", "Island"),), name="Sigarda's \"Aid\"\n"),
             replace(one, abilities=(AbilityRef("Bear", "static", 2),), colors=("G",))]
    for c in kept:
        assert repr(c) == _as_dataclass_writes_it(c)
