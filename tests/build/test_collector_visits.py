"""The cyclic collector sees each reference a game's objects hold exactly once.

The collector finds garbage by subtracting, from each object's reference count, one for every
time another object's traversal visits it. A compiled class that visits a value more often than
it holds references to it (a subclass declaring a base class's attribute again did) makes a value
that is still in use look like garbage: collected with the game's reference cycle, it is emptied
in place. These run in both builds; in pure Python they check the interpreter's own classes."""

from __future__ import annotations

import gc
import sys
import types
from collections import Counter
from collections.abc import Iterator

from spellstack.harness._bench_kernel import KernelDriver, bench_bots, new_bench_game
from spellstack.rules.game import Game
from spellstack.rules.state import GameState

SEED = 4
"""A bench game long enough to fill every cache (its state was emptied in the faulty build)."""


def _played() -> Game:
    driver = KernelDriver(new_bench_game(SEED), bench_bots(SEED))
    driver.run()
    return driver.game


def _reachable(root: object) -> Iterator[object]:
    """Every object the collector's traversals reach from ``root``, each once, short of classes,
    modules and functions (through them, the whole interpreter)."""
    seen = {id(root): root}
    todo = [root]
    while todo:
        for x in gc.get_referents(todo.pop()):
            if id(x) not in seen and not isinstance(x, _BEYOND):
                seen[id(x)] = x
                todo.append(x)
    yield from seen.values()


_BEYOND = (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType)


def test_no_object_is_visited_more_often_than_it_is_referenced() -> None:
    game = _played()
    gc.collect()
    gc.disable()  # nothing freed meanwhile: every count is read with nothing else running
    try:
        objects = list(_reachable(game))
        visits: Counter[int] = Counter()
        for o in objects:
            for x in gc.get_referents(o):
                visits[id(x)] += 1
        # Each object's own references: ``objects`` and the loop's name hold one each, and
        # ``getrefcount`` its argument; every visit counted comes from an object in ``objects``.
        over = sorted({f"{type(x).__qualname__} (visited {visits[id(x)]} times, "
                       f"{sys.getrefcount(x) - 3} references)"
                       for x in objects if visits[id(x)] > sys.getrefcount(x) - 3})
    finally:
        gc.enable()
    assert len(objects) > 1000 and over == []


def test_a_state_kept_outlives_its_game() -> None:
    game = _played()
    state: GameState = game.state
    before = state.state_hash()
    del game  # compiled, the game is a reference cycle: only the collector frees it
    gc.collect()
    assert state.state_hash() == before  # emptied in place, it raised AttributeError here
    assert state.objects and state.game_over
