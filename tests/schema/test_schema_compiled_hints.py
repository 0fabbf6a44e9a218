"""The schema engine reads a compiled dataclass's type hints from its source: mypyc keeps only
the outer type of each in the class (``tuple`` for ``tuple[str, ...]``)."""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import pkgutil
import sys
import types
from pathlib import Path
from typing import Any, get_type_hints

import pytest

import spellstack.protocol
import spellstack.rules
from spellstack.schema import from_wire, to_wire
from spellstack.schema._hints import class_hints, source_hints

SAMPLE = '''
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Base:
    """A base with one field."""

    name: str = ""
    """A name."""


@dataclass(frozen=True, slots=True)
class Sample(Base):
    """Nested hints, an optional of itself, and a string it must not take for a hint."""

    pairs: tuple[tuple[str, int], ...] = ()
    """Pairs."""
    inner: Sample | None = None
    """Another sample."""
    note = "a class attribute, not a field"
'''


def _fake_compiled(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> type[Any]:
    """``Sample`` as the compiled build makes it: its module a shared library whose source is in
    its package's folder, its hints cut to their outer types, marked as mypyc marks its classes."""
    (tmp_path / "_sample.py").write_text(SAMPLE)
    package = types.ModuleType("samples")
    package.__path__ = [str(tmp_path)]
    module = types.ModuleType("samples._sample")
    # As the build's shared library names a module it loads itself: under a folder that does
    # not exist (the package's folder is where the source is).
    module.__file__ = str(tmp_path / "lib" / "samples" / "_sample.cpython-311-x86_64-linux-gnu.so")
    monkeypatch.setitem(sys.modules, package.__name__, package)
    monkeypatch.setitem(sys.modules, module.__name__, module)
    exec(compile(SAMPLE, module.__file__, "exec"), module.__dict__)
    for cls, outer in ((module.Base, {"name": str}),
                       (module.Sample, {"pairs": tuple, "inner": type})):
        cls.__annotations__ = outer
        cls.__mypyc_attrs__ = tuple(outer)
    sample: type[Any] = module.Sample
    return sample


def test_a_compiled_class_has_its_full_hints_read_from_its_source(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    sample = _fake_compiled(tmp_path, monkeypatch)
    assert get_type_hints(sample)["pairs"] is tuple  # what Python alone would go by
    assert class_hints(sample) == {"name": str, "pairs": tuple[tuple[str, int], ...],
                                   "inner": sample | None}
    made = sample("a", (("x", 1),), sample("b"))
    assert from_wire(sample, to_wire(made)) == made
    with pytest.raises(Exception, match=r"pairs\[0\]\[1\]: expected int, got str"):
        from_wire(sample, {"name": "a", "pairs": [["x", "1"]], "inner": None})


def test_a_compiled_class_without_its_source_is_named(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    sample = _fake_compiled(tmp_path, monkeypatch)
    (tmp_path / "_sample.py").unlink()
    with pytest.raises(TypeError, match=r"Base \(compiled\) are read from its source, and "
                                        r".*_sample\.py can't be read"):
        class_hints(sample)


def _dataclasses_of(package: types.ModuleType) -> list[type[Any]]:
    found = []
    for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
        module = importlib.import_module(info.name)
        found += [value for value in vars(module).values()
                  if isinstance(value, type) and dataclasses.is_dataclass(value)
                  and value.__module__ == module.__name__ and "." not in value.__qualname__]
    return found


@pytest.mark.parametrize("package", [spellstack.rules, spellstack.protocol],
                         ids=["rules", "protocol"])
def test_the_source_gives_every_class_the_hints_python_gives_it(package: types.ModuleType) -> None:
    # Every dataclass of the packages the build compiles, read as pure Python: its own hints
    # from its source equal the interpreter's (in the compiled build, only the source's are
    # whole, so this is checked where both are).
    # A class whose hints name what only the type checker imports has none Python can give,
    # and none the schema engine reads.
    checked = 0
    for cls in _dataclasses_of(package):
        if "__mypyc_attrs__" in cls.__dict__:
            continue
        try:
            python = get_type_hints(cls, include_extras=True)
        except NameError:
            with pytest.raises(NameError):
                source_hints(cls, include_extras=True)
            continue
        own = inspect.get_annotations(cls)
        assert source_hints(cls, include_extras=True) == {
            name: hint for name, hint in python.items() if name in own}, cls
        checked += 1
    assert checked > 40
