"""The command line's argument parser: no abbreviated options, and an unknown argument refused
by the (sub)command it was given to, with the option it most likely meant; a misspelt choice (a
subcommand, a ``--format``) with the choice it most likely meant."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

from .._suggest import closest

__all__ = ["Parser"]


class Parser(argparse.ArgumentParser):
    """An ``ArgumentParser`` for ``spellstack`` and each of its subcommands (``add_subparsers``
    makes its subcommands' parsers of the same class).

    An option is taken only as written (``allow_abbrev=False``: ``--see 3`` is not ``--seed 3``).
    Arguments a subcommand doesn't know are refused by that subcommand, with its own usage and
    name (``spellstack tournament: error: ...``), not by the top-level parser, which argparse
    would otherwise hand them to; an unknown option names the nearest known one, and so does
    an unknown choice (``spellstack tornament``: did you mean 'tournament'?)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs["allow_abbrev"] = False
        super().__init__(*args, **kwargs)

    def parse_known_args(  # type: ignore[override]
            self, args: Sequence[str] | None = None,
            namespace: argparse.Namespace | None = None) -> tuple[argparse.Namespace, list[str]]:
        """Parse ``args``; exit 2 with this parser's usage if any is not known."""
        parsed, extras = super().parse_known_args(args, namespace)
        if extras:
            self.error(f"unrecognized arguments: {' '.join(extras)}{self._hint(extras)}")
        return parsed, extras

    def _check_value(self, action: argparse.Action, value: Any) -> None:
        """Refuse a value that is not one of ``action``'s choices, naming the nearest choice.
        (argparse's own check, which this replaces, has no hint; it is a private method, the
        one place every choice, subcommands included, is checked.)"""
        choices = action.choices
        if choices is None or value in choices:
            return
        listed = ", ".join(repr(c) for c in choices)
        near = closest(str(value), [str(c) for c in choices])
        hint = f" (did you mean {near!r}?)" if near is not None else ""
        raise argparse.ArgumentError(
            action, f"invalid choice: {value!r}{hint}; choose from {listed}")

    def _hint(self, extras: list[str]) -> str:
        """`` (did you mean --best-of?)`` for the unknown options in ``extras`` near a known
        one, or ``""``."""
        known = [o for o in self._option_string_actions if o.startswith("--")]
        hints: list[tuple[str, str]] = []
        for arg in extras:
            if not arg.startswith("--"):
                continue
            flag = arg.partition("=")[0]
            near = closest(flag, known)
            if near is not None:
                hints.append((flag, near))
        if not hints:
            return ""
        if len(hints) == 1:
            return f" (did you mean {hints[0][1]}?)"
        return " (did you mean " + ", ".join(f"{near} for {flag}" for flag, near in hints) + "?)"
