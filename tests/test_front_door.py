"""The front door: ``spellstack`` exports what an embedding program needs, each name the very
object of the layer it comes from, and importing it loads none of the layers."""

from __future__ import annotations

import ast
import importlib
import os
import re
import shutil
import subprocess
import sys
import sysconfig
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
    # The version, and the loader that imports each public name on first use.
    assert done.stdout.strip() == "['spellstack._lazy', 'spellstack._version']"


@pytest.mark.slow
def test_python_m_spellstack_runs_from_the_folder_that_holds_the_clone(tmp_path: Path) -> None:
    # ``git clone`` leaves you beside the clone, a folder named spellstack: with the package at
    # the clone's root, that folder was found first (as a namespace package) and hid the
    # installed one. Here the clone is installed as ``pip install -e`` installs it (a ``.pth``
    # in an environment's site-packages naming the clone's ``src``; the current interpreter's
    # own site-packages give the dependencies), and run with no PYTHONPATH from beside it.
    git = shutil.which("git")
    if git is None:
        pytest.skip("git is not installed: can't clone the repository")
    if not (ROOT / ".git").exists():
        pytest.skip(f"{ROOT} is not a git checkout: nothing to clone")
    clone = tmp_path / "spellstack"
    subprocess.run([git, "clone", "--quiet", str(ROOT), str(clone)], check=True, timeout=120,
                   capture_output=True)
    env_dir = tmp_path / "env"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(env_dir)], check=True, timeout=120)
    python = env_dir / "bin" / "python"
    [site_dir] = (env_dir / "lib").glob("python3.*/site-packages")
    (site_dir / "dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n", "utf-8")
    (site_dir / "__editable__.spellstack.pth").write_text(f"{clone / 'src'}\n", "utf-8")
    (tmp_path / "mine.py").write_text("import spellstack\nfrom spellstack import BotSeat\n\n"
                                      "print(spellstack.__file__, BotSeat.__name__)\n", "utf-8")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}

    def run(*args: str) -> str:
        done = subprocess.run([str(python), *args], cwd=tmp_path, env=env, capture_output=True, text=True,
                              timeout=120, check=False)
        assert (done.returncode, done.stderr) == (0, ""), (args, done.stderr)
        return done.stdout

    assert run("-m", "spellstack", "--help").startswith("usage: spellstack ")
    assert run("mine.py") == f"{clone / 'src' / 'spellstack' / '__init__.py'} BotSeat\n"
    assert not (clone / "spellstack").exists() and (clone / "src" / "spellstack" / "__init__.py").is_file()


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


def _quick_start() -> list[str]:
    """The command lines of the README's Quick start (its first ```sh block)."""
    readme = (ROOT / "README.md").read_text("utf-8")
    section = readme.split("## Quick start", 1)[1]
    block = re.search(r"```sh\n(.*?)```", section, re.S)
    assert block is not None
    return [line for line in block.group(1).splitlines() if line.strip() and not line.startswith("#")]


ACTIVATED = "python3 -m venv .venv && . .venv/bin/activate && "
"""How each Quick start command begins: the venv made and activated, so that what follows
(``pip``, ``spellstack``, ``python``, and ``python3`` for a stdio bot) is the venv's."""


def test_the_quick_start_activates_the_venv_and_ci_runs_its_test_command() -> None:
    tournament, tests = _quick_start()
    assert tournament == ACTIVATED + "pip install -q -e . && spellstack tournament"
    assert tests == ACTIVATED + "pip install -q -e '.[test]' && python -m pytest"
    # CI runs the README's test command as written.
    assert tests in (ROOT / ".ci" / "run").read_text("utf-8").splitlines()


@pytest.mark.slow
def test_the_quick_start_s_commands_run_the_venv_s_programs_one_after_the_other(tmp_path: Path) -> None:
    # On a fresh machine with Python 3.11+ alone, in one shell: each line as written up to its
    # install (the installs need the package index), the second line's venv made over the
    # first's from inside it; the words the lines go on with are then the venv's own.
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "python3").symlink_to(sys.executable)  # python3 is a Python 3.11+, as the README asks
    env["PATH"] = f"{bin_dir}{os.pathsep}{env.get('PATH', '')}"
    probe = "command -v pip && command -v python && command -v python3 && python -c 'import sys; print(sys.prefix)'"
    # Each line as written up to its install, then the probe.
    setups = [line.split(" && ") for line in _quick_start()]
    script = " && ".join(" && ".join([*steps[:next(i for i, s in enumerate(steps) if "pip install" in s)], probe])
                         for steps in setups)
    done = subprocess.run(["sh", "-c", script], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    venv = tmp_path / ".venv"
    found = [Path(line) for line in done.stdout.splitlines()]
    assert found == [venv / "bin" / "pip", venv / "bin" / "python", venv / "bin" / "python3", venv] * 2


@pytest.mark.slow
def test_the_test_command_shows_why_tests_were_skipped(tmp_path: Path) -> None:
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["tool"]["pytest"]["ini_options"]
    assert "-rs" in config["addopts"].split()  # so that the README's and CI's bare ``pytest`` show them
    # Run as the README runs it (the repository's configuration, no options of its own).
    (tmp_path / "test_skips.py").write_text(
        "import pytest\n\n\ndef test_one() -> None:\n    pytest.skip('needs chromium and chromium-driver')\n",
        "utf-8")
    done = subprocess.run([sys.executable, "-m", "pytest", "-c", str(ROOT / "pyproject.toml"), "-p",
                           "no:cacheprovider", "--rootdir", str(tmp_path), str(tmp_path / "test_skips.py")],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stdout
    assert re.search(r"SKIPPED \[1\] .*: needs chromium and chromium-driver", done.stdout), done.stdout


def test_the_readme_says_what_the_test_command_costs_and_needs() -> None:
    readme = " ".join((ROOT / "README.md").read_text("utf-8").split())
    after = readme.split(_quick_start()[1], 1)[1][:1200]  # next to the command
    assert re.search(r"about \d+ minutes on two cores", after)
    assert "apt-get install chromium chromium-driver" in after
    assert "-rs" in after
