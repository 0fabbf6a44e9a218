"""The compiled build's command: it says why nothing is built without a compiler, removes a build
with ``--clean``, refuses a module it does not compile, and (slow) compiles a module that then
runs in place of its source; the build that runs is named, and none is older than its source."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import sysconfig
import types
from pathlib import Path

import pytest

from spellstack.build import (
    LEFT_OUT,
    PACKAGE_ROOT,
    BuildError,
    build_label,
    compile_modules,
    compiled_modules,
    missing_toolchain,
    stale_modules,
)
from spellstack.build._compile import source_path
from spellstack.cli import main

SUFFIX = str(sysconfig.get_config_var("EXT_SUFFIX"))
QUOTE = "spellstack.rules.base._quote"


def _tree(tmp_path: Path) -> Path:
    """A copy of the build command and of one small kernel module, in packages of their own
    (empty ``__init__`` files): the command run there builds and removes only there."""
    root = tmp_path / "src"
    shutil.copytree(PACKAGE_ROOT / "spellstack" / "build", root / "spellstack" / "build",
                    ignore=shutil.ignore_patterns("__pycache__"))
    for package in ("spellstack", "spellstack/rules", "spellstack/rules/base", "spellstack/protocol"):
        (root / package).mkdir(parents=True, exist_ok=True)
        (root / package / "__init__.py").touch()
    shutil.copy(source_path(QUOTE), source_path(QUOTE, root))
    return root


def _command(root: Path, *args: str, cc: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(root), "PYTHONDONTWRITEBYTECODE": "1"}
    if cc is not None:
        env["CC"] = cc
    return subprocess.run([sys.executable, "-m", "spellstack.build", *args], cwd=root, env=env,
                          capture_output=True, text=True, timeout=600, check=False)


def test_without_a_c_compiler_it_says_so_and_builds_nothing(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    done = _command(root, cc=str(tmp_path / "no-such-cc"))
    assert done.returncode == 1
    assert done.stderr == (f"python -m spellstack.build: not built: no C compiler: "
                           f"'{tmp_path / 'no-such-cc'}' was not found (install gcc or clang, or set "
                           "CC); the pure Python runs\n")
    assert "Traceback" not in done.stderr
    assert [p for p in root.rglob("*") if p.is_file() and p.suffix not in (".py", ".pyc")] == []


def test_without_a_c_compiler_compile_modules_raises(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    root = _tree(tmp_path)
    monkeypatch.setenv("CC", "no-such-cc --with-flags")
    assert missing_toolchain() == "no C compiler: 'no-such-cc' was not found (install gcc or clang, or set CC)"
    with pytest.raises(BuildError, match=r"^no C compiler: 'no-such-cc' was not found"):
        compile_modules([QUOTE], root=root, report=lambda line: None)


def test_clean_removes_the_compiled_files_and_keeps_the_sources(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    built = [root / "spellstack" / "rules" / "base" / f"_quote{SUFFIX}",
             root / "spellstack" / f"_compiled__mypyc{SUFFIX}"]
    for path in built:
        path.write_bytes(b"not really compiled")
    done = _command(root, "--clean")
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"removed 2 compiled files under {root / 'spellstack'}: the pure Python runs\n"
    assert not any(path.exists() for path in built)
    assert source_path(QUOTE, root).is_file()


def test_a_module_it_does_not_compile_is_refused_with_the_reason(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    done = _command(root, "--module", "spellstack.rules.base._nothing")
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == ("python -m spellstack.build: --module 'spellstack.rules.base._nothing': "
                           "not a module of spellstack.rules or spellstack.protocol\n")


def test_list_names_what_it_would_compile_and_what_stays_interpreted(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    done = _command(root, "--list")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[:2] == ["would compile 1 modules:", f"  {QUOTE}"]
    assert lines[2] == f"left interpreted ({len(LEFT_OUT)}):"
    assert lines[-1] == "compiled files present now: 0"


def test_each_module_left_out_exists() -> None:
    # A module renamed or removed would leave its entry (and its reason) behind.
    assert [name for name in LEFT_OUT if not source_path(name).is_file()] == []


def test_a_compiled_module_older_than_its_source_is_named(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    compiled = tmp_path / f"_sample{SUFFIX}"
    compiled.write_bytes(b"")
    (tmp_path / "_sample.py").write_text("")
    os.utime(compiled, (1_000_000, 1_000_000))
    module = types.ModuleType("spellstack.rules._sample")
    module.__file__ = str(compiled)
    monkeypatch.setitem(sys.modules, module.__name__, module)
    assert module.__name__ in compiled_modules()
    assert module.__name__ in stale_modules()
    assert "older than their source" in build_label()
    os.utime(compiled, None)
    assert module.__name__ not in stale_modules()


def test_no_compiled_module_running_is_older_than_its_source() -> None:
    # A build left from before a change would run the code as it was: rebuild or --clean.
    import spellstack.protocol
    import spellstack.rules  # noqa: F401  (loaded: their modules are what runs)

    assert stale_modules() == ()


def test_version_names_the_build(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--version"])
    out = capsys.readouterr().out
    count = len(compiled_modules())
    assert out == f"spellstack 0.1.0 ({f'compiled: {count} modules' if count else 'pure Python'})\n"
    assert re.fullmatch(r"spellstack \S+ \((pure Python|compiled: \d+ modules)\)\n", out)


@pytest.mark.slow
def test_a_compiled_module_runs_in_place_of_its_source(tmp_path: Path) -> None:
    if missing_toolchain() is not None:
        pytest.skip(f"no compiled build here: {missing_toolchain()}")
    root = _tree(tmp_path)
    done = _command(root, "--module", QUOTE)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"compiled 1 modules in place under {root / 'spellstack'}:\n  {QUOTE}\n")
    code = ("import spellstack.rules.base._quote as q, spellstack.build as b; "
            "print(q.__file__.endswith('.py'), q.quote('x' * 100), b.build_label())")
    env = {**os.environ, "PYTHONPATH": str(root)}
    ran = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    from spellstack.rules.base import quote
    assert ran.stdout == f"False {quote('x' * 100)} compiled: 1 modules\n"
    assert _command(root, "--clean").returncode == 0
    ran = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert ran.stdout == f"True {quote('x' * 100)} pure Python\n"
