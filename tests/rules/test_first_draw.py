"""103.8: the starting player's first draw, skipped only in a two-player game (103.8a); in a
game of three or more players they draw (103.8c). Kernel games from ``new_game``, and the
scenario setup that may or may not start in that draw step."""

from __future__ import annotations

import pytest

from spellstack.cards import load_cards
from spellstack.rules import Action, Answer, Decision, Game, Reply, new_game, play_sync
from spellstack.scenarios import ScenarioError, build_game

CARDS = load_cards()


def pass_everything(decision: Decision) -> Reply:
    if decision.kind == "priority":
        return Action("pass")
    return Answer(decision.id, tuple(c.key for c in decision.choices)[:decision.min])


def to_first_main(game: Game) -> None:
    play_sync(game, pass_everything, max_tasks=500, until=lambda g, task: task == "priority"
              and g.state.step == "precombat_main")
    assert (game.state.turn, game.state.step) == (1, "precombat_main")


@pytest.mark.parametrize("players", [3, 4])
def test_the_starting_player_draws_on_turn_one_with_three_or_more_players(players: int) -> None:
    names = ["Ann", "Ben", "Cid", "Dot"][:players]
    game = new_game(CARDS, [(n, ["Island"] * 20) for n in names], seed=1)
    to_first_main(game)
    assert [len(p.hand) for p in game.state.players] == [8] + [7] * (players - 1)


def test_the_starting_player_skips_the_first_draw_with_two_players() -> None:
    game = new_game(CARDS, [("Ann", ["Island"] * 20), ("Ben", ["Island"] * 20)], seed=1)
    to_first_main(game)
    assert [len(p.hand) for p in game.state.players] == [7, 7]


def test_scenario_setup_starts_in_the_first_draw_step_only_where_there_is_one() -> None:
    game, _ = build_game({"players": ["a", "b", "c"], "step": "draw"}, 0, CARDS, "test")
    assert (game.state.turn, game.state.step) == (1, "draw")
    with pytest.raises(ScenarioError, match=r"two-player game.*103\.8a"):
        build_game({"players": ["a", "b"], "step": "draw"}, 0, CARDS, "test")
    game, _ = build_game({"players": ["a", "b"], "step": "draw", "turn": 2}, 0, CARDS, "test")
    assert game.state.step == "draw"
