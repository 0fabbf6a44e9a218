"""The game loop is written once (``rules/turn/_driver.py``): no other module of spellstack
asks ``next_task`` what to do, runs ``run_automatic``, or resumes a kernel procedure with
``.send(`` (a generator's ``send`` is synchronous; every other ``send`` in spellstack is a
channel's or a link's, and awaited). Package ``__init__`` modules may re-export the names."""

from __future__ import annotations

import ast
from pathlib import Path

import spellstack

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
