"""The game loop is written once (``rules/turn/_driver.py``): no other module of spellstack
asks ``next_task`` what to do, runs ``run_automatic``, or resumes a kernel procedure with
``.send(`` (a generator's ``send`` is synchronous; every other ``send`` in spellstack is a
channel's or a link's, and awaited). Package ``__init__`` modules may re-export the names.

Its requests are told apart once (``perform``, a ``match`` over the ``LoopRequest`` kinds): no
other module branches on a request's kind; each driver has a method per kind (``LoopDriver``)."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import get_args

import pytest

import spellstack
from spellstack.rules import LoopRequest

ROOT = Path(spellstack.__file__).parent
DRIVER = ROOT / "rules" / "turn" / "_driver.py"
LOOP_NAMES = frozenset({"next_task", "run_automatic"})


def loop_uses(source: str, module: str, *, reexports: bool = False) -> list[str]:
    """Each use in ``source`` of a loop name or of a procedure's ``.send(``, as
    ``module:line: what``. ``reexports``: importing the names is allowed (a package's
    ``__init__``)."""
    tree = ast.parse(source)
    awaited = {id(node.value) for node in ast.walk(tree) if isinstance(node, ast.Await)}
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id in LOOP_NAMES:
            found.append(f"{module}:{node.lineno}: uses {node.id}")
        elif isinstance(node, ast.Attribute) and node.attr in LOOP_NAMES:
            found.append(f"{module}:{node.lineno}: uses .{node.attr}")
        elif isinstance(node, ast.ImportFrom) and not reexports:
            found += [f"{module}:{node.lineno}: imports {alias.name}" for alias in node.names
                      if alias.name in LOOP_NAMES]
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and node.func.attr == "send" and id(node) not in awaited):
            found.append(f"{module}:{node.lineno}: resumes a procedure with .send(")
    return sorted(found, key=lambda f: int(f.split(":")[1]))


COROUTINE_STEPS = "steps.send("
"""The one ``.send(`` outside the driver that resumes no procedure: the player actor's
``_charged`` steps an async policy's coroutine itself, to time each step it holds the loop."""


@pytest.mark.slow
def test_only_the_driver_module_runs_the_loop() -> None:
    found: list[str] = []
    modules = sorted(ROOT.rglob("*.py"))
    assert DRIVER in modules
    for path in modules:
        if path == DRIVER:
            continue
        name = str(path.relative_to(ROOT.parent))
        text = path.read_text(encoding="utf-8")
        lines = text.splitlines()
        found += [f for f in loop_uses(text, name, reexports=path.name == "__init__.py")
                  if not (name == "spellstack/actors/_player.py" and f.endswith("with .send(")
                          and COROUTINE_STEPS in lines[int(f.split(":")[1]) - 1])]
    assert found == [], "\n".join(found)


def test_the_driver_module_is_where_they_are_used() -> None:
    """The check looks at the right things: the driver module itself is full of them."""
    uses = loop_uses(DRIVER.read_text(encoding="utf-8"), "driver")
    assert any("uses next_task" in u for u in uses)
    assert any("uses run_automatic" in u for u in uses)
    assert any(".send(" in u for u in uses)


def test_the_check_fails_on_each_kind_of_use_naming_module_and_line() -> None:
    source = "\n".join([
        "from spellstack.rules import next_task",      # 1
        "import spellstack.rules as rules",             # 2
        "def loop(game, proc, link):",                  # 3
        "    task = next_task(game)",                   # 4
        "    rules.run_automatic(game, [True], task)",  # 5
        "    decision = proc.send(None)",               # 6
        "async def fine(link, msg):",                   # 7
        "    await link.send(msg)",                     # 8
    ])
    assert loop_uses(source, "spellstack/x.py") == [
        "spellstack/x.py:1: imports next_task",
        "spellstack/x.py:4: uses next_task",
        "spellstack/x.py:5: uses .run_automatic",
        "spellstack/x.py:6: resumes a procedure with .send(",
    ]
    assert loop_uses("from .turn import next_task\n", "spellstack/rules/__init__.py",
                     reexports=True) == []


# ---------------------------------------------------------------------- one dispatch

REQUEST_KINDS = frozenset(kind.__name__ for kind in get_args(LoopRequest))
"""The names of the ``LoopRequest`` kinds."""
DISPATCH = ("spellstack/rules/turn/_driver.py", "perform")
"""The one dispatch over the kinds: a ``match`` in ``perform``."""


def _kind_named(node: ast.expr) -> str:
    """The request kind ``node`` names (``RunSBA``, ``rules.RunSBA``), or ""."""
    name = node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else ""
    return name if name in REQUEST_KINDS else ""


def _kind_tests(test: ast.expr) -> list[str]:
    """The request kinds ``test`` tells apart: ``isinstance(x, K)`` (or a tuple of kinds),
    ``type(x) is K``, ``kind == K`` and the like."""
    found: list[str] = []
    for node in ast.walk(test):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                and node.func.id in ("isinstance", "issubclass") and len(node.args) == 2):
            classes = node.args[1]
            items = classes.elts if isinstance(classes, ast.Tuple) else [classes]
            found += [k for k in map(_kind_named, items) if k]
        elif isinstance(node, ast.Compare):
            found += [k for k in map(_kind_named, [node.left, *node.comparators]) if k]
    return found


def kind_dispatches(source: str, module: str) -> list[str]:
    """Each place in ``source`` that branches on a request's kind, outside the one dispatch, as
    ``module:line: what``: an ``if``/``elif`` (or a conditional expression, an ``assert``, a
    ``while``, a comprehension's ``if``) testing for a kind, or a ``match`` case on one."""
    tree = ast.parse(source)
    allowed: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and (module, node.name) == DISPATCH:
            allowed |= {id(inner) for inner in ast.walk(node) if isinstance(inner, ast.match_case)}
    found: list[str] = []
    for node in ast.walk(tree):
        tests: list[ast.expr] = []
        if isinstance(node, ast.If | ast.IfExp | ast.While | ast.Assert):
            tests = [node.test]
        elif isinstance(node, ast.comprehension):
            tests = list(node.ifs)
        for test in tests:
            found += [f"{module}:{test.lineno}: tests for {kind}" for kind in _kind_tests(test)]
        if isinstance(node, ast.match_case) and id(node) not in allowed:
            found += [f"{module}:{pattern.lineno}: matches {kind}" for pattern in ast.walk(node.pattern)
                      if isinstance(pattern, ast.MatchClass) and (kind := _kind_named(pattern.cls))]
    return sorted(found, key=lambda f: int(f.split(":")[1]))


def test_one_dispatch_tells_the_request_kinds_apart() -> None:
    assert REQUEST_KINDS >= {"RunSBA", "RunResolve", "Ask", "AskPriority", "ActionOutcome",
                             "AutoPasses", "NoStopPass", "SBASkipped", "BeginTask"}
    found: list[str] = []
    for path in sorted(ROOT.rglob("*.py")):
        name = str(path.relative_to(ROOT.parent))
        found += kind_dispatches(path.read_text(encoding="utf-8"), name)
    assert found == [], "\n".join(found)


def test_the_dispatch_handles_every_kind() -> None:
    """``perform`` has a case for each kind (mypy's ``assert_never`` holds it to that too)."""
    tree = ast.parse(DRIVER.read_text(encoding="utf-8"))
    [perform] = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == DISPATCH[1]]
    cases = {kind for n in ast.walk(perform) if isinstance(n, ast.MatchClass) and (kind := _kind_named(n.cls))}
    assert cases == REQUEST_KINDS


def test_the_dispatch_check_fails_on_each_kind_of_branch() -> None:
    source = "\n".join([
        "def run(request, kind):",                                   # 1
        "    if type(request) is RunSBA:",                           # 2
        "        pass",                                              # 3
        "    elif isinstance(request, (Ask, rules.AskPriority)):",   # 4
        "        pass",                                              # 5
        "    assert isinstance(request, NoStopPass)",                # 6
        "    x = 1 if kind is AutoPasses else 2",                    # 7
        "    match request:",                                        # 8
        "        case BeginTask():",                                 # 9
        "            pass",                                          # 10
        "    if isinstance(request, AskPlayer):",                    # 11: not a loop request
        "        pass",                                              # 12
    ])
    assert kind_dispatches(source, "spellstack/x.py") == [
        "spellstack/x.py:2: tests for RunSBA",
        "spellstack/x.py:4: tests for Ask",
        "spellstack/x.py:4: tests for AskPriority",
        "spellstack/x.py:6: tests for NoStopPass",
        "spellstack/x.py:7: tests for AutoPasses",
        "spellstack/x.py:9: matches BeginTask",
    ]
    # The same match inside the dispatch is the one allowed.
    assert kind_dispatches(source.replace("def run(", "def perform("), DISPATCH[0]) == [
        f"{DISPATCH[0]}:{n}: tests for {k}" for n, k in
        ((2, "RunSBA"), (4, "Ask"), (4, "AskPriority"), (6, "NoStopPass"), (7, "AutoPasses"))]
