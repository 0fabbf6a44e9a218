"""The protocol and the card loader use the kernel only through its public names: no module of
``spellstack.rules`` whose name starts with ``_``, and only names in a package's ``__all__``."""

from __future__ import annotations

import ast
import importlib
import importlib.util
from pathlib import Path

import spellstack

PACKAGE = Path(spellstack.__file__).resolve().parent
KERNEL = "spellstack.rules"


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def kernel_import_faults(source: str, module: str, is_package: bool = False) -> list[str]:
    """Each import in ``source`` (the text of ``module``) that reaches into the kernel past its
    public names, as ``module:line: what``."""
    package = module if is_package else module.rpartition(".")[0]
    faults: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found = [(alias.name, None) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = importlib.util.resolve_name("." * node.level + base, package)
            found = [(base, alias.name) for alias in node.names]
        else:
            continue
        for target, name in found:
            if target != KERNEL and not target.startswith(KERNEL + "."):
                continue
            where = f"{module}:{node.lineno}"
            private = [p for p in target.split(".") if p.startswith("_")]
            if private:
                faults.append(f"{where}: imports {target}, a private module ({private[0]})")
            elif name is not None and name.startswith("_"):
                faults.append(f"{where}: imports {name} from {target}, a private name or module")
            elif name is not None:
                public = getattr(importlib.import_module(target), "__all__", ())
                if name != "*" and name not in public:
                    faults.append(f"{where}: imports {name} from {target}, not in its __all__")
    return faults


def test_the_protocol_and_the_cards_import_only_public_kernel_names() -> None:
    faults: list[str] = []
    checked = 0
    for sub in ("protocol", "cards"):
        for path in sorted((PACKAGE / sub).rglob("*.py")):
            faults += kernel_import_faults(path.read_text(encoding="utf-8"), _module_name(path),
                                           path.name == "__init__.py")
            checked += 1
    assert checked > 10  # the walk found the modules
    assert not faults, "\n".join(faults)


def test_every_kind_of_reach_past_the_public_names_is_named_with_its_line() -> None:
    source = "\n".join([
        "from spellstack.rules import view_for",  # public: fine
        "from spellstack.rules.views import ViewMemo",  # public: fine
        "from spellstack.rules.views._building import ViewMemo",
        "import spellstack.rules.base._builder",
        "from spellstack.rules.base import _builder",
        "from spellstack.rules.views import visible",  # not in views.__all__
        "from ..rules._nothing import x",
        "from ..rules.layers import NO_SUCH_NAME",  # not in layers.__all__
        "from spellstack.protocol._views import ViewTracker",  # not the kernel: not checked
    ])
    faults = kernel_import_faults(source, "spellstack.protocol._example")
    assert [f.split(": ")[0] for f in faults] == [f"spellstack.protocol._example:{n}"
                                                   for n in (3, 4, 5, 6, 7, 8)]
    assert "spellstack.rules.views._building, a private module (_building)" in faults[0]
    assert "spellstack.rules._nothing" in faults[4]  # resolved from the module's package
    assert "NO_SUCH_NAME from spellstack.rules.layers, not in its __all__" in faults[5]
