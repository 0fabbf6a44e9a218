"""The front door: ``spellstack`` exports what an embedding program needs, each name the very
object of the layer it comes from, and importing it loads none of the layers."""

from __future__ import annotations

import ast
import importlib
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import spellstack

ROOT = Path(__file__).resolve().parents[1]


def test_every_public_name_is_the_object_of_its_home_module() -> None:
    homes = spellstack._HOME_OF
    assert set(spellstack.__all__) == {*homes, "__version__"}
    for name in spellstack.__all__:
        value = getattr(spellstack, name)
        if name != "__version__":
            assert value is getattr(importlib.import_module(homes[name]), name), name
    assert set(spellstack.__all__) <= set(dir(spellstack))


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'play_match'"):
        _ = spellstack.play_match  # type: ignore[attr-defined]


def test_importing_spellstack_loads_no_layer_and_no_io_library() -> None:
    probe = ("import sys, spellstack; print(sorted(m for m in sys.modules if m.split('.')[0] in "
             "{'trio', 'msgpack', 'structlog'} or m.startswith('spellstack.')))")
    done = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True,
                          timeout=60, check=True)
    assert done.stdout.strip() == "['spellstack._version']"


def test_python_m_spellstack_runs_from_the_folder_that_holds_the_clone(tmp_path: Path) -> None:
    # ``git clone`` leaves you beside the clone, a folder named spellstack: with the package at
    # the clone's root, that folder was found first (as a namespace package) and hid the
    # installed one. Run as installed: no PYTHONPATH.
    clone = tmp_path / "spellstack"
    clone.mkdir()
    (clone / "README.md").write_text("a clone\n", "utf-8")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run([sys.executable, "-m", "spellstack", "--version"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=60, check=False)
    assert (done.returncode, done.stderr) == (0, "")
    assert spellstack.__version__ in done.stdout
    assert not (ROOT / "spellstack").exists() and (ROOT / "src" / "spellstack" / "__init__.py").is_file()


def test_the_version_is_the_packages() -> None:
    from importlib.metadata import version

    assert spellstack.__version__ == version("spellstack")


BOT_AUTHORS_NAMES = ("PlayerView", "Decision", "ActionOption", "Action", "Answer", "Reply", "Stops",
                     "default_answer", "player_ref")
"""What a bot is given and returns, and the helpers the bot docs' examples use."""


def test_a_bot_author_s_names_are_at_the_front_door() -> None:
    from spellstack import protocol, rules

    assert set(BOT_AUTHORS_NAMES) <= set(spellstack.__all__)
    for name in BOT_AUTHORS_NAMES:
        home = protocol if name == "Stops" else rules
        assert getattr(spellstack, name) is getattr(home, name), name
    assert spellstack.GameSetup is importlib.import_module("spellstack.actors").GameSetup


async def test_a_bot_written_with_the_front_door_s_names_alone_plays_a_game() -> None:
    from spellstack import Action, Decision, GameSetup, PlayerView, RandomBot, Reply, Stops, default_answer, play_setup

    class Lands:
        stops = Stops(my_turn=("precombat_main",), opponents_turns=(), stack=False)

        def decide(self, view: PlayerView, decision: Decision) -> Reply:
            lands = [o for o in decision.actions if o.kind == "play"]
            return Action("play", lands[0].object_id) if lands else default_answer(decision)

    game, result = await play_setup(GameSetup(["gruul", "dimir"], 3, ["lands", "random"], turn_limit=8),
                                    [Lands(), RandomBot(1)])
    assert result.forfeits == [] and result.turns >= 1
    assert any(o.name == "Mountain" and o.zone == "battlefield" for o in game.state.objects.values())


def _imports(source: str) -> set[str]:
    """The modules a Python text imports (``import a.b``, ``from a.b import c``)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
    return found


def _user_code() -> list[tuple[str, str]]:
    """Every Python text of the docs and examples: the example files, and each ```python block
    of a page."""
    texts = [(str(p.relative_to(ROOT)), p.read_text("utf-8")) for p in sorted((ROOT / "examples").glob("*.py"))]
    for page in sorted((ROOT / "docs").glob("*.md")):
        for i, block in enumerate(re.findall(r"^```python\n(.*?)^```$", page.read_text("utf-8"), flags=re.S | re.M)):
            texts.append((f"{page.relative_to(ROOT)} block {i + 1}", block))
    return texts


def test_no_doc_or_example_imports_the_kernel_or_the_actors() -> None:
    inner = ("spellstack.rules", "spellstack.actors")
    found = [(where, module) for where, text in _user_code() for module in _imports(text)
             if module in inner or module.startswith(tuple(f"{m}." for m in inner))]
    assert found == []
    read = {where for where, _ in _user_code()}  # the pages' blocks and the examples were read
    assert {"docs/bots.md block 1", "docs/testing.md block 1", "examples/counterspell_war.py"} <= read


def test_the_import_search_finds_both_forms() -> None:
    assert _imports("import spellstack.rules.turn as t\nfrom spellstack.actors import play_game\n") == {
        "spellstack.rules.turn", "spellstack.actors"}
