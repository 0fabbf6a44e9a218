"""Planeswalkers and loyalty abilities (306, 606): the abilities offered as priority actions only
while they may be activated, the loyalty cost paid as activated, the card data of loyalty costs,
and a resolved effect letting a player cast sorceries as though they had flash (702.8a)."""

from __future__ import annotations

from pathlib import Path

import pytest

from spellstack.cards import load_card_file, load_cards
from spellstack.rules import (
    Action,
    CardDefinitionError,
    Game,
    IllegalActionError,
    default_answer,
    legal_actions,
    play_sync,
    priority_decision,
    resolve_top,
    run_proc,
    take_action,
)
from spellstack.scenarios import build_game

CARDS = load_cards()


def to_priority(game: Game) -> None:
    """Play on until a player receives priority (state-based actions, triggers first)."""
    play_sync(game, default_answer, max_tasks=20, until=lambda g, task: task == "priority")
    priority_decision(game)


def game_with(alice: dict[str, object], bob: dict[str, object] | None = None) -> Game:
    setup: dict[str, object] = {"players": ["alice", "bob"], "alice": alice, "bob": bob or {}}
    game, _ = build_game(setup, 0, CARDS, "test")
    to_priority(game)
    return game


def resolve(game: Game) -> None:
    """The top of the stack resolves; then priority again."""
    run_proc(resolve_top(game), default_answer)
    to_priority(game)


def loyalty_options(game: Game, seat: int = 0) -> list[int]:
    return sorted(o.ability for o in legal_actions(game, seat) if o.kind == "activate")


LIBRARY = ["Island"] * 4


def test_each_loyalty_ability_is_offered_while_it_may_be_activated() -> None:
    game = game_with({"battlefield": ["Jace Beleren"], "library": LIBRARY}, {"library": LIBRARY})
    st = game.state
    jace = st.battlefield[0]
    assert st.objects[jace].counters == {"loyalty": 3}
    # 606.6: the -10 needs ten loyalty counters; the +2 and the -1 are offered.
    assert loyalty_options(game) == [1, 2]
    take_action(game, 0, Action("activate", jace, 1))
    # 602.2b: the cost is paid as it is activated; 606.3: nothing more this turn, nor with
    # the stack empty again.
    assert st.objects[jace].counters == {"loyalty": 5}
    assert loyalty_options(game) == []
    resolve(game)
    assert not st.stack
    assert loyalty_options(game) == []
    with pytest.raises(IllegalActionError, match=r"^606\.3: a loyalty ability of Jace Beleren has "
                       "already been activated this turn"):
        take_action(game, 0, Action("activate", jace, 2, (1,)))


def test_a_loyalty_ability_is_offered_again_next_turn_and_never_on_an_opponent_s() -> None:
    game = game_with({"battlefield": ["Jace Beleren"], "library": LIBRARY}, {"library": LIBRARY})
    st = game.state
    jace = st.battlefield[0]
    take_action(game, 0, Action("activate", jace, 2, (1,)))
    resolve(game)
    assert loyalty_options(game) == []
    st.turn += 1  # the same position a turn later: the record of this turn's activation is old
    assert loyalty_options(game) == [1, 2]
    st.active = 1  # 606.3: only as a sorcery, in its controller's main phase
    assert loyalty_options(game) == []
    with pytest.raises(IllegalActionError, match=r"^606\.3: Jace Beleren's ability can be "
                       "activated only as a sorcery"):
        take_action(game, 0, Action("activate", jace, 1))


def test_a_refused_activation_changes_nothing() -> None:
    game = game_with({"battlefield": ["Jace Beleren"]}, {"library": LIBRARY})
    st = game.state
    jace = st.battlefield[0]
    before = st.state_hash()
    with pytest.raises(IllegalActionError, match=r"^606\.6: Jace Beleren has 3 loyalty, fewer "
                       "than the 10 its ability removes"):
        take_action(game, 0, Action("activate", jace, 3, (2,)))
    assert st.state_hash() == before


def test_teferi_s_plus_one_lets_its_controller_cast_sorceries_as_though_they_had_flash() -> None:
    game = game_with({"battlefield": ["Teferi, Time Raveler", "Island", "Island", "Island"],
                      "hand": ["Divination"], "library": LIBRARY}, {"library": LIBRARY})
    st = game.state
    teferi = st.battlefield[0]
    take_action(game, 0, Action("activate", teferi, 1))
    resolve(game)
    assert [(e.verb, e.duration, e.affected) for e in st.effects] == [
        ("cast_as_though_flash", "your_next_turn", (1,))]
    st.step = "end"  # not a sorcery's timing: still castable
    assert [o.name for o in legal_actions(game, 0) if o.kind == "cast"] == ["Divination"]
    # Teferi's controller only: the opponent is not given the permission.
    assert all(o.kind != "cast" for o in legal_actions(game, 1))


def _loyalty_card(cost: str, text: str) -> str:
    return (f'[[card]]\nname = "Probe Walker"\ncost = "{{2}}"\ntype = "Planeswalker — Probe"\n'
            f'loyalty = 2\ntext = "{text}"\n  [[card.activated]]\n  text = "{text}"\n'
            f'  cost = "{cost}"\n  effects = [{{ verb = "draw" }}]\n')


@pytest.mark.parametrize(("cost", "loyalty"), [("+1", 1), ("−2", -2), ("0", 0)])
def test_a_loyalty_cost_is_read_from_its_symbol(tmp_path: Path, cost: str, loyalty: int) -> None:
    path = tmp_path / "walker.toml"
    path.write_text(_loyalty_card(cost, f"{cost}: Draw a card."), "utf-8")
    ability = load_card_file(path)["Probe Walker"].activated[0]
    # 606.3: as a sorcery; 605.1a: never a mana ability.
    assert (ability.loyalty, ability.sorcery_speed, ability.is_mana_ability) == (loyalty, True, False)
    assert not ability.mana_cost.symbols and not ability.tap


def test_a_loyalty_ability_must_quote_its_line_with_its_cost(tmp_path: Path) -> None:
    path = tmp_path / "walker.toml"
    path.write_text(_loyalty_card("+1", "Draw a card."), "utf-8")
    with pytest.raises(CardDefinitionError, match=r"Probe Walker.*a loyalty ability quotes its "
                       "Oracle line, which begins with its cost '\\+1: '"):
        load_card_file(path)
