"""``python -m spellstack.build [--clean] [--list] [--module NAME ...]``: build or remove the
compiled modules in place. It imports neither the kernel nor the protocol, so it works even when
a compiled module no longer imports."""

from __future__ import annotations

import argparse
import sys

from ._command import DESCRIPTION, add_arguments, run_command

PROG = "python -m spellstack.build"

parser = argparse.ArgumentParser(prog=PROG, description=DESCRIPTION)
add_arguments(parser)
sys.exit(run_command(parser.parse_args(), PROG))
