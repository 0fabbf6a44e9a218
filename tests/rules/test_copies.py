"""707.10: copies of spells. A copy is not cast (601.2i: no "whenever you cast" ability
triggers), copies every choice made for the original, and its controller may choose new targets
for it as one question (707.10c); an answer naming targets that can't be chosen is refused and
asked again."""

from __future__ import annotations

from dataclasses import fields
from pathlib import Path

from spellstack.bots import RandomBot
from spellstack.cards import load_card_file, load_cards
from spellstack.rules import (
    Action,
    Answer,
    Decision,
    Game,
    GameObject,
    Reply,
    default_answer,
    play_sync,
    player_ref,
    priority_decision,
    run_proc,
    take_action,
    view_for,
)
from spellstack.rules.effects import NEW_TARGET_TRIES, copy_spell
from spellstack.scenarios import build_game

CARDS = {**load_cards(), **load_card_file(Path(__file__).with_name("test_only_cards.toml"))}


def game_with(alice: dict[str, list[str]], bob: dict[str, list[str]] | None = None) -> Game:
    game, _ = build_game({"players": ["alice", "bob"], "alice": alice, "bob": bob or {}}, 0,
                         CARDS, "test")
    until_priority(game)
    return game


def card(game: Game, name: str) -> int:
    return next(o.id for o in game.state.objects.values() if o.name == name)


def until_priority(game: Game) -> None:
    play_sync(game, default_answer, max_tasks=50, until=lambda g, task: task == "priority")
    priority_decision(game)


def keep_targets(decision: Decision) -> Reply:
    """Every question answered by default; the new-targets question with "no"."""
    return Answer(decision.id, ()) if decision.kind == "choose" else default_answer(decision)


def resolve(game: Game, n: int) -> None:
    """All pass and the top of the stack resolves, ``n`` times."""
    done = game.state.resolutions + n
    play_sync(game, keep_targets, max_tasks=200,
              until=lambda g, task: g.state.resolutions >= done and task == "priority")
    priority_decision(game)


def stack_names(game: Game) -> list[str]:
    st = game.state
    return [("copy: " if st.objects[i].is_copy else "") + st.objects[i].name for i in st.stack]


def test_a_copy_put_on_the_stack_by_twincast_is_not_cast() -> None:
    game = game_with({"hand": ["Lightning Bolt", "Twincast"],
                      "battlefield": ["Mountain", "Island", "Island", "Test Spell Watcher"]})
    st = game.state
    take_action(game, 0, Action("cast", card(game, "Lightning Bolt"), targets=(player_ref(1),)))
    until_priority(game)
    bolt = next(i for i in st.stack if st.objects[i].name == "Lightning Bolt")
    take_action(game, 0, Action("cast", card(game, "Twincast"), targets=(bolt,)))
    until_priority(game)
    # Each cast spell triggered the watcher once (601.2i).
    assert stack_names(game) == ["Lightning Bolt", "Test Spell Watcher", "Twincast",
                                 "Test Spell Watcher"]
    # The watcher's trigger and Twincast resolve; the copy goes on the stack, and nothing
    # triggers: it was not cast (707.10). "no": the copy keeps its target.
    resolve(game, 2)
    assert stack_names(game) == ["Lightning Bolt", "Test Spell Watcher", "copy: Lightning Bolt"]
    assert not st.pending_triggers
    copy = st.objects[st.stack[-1]]
    assert (copy.controller, copy.owner, copy.targets) == (0, 0, (player_ref(1),))


def test_the_kernel_function_copies_every_choice_and_triggers_nothing() -> None:
    game = game_with({"hand": ["Burst Lightning"],
                      "battlefield": ["Mountain"] * 5 + ["Test Spell Watcher"]},
                     {"battlefield": ["Test Spell Watcher"]})
    st = game.state
    take_action(game, 0, Action("cast", card(game, "Burst Lightning"), targets=(player_ref(1),),
                                costs=("kicker",)))
    st.pending_triggers.clear()
    burst = st.objects[st.stack[-1]]
    asked: list[Decision] = []

    def keep(decision: Decision) -> Answer:
        asked.append(decision)
        return Answer(decision.id, ())

    copy = run_proc(copy_spell(game, burst, 1), keep)
    assert copy is not None
    assert [d.kind for d in asked] == ["choose"]
    assert asked[0].player == 1 and asked[0].prompt.startswith("707.10c: ")
    assert (copy.is_copy, copy.controller, copy.owner, copy.cast_costs, copy.targets) == (
        True, 1, 1, ("kicker",), (player_ref(1),))
    assert st.stack[-1] == copy.id
    assert not st.pending_triggers  # not cast: bob's watcher doesn't trigger (601.2i)
    # A copy is part of the state's canonical form; an object with the fields at their
    # defaults hashes as before copies existed.
    names = [f.name for f in fields(GameObject)]
    at = names.index("is_copy")
    assert copy.canonical()[at:at + 2] == (True, ())  # is_copy, except_supertypes
    assert burst.canonical()[at:at + 2] == (False, ())
    head = [f.name for f in fields(GameObject)].index("modes")
    assert len(st.objects[card(game, "Mountain")].canonical()) == head


def _cast_thunder(game: Game) -> int:
    st = game.state
    giant = card(game, "Hill Giant")
    take_action(game, 0, Action("cast", card(game, "Rolling Thunder"), x=3,
                                targets=(giant, player_ref(1)),
                                divide=((giant, 2), (player_ref(1), 1))))
    return st.stack[-1]


THUNDER = {"hand": ["Rolling Thunder"], "battlefield": ["Mountain"] * 5 + ["Grizzly Bears"]}


def test_new_targets_naming_too_few_are_refused_and_asked_again() -> None:
    game = game_with(THUNDER, {"battlefield": ["Hill Giant"]})
    st = game.state
    thunder = st.objects[_cast_thunder(game)]
    bears = card(game, "Grizzly Bears")
    asked: list[Decision] = []

    def answer(decision: Decision) -> Answer:
        asked.append(decision)
        refs = [c.ref for c in decision.choices]
        wanted = (bears,) if len(asked) == 1 else (bears, player_ref(0))
        return Answer(decision.id, tuple(refs.index(r) for r in wanted))

    copy = run_proc(copy_spell(game, thunder, 1), answer)
    assert copy is not None
    assert len(asked) == 2
    assert "refused: name 2 targets" in asked[1].prompt
    # 707.10c: each new target at its position, with that position's share.
    assert copy.targets == (bears, player_ref(0))
    assert copy.divide == ((bears, 2), (player_ref(0), 1))
    assert thunder.targets == (card(game, "Hill Giant"), player_ref(1))


def test_a_player_who_keeps_naming_illegal_targets_keeps_the_old_ones() -> None:
    game = game_with(THUNDER, {"battlefield": ["Hill Giant"]})
    st = game.state
    thunder = st.objects[_cast_thunder(game)]
    asked: list[Decision] = []

    def one(decision: Decision) -> Answer:
        asked.append(decision)
        return Answer(decision.id, (0,))

    copy = run_proc(copy_spell(game, thunder, 1), one)
    assert copy is not None
    assert len(asked) == NEW_TARGET_TRIES
    assert (copy.targets, copy.divide) == (thunder.targets, thunder.divide)


def test_the_random_bot_answers_the_new_targets_question_legally() -> None:
    for seed in range(20):
        game = game_with(THUNDER, {"battlefield": ["Hill Giant"]})
        thunder = game.state.objects[_cast_thunder(game)]
        bot = RandomBot(seed)
        asked: list[Decision] = []

        def answer(decision: Decision, bot: RandomBot = bot, game: Game = game,
                   asked: list[Decision] = asked) -> Answer:
            asked.append(decision)
            reply = bot.decide(view_for(game, 1), decision)
            assert isinstance(reply, Answer)
            return reply

        copy = run_proc(copy_spell(game, thunder, 1), answer)
        assert copy is not None and len(copy.targets) == 2
        assert 1 <= len(asked) <= NEW_TARGET_TRIES
        assert sorted(n for _, n in copy.divide) == [1, 2]
