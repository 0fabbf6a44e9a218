"""``spellstack bench --profile``: where the time of the bench's games goes, by component.

The games run under cProfile; each function's own time (tottime) is given to a component by
the module it is in. Functions of no component (built-ins, the standard library, the shared
random generator) take the component of the caller that spent the time: cProfile records
each caller's share of a function's own time, so nothing is guessed. A function of a compiled
module (the compiled build) is a built-in to cProfile; it takes its module's component.
"""

from __future__ import annotations

import cProfile
import pstats
import re
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

from ..build import compiled_modules

__all__ = ["PROFILE_GROUPS", "Profile", "group_of", "profile_call", "profile_report"]

PROFILE_GROUPS = ("kernel rules", "views", "protocol encode/decode", "trio channels/scheduling",
          "actors/driver glue", "bots", "tracer", "other")
"""The components, in the order the table lists them."""

_Func = tuple[str, int, str]
"""A function as pstats names it: (file, line, name)."""

_VIEW_FILES = ("_view.py", "_viewing.py", "_visibility.py")
"""Kernel modules that build what a player sees."""
_BY_CALLER_FILES = ("/spellstack/rules/_random.py",)
"""Modules shared by several components (the seeded generator serves the kernel and bots)."""
_PACKAGES = (
    ("/spellstack/protocol/_views.py", "views"),  # view deltas: computed and applied
    ("/spellstack/protocol/", "protocol encode/decode"),
    ("/msgpack/", "protocol encode/decode"),
    ("/cattrs/", "protocol encode/decode"),
    ("/spellstack/actors/_tracer.py", "tracer"),
    ("/structlog/", "tracer"),
    ("/json/", "tracer"),
    ("/spellstack/actors/", "actors/driver glue"),
    ("/spellstack/harness/_bench_kernel.py", "actors/driver glue"),
    ("/spellstack/bots/", "bots"),
    ("/spellstack/rules/", "kernel rules"),
    ("/spellstack/cards/", "kernel rules"),
    ("/trio/", "trio channels/scheduling"),
    ("/outcome/", "trio channels/scheduling"),
    ("/sniffio/", "trio channels/scheduling"),
    ("/selectors.py", "trio channels/scheduling"),
)
"""Path fragments and their components, the first match counting."""


_COMPILED_FUNCTION = re.compile(r"[<{]built-in method (spellstack\.[\w.]+)\.\w+[>}]")
"""How cProfile names a function of a compiled module."""
_COMPILED_METHOD = re.compile(r"[<{]method '\w+' of '(\w+)' objects[>}]")
"""How cProfile names a method, of a compiled class among others."""


def _compiled_path(name: str) -> str | None:
    """The source path (as a fragment) of the compiled module a built-in named ``name`` comes
    from, or None: not a function or method of a compiled spellstack module."""
    match = _COMPILED_FUNCTION.fullmatch(name)
    module = match.group(1) if match else None
    method = _COMPILED_METHOD.fullmatch(name)
    if method is not None:
        module = _compiled_classes().get(method.group(1))
    return None if module is None else "/" + module.replace(".", "/") + ".py"


@cache
def _compiled_classes() -> dict[str, str]:
    """The classes of the compiled spellstack modules, by name: their modules (read at a profile's
    first report, when the games have loaded them; a process runs one build)."""
    found: dict[str, str] = {}
    for name in compiled_modules():
        for value in vars(sys.modules[name]).values():
            if isinstance(value, type) and value.__module__ == name:
                found.setdefault(value.__name__, name)
    return found


def group_of(func: _Func) -> str | None:
    """The component a function's own time belongs to, or None: its caller's."""
    path, _, name = func
    path = path.replace("\\", "/")
    if path == "~":  # a built-in: the C codec is the protocol's, compiled code its module's,
        if "msgpack" in name:  # the rest is its caller's
            return "protocol encode/decode"
        compiled = _compiled_path(name)
        if compiled is None:
            return None
        path = compiled
    if any(path.endswith(f) for f in _BY_CALLER_FILES):
        return None
    if "/spellstack/rules/" in path and (path.rsplit("/", 1)[-1] in _VIEW_FILES
                                         or "delta" in path.rsplit("/", 1)[-1]):
        return "views"
    for fragment, group in _PACKAGES:
        if fragment in path:
            return group
    return None


@dataclass(frozen=True, slots=True)
class Profile:
    """Where a profiled run's time went."""

    wall: float
    """Seconds the profiled call took (cProfile's own cost included)."""
    total: float
    """Seconds of own time cProfile recorded, all functions together."""
    groups: dict[str, float]
    """Seconds of own time per component (every one of ``PROFILE_GROUPS``)."""
    top: list[tuple[float, int, str, str]]
    """The functions with the most own time: (seconds, calls, component, where)."""


def _short(func: _Func) -> str:
    path, line, name = func
    if path == "~":
        return name
    path = path.replace("\\", "/")
    for anchor in ("/spellstack/", "/site-packages/", "/lib/python"):
        if anchor in path:
            path = path.rsplit(anchor, 1)[1]
            break
    return f"{path}:{line}({name})"


def _attribute(stats: dict[_Func, tuple[int, int, float, float, dict[_Func, tuple[int, int, float, float]]]]
               ) -> tuple[dict[str, float], dict[_Func, str]]:
    resolved: dict[_Func, str] = {}

    def owner(func: _Func, seen: frozenset[_Func]) -> str:
        """The component of a function of no component: that of its costliest caller."""
        group = group_of(func)
        if group is not None:
            return group
        if func in resolved:
            return resolved[func]
        callers = stats[func][4] if func in stats else {}
        best = max((c for c in callers if c not in seen), key=lambda c: callers[c][2],
                   default=None)
        found = "other" if best is None else owner(best, seen | {func})
        resolved[func] = found
        return found

    groups = dict.fromkeys(PROFILE_GROUPS, 0.0)
    named: dict[_Func, str] = {}
    for func, (_, _, tt, _, callers) in stats.items():
        group = group_of(func)
        if group is not None:
            groups[group] += tt
            named[func] = group
            continue
        # Split the function's own time among its callers, each with its own component.
        given = 0.0
        shares: dict[str, float] = {}
        for caller, (_, _, ctt, _) in callers.items():
            g = owner(caller, frozenset({func}))
            shares[g] = shares.get(g, 0.0) + ctt
            given += ctt
        shares["other"] = shares.get("other", 0.0) + max(tt - given, 0.0)
        for g, t in shares.items():
            groups[g] += t
        named[func] = max(shares, key=lambda g: shares[g])
    return groups, named


def profile_call(fn: Callable[[], object], top: int = 15) -> Profile:
    """Run ``fn`` under cProfile and sort its time into components."""
    prof = cProfile.Profile()
    start = time.perf_counter()
    prof.enable()
    try:
        fn()
    finally:
        prof.disable()
    wall = time.perf_counter() - start
    stats = pstats.Stats(prof).stats  # type: ignore[attr-defined]
    groups, named = _attribute(stats)
    total = sum(tt for (_, _, tt, _, _) in stats.values())
    ranked = sorted(stats.items(), key=lambda kv: kv[1][2], reverse=True)[:top]
    rows = [(tt, nc, named[func], _short(func)) for func, (_, nc, tt, _, _) in ranked]
    return Profile(wall, total, groups, rows)


def profile_report(profile: Profile, decisions: int, what: str, out: list[str]) -> None:
    """The profile as a table: seconds, share and microseconds per decision by component,
    then the functions with the most own time."""
    out.append(f"profile: {what} under cProfile, {profile.wall:.2f} s ({profile.total:.2f} s "
               "of own time recorded; cProfile slows Python calls, so shares, not seconds, "
               "compare with unprofiled runs)")
    out.append(f"{'component':<26} {'seconds':>8} {'share':>7} {'us/decision':>12}")
    for group in PROFILE_GROUPS:
        t = profile.groups[group]
        out.append(f"{group:<26} {t:>8.2f} {100 * t / profile.total:>6.1f}% "
                   f"{1e6 * t / max(decisions, 1):>12.1f}")
    out.append(f"{'total':<26} {profile.total:>8.2f} {100.0:>6.1f}% "
               f"{1e6 * profile.total / max(decisions, 1):>12.1f}")
    out.append(f"top {len(profile.top)} functions by own time:")
    for tt, calls, group, where in profile.top:
        out.append(f"  {tt:>7.3f} s {calls:>9} calls  {group:<26} {where}")
