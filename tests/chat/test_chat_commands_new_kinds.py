"""The text language reaches the actions casting part three added: a loyalty ability is
``activate <planeswalker> [ability N]``, morph is the cost word ``morph``, and turning a
face-down permanent face up is ``turn face up <permanent>`` (a special action, 702.37e). Each
command comes to exactly the action the engine offers, and the engine takes it."""

from __future__ import annotations

from spellstack.cards import load_cards
from spellstack.chat import Numbering, parse_command, render_view
from spellstack.rules import (
    Action,
    Game,
    default_answer,
    play_sync,
    priority_decision,
    take_action,
    view_for,
)
from spellstack.scenarios import build_game

CARDS = load_cards()


def game_with(alice: dict[str, object]) -> Game:
    game, _ = build_game({"players": ["alice", "bob"], "alice": alice,
                          "bob": {"library": ["Island"]}}, 0, CARDS, "chat")
    play_sync(game, default_answer, max_tasks=20, until=lambda g, task: task == "priority")
    return game


def parsed(game: Game, text: str) -> Action:
    """What ``text`` comes to for alice now, after a rendering numbered her view."""
    decision = priority_decision(game)
    view = view_for(game, 0)
    numbering = Numbering()
    render_view(view, decision, numbering)
    reply = parse_command(text, view, decision, numbering).reply
    assert isinstance(reply, Action), parse_command(text, view, decision, numbering)
    return reply


def test_a_loyalty_ability_by_its_number() -> None:
    game = game_with({"battlefield": ["Jace Beleren"], "library": ["Island", "Island"]})
    jace = game.state.battlefield[0]
    action = parsed(game, "activate jace ability 1")  # +2: Each player draws a card.
    assert (action.kind, action.object_id, action.ability) == ("activate", jace, 1)
    assert take_action(game, 0, action) is None
    assert game.state.objects[jace].counters["loyalty"] == 5


def test_casting_face_down_and_turning_face_up() -> None:
    game = game_with({"hand": ["Exalted Angel"],
                      "battlefield": ["Plains", "Plains", "Plains", "Plains", "Plains", "Plains",
                                      "Plains"]})
    cast = parsed(game, "cast angel morph")
    assert cast.kind == "cast" and cast.costs == ("morph",)
    assert take_action(game, 0, cast) is None
    play_sync(game, default_answer, max_tasks=40,
              until=lambda g, task: task == "priority" and not g.state.stack)
    angel = next(o for o in game.state.objects.values() if o.face_down)
    up = parsed(game, "turn face up angel")
    assert (up.kind, up.object_id) == ("turn_face_up", angel.id)
    assert take_action(game, 0, up) is None
    assert not game.state.objects[angel.id].face_down
