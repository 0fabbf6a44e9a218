"""The front door: ``spellstack`` exports what an embedding program needs, each name the very
object of the layer it comes from, and importing it loads none of the layers."""

from __future__ import annotations

import importlib
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


def test_the_version_is_the_packages() -> None:
    from importlib.metadata import version

    assert spellstack.__version__ == version("spellstack")
