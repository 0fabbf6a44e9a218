"""The build's command: ``python -m spellstack.build`` and ``spellstack compile`` take the same
arguments and say the same things."""

from __future__ import annotations

import argparse
import sys

from ._compile import PACKAGE_ROOT, BuildError, clean, compile_modules, compiled_files, modules_to_compile
from ._modules import LEFT_OUT

DESCRIPTION: str = ("Compile spellstack's kernel and protocol with mypyc, in place beside their "
                    "sources (needs a C compiler, Python's headers and mypy); without them it says "
                    "so, changes nothing, and the pure Python runs. --clean removes the build.")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The command's options, on ``parser``."""
    parser.add_argument("--clean", action="store_true",
                        help="remove the compiled modules: the pure Python runs again")
    parser.add_argument("--list", action="store_true",
                        help="say what would be compiled and what stays interpreted, and build nothing")
    parser.add_argument("--module", action="append", metavar="NAME",
                        help="compile only this module (dotted name; repeat for more)")


def run_command(args: argparse.Namespace, prog: str) -> int:
    """Build, list or remove; returns the exit status: 0 done, 1 not built (no compiler,
    headers or mypyc, or the compilation failed: nothing changed), 2 an unknown module."""
    if args.clean:
        removed = clean()
        print(f"removed {len(removed)} compiled files under {PACKAGE_ROOT / 'spellstack'}: the pure Python runs")
        return 0
    known = modules_to_compile()
    for name in args.module or ():
        if name not in known:
            why = LEFT_OUT.get(name, "not a module of spellstack.rules or spellstack.protocol")
            print(f"{prog}: --module {name!r}: {why}", file=sys.stderr)
            return 2
    names: list[str] = args.module or known
    if args.list:
        print(f"would compile {len(names)} modules:")
        print("".join(f"  {name}\n" for name in names), end="")
        _print_left_out()
        print(f"compiled files present now: {len(compiled_files())}")
        return 0
    try:
        compiled = compile_modules(names, report=lambda line: print(line, file=sys.stderr))
    except BuildError as err:
        print(f"{prog}: not built: {err}; the pure Python runs", file=sys.stderr)
        return 1
    print(f"compiled {len(compiled)} modules in place under {PACKAGE_ROOT / 'spellstack'}:")
    print("".join(f"  {name}\n" for name in compiled), end="")
    _print_left_out()
    return 0


def _print_left_out() -> None:
    print(f"left interpreted ({len(LEFT_OUT)}):")
    print("".join(f"  {name}: {why}\n" for name, why in sorted(LEFT_OUT.items())), end="")
