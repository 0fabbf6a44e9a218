"""Reading TOML text whatever it holds: every failure becomes the caller's own error, one line
naming the file.

``tomllib`` raises more than ``TOMLDecodeError``: ``RecursionError`` for arrays or inline
tables nested a few hundred deep, ``ValueError`` for an integer longer than Python converts
(``sys.get_int_max_str_digits``), ``MemoryError`` for what does not fit. ``parse_toml`` turns
each into the error type the caller gives (``CardDefinitionError`` for card and deck files,
``ScenarioError`` for scenario and expected-failures files), and ``checking`` does the same
for what a loader does with the values afterwards, so that a loader never lets a traceback
out.
"""

from __future__ import annotations

import re
import sys
import tomllib
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from .._printable import short_value

__all__ = ["checking", "parse_toml", "short_value"]


def parse_toml(text: str, source: str, error: type[Exception]) -> dict[str, Any]:
    """The TOML document ``text`` (from ``source``, which the errors name).

    Raises:
        ``error(message)``: for any failure, ``message`` being ``"{source}: {reason}"`` on one
            line: a syntax error (with its line and column), nesting too deep, an integer of
            too many digits, a document too large to hold.
    """
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        reason = str(err)
    except RecursionError:
        reason = "arrays or inline tables nested too deeply"
    except MemoryError:
        reason = "too large to read"
    except ValueError as err:
        reason = _value_reason(text, err)
    except Exception as err:
        reason = f"not readable as TOML ({type(err).__name__}: {short_value(str(err))})"
    raise error(f"{source}: {_one_line(reason)}") from None


def _value_reason(text: str, err: ValueError) -> str:
    limit = sys.get_int_max_str_digits()
    if "integer string conversion" not in str(err) or not limit:
        return f"not readable as TOML ({short_value(str(err))})"
    where = ""
    found = re.search(f"[0-9_]{{{limit + 1},}}", text)
    if found is not None:
        where = f" (line {text.count(chr(10), 0, found.start()) + 1})"
    return f"an integer of more than {limit} digits{where}"


def _one_line(text: str) -> str:
    return " ".join(text.split())


@contextmanager
def checking(source: str, error: type[Exception]) -> Iterator[None]:
    """Around a loader's checks of what ``parse_toml`` gave: ``error`` itself passes; a
    ``RecursionError``, ``MemoryError`` or ``ValueError`` (an integer too long to print)
    becomes ``error("{source}: {reason}")``."""
    try:
        yield
    except error:
        raise
    except RecursionError:
        raise error(f"{source}: values nested too deeply") from None
    except MemoryError:
        raise error(f"{source}: too large to check") from None
    except ValueError as err:
        if "integer string conversion" not in str(err):
            raise
        raise error(f"{source}: an integer of more than {sys.get_int_max_str_digits()} "
                    "digits") from None
