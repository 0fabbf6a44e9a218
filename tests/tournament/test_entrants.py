"""Entrants: bot specs (built-in, module:Class, file.py:Class), the entrant form
[NAME=]BOT@DECK, the built-in entrants, and every refusal naming its spec."""

from __future__ import annotations

import re
import sys
import textwrap
from pathlib import Path

import pytest

from spellstack import play_one_game
from spellstack.bots import HeuristicBot, RandomBot
from spellstack.cards import DECKS, load_cards, load_deck
from spellstack.tournament import (
    BUILT_IN_BOTS,
    Entrant,
    EntrantError,
    built_in_entrants,
    load_bot,
    parse_entrant,
)

CARDS = load_cards()
LISTS = Path(__file__).resolve().parents[1] / "cards" / "decklists"

SEEDED = '''
from spellstack.rules import default_answer


class Seeded:
    """Remembers its seed; answers everything with the default."""

    def __init__(self, seed):
        self.seed = seed

    def decide(self, view, decision):
        return default_answer(decision)
'''
"""A bot file whose class takes the seed."""

UNSEEDED = '''
from dataclasses import dataclass, field

from spellstack.rules import default_answer


@dataclass
class Plain:
    """Takes no seed (a dataclass: its module must be findable while it is defined)."""

    calls: int = field(default=0, init=False)

    def decide(self, view, decision):
        self.calls += 1
        return default_answer(decision)


def make(seed):
    return Plain()


class NoDecide:
    pass


class NotCallable:
    decide = 3


class Fails:
    def __init__(self, seed):
        raise ValueError(f"no bot for seed {seed}")


class TwoParameters:
    def __init__(self, seed, depth):
        pass

    def decide(self, view, decision):
        return default_answer(decision)


class KeywordOnly:
    def __init__(self, *, seed):
        pass

    def decide(self, view, decision):
        return default_answer(decision)


class Unprintable(Exception):
    def __str__(self):
        raise RuntimeError("no")


class FailsBadly:
    def __init__(self):
        raise Unprintable()

    def decide(self, view, decision):
        return default_answer(decision)


Fails.decide = Plain.decide
'''
"""A bot file with a class that takes no seed, and classes and things that aren't bots."""


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text), "utf-8")
    return path


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A working folder with bots/seeded.py and bots/plain.py; on sys.path as well, so that
    ``seeded_<n>`` and ``plain_<n>`` modules (names unique to the test) import."""
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "bots" / "seeded.py", SEEDED)
    write(tmp_path / "bots" / "plain.py", UNSEEDED)
    monkeypatch.syspath_prepend(str(tmp_path / "modules"))
    return tmp_path


def module(here: Path, name: str, text: str) -> str:
    """A module ``name`` (unique to the test: imports are cached by name) on sys.path."""
    write(here / "modules" / f"{name}.py", text)
    return name


# --- the built-in bot -------------------------------------------------------------------------


def test_random_is_the_built_in_random_bot_called_with_its_seed() -> None:
    assert dict(BUILT_IN_BOTS) == {"random": RandomBot, "heuristic": HeuristicBot}
    assert load_bot("heuristic") is HeuristicBot
    factory = load_bot("random")
    assert factory is RandomBot
    bots = [factory(9), RandomBot(9)]
    assert [b.rng.below(1_000_000) for b in bots] == [RandomBot(9).rng.below(1_000_000)] * 2


def test_the_built_in_bots_cant_be_changed() -> None:
    with pytest.raises(TypeError):
        BUILT_IN_BOTS["mine"] = RandomBot  # type: ignore[index]


# --- module:Class -----------------------------------------------------------------------------


def test_a_module_class_is_called_with_its_seed(here: Path) -> None:
    name = module(here, "seeded_a", SEEDED)
    factory = load_bot(f"{name}:Seeded", trust=True)
    one, two = factory(7), factory(7)
    assert one is not two and type(one).__name__ == "Seeded"
    assert (one.seed, two.seed, factory(8).seed) == (7, 7, 8)  # type: ignore[attr-defined]


def test_a_class_that_takes_no_parameter_is_called_with_nothing(here: Path) -> None:
    name = module(here, "plain_a", UNSEEDED)
    bot = load_bot(f"{name}:Plain", trust=True)(5)
    assert type(bot).__name__ == "Plain" and bot.calls == 0  # type: ignore[attr-defined]


def test_a_class_of_an_installed_package() -> None:
    factory = load_bot("spellstack.bots:RandomBot", trust=True)
    assert isinstance(factory(3), RandomBot)
    assert factory(3).rng.below(1_000_000) == RandomBot(3).rng.below(1_000_000)


def test_a_class_inside_a_class(here: Path) -> None:
    name = module(here, "nested_a", "from spellstack.bots import RandomBot\n\n"
                                    "class Holder:\n    Inner = RandomBot\n")
    assert isinstance(load_bot(f"{name}:Holder.Inner", trust=True)(1), RandomBot)


# --- path/to/file.py:Class --------------------------------------------------------------------


def test_a_file_class_by_a_path_relative_to_the_working_folder(here: Path) -> None:
    bot = load_bot("bots/seeded.py:Seeded", trust=True)(11)
    assert bot.seed == 11  # type: ignore[attr-defined]
    assert load_bot("bots/plain.py:Plain", trust=True)(11).calls == 0  # type: ignore[attr-defined]


def test_a_file_is_loaded_once_and_files_of_the_same_name_dont_clash(here: Path) -> None:
    write(here / "a" / "bot.py", "class Bot:\n    side = 'a'\n    def decide(self, view, d): ...\n")
    write(here / "b" / "bot.py", "class Bot:\n    side = 'b'\n    def decide(self, view, d): ...\n")
    a, b = load_bot("a/bot.py:Bot", trust=True)(1), load_bot("b/bot.py:Bot", trust=True)(1)
    assert (a.side, b.side) == ("a", "b")  # type: ignore[attr-defined]
    assert type(load_bot("a/bot.py:Bot", trust=True)(2)) is type(a)
    assert type(load_bot(str(here / "a" / "bot.py") + ":Bot", trust=True)(2)) is type(a)  # same file
    modules = {type(a).__module__, type(b).__module__}
    assert len(modules) == 2 and all(m.startswith("spellstack_bot_bot_") for m in modules)
    assert "bot" not in sys.modules  # not under the file's own name


def test_a_file_that_failed_to_load_loads_once_mended(here: Path) -> None:
    write(here / "mend.py", "raise ValueError('not yet')\n")
    with pytest.raises(EntrantError, match="not yet"):
        load_bot("mend.py:Bot", trust=True)
    write(here / "mend.py", "class Bot:\n    def decide(self, view, d): ...\n")
    assert type(load_bot("mend.py:Bot", trust=True)(0)).__name__ == "Bot"


async def test_a_file_bot_plays_a_whole_game(here: Path) -> None:
    factory = load_bot("bots/plain.py:Plain", trust=True)
    bot = factory(1)
    _, result = await play_one_game(["gruul", "orzhov"], [bot, RandomBot(2)], 1,
                                    names=["plain", "random"])
    assert result.winner in ("plain", "random", None) and result.forfeits == []
    assert bot.calls > 0  # type: ignore[attr-defined]


# --- refusals ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("spec", "message"), [
    ("mybot", "bot 'mybot': not a built-in bot and no ':CLASS' (a built-in bot (random, "
              "heuristic), MODULE:CLASS, path/to/FILE.py:CLASS or stdio:COMMAND)"),
    ("Random", "bot 'Random': not a built-in bot and no ':CLASS'"),
    (":Bot", "bot ':Bot': a module or file before the ':' and a class after it"),
    ("bots/seeded.py:", "bot 'bots/seeded.py:': a module or file before the ':' and a class "
                        "after it"),
    ("bots/seeded:Seeded", "bot 'bots/seeded:Seeded': 'bots/seeded' is neither a module name "
                           "nor a .py file"),
    (".relative:Bot", "bot '.relative:Bot': '.relative' is neither a module name nor a .py file"),
])
def test_a_spec_not_of_a_known_form(here: Path, spec: str, message: str) -> None:
    with pytest.raises(EntrantError, match=re.escape(message)):
        load_bot(spec, trust=True)


def test_a_module_not_found(here: Path) -> None:
    with pytest.raises(EntrantError, match=re.escape(
            "bot 'no_such_bot_module:Bot': no module 'no_such_bot_module' (is it installed, or "
            "on PYTHONPATH?)")):
        load_bot("no_such_bot_module:Bot", trust=True)
    with pytest.raises(EntrantError, match=re.escape(
            "bot 'spellstack.no_such:Bot': no module 'spellstack.no_such'")):
        load_bot("spellstack.no_such:Bot", trust=True)


@pytest.mark.parametrize(("name", "source", "raised"), [
    ("raises_value", "raise ValueError('bad   config\\nfile')\n", r"ValueError: bad config file"),
    ("raises_missing", "import no_such_dependency_xyz\n",
     r"ModuleNotFoundError: No module named 'no_such_dependency_xyz'"),
    ("raises_exit", "import sys\nsys.exit(3)\n", r"SystemExit: 3"),
    ("raises_syntax", "def broken(:\n", r"SyntaxError: .*line 1\)"),
    ("raises_long", f"raise RuntimeError('{'x' * 500}')\n", r"RuntimeError: x{197}\.\.\."),
])
def test_a_module_that_raises_while_imported(here: Path, name: str, source: str, raised: str) -> None:
    module(here, name, source)
    with pytest.raises(EntrantError, match="^" + re.escape(f"bot '{name}:Bot': importing {name!r} "
                                                           "raised ") + raised + "$"):
        load_bot(f"{name}:Bot", trust=True)


def test_a_file_that_raises_while_run(here: Path) -> None:
    write(here / "boom.py", "1 / 0\n")
    # Other tests may have loaded a boom.py of their own; this load must add no module.
    before = {m for m in sys.modules if m.startswith("spellstack_bot_boom_")}
    with pytest.raises(EntrantError, match=re.escape(
            "bot 'boom.py:Bot': running 'boom.py' raised ZeroDivisionError: division by zero")):
        load_bot("boom.py:Bot", trust=True)
    assert {m for m in sys.modules if m.startswith("spellstack_bot_boom_")} == before


def test_a_file_not_found_or_a_folder(here: Path) -> None:
    with pytest.raises(EntrantError, match=re.escape(
            "bot 'bots/none.py:Bot': no file 'bots/none.py' (a path is relative to the working "
            "folder)")):
        load_bot("bots/none.py:Bot", trust=True)
    with pytest.raises(EntrantError, match=r"^bot 'x+\.\.\.x+\.py:Bot': can't read 'x+\.\.\.x+\.py': .+$"):
        load_bot("x" * 5000 + ".py:Bot", trust=True)
    (here / "dir.py").mkdir()
    with pytest.raises(EntrantError, match=re.escape("bot 'dir.py:Bot': 'dir.py' is a folder, "
                                                     "not a Python file")):
        load_bot("dir.py:Bot", trust=True)


@pytest.mark.parametrize(("attr", "message"), [
    ("Nope", "'bots/plain.py' has no 'Nope'"),
    ("Plain.nope", "'bots/plain.py' has no 'Plain.nope'"),
    ("make", "'make' is not a class (it is a function)"),
    ("textwrap", "'textwrap' is not a class"),
    ("NoDecide", "class 'NoDecide' has no decide method (the Bot API)"),
    ("NotCallable", "class 'NotCallable' has no decide method"),
])
def test_not_a_bot_class(here: Path, attr: str, message: str) -> None:
    write(here / "bots" / "plain.py", UNSEEDED + "\nimport textwrap\n")
    with pytest.raises(EntrantError, match=re.escape(f"bot 'bots/plain.py:{attr}': {message}")):
        load_bot(f"bots/plain.py:{attr}", trust=True)


@pytest.mark.parametrize(("attr", "message"), [
    ("Fails", "Fails(0) raised ValueError: no bot for seed 0"),
    ("TwoParameters", "TwoParameters(0) raised TypeError: "),
    ("KeywordOnly", "KeywordOnly() raised TypeError: "),
    ("FailsBadly", "FailsBadly() raised Unprintable: (its message can't be shown)"),
])
def test_a_class_that_cant_be_built_with_a_seed(here: Path, attr: str, message: str) -> None:
    with pytest.raises(EntrantError, match=re.escape(f"bot 'bots/plain.py:{attr}': {message}")
                       + r".*a bot class is called with its seed, or with nothing if it takes "
                         r"no parameter\)$"):
        load_bot(f"bots/plain.py:{attr}", trust=True)


# --- entrants ---------------------------------------------------------------------------------


def test_an_entrant_of_the_random_bot_and_a_built_in_deck() -> None:
    entrant = parse_entrant("random@gruul", CARDS, trust=True)
    assert (entrant.name, entrant.bot, entrant.deck) == ("random-gruul", "random",
                                                         load_deck("gruul", CARDS))
    assert entrant.factory is RandomBot


def test_an_entrant_named_and_not(here: Path) -> None:
    assert parse_entrant("alice=random@orzhov", CARDS, trust=True).name == "alice"
    assert parse_entrant(" Big-Spell = bots/seeded.py:Seeded @ dimir ", CARDS, trust=True).name == "Big-Spell"
    mine = parse_entrant("bots/seeded.py:Seeded@dimir", CARDS, trust=True)
    assert (mine.name, mine.bot, mine.deck.name) == ("seeded-dimir", "bots/seeded.py:Seeded", "dimir")
    assert mine.factory(4).seed == 4  # type: ignore[attr-defined]
    assert parse_entrant("spellstack.bots:RandomBot@gruul", CARDS, trust=True).name == "randombot-gruul"


def test_an_entrant_with_a_decklist_file(here: Path) -> None:
    (here / "my=lists").mkdir()
    for name in ("red-green.txt", "white-weenie.txt"):
        (here / "my=lists" / name).write_text((LISTS / name).read_text("utf-8"), "utf-8")
    arena = parse_entrant("random@my=lists/red-green.txt", CARDS, trust=True)  # an '=' after the '@'
    assert (arena.name, len(arena.deck.cards)) == ("random-Red-Green-Stompy", 60)
    mtgo = parse_entrant("ww=bots/plain.py:Plain@my=lists/white-weenie.txt", CARDS, trust=True)
    assert (mtgo.name, mtgo.deck.name, mtgo.bot) == ("ww", "white-weenie", "bots/plain.py:Plain")


def test_entrants_compare_without_their_factories() -> None:
    deck = load_deck("gruul", CARDS)
    assert Entrant("a", "random", deck, RandomBot) == Entrant("a", "random", deck, lambda s: RandomBot(s))
    assert repr(Entrant("a", "random", deck, RandomBot)) == ("Entrant(name='a', bot='random', "
                                                             "deck=Deck('gruul', 60 cards))")


FORM = "an entrant is [NAME=]BOT@DECK, like random@gruul or mine=bots/mine.py:MyBot@gruul"


@pytest.mark.parametrize(("text", "message"), [
    ("random", f"entrant 'random': {FORM}"),
    ("random@", f"entrant 'random@': {FORM}"),
    ("@gruul", f"entrant '@gruul': {FORM}"),
    ("me=@gruul", f"entrant 'me=@gruul': {FORM}"),
    ("=random@gruul", "entrant '=random@gruul': a name is 1 to 60 printable characters, not ''"),
    ("a\tb=random@gruul", "entrant 'a\\tb=random@gruul': a name is 1 to 60 printable characters"),
    ("x" * 61 + "=random@gruul", "a name is 1 to 60 printable characters"),
    ("ann lee=random@gruul", "entrant 'ann lee=random@gruul': a name holds no spaces (the standings "
                             "are columns split at spaces), not 'ann lee': write 'ann-lee'"),
    ("randon@gruul", "entrant 'randon@gruul': bot 'randon': not a built-in bot and no ':CLASS'"),
    ("random@grull", "entrant 'random@grull': deck: no built-in deck or deck file 'grull' "
                     "(built-in: dimir, gruul, orzhov)"),
])
def test_an_entrant_refused(text: str, message: str) -> None:
    with pytest.raises(EntrantError, match=re.escape(message)):
        parse_entrant(text, CARDS, trust=True)


def test_an_entrant_whose_deck_names_an_unknown_card(here: Path) -> None:
    (here / "deck.txt").write_text("20 Forest\n20 Mountian\n", "utf-8")
    with pytest.raises(EntrantError, match=re.escape(
            "entrant 'random@deck.txt': deck: deck.txt: line 2 '20 Mountian': unknown card "
            "'Mountian' (did you mean 'Mountain'?)")):
        parse_entrant("random@deck.txt", CARDS, trust=True)


def test_an_entrant_whose_bot_file_raises_keeps_the_cause(here: Path) -> None:
    write(here / "boom.py", "1 / 0\n")
    with pytest.raises(EntrantError, match=r"^entrant 'x=boom\.py:Bot@gruul': bot 'boom\.py:Bot': "
                                           r"running 'boom\.py' raised ZeroDivisionError") as err:
        parse_entrant("x=boom.py:Bot@gruul", CARDS, trust=True)
    assert isinstance(err.value.__cause__, ZeroDivisionError)


# --- the built-in entrants --------------------------------------------------------------------


def test_the_built_in_entrants_are_the_random_bot_with_each_built_in_deck() -> None:
    entrants = built_in_entrants(CARDS)
    assert DECKS == ("dimir", "gruul", "orzhov")
    assert [(e.name, e.bot, e.deck.name) for e in entrants] == [
        ("random-dimir", "random", "dimir"), ("random-gruul", "random", "gruul"),
        ("random-orzhov", "random", "orzhov")]
    assert all(e.factory is RandomBot and e.deck == load_deck(e.deck.name, CARDS)
               for e in entrants)


# --- docs/bots.md -----------------------------------------------------------------------------


def test_the_bots_pages_entrants_are_read_as_it_says(here: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    page = (Path(__file__).resolve().parents[2] / "docs" / "bots.md").read_text("utf-8")
    bot = re.findall(r"^```python\n(.*?)^```$", page, flags=re.S | re.M)[0]
    write(here / "bots" / "big.py", bot)
    write(here / "path" / "mybots" / "big.py", bot)
    monkeypatch.syspath_prepend(str(here / "path"))
    (here / "red-green.txt").write_text((LISTS / "red-green.txt").read_text("utf-8"), "utf-8")
    section = page[page.index("## Your bot in a game, a chat or a tournament"):]
    lines = re.findall(r"```text\n(.*?)```", section, re.S)[0].splitlines()
    entrants = [parse_entrant(line, CARDS, trust=True) for line in lines]
    assert [(e.name, e.deck.name) for e in entrants] == [
        ("random-gruul", "gruul"), ("big", "orzhov"),
        ("bigspellbot-Red-Green-Stompy", "Red-Green Stompy")]
    said = " ".join(section.split())
    assert "`random-gruul` for the first line above, `bigspellbot-Red-Green-Stompy` for the third" in said
    bots = [e.factory(5) for e in entrants]
    assert isinstance(bots[0], RandomBot)
    assert [type(b).__name__ for b in bots[1:]] == ["BigSpellBot", "BigSpellBot"]
    assert type(bots[1]).__module__.startswith("spellstack_bot_big_")
    assert type(bots[2]).__module__ == "mybots.big"


def test_a_name_made_from_a_decks_name_has_a_dash_for_each_space(here: Path) -> None:
    (here / "izzet.txt").write_text("About\nName Izzet Tempo\n\nDeck\n20 Island\n20 Mountain\n", "utf-8")
    assert parse_entrant("heuristic@izzet.txt", CARDS).name == "heuristic-Izzet-Tempo"
