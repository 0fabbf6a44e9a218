"""Building and removing the compiled modules (mypyc) in place, beside their sources.

Python imports an extension module before a source file of the same name, so a compiled module
beside its ``.py`` file is the one that runs; removing it brings the source back. Nothing here
imports the kernel or the protocol: a build whose modules no longer import can still be removed.
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import shlex
import shutil
import sys
import sysconfig
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

from ._modules import COMPILED_PACKAGES, GROUP, LEFT_OUT

PACKAGE_ROOT: Path = Path(__file__).resolve().parents[2]
"""The folder that holds the ``spellstack`` package (``src`` in a checkout)."""


class BuildError(Exception):
    """The compiled build could not be made: nothing was changed, and the pure Python runs."""


def source_path(module: str, root: Path = PACKAGE_ROOT) -> Path:
    """The source file of the dotted ``module`` under ``root``."""
    return root.joinpath(*module.split(".")).with_suffix(".py")


def compiled_path(module: str, root: Path = PACKAGE_ROOT) -> Path:
    """The compiled module of the dotted ``module`` under ``root`` (this Python's suffix)."""
    return root.joinpath(*module.split(".")).with_name(module.rsplit(".", 1)[-1] + _SUFFIX)


_SUFFIX: str = str(sysconfig.get_config_var("EXT_SUFFIX") or EXTENSION_SUFFIXES[0])


def modules_to_compile(root: Path = PACKAGE_ROOT) -> list[str]:
    """Every module of ``COMPILED_PACKAGES`` under ``root`` but the packages' ``__init__`` files
    and those ``LEFT_OUT``, sorted."""
    found = []
    for package in COMPILED_PACKAGES:
        base = root.joinpath(*package.split("."))
        for path in base.rglob("*.py"):
            if path.name == "__init__.py":
                continue
            name = ".".join(path.relative_to(root).with_suffix("").parts)
            if name not in LEFT_OUT:
                found.append(name)
    return sorted(found)


def missing_toolchain() -> str | None:
    """Why no compiled build can be made here (no mypyc, C compiler or Python headers), or None."""
    if importlib.util.find_spec("mypyc") is None:
        return "mypyc is not installed (it comes with mypy: pip install mypy)"
    command = os.environ.get("CC") or str(sysconfig.get_config_var("CC") or "cc")
    words = shlex.split(command)
    if not words or shutil.which(words[0]) is None:
        return f"no C compiler: {words[0] if words else command!r} was not found (install gcc or clang, or set CC)"
    headers = Path(sysconfig.get_paths()["include"]) / "Python.h"
    if not headers.is_file():
        return f"no Python headers: {headers} is missing (install your Python's development package)"
    return None


def compiled_files(root: Path = PACKAGE_ROOT) -> list[Path]:
    """The compiled modules present in the ``spellstack`` package under ``root``."""
    return sorted(p for p in (root / "spellstack").rglob("*") if p.name.endswith(tuple(EXTENSION_SUFFIXES)))


def clean(root: Path = PACKAGE_ROOT) -> list[Path]:
    """Remove every compiled module of the ``spellstack`` package under ``root`` (the sources
    run again); returns the files removed."""
    removed = compiled_files(root)
    for path in removed:
        path.unlink()
    return removed


def compile_modules(modules: Sequence[str] | None = None, *, root: Path = PACKAGE_ROOT,
                    report: Callable[[str], None] = print, opt_level: str = "3") -> list[str]:
    """Compile ``modules`` (dotted names; all of ``modules_to_compile`` by default) with mypyc
    and put them beside their sources under ``root``, in place of any earlier build; returns the
    modules compiled. ``opt_level``: the C compiler's (``"0"`` builds several times faster, for
    trying a list of modules). Raises ``BuildError`` (nothing changed) without a compiler, headers or
    mypyc, or when the compilation fails."""
    names = sorted(modules_to_compile(root) if modules is None else modules)
    for name in names:
        if not source_path(name, root).is_file():
            raise BuildError(f"no module {name!r}: {source_path(name, root)} is not a file")
    if not names:
        raise BuildError("no module to compile")
    reason = missing_toolchain()
    if reason is not None:
        raise BuildError(reason)
    started = time.time()
    with tempfile.TemporaryDirectory(prefix="spellstack-build-") as tmp:
        built = _build(names, root, Path(tmp), report, opt_level)
        clean(root)
        for path, rel in built:
            target = root / rel
            part = target.with_name(target.name + ".part")
            shutil.copyfile(path, part)
            # A new file, not the old one rewritten: a process running the old build keeps it.
            os.replace(part, target)
            # Dated from the build's start, so a source changed while it ran counts as newer.
            os.utime(target, (started, started))
    return names


def _build(names: list[str], root: Path, tmp: Path, report: Callable[[str], None],
           opt_level: str) -> list[tuple[Path, Path]]:
    """Run mypyc and the C compiler in ``tmp``; the built files with their paths under ``root``."""
    from mypyc.build import mypycify
    from setuptools import Distribution  # type: ignore[import-untyped]
    from setuptools.errors import CompileError, LinkError  # type: ignore[import-untyped]

    paths = [str(source_path(name, root)) for name in names]
    report(f"compiling {len(names)} modules with mypyc (this takes a few minutes)")
    with _inside(tmp), _quiet_stdout():
        try:
            extensions = mypycify([*paths, "--cache-dir", str(tmp / "mypy-cache")],
                                  target_dir=str(tmp / "c"), group_name=GROUP, opt_level=opt_level)
        except SystemExit as err:  # mypyc reports its errors and exits
            raise BuildError(f"mypyc refused the modules (exit status {err.code})") from None
        distribution = Distribution({"name": "spellstack-compiled", "ext_modules": extensions,
                                     "script_name": "spellstack.build",
                                     "script_args": ["build_ext", "--build-lib", str(tmp / "lib"),
                                                     "--build-temp", str(tmp / "temp")]})
        distribution.parse_command_line()
        try:
            distribution.run_commands()
        except (CompileError, LinkError) as err:
            raise BuildError(f"the C compiler failed: {err}") from None
    lib = tmp / "lib"
    return [(path, path.relative_to(lib)) for path in sorted(lib.rglob("*" + _SUFFIX))]


@contextlib.contextmanager
def _inside(folder: Path) -> Iterator[None]:
    """Work in ``folder`` (mypy reads the configuration of the folder it runs in; setuptools
    writes there)."""
    before = Path.cwd()
    os.chdir(folder)
    try:
        yield
    finally:
        os.chdir(before)


@contextlib.contextmanager
def _quiet_stdout() -> Iterator[None]:
    """Send the tools' progress (mypyc's and setuptools' lines) to stderr, so that stdout says
    only what was compiled."""
    with contextlib.redirect_stdout(sys.stderr):
        yield
