"""704.3's look at the permanents: the pickers that pick out, for a check's actions, the
permanents each looks at (creatures, legends, attached ones, with counters, dealt damage...).
Pure Python writes one out for each set of picks; the compiled build loops over the tests in
native code. Both pick exactly the same permanents, in the same order, in every state of a game."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from spellstack.bots import RandomBot
from spellstack.cards import load_cards, load_deck
from spellstack.harness import BENCH_DECKS as DECKS
from spellstack.rules import Game, new_game, play_sync, view_for
from spellstack.rules.sba import _sba
from spellstack.scenarios import build_game

CARDS = load_cards()

WORDS = ("Artifact", "Battle", "Creature", "Enchantment", "Land", "Planeswalker", "attachments",
         "counters", "damaged", "legends", "roles", "worlds")
"""Every word a look or an action picks by (``_LOOK_PICKS``, ``_ONLY_PICKS``), and card types."""
SETS = [list(c) for n in (1, 2, 3, len(WORDS)) for c in itertools.combinations(WORDS, n)]
"""Sets of picks to compare (sorted, as ``_picker`` takes them)."""


def _ids(picked: list[Any]) -> list[int]:
    return [o.id for o, _ in picked]


def _compare(game: Game, counts: dict[str, int]) -> None:
    """Both pickers, over every set of ``SETS``, showing everything and what was marked."""
    st = game.state
    ids = list(st.battlefield)
    for names, everything in itertools.product(SETS, (False, True)):
        written = _sba._written_picker(names, everything)(st.objects, game.caches.layers, ids)
        native = _sba._native_picker(names, everything)(st.objects, game.caches.layers, ids)
        assert list(native[1]) == list(written[1]) == names
        for name in names:
            assert _ids(native[1][name]) == _ids(written[1][name]), (name, st.turn, st.step)
            counts[name] += len(written[1][name])
        if everything:
            assert _ids(list(native[0])) == _ids(list(written[0])) == ids
        else:
            assert native[0] is written[0] is ids


def test_what_each_word_picks() -> None:
    # The words' tests, as the pickers read them: a card type, a supertype, attached or an Aura,
    # counters, damage (or deathtouch damage).
    tests = {name: _sba._NATIVE_TESTS.get(name, (_sba._BY_TYPE, name)) for name in WORDS}
    assert tests["legends"] == (_sba._BY_SUPERTYPE, "Legendary")
    assert tests["worlds"] == (_sba._BY_SUPERTYPE, "World")
    assert tests["attachments"] == tests["roles"] == (_sba._BY_ATTACHMENT, "")
    assert tests["Creature"] == (_sba._BY_TYPE, "Creature")
    assert set(_sba._LOOK_PICKS) | set(_sba._ONLY_PICKS) == set(_sba._NATIVE_TESTS)


def test_both_pickers_pick_the_same_permanents_of_a_varied_board() -> None:
    alice = {"battlefield": [
        "Forest", {"card": "Grizzly Bears", "label": "bears", "damage": 1},
        {"card": "Isamaru, Hound of Konda", "counters": {"+1/+1": 1}},
        {"card": "Pacifism", "attached_to": "bears"}, {"card": "Bonesplitter", "attached_to": "bears"},
        "Bonesplitter", {"card": "Teferi, Time Raveler", "counters": {"loyalty": 2}},
        {"card": "Hill Giant", "damage": 3}]}
    bob = {"battlefield": ["Plains", "Isamaru, Hound of Konda", "Invasion of Gobakhan"]}
    game, _ = build_game({"players": ["alice", "bob"], "alice": alice, "bob": bob}, 0, CARDS, "test")
    counts = dict.fromkeys(WORDS, 0)
    _compare(game, counts)
    # Each word picks something here, but "worlds" (no World in the card pool).
    assert {name for name, n in counts.items() if n} == set(WORDS) - {"worlds"}


@pytest.mark.parametrize("seed", [1, 2])
def test_both_pickers_pick_the_same_permanents_through_a_game(seed: int) -> None:
    lists = [load_deck(d, CARDS).cards for d in DECKS]
    game = new_game(CARDS, [(DECKS[0], lists[0]), (DECKS[1], lists[1])], seed)
    bots = [RandomBot(2 * seed + 1), RandomBot(2 * seed + 2)]
    counts = dict.fromkeys(WORDS, 0)
    looked = [0]

    def until(g: Game, task: str) -> bool:
        if task == "check_sba" and looked[0] % 4 == 0:  # every fourth check: the suite's time
            _compare(g, counts)
        looked[0] += task == "check_sba"
        return False

    play_sync(game, lambda d: bots[d.player].decide(view_for(game, d.player), d), until=until)
    assert game.state.game_over and looked[0] > 40
    assert counts["Creature"] and counts["Land"], counts
