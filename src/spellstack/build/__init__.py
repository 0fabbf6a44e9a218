"""The optional compiled build of the kernel and the protocol (mypyc).

``python -m spellstack.build`` compiles the modules of ``spellstack.rules`` and
``spellstack.protocol`` (but those ``LEFT_OUT``, each with its reason) into extension modules
beside their sources, which Python then imports in their place; ``--clean`` removes them and the
pure Python runs again. Without a C compiler, Python's headers or mypyc, it says so and changes
nothing. ``build_label`` says which build runs (``spellstack --version``, the bench's reports).

Nothing here imports the kernel or the protocol.
"""

from ._command import DESCRIPTION, add_arguments, run_command
from ._compile import (
    PACKAGE_ROOT,
    BuildError,
    clean,
    compile_modules,
    compiled_files,
    missing_toolchain,
    modules_to_compile,
)
from ._modules import COMPILED_PACKAGES, GROUP, LEFT_OUT
from ._status import build_label, compiled_modules, stale_modules

__all__ = [
    "COMPILED_PACKAGES",
    "DESCRIPTION",
    "GROUP",
    "LEFT_OUT",
    "PACKAGE_ROOT",
    "BuildError",
    "add_arguments",
    "build_label",
    "clean",
    "compile_modules",
    "compiled_files",
    "compiled_modules",
    "missing_toolchain",
    "modules_to_compile",
    "run_command",
    "stale_modules",
]
