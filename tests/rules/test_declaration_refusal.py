"""``declaration_refusal``: a declaration of attackers or blockers checked as the kernel checks
its own declaration decision (508.1a, 509.1a), also where the kernel asks no one; it changes
nothing."""

from __future__ import annotations

from spellstack.cards import load_cards
from spellstack.rules import (
    CombatState,
    Game,
    GameRandom,
    GameState,
    PlayerState,
    create_object,
    declaration_refusal,
    player_ref,
)

ANN, BEN = 0, 1


def make_game(ann: list[str], ben: list[str], step: str) -> Game:
    state = GameState(players=[PlayerState(ANN, "Ann"), PlayerState(BEN, "Ben")],
                      rng=GameRandom.from_seed(3), turn=3, active=ANN, step=step, priority=ANN)
    game = Game(state, load_cards())
    for seat, names in ((ANN, ann), (BEN, ben)):
        for name in names:
            create_object(game, name, seat, "battlefield")
    return game


def first(game: Game, name: str) -> int:
    return next(o for o in game.state.battlefield if game.state.objects[o].name == name)


def test_no_creature_to_attack_with_is_refused_naming_the_rule() -> None:
    game = make_game(["Forest"], [], "declare_attackers")
    before = game.state.state_hash()
    why = declaration_refusal(game, "attackers", ANN, [(first(game, "Forest"), player_ref(BEN))])
    assert why == "508.1a: Forest can't attack Ben"
    assert game.state.state_hash() == before


def test_a_legal_attack_is_not_refused() -> None:
    game = make_game(["Grizzly Bears"], [], "declare_attackers")
    assert declaration_refusal(game, "attackers", ANN,
                               [(first(game, "Grizzly Bears"), player_ref(BEN))]) is None
    assert declaration_refusal(game, "attackers", BEN, []) is not None


def test_no_creature_to_block_with_is_refused_naming_the_rule() -> None:
    game = make_game(["Grizzly Bears"], ["Plains"], "declare_blockers")
    bears = first(game, "Grizzly Bears")
    game.state.combat = CombatState(attackers={bears: player_ref(BEN)})
    before = game.state.state_hash()
    why = declaration_refusal(game, "blockers", BEN, [(first(game, "Plains"), bears)])
    assert why == "509.1a: Plains can't block Grizzly Bears"
    assert game.state.state_hash() == before
