"""The kernel's caches are one object (``Game.caches``) and only caches: a game whose caches
are thrown away at random moments asks the same questions, offers the same actions, passes
the same way and ends in the same state as one that keeps them."""

from __future__ import annotations

import ast
import dataclasses
import random
from collections.abc import Mapping
from pathlib import Path

import pytest

from spellstack.bots import RandomBot
from spellstack.cards import DECKS, load_cards, load_deck
from spellstack.rules import (
    CardDefinition,
    Decision,
    Game,
    Reply,
    legal_actions,
    new_game,
    next_task,
    play_sync,
    view_for,
)
from spellstack.rules.casting import only_pass_possible
from spellstack.rules.casting._boards import seat_board
from spellstack.rules.casting._legal import _mana_key
from spellstack.rules.game import Caches
from spellstack.rules.game import _caches as caches_module
from spellstack.rules.layers import LayerCaches

CARDS: Mapping[str, CardDefinition] = load_cards()
DECKLISTS = {name: load_deck(name, CARDS).cards for name in DECKS}


def test_game_has_no_cache_fields_of_its_own() -> None:
    names = [f.name for f in dataclasses.fields(Game)]
    # history_steps: the step of each history event (the chat's feed), no cache. layer_caches:
    # ``caches`` as the layer engine reads it (``LayerHost``'s field, the same object).
    assert names == ["state", "cards", "layer_caches", "events", "history", "history_steps",
                     "collecting", "trace_log", "caches"]


def test_every_cache_is_documented() -> None:
    """Each slot of ``Caches`` is set in ``__init__`` and followed by a docstring saying what it
    holds and what makes it stale."""
    # Read from the file: a compiled build's module has no source to inspect.
    source = Path(str(caches_module.__file__)).with_name("_caches.py").read_text("utf-8")
    init = next(n for n in ast.walk(ast.parse(source))
                if isinstance(n, ast.FunctionDef) and n.name == "__init__")
    documented: set[str] = set()
    for stmt, after in zip(init.body, [*init.body[1:], None], strict=True):
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target] \
            if isinstance(stmt, ast.AnnAssign) else []
        names = [t.attr for t in targets if isinstance(t, ast.Attribute)]
        names += [e.attr for t in targets if isinstance(t, ast.Tuple) for e in t.elts
                  if isinstance(e, ast.Attribute)]
        if names and isinstance(after, ast.Expr) and isinstance(after.value, ast.Constant) \
                and isinstance(after.value.value, str) and len(after.value.value) > 20:
            documented.update(names)
    # The slots as written (a compiled build's class has no ``__slots__`` to read): its own, and
    # those of the layer engine's caches it derives from (``LayerCaches``), which it sets too.
    host = Path(str(caches_module.__file__)).parent.parent.joinpath("layers", "_host.py").read_text("utf-8")
    assert Caches.__mro__[1] is LayerCaches
    slots = {name for text, cls in ((source, "Caches"), (host, "LayerCaches"))
             for name in ast.literal_eval(_slots_of(text, cls))}
    assert documented == slots


def _slots_of(source: str, cls: str) -> ast.expr:
    """The ``__slots__`` written in class ``cls`` of ``source``."""
    body = next(n for n in ast.walk(ast.parse(source)) if isinstance(n, ast.ClassDef) and n.name == cls).body
    return next(n.value for n in body if isinstance(n, ast.Assign)
                and [getattr(t, "id", None) for t in n.targets] == ["__slots__"])


def _play(seed: int, decks: tuple[str, str], drop: float) -> tuple[list[object], str]:
    """One game between random bots; after each task, with probability ``drop`` (a generator of
    the test's own, not the game's), every cache is thrown away. Returns what the game asked
    and answered, what it offered and whether each seat could only pass, at every task."""
    game = new_game(CARDS, [("Ann", DECKLISTS[decks[0]]), ("Ben", DECKLISTS[decks[1]])], seed)
    bots = [RandomBot(seed * 2 + 1), RandomBot(seed * 2 + 2)]
    chance = random.Random(seed)
    log: list[object] = []

    def answer(decision: Decision) -> Reply:
        reply = bots[decision.player].decide(view_for(game, decision.player), decision)
        log.append((decision, reply))
        return reply

    def after_task(g: Game) -> None:
        if chance.random() < drop:
            g.new_caches()
            assert g.layer_caches is g.caches  # the layer engine reads the new ones too
        st = g.state
        if st.game_over:
            return
        task = next_task(g)
        seats = tuple(only_pass_possible(g, s) for s in st.living_seats())
        offered = legal_actions(g, st.priority) if task == "priority" else ()
        log.append((task, seats, offered))

    play_sync(game, answer, after_task, max_tasks=50_000)
    return log, game.state.state_hash()


@pytest.mark.parametrize(("seed", "decks"), [(1, ("gruul", "orzhov")), (2, ("dimir", "gruul")),
                                             (3, ("orzhov", "dimir"))])
def test_throwing_the_caches_away_changes_nothing(seed: int, decks: tuple[str, str]) -> None:
    kept = _play(seed, decks, 0.0)
    dropped = _play(seed, decks, 0.3)
    assert len(kept[0]) > 200  # a whole game was compared
    assert dropped == kept


def test_the_mana_key_tells_apart_every_tapped_and_sick_permanent() -> None:
    """The automatic-pass test's mana key (``_mana_key``) stands for which of a seat's permanents
    are tapped and which are summoning sick: flipping either flag of any one of them gives
    another key, and flipping it back gives the key again."""
    game = new_game(CARDS, [("Ann", DECKLISTS["gruul"]), ("Ben", DECKLISTS["orzhov"])], 4)
    bots = [RandomBot(9), RandomBot(10)]

    def answer(decision: Decision) -> Reply:
        return bots[decision.player].decide(view_for(game, decision.player), decision)

    def enough(g: Game, task: object) -> bool:
        return any(len(seat_board(g, s).permanents) >= 4 for s in g.state.living_seats())

    play_sync(game, answer, until=enough)
    seat = next(s for s in game.state.living_seats() if len(seat_board(game, s).permanents) >= 4)
    permanents = seat_board(game, seat).permanents
    key = _mana_key(game, seat)
    seen = {key}
    for oid in permanents:
        obj = game.state.objects[oid]
        for flag in ("tapped", "sick"):
            setattr(obj, flag, not getattr(obj, flag))
            changed = _mana_key(game, seat)
            assert changed not in seen, (oid, flag)
            seen.add(changed)
            setattr(obj, flag, not getattr(obj, flag))
            assert _mana_key(game, seat) == key
    assert len(seen) == 2 * len(permanents) + 1
