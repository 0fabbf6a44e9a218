"""601.2c/709.3a: the cast options of a split card offer each half the targets that half's own
characteristics allow (protection reads the half's colours, not the whole card's)."""

from __future__ import annotations

from spellstack.rules import Game, legal_actions
from spellstack.testing import Card, Table


def _candidates(game: Game, face: str) -> tuple[int, ...]:
    option = next(o for o in legal_actions(game, 0) if o.kind == "cast" and o.face == face)
    return option.targets[0].candidates


def test_each_half_is_offered_targets_by_its_own_colour() -> None:
    table = (Table("alice", "bob")
             .hand("alice", "Fire // Ice")
             .battlefield("alice", "Mountain", "Island", "Island")
             .battlefield("bob", Card("Niv-Mizzet, Supreme", label="niv"),
                          Card("Grizzly Bears", label="bears")))
    game = table.at_priority()
    niv, bears = table.obj(game, "niv").id, table.obj(game, "bears").id
    # Protection from monocolored: Fire (red) and Ice (blue) may not target Niv-Mizzet; the card
    # Fire // Ice, blue and red, could.
    for face in ("Fire", "Ice"):
        assert niv not in _candidates(game, face)
        assert bears in _candidates(game, face)
