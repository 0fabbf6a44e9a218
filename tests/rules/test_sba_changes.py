"""704.3 in proportion to what changed (``GameState.sba``, an ``SBAChanges``): each change a
state-based action reads is marked where it is made and nothing else is, a check looks only at
what was marked, and, as an oracle, a look at everything (``sba_would_apply``) finds nothing
whenever priority is about to be granted: no change went unmarked."""

from __future__ import annotations

import copy
from collections.abc import Callable

import pytest

from spellstack.bots import RandomBot
from spellstack.cards import load_cards, load_deck
from spellstack.harness import BENCH_DECKS as DECKS
from spellstack.rules import (
    Action,
    Game,
    deal_damage,
    default_answer,
    draw_cards,
    move_object,
    new_game,
    next_task,
    play_sync,
    resolve_top,
    run_proc,
    sba_would_apply,
    state_based_actions,
    take_action,
    view_for,
)
from spellstack.rules.layers import add_counters
from spellstack.rules.registry import TURN_ACTIONS
from spellstack.rules.state import CombatState, player_ref
from spellstack.rules.zones import gain_life, lose_life
from spellstack.scenarios import build_game

CARDS = load_cards()


def at_priority(alice: dict[str, object], bob: dict[str, object] | None = None) -> Game:
    """A game set up as a scenario, played on until a player is about to receive priority."""
    game, _ = build_game({"players": ["alice", "bob"], "alice": alice, "bob": bob or {}}, 0,
                         CARDS, "test")
    play_sync(game, default_answer, max_tasks=20, until=lambda g, task: task == "priority")
    return game


def obj_named(game: Game, name: str) -> int:
    return next(o.id for o in game.state.objects.values() if o.name == name)


def test_a_new_game_is_checked_in_full_and_a_clean_check_leaves_nothing_marked() -> None:
    game = new_game(CARDS, [("a", load_deck("gruul", CARDS).cards),
                            ("b", load_deck("orzhov", CARDS).cards)], 3)
    assert game.state.sba.everything and next_task(game) == "check_sba"
    assert run_proc(state_based_actions(game), default_answer) == ()
    assert not game.state.sba and next_task(game) == "priority"


# ------------------------------------------------------------------ what is marked


def _bears(game: Game) -> int:
    return obj_named(game, "Grizzly Bears")


MARKS: list[tuple[str, Callable[[Game], None], str]] = [
    ("losing life", lambda g: lose_life(g, 1, 3), "players"),
    ("damage to a player", lambda g: deal_damage(g, g.state.objects[_bears(g)], 2, 2), "players"),
    ("damage to a creature", lambda g: deal_damage(g, g.state.objects[_bears(g)], _bears(g), 1),
     "objects"),
    ("drawing from an empty library", lambda g: draw_cards(g, 1, 1), "players"),
    ("a token leaving the battlefield",
     lambda g: move_object(g, obj_named(g, "Soldier"), "graveyard"), "tokens"),
    ("a counter", lambda g: add_counters(g, g.state.objects[_bears(g)], "+1/+1", 1), "board"),
    ("a card entering the battlefield",
     lambda g: move_object(g, obj_named(g, "Forest"), "battlefield"), "board"),
]


@pytest.mark.parametrize(("what", "change", "field"), MARKS, ids=[m[0] for m in MARKS])
def test_a_change_an_sba_reads_is_marked(what: str, change: Callable[[Game], None],
                                         field: str) -> None:
    game = at_priority({"battlefield": ["Grizzly Bears", {"token": "Soldier"}],
                        "hand": ["Forest"]})
    assert not game.state.sba
    change(game)
    assert getattr(game.state.sba, field), what
    assert next_task(game) == "check_sba"


UNMARKED: list[tuple[str, Callable[[Game], None]]] = [
    ("gaining life", lambda g: gain_life(g, 0, 3)),
    ("a card from hand to graveyard", lambda g: move_object(g, obj_named(g, "Forest"), "graveyard")),
    ("drawing a card", lambda g: draw_cards(g, 0, 1)),
    ("a pass", lambda g: take_action(g, 0, Action("pass"))),
]


@pytest.mark.parametrize(("what", "change"), UNMARKED, ids=[m[0] for m in UNMARKED])
def test_a_change_no_sba_reads_is_not_marked(what: str, change: Callable[[Game], None]) -> None:
    game = at_priority({"battlefield": ["Grizzly Bears"], "hand": ["Forest"],
                        "library": ["Island"]})
    game.state.cycle = "priority"
    change(game)
    assert not game.state.sba, what


def test_a_check_looks_only_at_what_was_marked() -> None:
    # Two creatures with lethal damage: one dealt it by the kernel (marked), one given it
    # behind the kernel's back (not marked). The check destroys only the first; the look at
    # everything finds the second, which is how the oracle below notices a missing mark.
    game = at_priority({"battlefield": ["Grizzly Bears", "Hill Giant"]})
    bears, giant = obj_named(game, "Grizzly Bears"), obj_named(game, "Hill Giant")
    deal_damage(game, game.state.objects[giant], bears, 2)
    game.state.objects[giant].damage = 3
    events = run_proc(state_based_actions(game), default_answer)
    assert isinstance(events, tuple) and events
    assert bears not in game.state.objects and giant in game.state.objects
    assert sba_would_apply(game) == ("Hill Giant destroyed: lethal damage (704.5g)",)
    # After a check that performed actions, the next one looks at everything.
    assert game.state.sba.everything
    run_proc(state_based_actions(game), default_answer)
    assert giant not in game.state.objects
    assert run_proc(state_based_actions(game), default_answer) == ()
    assert not game.state.sba and sba_would_apply(game) == ()


def test_after_a_spell_resolves_a_check_of_what_it_changed_is_due_and_after_an_ability_a_full_one() -> None:
    # The design skips the check's round trip only when nothing happened: a resolution always
    # makes one due. A spell's looks at what its resolution marked; an ability's at everything
    # (whether an ability is on the stack is read by 704.5s and 704.5t, and marked by nothing).
    game = at_priority({"battlefield": ["Forest", "Forest"], "hand": ["Elvish Visionary"],
                        "library": ["Island", "Island"]})
    game.state.cycle = "priority"
    take_action(game, 0, Action("cast", obj_named(game, "Elvish Visionary")))
    play_sync(game, default_answer, max_tasks=20, until=lambda g, task: task == "resolve")
    run_proc(resolve_top(game), default_answer)
    sba = game.state.sba
    assert sba.due and not sba.everything and sba.board  # the creature entered: the board
    assert next_task(game) == "check_sba"
    run_proc(state_based_actions(game), default_answer)
    assert not game.state.sba
    play_sync(game, default_answer, max_tasks=20, until=lambda g, task: task == "resolve")
    assert [game.state.objects[i].ability_kind for i in game.state.stack] == ["triggered"]
    run_proc(resolve_top(game), default_answer)  # the Visionary's "draw a card"
    assert game.state.sba.everything and next_task(game) == "check_sba"


def test_combat_ending_after_a_permanent_was_attacked_marks_the_board() -> None:
    # 704.5w reads whether a creature attacks a battle: when combat ends (511.3), no creature
    # does any more, and a battle whose protector left the game while it was attacked must be
    # looked at again. (A four-player soak game found the check missing.)
    game = at_priority({"battlefield": ["Grizzly Bears", "Hill Giant"]})
    bears, giant = obj_named(game, "Grizzly Bears"), obj_named(game, "Hill Giant")
    combat_ends = TURN_ACTIONS["combat_ends"].act
    assert combat_ends is not None and not game.state.sba
    game.state.combat = CombatState(attackers={bears: player_ref(1)})  # a player attacked
    combat_ends(game)
    assert not game.state.sba and game.state.combat is None
    game.state.combat = CombatState(attackers={bears: giant})  # a permanent attacked
    combat_ends(game)
    assert game.state.sba.board and game.state.combat is None


def test_the_look_at_everything_changes_nothing() -> None:
    game = at_priority({"battlefield": ["Isamaru, Hound of Konda", "Grizzly Bears"],
                        "hand": ["Isamaru, Hound of Konda"]})
    move_object(game, game.state.players[0].hand[0], "battlefield")
    bears = game.state.objects[obj_named(game, "Grizzly Bears")]
    bears.deathtouch_damage = True
    before, marks = game.state.state_hash(), copy.deepcopy(game.state.sba)
    found = sba_would_apply(game)
    assert found == ("Grizzly Bears destroyed: damage from a deathtouch source (704.5h)",
                     "alice keeps one Isamaru, Hound of Konda (704.5j)")
    assert game.state.state_hash() == before and bears.deathtouch_damage
    assert game.state.sba == marks and game.state.decisions == {}


def test_the_changes_are_no_part_of_the_hash_and_a_deep_copy_carries_them() -> None:
    game = at_priority({"battlefield": ["Grizzly Bears"]})
    before = game.state.state_hash()
    game.state.sba.objects.add(obj_named(game, "Grizzly Bears"))
    game.state.sba.board = True
    assert game.state.state_hash() == before
    copied = copy.deepcopy(game.state)
    assert copied.sba == game.state.sba and copied.sba.objects is not game.state.sba.objects


# ------------------------------------------------------------------ the oracle


def _nothing_missed(log: list[int]) -> Callable[[Game, str], bool]:
    """A ``play_sync`` stop condition that never stops: before each grant of priority, the look
    at everything must find nothing (the skipped or partial check missed nothing)."""
    def until(game: Game, task: str) -> bool:
        if task == "priority":
            found = sba_would_apply(game)
            assert not found, f"turn {game.state.turn} {game.state.step}: missed {found}"
            log[0] += 1
        return False
    return until


@pytest.mark.parametrize("seed", range(4))
def test_bench_games_through_the_kernel_miss_no_state_based_action(seed: int) -> None:
    # The bench's games (its decks and seeded bots), driven without actors.
    lists = [load_deck(d, CARDS).cards for d in DECKS]
    game = new_game(CARDS, [(DECKS[0], lists[0]), (DECKS[1], lists[1])], seed)
    bots = [RandomBot(2 * seed + 1), RandomBot(2 * seed + 2)]
    grants = [0]
    play_sync(game, lambda d: bots[d.player].decide(view_for(game, d.player), d),
              until=_nothing_missed(grants))
    assert game.state.game_over and grants[0] > 100
