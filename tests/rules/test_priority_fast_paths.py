"""The priority fast paths: ``only_pass_possible`` is exact (True exactly when passing is the only
legal action, 117.1), permissions included (702.8a flash granted by an effect, 601.2a casting from
a graveyard, exile or the top of a library); ``legal_actions`` answers from its cache only what a
fresh computation would answer; an automatic pass takes no decision id."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spellstack.bots import RandomBot
from spellstack.cards import DECKS, load_card_file, load_cards, load_deck
from spellstack.rules import (
    Action,
    ActionOption,
    CardDefinition,
    Decision,
    Game,
    Reply,
    Task,
    default_answer,
    legal_actions,
    mana_sources,
    move_object,
    new_game,
    only_pass_possible,
    play_land,
    play_sync,
    view_for,
)
from spellstack.rules.casting._legal import _fresh_actions
from spellstack.rules.turn import automatic_pass
from spellstack.scenarios import build_game

HERE = Path(__file__).parent
CARDS: Mapping[str, CardDefinition] = {
    **load_cards(), **load_card_file(HERE / "test_only_cards.toml"),
    **load_card_file(HERE / "test_fast_path_cards.toml")}
PASS_ONLY = (ActionOption("pass"),)


def game_with(alice: dict[str, list[str]], bob: dict[str, list[str]] | None = None,
              step: str = "precombat_main") -> Game:
    game, _ = build_game({"players": ["alice", "bob"], "step": step, "alice": alice,
                          "bob": bob or {}}, 0, CARDS, "test")
    play_sync(game, default_answer, max_tasks=20, until=lambda g, task: task == "priority")
    return game


def only_pass(game: Game, seat: int) -> bool:
    """``only_pass_possible``, checked against a fresh list of legal actions for both seats."""
    for s in (0, 1):
        assert only_pass_possible(game, s) == (_fresh_actions(game, s) == PASS_ONLY)
    return only_pass_possible(game, seat)


def test_flash_for_auras_counts_only_when_the_aura_can_be_paid_for() -> None:
    aid = {"battlefield": ["Plains", "Plains", "Sigarda's Aid"]}
    target = {"battlefield": ["Hill Giant"]}
    assert not only_pass(game_with({**aid, "hand": ["Pacifism"]}, target, "upkeep"), 0)
    tapped_out = {"battlefield": ["Plains", "Sigarda's Aid"], "hand": ["Pacifism"]}
    assert only_pass(game_with(tapped_out, target, "upkeep"), 0)  # {1}{W} from one Plains: no
    # The permission is about Auras and Equipment: a creature card still waits for a main phase.
    assert only_pass(game_with({**aid, "hand": ["Grizzly Bears"]}, target, "upkeep"), 0)


def test_flash_for_creatures_is_only_for_the_permissions_controller() -> None:
    bears = {"hand": ["Grizzly Bears"], "battlefield": ["Forest", "Forest"]}
    game = game_with({**bears, "battlefield": ["Forest", "Forest", "Test Creature Flasher"]},
                     bears, "upkeep")
    assert not only_pass(game, 0)
    assert only_pass(game, 1)


def test_casting_creatures_from_a_graveyard_needs_sorcery_timing_and_mana() -> None:
    recaster = ["Forest", "Forest", "Test Graveyard Recaster"]
    assert not only_pass(game_with({"graveyard": ["Grizzly Bears"], "battlefield": recaster}), 0)
    assert only_pass(game_with({"graveyard": ["Grizzly Bears"], "battlefield": recaster}, {},
                               "upkeep"), 0)
    assert only_pass(game_with({"graveyard": ["Grizzly Bears"],
                                "battlefield": ["Forest", "Test Graveyard Recaster"]}), 0)
    # An instant in the graveyard is not a creature spell: the permission does not reach it.
    assert only_pass(game_with({"graveyard": ["Lightning Bolt"],
                                "battlefield": ["Mountain", "Test Graveyard Recaster"]}, {},
                               "upkeep"), 0)


def test_casting_from_exile_is_for_cards_the_player_owns() -> None:
    caster = ["Mountain", "Test Exile Caster"]
    assert not only_pass(game_with({"exile": ["Lightning Bolt"], "battlefield": caster}, {},
                                   "upkeep"), 0)
    assert only_pass(game_with({"battlefield": caster}, {"exile": ["Lightning Bolt"]}, "upkeep"), 0)


def test_casting_from_a_library_reaches_only_its_top_card() -> None:
    caster = ["Forest", "Forest", "Test Library Top Caster"]
    assert not only_pass(game_with({"library": ["Grizzly Bears", "Forest"], "battlefield": caster}), 0)
    assert only_pass(game_with({"library": ["Lightning Bolt", "Grizzly Bears"],
                                "battlefield": caster}), 0)


def test_the_cache_sees_a_land_tapped_and_mana_added_behind_its_back() -> None:
    game = game_with({"hand": ["Lightning Bolt"], "battlefield": ["Mountain"]}, {}, "upkeep")
    assert [o.kind for o in legal_actions(game, 0)] == ["pass", "cast"]
    mountain = game.state.battlefield[0]
    game.state.objects[mountain].tapped = True
    assert legal_actions(game, 0) == PASS_ONLY
    assert only_pass_possible(game, 0)
    game.state.players[0].mana = {"R": 1}
    assert [o.kind for o in legal_actions(game, 0)] == ["pass", "cast"]
    assert not only_pass_possible(game, 0)


def test_the_cache_sees_a_card_put_into_the_hand() -> None:
    game = game_with({"library": ["Forest", "Lightning Bolt"], "battlefield": ["Mountain"]}, {},
                     "upkeep")
    assert legal_actions(game, 0) == PASS_ONLY
    assert only_pass_possible(game, 0)
    move_object(game, game.state.players[0].library[1], "hand")  # no epoch moves for this
    assert [o.kind for o in legal_actions(game, 0)] == ["pass", "cast"]


def test_the_cache_sees_a_card_reach_a_zone_a_permission_casts_from() -> None:
    game = game_with({"library": ["Forest", "Grizzly Bears"],
                      "battlefield": ["Forest", "Forest", "Test Graveyard Recaster"]})
    assert legal_actions(game, 0) == PASS_ONLY
    move_object(game, game.state.players[0].library[1], "graveyard")  # milled: no epoch moves
    assert [(o.kind, o.name) for o in legal_actions(game, 0)] == [("pass", ""),
                                                                  ("cast", "Grizzly Bears")]
    assert not only_pass_possible(game, 0)


def test_an_automatic_pass_takes_no_decision_id() -> None:
    # Whatever the hand holds (nothing castable by timing, a permission in play, an instant
    # that can't be paid for), the seat is asked nothing, and no id is used: the ids a seat
    # receives count only its own decisions, so they can't tell what another seat holds.
    plain = game_with({"hand": ["Grizzly Bears"], "battlefield": ["Forest", "Forest"]}, {}, "upkeep")
    aid = game_with({"hand": ["Grizzly Bears"], "battlefield": ["Forest", "Sigarda's Aid"]}, {},
                    "upkeep")
    broke = game_with({"hand": ["Lightning Bolt"]}, {}, "upkeep")
    for game in (plain, aid, broke):
        before = dict(game.state.decisions)
        assert only_pass_possible(game, 0) and automatic_pass(game, 0)
        assert game.state.decisions == before
        assert game.state.priority == 1


DECKLISTS = {name: load_deck(name, CARDS).cards for name in DECKS}


@pytest.mark.slow
@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32), decks=st.tuples(st.sampled_from(DECKS), st.sampled_from(DECKS)))
def test_at_every_grant_of_priority_the_cache_and_the_quick_test_agree_with_a_fresh_list(
        seed: int, decks: tuple[str, str]) -> None:
    game = new_game(CARDS, [("Ann", DECKLISTS[decks[0]]), ("Ben", DECKLISTS[decks[1]])], seed)
    bots = [RandomBot(seed * 2 + 1), RandomBot(seed * 2 + 2)]
    grants = [0]

    def check(g: Game, task: Task) -> bool:
        if task == "priority":
            grants[0] += 1
            for seat in (0, 1):  # both seats: the cache of the one without priority ages too
                fresh = _fresh_actions(g, seat)
                if (grants[0] + seat) % 2:  # either may fill the cache first
                    assert only_pass_possible(g, seat) == (fresh == PASS_ONLY)
                    assert legal_actions(g, seat) == fresh
                else:
                    assert legal_actions(g, seat) == fresh
                    assert only_pass_possible(g, seat) == (fresh == PASS_ONLY)
        return False

    def answer(decision: Decision) -> Reply:
        return bots[decision.player].decide(view_for(game, decision.player), decision)

    play_sync(game, answer, max_tasks=50_000, until=check)
    assert game.state.game_over and grants[0] > 0


def reference_mana_sources(game: Game, seat: int) -> list[tuple[int, tuple[str, ...]]]:
    """``mana_sources`` worked out afresh from the battlefield (302.6, 605.1a): the first {T}-only
    mana ability of each untapped permanent ``seat`` controls, lands first, then the rest, each
    in the order they entered."""
    lands, others = [], []
    for oid in game.state.battlefield:
        obj = game.state.objects[oid]
        c = game.characteristics(obj)
        produces = next((ab.tap_mana for _, _, ab in c.activated if ab.tap_mana is not None), None)
        sick = obj.sick and "Creature" in c.card_types and "haste" not in c.keywords
        if c.controller != seat or produces is None or obj.tapped or sick:
            continue
        (lands if "Land" in c.card_types else others).append((oid, produces))
    return lands + others


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32), decks=st.tuples(st.sampled_from(DECKS), st.sampled_from(DECKS)))
@pytest.mark.slow
def test_the_mana_kept_per_epoch_is_the_mana_on_the_battlefield(seed: int, decks: tuple[str, str]) -> None:
    # ``SeatBoard`` is brought up to date as permanents enter: at every task, for both seats,
    # the sources it gives are those a fresh look at the battlefield finds.
    game = new_game(CARDS, [("Ann", DECKLISTS[decks[0]]), ("Ben", DECKLISTS[decks[1]])], seed)
    bots = [RandomBot(seed * 2 + 1), RandomBot(seed * 2 + 2)]
    looks = [0]

    def check(g: Game, task: Task) -> bool:
        for seat in (0, 1):
            looks[0] += 1
            assert [(s.source_id, s.produces) for s in mana_sources(g, seat)] == \
                reference_mana_sources(g, seat)
        return False

    def answer(decision: Decision) -> Reply:
        return bots[decision.player].decide(view_for(game, decision.player), decision)

    play_sync(game, answer, max_tasks=50_000, until=check)
    assert game.state.game_over and looks[0] > 0


def test_a_land_entering_is_listed_among_the_lands_before_other_mana_sources() -> None:
    game = game_with({"hand": ["Forest"], "battlefield": ["Forest", "Test Mana Elf"]})
    forest, elf = game.state.battlefield
    assert [s.source_id for s in mana_sources(game, 0)] == [forest, elf]
    assert play_land(game, 0, Action("play", object_id=game.state.players[0].hand[0])) is None
    played = game.state.battlefield[-1]
    assert game.state.objects[played].name == "Forest"
    assert [s.source_id for s in mana_sources(game, 0)] == [forest, played, elf]
    assert [(s.source_id, s.produces) for s in mana_sources(game, 0)] == reference_mana_sources(game, 0)


def test_a_face_down_permanent_whose_morph_cost_is_payable_is_no_pass_only_grant() -> None:
    # 702.37e: turning it face up is a special action at any priority: with {2}{W}{W} untapped
    # the seat can act; with its lands tapped it can only pass. The seat board keeps which seats
    # have a face-down permanent per epoch.
    game = game_with({"battlefield": [{"card": "Exalted Angel", "face_down": True},
                                      "Plains", "Plains", "Plains", "Plains"]})
    assert not only_pass_possible(game, 0)
    assert "turn_face_up" in [o.kind for o in legal_actions(game, 0)]
    for oid in game.state.battlefield:
        if game.state.objects[oid].name == "Plains":
            game.state.objects[oid].tapped = True
    game.caches.actions.clear()
    assert only_pass_possible(game, 0)
    assert [o.kind for o in legal_actions(game, 0)] == ["pass"]
