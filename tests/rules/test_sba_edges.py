"""State-based actions at their edges, where no scenario can reach: the world rule's tie
(704.5k: every permanent gets its own timestamp in play, so a tie is only built by hand) and a
planeswalker at exactly 0 loyalty (704.5i, with a test-only planeswalker)."""

from __future__ import annotations

from pathlib import Path

from spellstack.cards import load_card_file, load_cards
from spellstack.rules import Game, deal_damage, default_answer, run_proc, state_based_actions
from spellstack.scenarios import build_game

CARDS = {**load_cards(), **load_card_file(Path(__file__).with_name("test_sba_cards.toml"))}


def game_with(alice: dict[str, object], bob: dict[str, object] | None = None) -> Game:
    game, _ = build_game({"players": ["alice", "bob"], "alice": alice, "bob": bob or {}}, 0, CARDS, "test")
    return game


def obj_named(game: Game, name: str) -> int:
    return next(o.id for o in game.state.objects.values() if o.name == name)


def zone_of(game: Game, name: str) -> str:
    return game.state.objects[obj_named(game, name)].zone


def check(game: Game) -> None:
    """One state-based action check, looking at everything."""
    game.state.sba.mark_all()
    run_proc(state_based_actions(game), default_answer)


# ---------------------------------------------------------------------- 704.5k


def _two_worlds(same_timestamp: bool) -> Game:
    game = game_with({"battlefield": ["Concordant Crossroads", "Living Plane"]})
    old, new = (game.state.objects[obj_named(game, n)] for n in ("Concordant Crossroads", "Living Plane"))
    assert old.timestamp < new.timestamp  # set up one after the other
    if same_timestamp:
        old.timestamp = new.timestamp
    return game


def test_of_two_world_permanents_only_the_newest_stays() -> None:
    game = _two_worlds(same_timestamp=False)
    check(game)
    assert zone_of(game, "Concordant Crossroads") == "graveyard"
    assert zone_of(game, "Living Plane") == "battlefield"


def test_two_world_permanents_tied_for_newest_both_go_to_the_graveyard() -> None:
    game = _two_worlds(same_timestamp=True)
    assert (
        len({game.state.objects[obj_named(game, n)].timestamp for n in ("Concordant Crossroads", "Living Plane")}) == 1
    )
    check(game)
    assert zone_of(game, "Concordant Crossroads") == "graveyard"
    assert zone_of(game, "Living Plane") == "graveyard"


# ---------------------------------------------------------------------- 704.5i


def test_a_planeswalker_dealt_damage_down_to_exactly_0_loyalty_goes_to_the_graveyard() -> None:
    game = game_with({"battlefield": ["Raging Goblin"]}, {"battlefield": ["Test Walker"]})
    walker = game.state.objects[obj_named(game, "Test Walker")]
    goblin = game.state.objects[obj_named(game, "Raging Goblin")]
    assert walker.counters == {"loyalty": 2}  # its printed loyalty (306.5b)
    check(game)
    assert zone_of(game, "Test Walker") == "battlefield"
    # 120.3c: damage to a planeswalker removes that many loyalty counters.
    assert deal_damage(game, goblin, walker.id, 1) == 1
    assert walker.counters == {"loyalty": 1}
    check(game)
    assert zone_of(game, "Test Walker") == "battlefield"
    assert deal_damage(game, goblin, walker.id, 1) == 1
    assert walker.counters.get("loyalty", 0) == 0
    check(game)
    assert zone_of(game, "Test Walker") == "graveyard"
