"""The characteristics engine (613): layer order, timestamps (613.7), dependencies (613.8),
durations (514.2, 611.2b), copy, control, text and colour layers, and the cache."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import trio

from spellstack.cards import load_card_file, load_cards
from spellstack.rules import CardDefinitionError, Game, GameObject
from spellstack.rules.layers import add_counters, add_effect, become_copy, characteristics, end_durations, new_effect
from spellstack.scenarios import build_game, run_scenario

CARDS = {**load_cards(), **load_card_file(Path(__file__).with_name("test_only_cards.toml"))}


def board(alice: list[Any], bob: list[Any] | None = None,
          hand: list[str] | None = None) -> tuple[Game, dict[str, GameObject]]:
    """A game with these permanents (in this order: later ones are newer, 613.7a), and the
    objects by label (or by card name when unlabelled and unique)."""
    setup: dict[str, Any] = {"players": ["alice", "bob"],
                             "alice": {"battlefield": alice, "hand": hand or []},
                             "bob": {"battlefield": bob or []}}
    game, labels = build_game(setup, 0, CARDS, "test")
    st = game.state
    by_card = {o.card: o for o in st.objects.values()}
    out = {label: by_card[card] for label, card in labels.items()}
    for o in st.objects.values():
        out.setdefault(o.name, o)
    return game, out


def fresh(game: Game, obj: GameObject) -> Any:
    """The object's characteristics computed from scratch (a cold cache)."""
    game.changed()
    return characteristics(game, obj)


# ------------------------------------------------------------------ printed values and 7a


def test_printed_values_when_nothing_applies() -> None:
    game, o = board(["Grizzly Bears"])
    c = characteristics(game, o["Grizzly Bears"])
    assert (c.name, c.card_types, c.subtypes, c.colors, c.power, c.toughness, c.controller) == (
        "Grizzly Bears", ("Creature",), ("Bear",), ("G",), 2, 2, 0)


def test_maro_cda_counts_cards_in_hand_in_every_zone() -> None:
    """604.3/613.4a: a characteristic-defining ability works on the battlefield and in hand."""
    game, o = board([{"card": "Maro", "label": "maro"}], hand=["Island", "Island", "Maro"])
    assert (game.power(o["maro"]), game.toughness(o["maro"])) == (3, 3)
    in_hand = next(x for x in game.state.objects.values() if x.zone == "hand" and x.name == "Maro")
    assert game.power(in_hand) == 3


def test_counters_apply_in_7c_after_a_setting_effect() -> None:
    """613.4b/613.4c: Nature's Revolt sets a land to 2/2; a +1/+1 counter then makes it 3/3."""
    game, o = board(["Nature's Revolt", {"card": "Forest", "label": "f"}])
    add_counters(game, o["f"], "+1/+1", 1)
    assert (game.power(o["f"]), game.toughness(o["f"])) == (3, 3)
    assert game.is_creature(o["f"]) and game.is_type(o["f"], "Land")


def test_switch_applies_last_in_7d() -> None:
    """613.4d: +2/+0 then switching: a 2/2 becomes 4/2, then 2/4."""
    game, o = board([{"card": "Grizzly Bears", "label": "b"}])
    bears = o["b"]
    add_effect(game, new_effect(game, "switch_pt", (), (bears.id,), bears, "end_of_turn"))
    add_effect(game, new_effect(game, "modify_pt", (("power", 2),), (bears.id,), bears,
                                "end_of_turn"))
    assert (game.power(bears), game.toughness(bears)) == (2, 4)


# ------------------------------------------------------------------ timestamps (613.7)


@pytest.mark.parametrize(("order", "expected"), [
    (["Nature's Revolt", "Living Plane"], (1, 1)),
    (["Living Plane", "Nature's Revolt"], (2, 2)),
])
def test_setting_effects_apply_in_timestamp_order(order: list[str],
                                                  expected: tuple[int, int]) -> None:
    """613.7a: two layer-7b effects on lands: the newer one wins."""
    game, o = board([*order, {"card": "Forest", "label": "f"}])
    assert (game.power(o["f"]), game.toughness(o["f"])) == expected


@pytest.mark.parametrize(("order", "haste"), [
    (["Dress Down", "Concordant Crossroads"], True),
    (["Concordant Crossroads", "Dress Down"], False),
])
def test_ability_adding_and_removing_apply_in_timestamp_order(order: list[str], haste: bool) -> None:
    """613.7: Dress Down and Concordant Crossroads are independent (neither is a creature):
    the newer effect wins in layer 6."""
    game, o = board([*order, {"card": "Grizzly Bears", "label": "b"}])
    assert game.has_keyword(o["b"], "haste") is haste


# ------------------------------------------------------------------ dependencies (613.8)


@pytest.mark.parametrize("order", [["Nature's Revolt", "Test Terraform"],
                                   ["Test Terraform", "Nature's Revolt"]])
def test_an_effect_that_changes_what_another_applies_to_goes_first(order: list[str]) -> None:
    """613.8a: "all lands are 2/2 creatures" depends on "all permanents are lands" (which
    changes the set it applies to), so whatever the timestamps, Terraform applies first and
    every permanent ends a 2/2 land creature. (By timestamp alone, with Nature's Revolt older,
    Terraform itself would be a land but not a creature.)"""
    game, o = board(order)
    terraform = o["Test Terraform"]
    assert game.is_creature(terraform) and game.is_type(terraform, "Land")
    assert (game.power(terraform), game.toughness(terraform)) == (2, 2)


@pytest.mark.parametrize("order", [["Dress Down", "Test Wind Lord"],
                                   ["Test Wind Lord", "Dress Down"]])
def test_an_effect_whose_ability_another_removes_depends_on_it(order: list[str]) -> None:
    """613.8a(b): Wind Lord's "creatures you control have flying" exists only while Wind Lord
    has the ability; Dress Down removes it, so Dress Down applies first and nobody flies (even
    when Wind Lord is newer)."""
    game, o = board([*order, {"card": "Grizzly Bears", "label": "b"}])
    assert not game.has_keyword(o["b"], "flying")
    assert not game.has_keyword(o["Test Wind Lord"], "flying")
    assert not game.abilities(o["Test Wind Lord"])


def test_without_dress_down_wind_lord_grants_flying() -> None:
    game, o = board(["Test Wind Lord", {"card": "Grizzly Bears", "label": "b"}],
                    bob=[{"card": "Grizzly Bears", "label": "theirs"}])
    assert game.has_keyword(o["b"], "flying")
    assert not game.has_keyword(o["theirs"], "flying")


def test_an_effect_keeps_its_set_in_later_layers() -> None:
    """613.6: March of the Machines decides in layer 4 which artifacts it animates, and sets the
    P/T of those same objects in 7b (to each one's mana value)."""
    game, o = board(["March of the Machines", {"card": "Bonesplitter", "label": "eq"}])
    eq = o["eq"]
    assert game.is_creature(eq) and (game.power(eq), game.toughness(eq)) == (1, 1)


# ------------------------------------------------------------------ layers 1, 2, 3, 5


def test_copy_effect_takes_the_originals_copiable_values() -> None:
    """707.2/613.2: a copy has the original's name, types, P/T and abilities; later effects
    still apply on top (a +1/+1 counter)."""
    game, o = board([{"card": "Isamaru, Hound of Konda", "label": "orig"},
                     {"card": "Clone", "label": "clone"}])
    become_copy(game, o["clone"], o["orig"], o["clone"])
    add_counters(game, o["clone"], "+1/+1", 1)
    c = characteristics(game, o["clone"])
    assert (c.name, c.supertypes, c.power, c.toughness) == ("Isamaru, Hound of Konda",
                                                           ("Legendary",), 3, 3)


def test_a_copy_of_a_copy_copies_the_copiable_values() -> None:
    """707.2: the copiable values of a copy are what it copied."""
    game, o = board([{"card": "Grizzly Bears", "label": "orig"}, {"card": "Clone", "label": "a"},
                     {"card": "Clone", "label": "b"}])
    become_copy(game, o["a"], o["orig"], o["a"])
    become_copy(game, o["b"], o["a"], o["b"])
    assert characteristics(game, o["b"]).name == "Grizzly Bears"


def test_a_copy_exception_is_copied_down_a_chain_of_copies() -> None:
    """707.9b/707.3: a token made "except it isn't legendary" (Double Major's) has that in its
    copiable values: a copy of it, and a copy of that copy, aren't legendary; a copy of the
    real legend is."""
    game, o = board([{"card": "Isamaru, Hound of Konda", "label": "legend"},
                     {"card": "Isamaru, Hound of Konda", "label": "token"},
                     {"card": "Clone", "label": "a"}, {"card": "Clone", "label": "b"},
                     {"card": "Clone", "label": "c"}])
    o["token"].except_supertypes = ("Legendary",)
    game.changed()
    become_copy(game, o["a"], o["token"], o["a"])
    become_copy(game, o["b"], o["a"], o["b"])
    become_copy(game, o["c"], o["legend"], o["c"])
    got = {k: (fresh(game, o[k]).name, fresh(game, o[k]).supertypes) for k in ("token", "a", "b", "c")}
    isamaru = "Isamaru, Hound of Konda"
    assert got == {"token": (isamaru, ()), "a": (isamaru, ()), "b": (isamaru, ()),
                   "c": (isamaru, ("Legendary",))}


def test_a_copy_of_a_face_down_permanent_is_a_face_up_nameless_2_2() -> None:
    """707.2/708.2: the copiable values of a face-down permanent are the face-down ones: the
    copy is a face-up 2/2 creature with no name, colour, mana cost, subtypes or abilities; the
    original stays face down."""
    game, o = board([{"card": "Clone", "label": "clone"}],
                    bob=[{"card": "Exalted Angel", "label": "angel", "face_down": True}])
    become_copy(game, o["clone"], o["angel"], o["clone"])
    c = fresh(game, o["clone"])
    assert (c.name, c.mana_cost, c.mana_value, c.colors, c.card_types, c.subtypes, c.supertypes,
            c.keywords, c.abilities, c.power, c.toughness) == (
        "", None, 0, (), ("Creature",), (), (), (), (), 2, 2)
    assert not o["clone"].face_down and o["angel"].face_down
    o["angel"].face_down = False  # turned face up: the copy's values were fixed as it began
    assert (fresh(game, o["clone"]).power, fresh(game, o["angel"]).power) == (2, 4)


def test_control_change_until_end_of_turn_ends_in_cleanup() -> None:
    """Layer 2 and 514.2: the controller changes, then changes back when the effect ends."""
    game, o = board(["Mountain"], bob=[{"card": "Grizzly Bears", "label": "b"}])
    bears = o["b"]
    add_effect(game, new_effect(game, "gain_control", (), (bears.id,), o["Mountain"],
                                "end_of_turn"))
    assert game.controller(bears) == 0 and bears in game.controlled(0)
    end_durations(game, "cleanup")
    assert game.controller(bears) == 1 and bears not in game.controlled(0)


def test_text_change_redirects_a_colour_word() -> None:
    """612.2/layer 3: "white creatures get +1/+1" changed to "black creatures get +1/+1"."""
    game, o = board(["Test White Anthem", {"card": "Savannah Lions", "label": "lions"}],
                    bob=[{"card": "Typhoid Rats", "label": "rats"}])
    lions, rats, anthem = o["lions"], o["rats"], o["Test White Anthem"]
    assert (game.power(lions), game.power(rats)) == (3, 1)
    add_effect(game, new_effect(game, "change_text", (("from", "white"), ("to", "black")),
                                (anthem.id,), anthem, "indefinite"))
    assert (game.power(lions), game.power(rats)) == (2, 2)


def test_colour_change_in_layer_5_feeds_a_filter_in_layer_7c() -> None:
    """Layer 5 applies before 7c: a creature made white gets the anthem's bonus."""
    game, o = board(["Test White Anthem", "Test Whitewash", {"card": "Grizzly Bears", "label": "b"}])
    assert game.colors(o["b"]) == ("W",)
    assert game.power(o["b"]) == 3


def test_colour_change_from_a_spell_ends_at_end_of_turn() -> None:
    game, o = board(["Test White Anthem", {"card": "Grizzly Bears", "label": "b"}])
    bears = o["b"]
    add_effect(game, new_effect(game, "set_colors", (("colors", "W"),), (bears.id,), bears,
                                "end_of_turn"))
    assert game.colors(bears) == ("W",) and game.power(bears) == 3
    end_durations(game, "cleanup")
    assert game.colors(bears) == ("G",) and game.power(bears) == 2


def test_until_your_next_turn_survives_other_turns() -> None:
    """611.2b: "until your next turn" lasts through the opponent's turn, ends as yours begins."""
    game, o = board(["Swamp"], bob=[{"card": "Hill Giant", "label": "g"}])
    giant = o["g"]
    add_effect(game, new_effect(game, "modify_pt", (("power", -2),), (giant.id,), o["Swamp"],
                                "your_next_turn"))
    st = game.state
    end_durations(game, "cleanup")
    st.active = 1
    end_durations(game, "turn_start")  # bob's turn begins: not alice's
    assert game.power(giant) == 1
    st.active = 0
    end_durations(game, "turn_start")
    assert game.power(giant) == 3


def test_a_locked_effect_does_not_follow_the_object_to_a_new_zone() -> None:
    """611.2c/400.7: the effect's set is locked; the object that returns is a new one."""
    from spellstack.rules import move_object

    game, o = board([{"card": "Grizzly Bears", "label": "b"}])
    bears = o["b"]
    add_effect(game, new_effect(game, "modify_pt", (("power", 3),), (bears.id,), bears,
                                "end_of_turn"))
    assert game.power(bears) == 5
    back = move_object(game, move_object(game, bears.id, "hand").id, "battlefield")
    assert game.power(back) == 2


def test_last_known_characteristics_are_those_on_the_battlefield() -> None:
    """603.10/608.2h: a land creature that left is remembered as a creature."""
    from spellstack.rules import move_object

    game, o = board(["Nature's Revolt", {"card": "Forest", "label": "f"}])
    forest = o["f"]
    move_object(game, forest.id, "graveyard")
    gone = game.state.lki[forest.id]
    assert game.is_creature(gone) and game.power(gone) == 2


# ------------------------------------------------------------------ the cache


def test_the_cache_is_dropped_by_every_relevant_change() -> None:
    """Counters, effects and zone changes each move the epoch; the cached answer is the fresh one."""
    from spellstack.rules import move_object

    game, o = board([{"card": "Grizzly Bears", "label": "b"}], hand=["Forest", "Nature's Revolt"])
    bears = o["b"]
    assert characteristics(game, bears) is characteristics(game, bears)  # cached
    epoch = game.caches.epoch
    add_counters(game, bears, "+1/+1", 2)
    assert game.caches.epoch > epoch and game.power(bears) == 4
    revolt = next(x for x in game.state.objects.values() if x.name == "Nature's Revolt")
    move_object(game, revolt.id, "battlefield")
    forest = next(x for x in game.state.objects.values() if x.name == "Forest")
    land = move_object(game, forest.id, "battlefield")
    assert game.power(land) == 2 and characteristics(game, land) == fresh(game, land)


def test_a_stable_card_stays_in_the_cache_when_the_epoch_moves() -> None:
    """A card with no static ability in a hand keeps its printed values until it changes zones
    (400.7): a new epoch keeps its entry (no miss), while a permanent's is computed again."""
    game, o = board(["Grizzly Bears"], hand=["Forest"])
    forest, bears = o["Forest"], o["Grizzly Bears"]
    kept = characteristics(game, forest)
    characteristics(game, bears)
    game.changed()
    assert game.caches.layers.get(forest.id) is kept and bears.id not in game.caches.layers
    assert characteristics(game, forest) == fresh(game, forest)


def test_random_games_cached_answers_match_fresh_ones() -> None:
    """Over whole games with layer cards, every cached answer equals a cold recomputation (a
    mutation that forgot to move the epoch would show here)."""
    from spellstack.bots import RandomBot
    from spellstack.rules import new_game, play_sync, view_for

    deck = (["Forest"] * 10 + ["Island"] * 6 + ["Nature's Revolt", "Living Plane", "Maro",
            "Dress Down", "Concordant Crossroads", "Soul Warden", "Blood Artist", "Giant Growth",
            "Grizzly Bears", "Clone", "March of the Machines", "Bonesplitter", "Naturalize"] * 2)
    # Without Maro, moves that don't touch the battlefield keep the cache: checked too.
    no_maro = [c if c != "Maro" else "Grizzly Bears" for c in deck]
    checked = 0
    for seed in range(4):
        cards = deck if seed % 2 else no_maro
        game = new_game(CARDS, [("a", cards), ("b", cards)], seed, turn_limit=12)
        bots = [RandomBot(seed * 2 + i) for i in range(2)]

        def answer(decision: Any, game: Game = game, bots: list[RandomBot] = bots) -> Any:
            return bots[decision.player].decide(view_for(game, decision.player), decision)

        def check(g: Game) -> None:
            nonlocal checked
            st = g.state
            ids = list(st.battlefield) + list(st.players[0].hand)
            cached = {i: characteristics(g, st.objects[i]) for i in ids}
            board = st.sba.board
            g.changed()
            st.sba.board = board  # only the cache was dropped: nothing changed (704.3)
            for i in ids:
                assert characteristics(g, st.objects[i]) == cached[i], st.objects[i].name
            checked += len(ids)

        play_sync(game, answer, on_action=check)
    assert checked > 100


# ------------------------------------------------------------------ resolution verbs, card data


def run(data: dict[str, Any]) -> None:
    trio.run(run_scenario, data, "test", CARDS)


def test_a_text_changing_spell_resolves_into_a_layer_3_effect() -> None:
    run({"title": "t", "setup": {
        "players": ["alice", "bob"],
        "alice": {"hand": ["Test Color Swap"],
                  "battlefield": ["Island", {"card": "Test White Anthem", "label": "anthem"},
                                  {"card": "Savannah Lions", "label": "lions"}]},
        "bob": {"battlefield": [{"card": "Typhoid Rats", "label": "rats"}]}},
        "step": [{"cast": "Test Color Swap", "targets": ["anthem"]},
                 {"resolve": 1, "expect": {"objects": {"lions": {"power": 2},
                                                       "rats": {"power": 2}}}}]})


def test_a_twist_and_a_borrow_resolve_and_end() -> None:
    run({"title": "t", "setup": {
        "players": ["alice", "bob"],
        "alice": {"hand": ["Test Borrow", "Test Twist"],
                  "battlefield": ["Mountain", "Mountain", "Island"]},
        "bob": {"battlefield": [{"card": "Hill Giant", "label": "g"}]}},
        "step": [{"cast": "Test Borrow", "targets": ["g"]},
                 {"resolve": 1, "expect": {"objects": {"g": {"controller": "alice"}}}},
                 {"cast": "Test Twist", "targets": ["g"]},
                 {"resolve": 1, "expect": {"objects": {"g": {"power": 3, "toughness": 3}}}},
                 {"advance": "end", "expect": {"objects": {"g": {"controller": "alice"}}}},
                 {"advance": "upkeep", "expect": {"active": "bob",
                                                  "objects": {"g": {"controller": "bob"}}}}]})


@pytest.mark.parametrize(("table", "match"), [
    ('affected = "nobody"\neffects = [{ verb = "set_pt", power = 1 }]', "unknown affected word"),
    ('affected = "creatures"\neffects = [{ verb = "fly" }]', "unknown layer verb 'fly'"),
    ('affected = "creatures"\neffects = [{ verb = "set_pt", power = "lots" }]',
     "'lots' is not a valid value"),
    ('affected = "creatures"\neffects = [{ verb = "set_base_pt_cda", power = 1 }]',
     "affected must be 'self'"),
    ('affected = "creatures"\neffects = [{ verb = "add_abilities", keywords = ["zooming"] }]',
     "unknown keyword 'zooming'"),
])
def test_static_abilities_are_checked_at_load(table: str, match: str) -> None:
    text = ('[[card]]\nname = "Bad"\ncost = "{1}"\ntype = "Enchantment"\ntext = "X."\n'
            f'[[card.static]]\ntext = "X."\n{table}\n')
    with pytest.raises(CardDefinitionError, match=f"bad.toml: card 'Bad': static\\[0\\].*{match}"):
        load_card_file("bad.toml", text)


def test_every_reader_sees_the_layer_2_controller() -> None:
    """Layer 2 answers "who controls it" for mana abilities, the player's view and combat."""
    from spellstack.rules import mana_sources, view_for

    game, o = board(["Mountain"], bob=[{"card": "Forest", "label": "f"},
                                       {"card": "Grizzly Bears", "label": "b"}])
    forest, bears = o["f"], o["b"]
    for obj in (forest, bears):
        add_effect(game, new_effect(game, "gain_control", (), (obj.id,), o["Mountain"],
                                    "indefinite"))
    assert forest.id in [s.source_id for s in mana_sources(game, 0)]
    assert forest.id not in [s.source_id for s in mana_sources(game, 1)]
    shown = {v.id: v.controller for v in view_for(game, 1).battlefield}
    assert (shown[forest.id], shown[bears.id]) == (0, 0)
    assert [x.id for x in game.controlled(1)] == []


def test_a_copy_of_working_values_copies_every_attribute() -> None:
    # 613.8a: an effect is tried on a copy; the copy names the attributes (``_COPIED``) where
    # the compiled build has no __slots__ to read them from.
    from spellstack.rules.layers._working import _COPIED, Working, copy_working

    if hasattr(Working, "__slots__"):  # pure Python: the two lists agree
        assert set(Working.__slots__) == set(_COPIED)
    game, _ = build_game({"players": ["alice", "bob"],
                          "alice": {"battlefield": [{"card": "Grizzly Bears"}]}}, 1, load_cards(), "test")
    obj = game.state.objects[game.state.battlefield[0]]
    w = Working(obj, 1)
    w.name, w.power, w.toughness = "Bear", 2, 3
    w.colors.append("G")
    c = copy_working(w)
    assert (c.obj, c.controller, c.name, c.power, c.colors) == (obj, 1, "Bear", 2, ["G"])
    assert all(getattr(c, name) == getattr(w, name) for name in _COPIED)
    assert c.colors is not w.colors  # lists are copied, not shared
