"""Whole games between seeded random bots: zone and card invariants after every task (and no
state-based action missed before a grant of priority), a deep copy of the state hashing like
the state, games that end, and determinism (same seed and decks, same game)."""

from __future__ import annotations

import copy
import os
import subprocess
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import cast

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spellstack.bots import RandomBot
from spellstack.cards import DECKS, load_cards, load_deck
from spellstack.harness import check_invariants, check_no_sba_missed
from spellstack.rules import (
    Action,
    Answer,
    CardDefinition,
    Decision,
    Game,
    GameState,
    Reply,
    new_game,
    next_task,
    play_sync,
    view_for,
)

ROOT = Path(__file__).resolve().parents[2]
CARDS: Mapping[str, CardDefinition] = load_cards()
DECKLISTS = {name: load_deck(name, CARDS).cards for name in DECKS}
RESOLUTION_DECK = "during_resolution"
"""Electrodominance and Isochron Scepter, which cast spells as they resolve (608.2g, 707.12)."""
DECKLISTS[RESOLUTION_DECK] = load_deck(
    str(Path(__file__).with_name("during_resolution_deck.toml")), CARDS).cards
PLANESWALKER_DECK = "planeswalkers"
"""Jace Beleren and Teferi, Time Raveler (306, 606), with creatures that attack them."""
DECKLISTS[PLANESWALKER_DECK] = load_deck(
    str(Path(__file__).with_name("planeswalker_deck.toml")), CARDS).cards
MAX_TASKS = 50_000
"""Random games take about 600-3,000 tasks, 12,000 when they reach the turn limit (two players
recasting Black Sun's Zenith); a game still going after this many never ends."""
COPY_EVERY = 24
"""The soak deep-copies the state after every COPY_EVERY-th action (an answer other than a
pass; about three times a game, at points spread over the 100 games), and at the start and the
end: this adds about 12% to the soak. A deep copy costs about 20 tasks' worth of play, so
copying after every action would triple its run time, so six further games
(``test_a_deep_copy_hashes_like_the_state_after_every_action``) copy after every action."""


def check_copy_hashes_equal(state: GameState) -> None:
    """The hash is a function of the state's value: a deep copy hashes the same (no object
    identity, memory address or unordered container leaks into it)."""
    copied = copy.deepcopy(state)
    assert copied.state_hash() == state.state_hash(), (
        "a deep copy of the state hashes differently: something identity-dependent is hashed")


def check_finished(state: GameState) -> None:
    """104.2/104.4a: a finished game has a winner, the others lost, or a recorded draw."""
    assert state.game_over
    assert state.end_reason
    if state.winner == -1:
        assert "draw" in state.end_reason
        if "turn limit" in state.end_reason:
            # The tournament-style turn limit: nobody lost, the game is drawn.
            assert state.turn == state.turn_limit and not any(p.lost for p in state.players)
        else:
            assert all(p.lost for p in state.players)
    else:
        assert 0 <= state.winner < len(state.players)
        winner = state.players[state.winner]
        assert winner.won and not winner.lost
        for p in state.players:
            if p.seat != state.winner:
                assert p.lost and p.loss_reason and not p.won


@dataclass
class Played:
    """A finished game and what was asked and answered along the way."""

    game: Game
    tasks: int = 0
    trace: list[tuple[Decision, Reply]] = field(default_factory=list)
    hashes: list[str] = field(default_factory=list)
    copies: int = 0
    """Deep copies checked during play (besides the first and the last state)."""


def play(seed: int, decks: tuple[str, str], *, check: bool = True,
         hash_every_task: bool = False, copy_every: int = COPY_EVERY) -> Played:
    """A whole game between two random bots seeded from ``seed``; with ``check``, the state's
    deep copy is hashed after every ``copy_every``-th action."""
    lists = [DECKLISTS[decks[0]], DECKLISTS[decks[1]]]
    game = new_game(CARDS, [("Ann", lists[0]), ("Ben", lists[1])], seed)
    sizes = [len(cards) for cards in lists]
    played = Played(game)
    bots = [RandomBot(seed * 2 + 1), RandomBot(seed * 2 + 2)]
    actions = [seed % copy_every]  # actions since the last deep copy, starting at an offset

    def answer(decision: Decision) -> Reply:
        reply = bots[decision.player].decide(view_for(game, decision.player), decision)
        played.trace.append((decision, reply))
        if not (isinstance(reply, Action) and reply.kind == "pass"):
            actions[0] += 1
        return reply

    def after_task(g: Game) -> None:
        played.tasks += 1
        if check:
            check_invariants(g.state, sizes)
            check_no_sba_missed(g, next_task(g))
            if actions[0] >= copy_every:
                actions[0] = 0
                played.copies += 1
                check_copy_hashes_equal(g.state)
        if hash_every_task:
            played.hashes.append(g.state.state_hash())

    if check:
        check_invariants(game.state, sizes)
        check_copy_hashes_equal(game.state)
    play_sync(game, answer, after_task, max_tasks=MAX_TASKS)
    if check:
        check_copy_hashes_equal(game.state)
    return played


@pytest.mark.slow
@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 2**32), decks=st.tuples(st.sampled_from(DECKS), st.sampled_from(DECKS)))
def test_random_games_keep_invariants_and_end(seed: int, decks: tuple[str, str]) -> None:
    played = play(seed, decks)
    state = played.game.state
    check_finished(state)
    assert played.tasks < MAX_TASKS
    assert any(d.kind == "priority" for d, _ in played.trace)


@pytest.mark.slow
def test_random_games_casting_spells_during_resolution_keep_invariants_and_end() -> None:
    # 608.2g: the bots answer every question of a spell cast as another resolves, and copies
    # of cards (707.12) come and go (704.5e) without breaking an invariant.
    asked = 0
    for seed in range(6):
        played = play(seed, (RESOLUTION_DECK, RESOLUTION_DECK))
        check_finished(played.game.state)
        assert played.tasks < MAX_TASKS
        # Isochron Scepter's "you may"s (608.2d), and the casting choices of a spell cast during
        # resolution, which only then are asked as questions.
        asked += sum(1 for d, _ in played.trace
                     if d.prompt.startswith(("608.2", "601.2", "601.3e", "700.2")))
    assert asked > 0


@pytest.mark.slow
def test_random_games_with_planeswalkers_keep_invariants_and_end() -> None:
    # 606: the bots activate loyalty abilities (offered only when legal: once each turn, as a
    # sorcery, a minus only with the loyalty for it) and 508.1b: attack planeswalkers.
    activated = attacked = 0
    for seed in range(6):
        played = play(seed, (PLANESWALKER_DECK, PLANESWALKER_DECK if seed % 2 else "gruul"))
        check_finished(played.game.state)
        assert played.tasks < MAX_TASKS
        for decision, reply in played.trace:
            if isinstance(reply, Action) and reply.kind == "activate":
                option = next(o for o in decision.actions if o.object_id == reply.object_id
                              and o.ability == reply.ability)
                activated += option.name in ("Jace Beleren", "Teferi, Time Raveler")
            if decision.kind == "attackers" and isinstance(reply, Answer):
                walkers = {c.key for c in decision.choices if c.ref >= 100 and c.name in (
                    "Jace Beleren", "Teferi, Time Raveler")}
                attacked += sum(1 for _, d in reply.pairs if d in walkers)
    assert activated > 0
    assert attacked > 0


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.slow
def test_a_deep_copy_hashes_like_the_state_after_every_action(seed: int) -> None:
    # The sampled check above spreads copies over many games; these games copy after each one.
    played = play(seed, (DECKS[seed % len(DECKS)], DECKS[(seed + 1) % len(DECKS)]), copy_every=1)
    actions = sum(1 for _, r in played.trace if not (isinstance(r, Action) and r.kind == "pass"))
    assert played.copies == actions > 0


def test_invariant_checker_notices_a_lost_card() -> None:
    # The checker must be able to fail: take a card out of a library behind the kernel's back.
    game = new_game(CARDS, [("Ann", DECKLISTS[DECKS[0]]), ("Ben", DECKLISTS[DECKS[1]])], 7)
    check_invariants(game.state, [60, 60])
    lost = game.state.players[0].library.pop()
    with pytest.raises(AssertionError, match="in no zone list"):
        check_invariants(game.state, [60, 60])
    del game.state.objects[lost]
    with pytest.raises(AssertionError, match="lost or duplicated"):
        check_invariants(game.state, [60, 60])


def test_invariant_checker_notices_a_wrong_zone() -> None:
    game = new_game(CARDS, [("Ann", DECKLISTS[DECKS[0]]), ("Ben", DECKLISTS[DECKS[1]])], 7)
    oid = game.state.players[1].hand[0]
    game.state.objects[oid].zone = "graveyard"
    with pytest.raises(AssertionError, match="listed in hand but in another zone"):
        check_invariants(game.state, [60, 60])


def test_copy_check_notices_an_identity_dependent_state() -> None:
    # The deep-copy check must be able to fail: a value hashed by its address.
    game = new_game(CARDS, [("Ann", DECKLISTS[DECKS[0]]), ("Ben", DECKLISTS[DECKS[1]])], 7)
    check_copy_hashes_equal(game.state)
    # In an object's counters: the compiled build checks the type of each field it assigns, but
    # not what a dict holds.
    game.state.objects[game.state.players[0].hand[0]].counters = {"charge": cast(int, object())}
    with pytest.raises(AssertionError, match="a deep copy of the state hashes differently"):
        check_copy_hashes_equal(game.state)


def test_invariant_checker_notices_negative_damage_and_counters() -> None:
    game = new_game(CARDS, [("Ann", DECKLISTS[DECKS[0]]), ("Ben", DECKLISTS[DECKS[1]])], 7)
    obj = game.state.objects[game.state.players[0].hand[0]]
    obj.damage = -1
    with pytest.raises(AssertionError, match="negative damage"):
        check_invariants(game.state, [60, 60])
    obj.damage = 0
    obj.counters = {"+1/+1": -1}  # its own dict: one without counters shares NO_COUNTERS
    with pytest.raises(AssertionError, match="has counters"):
        check_invariants(game.state, [60, 60])


def test_invariant_checker_notices_a_card_in_two_zones() -> None:
    game = new_game(CARDS, [("Ann", DECKLISTS[DECKS[0]]), ("Ben", DECKLISTS[DECKS[1]])], 7)
    st = game.state
    st.players[0].graveyard.append(st.players[0].hand[0])
    with pytest.raises(AssertionError, match="listed in graveyard but in another zone"):
        check_invariants(st, [60, 60])


@pytest.mark.slow
def test_same_seed_same_game() -> None:
    # Seed 10 with these decks asks every kind of decision the pool can ask (priority, choose,
    # order, attackers, blockers, divide) in about 1,200 tasks.
    decks = (DECKS[0], DECKS[-1])
    first = play(10, decks, check=False, hash_every_task=True)
    second = play(10, decks, check=False, hash_every_task=True)
    assert first.game.state.game_over
    assert {d.kind for d, _ in first.trace} >= {"priority", "choose", "attackers", "blockers"}
    assert first.game.state.state_hash() == second.game.state.state_hash()
    assert [(d.kind, d.id, d.player) for d, _ in first.trace] == [
        (d.kind, d.id, d.player) for d, _ in second.trace]
    assert first.trace == second.trace
    assert first.hashes == second.hashes
    # A different seed gives a different game, so equality above means something.
    other = play(11, decks, check=False)
    assert other.game.state.state_hash() != first.game.state.state_hash()
    assert other.trace != first.trace


FINAL_HASH = """
import sys
from spellstack.bots import RandomBot
from spellstack.cards import load_cards, load_deck
from spellstack.rules import new_game, play_sync, view_for
cards = load_cards()
seed, a, b = int(sys.argv[1]), sys.argv[2], sys.argv[3]
game = new_game(cards, [("Ann", load_deck(a, cards).cards), ("Ben", load_deck(b, cards).cards)],
                seed)
bots = [RandomBot(seed * 2 + 1), RandomBot(seed * 2 + 2)]
play_sync(game, lambda d: bots[d.player].decide(view_for(game, d.player), d))
print(game.state.state_hash())
"""


@pytest.mark.parametrize("hash_seed", ["0", "12345"])
def test_same_game_in_another_process(hash_seed: str) -> None:
    # Byte for byte across processes: nothing may depend on str hashing or set order.
    seed, decks = 99, (DECKS[-1], DECKS[0])
    env = {**os.environ, "PYTHONPATH": os.pathsep.join((str(ROOT / "src"), str(ROOT))), "PYTHONHASHSEED": hash_seed}
    done = subprocess.run([sys.executable, "-c", FINAL_HASH, str(seed), *decks], cwd=ROOT,
                          env=env, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == play(seed, decks, check=False).game.state.state_hash()

