"""What a player reads: the feed tells resolutions and moves to a graveyard or exile, a prompt
leads with words, a question numbers each option once, the header names who is asked for
what, and ``sick`` marks only a creature that can't attack or pay {T} this turn."""

from __future__ import annotations

import asyncio
import re

from spellstack.cards import load_cards
from spellstack.chat import BotSeat, GameHost, Numbering, feed_lines, parse_command, render_question, render_view
from spellstack.chat._game_host import _hasty
from spellstack.chat._render import prompt_words
from spellstack.rules import Answer, Choice, Decision, Event, Game, PlayerView, default_answer, view_for
from spellstack.testing import Table
from tests.chat._driver import User, scripted_seat

CARDS = load_cards()
NAMES = ("ann", "bot")


def test_the_feed_tells_a_resolution_as_its_controllers() -> None:
    lines = feed_lines([Event("resolve", 1, 7, 0, "Divination resolves")], 0, NAMES)
    assert lines == ["  bot's Divination resolves"]


def test_a_discard_to_hand_size_is_told_in_a_real_game() -> None:
    # Seed 1: the random bot (dimir) ends three turns with eight cards and discards one (514.1),
    # and ann two turns later on. The engine logs no step event for a cleanup step (no player
    # gets priority in it): the feed knows each event's step from the game itself.
    async def main() -> User:
        async with GameHost() as host:
            gid = await host.create_game([scripted_seat("ann"), BotSeat("bot", "random")], ["gruul", "dimir"],
                                         seed=1)
            ann = User(host, gid, "ann")
            await ann.play()
            return ann

    told = [line for text in asyncio.run(main()).told for line in text.splitlines()]
    assert [line for line in told if "(hand size)" in line] == [
        "  bot discards Counterspell (hand size)", "  bot discards Divination (hand size)",
        "  bot discards Air Elemental (hand size)", "  ann discards Elvish Visionary (hand size)",
        "  ann discards Grizzly Bears (hand size)"]
    assert not [line for line in told if re.search(r"moves from \w+'s hand to \w+'s graveyard", line)]


def test_only_a_move_from_a_hand_in_a_cleanup_step_is_a_discard_to_hand_size() -> None:
    move = Event("zone", 1, 9, 0, "Serra Angel moves from bot's hand to bot's graveyard")
    assert feed_lines([move], 0, NAMES, steps=["cleanup"]) == ["  bot discards Serra Angel (hand size)"]
    assert feed_lines([move], 0, NAMES, steps=["end"]) == ["  " + move.text]
    assert feed_lines([move], 0, NAMES) == ["  " + move.text]  # no steps known: told as it is


def test_moves_to_a_graveyard_or_exile_are_told_once_and_others_left_to_the_views() -> None:
    events = [
        Event("zone", 0, 3, 0, "Lightning Bolt moves from the stack to ann's graveyard"),
        Event("zone", 1, 4, 0, "Air Elemental moves from the battlefield to exile"),
        Event("destroy", -1, 5, 0, "Grizzly Bears is destroyed"),  # told: its move is not
        Event("zone", 0, 6, 0, "Grizzly Bears moves from the battlefield to ann's graveyard"),
        Event("zone", 1, 8, 0, "Mind Rot moves from bot's hand to bot's graveyard"),
        Event("discard", 1, 8, 0, "bot discards Mind Rot"),  # 701.8 tells its own discard
        Event("zone", 0, 10, 0, "Grizzly Bears moves from the battlefield to ann's hand"),
        Event("zone", 1, 0, 0, "a card moves from bot's library to bot's hand"),
        Event("game_over", -1, 0, 0, "bot wins: ann conceded (104.3a)"),  # the host's last word
    ]
    assert feed_lines(events, 0, NAMES) == [
        "  Lightning Bolt moves from the stack to ann's graveyard",
        "  Air Elemental moves from the battlefield to exile",
        "  Grizzly Bears is destroyed",
        "  bot discards Mind Rot",
    ]


def test_a_private_move_goes_only_to_who_may_see_it() -> None:
    event = Event("zone", 1, 4, 0, "Island moves from bot's library to exile", (1,))
    assert feed_lines([event], 0, NAMES) == []
    assert feed_lines([event], 1, NAMES) == ["  Island moves from bot's library to exile"]


def _table(ann: dict[str, object]) -> Table:
    return Table.from_setup({"players": list(NAMES), "ann": ann, "bot": {"library": ["Island"]}})


HAND = ["Elvish Visionary", "Grizzly Bears", "Forest", "Forest", "Forest", "Forest", "Forest", "Shock"]


def _discard_question(game: Game) -> tuple[PlayerView, Decision]:
    view = view_for(game, 0)
    choices = tuple(Choice(i, o.id, o.name) for i, o in enumerate(view.hand))
    return view, Decision(1, 0, "choose", "514.1: discard 1 card(s)", choices, min=1, max=1)


def test_a_prompt_leads_with_words_and_the_right_plural() -> None:
    view = view_for(_table({"hand": HAND, "library": ["Forest"]}).at_priority(default_answer), 0)
    assert prompt_words(view, "514.1: discard 1 card(s)") == "Discard 1 card: your hand is over seven (514.1)"
    assert prompt_words(view, "701.8: discard 2 card(s)") == "Discard 2 cards (701.8)"
    assert prompt_words(view, "608.2c: follow the instructions in order.") == (
        "Follow the instructions in order (608.2c)")


def test_a_question_numbers_each_option_once_and_says_which_numbers_it_takes() -> None:
    game = _table({"hand": HAND, "library": ["Forest"]}).at_priority(default_answer)
    view, decision = _discard_question(game)
    numbering = Numbering.of(view)
    text = render_question(view, decision, numbering)
    assert text.startswith("> Discard 1 card: your hand is over seven (514.1)\n"
                           "  Answer with a number from 1 to 8.\n")
    first = numbering.numbers[view.hand[0].id]
    assert f"1. #{first} Elvish Visionary" in text and "[" not in text
    # A bare number is the option; #n is the object numbered n; an option past the last is refused.
    assert parse_command("2", view, decision, numbering).reply == Answer(1, (1,))
    assert parse_command(f"#{first + 1}", view, decision, numbering).reply == Answer(1, (1,))
    assert parse_command("9", view, decision, numbering).error == "No option 9: answer with 1 to 8."


def test_the_header_names_who_is_asked_and_for_what() -> None:
    game = _table({"battlefield": [{"card": "Grizzly Bears", "sick": False}], "library": ["Forest"]}).at_priority(
        default_answer)
    view = view_for(game, 0)
    bears = view.battlefield[0].id
    attack = Decision(2, 0, "attackers", "508.1: declare attackers",
                      (Choice(0, bears, "Grizzly Bears"), Choice(1, 2, "bot", group=1)), max=1)
    text, _ = render_view(view, attack)
    assert text.split("\n")[1] == "Turn 1, ann's main 1 | ann to declare attackers"


def test_sick_only_without_haste() -> None:
    game = _table({"battlefield": [{"card": "Raging Goblin", "sick": True},
                                  {"card": "Grizzly Bears", "sick": True}], "library": ["Forest"]}).at_priority(
        default_answer)
    view = view_for(game, 0)
    assert all(o.sick for o in view.battlefield)  # the view's flag is 302.6's, haste or not
    text, _ = render_view(view, None, hasty=_hasty(game))
    assert "  [1] Raging Goblin 1/1, [2] Grizzly Bears 2/2 sick\n" in text
