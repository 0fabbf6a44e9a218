"""704.5u: who chooses a sector first, and what a game without space sculptor pays."""

from __future__ import annotations

from spellstack.rules import Decision, Game, run_proc, sba_would_apply, state_based_actions
from spellstack.rules.state import Answer
from spellstack.testing import Table


def board(alice: list[str], bob: list[str]) -> Game:
    """A game with these permanents, alice active in her first main phase."""
    return Table("alice", "bob").battlefield("alice", *alice).battlefield("bob", *bob).game()


def test_players_without_space_sculptor_choose_first_then_the_others() -> None:
    # alice (the active player) controls the sculptor: bob chooses first although APNAP
    # order would ask alice first (704.5u).
    game = board(["Sector Sculptor", "Grizzly Bears"], ["Grizzly Bears", "Hill Giant"])
    asked: list[tuple[int, str]] = []

    def answer(decision: Decision) -> Answer:
        asked.append((decision.player, decision.prompt))
        assert [c.name for c in decision.choices] == ["alpha", "beta", "gamma"]
        return Answer(decision.id, (len(asked) % 3,))

    events = run_proc(state_based_actions(game), answer)
    assert asked == [(1, "704.5u: choose a sector for Grizzly Bears"),
                     (1, "704.5u: choose a sector for Hill Giant"),
                     (0, "704.5u: choose a sector for Sector Sculptor"),
                     (0, "704.5u: choose a sector for Grizzly Bears")]
    assert [e.text for e in events] == ["bob assigns Grizzly Bears to the beta sector (704.5u)",
                                        "bob assigns Hill Giant to the gamma sector (704.5u)",
                                        "alice assigns Sector Sculptor to the alpha sector (704.5u)",
                                        "alice assigns Grizzly Bears to the beta sector (704.5u)"]
    assert sorted(o.sector for o in game.state.objects.values() if o.zone == "battlefield") == [
        "alpha", "beta", "beta", "gamma"]
    assert sba_would_apply(game) == ()


def test_without_space_sculptor_a_creature_gets_no_sector() -> None:
    game = board(["Grizzly Bears"], ["Hill Giant"])
    assert run_proc(state_based_actions(game), lambda d: Answer(d.id, (0,))) == ()
    assert all(not o.sector for o in game.state.objects.values())
