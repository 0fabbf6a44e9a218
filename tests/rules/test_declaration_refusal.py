"""``declaration_refusal``: a declaration of attackers or blockers checked as the kernel checks
its own declaration decision (508.1a, 509.1a), also where the kernel asks no one; it changes
nothing."""

from __future__ import annotations

from spellstack.rules import CombatState, Game, declaration_refusal, player_ref
from spellstack.testing import Table

ANN, BEN = 0, 1
TABLE = Table("Ann", "Ben", seed=3, turn=3)
"""Turn 3, Ann's: each test adds its permanents and the step."""


def first(game: Game, name: str) -> int:
    return next(o for o in game.state.battlefield if game.state.objects[o].name == name)


def test_no_creature_to_attack_with_is_refused_naming_the_rule() -> None:
    game = TABLE.battlefield("Ann", "Forest").when(step="declare_attackers").game()
    before = game.state.state_hash()
    why = declaration_refusal(game, "attackers", ANN, [(first(game, "Forest"), player_ref(BEN))])
    assert why == "508.1a: Forest can't attack Ben"
    assert game.state.state_hash() == before


def test_a_legal_attack_is_not_refused() -> None:
    game = TABLE.battlefield("Ann", "Grizzly Bears").when(step="declare_attackers").game()
    assert declaration_refusal(game, "attackers", ANN,
                               [(first(game, "Grizzly Bears"), player_ref(BEN))]) is None
    assert declaration_refusal(game, "attackers", BEN, []) is not None


def test_no_creature_to_block_with_is_refused_naming_the_rule() -> None:
    game = (TABLE.battlefield("Ann", "Grizzly Bears").battlefield("Ben", "Plains")
            .when(step="declare_blockers").game())
    bears = first(game, "Grizzly Bears")
    game.state.combat = CombatState(attackers={bears: player_ref(BEN)})
    before = game.state.state_hash()
    why = declaration_refusal(game, "blockers", BEN, [(first(game, "Plains"), bears)])
    assert why == "509.1a: Plains can't block Grizzly Bears"
    assert game.state.state_hash() == before
