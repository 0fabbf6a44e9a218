"""This process's memory, as the benchmarks report it (``bench --concurrent``,
``bench --tournament --concurrent``)."""

from __future__ import annotations

import os
import resource
import sys

__all__ = ["peak_kb", "resident_kb"]


def resident_kb() -> int:
    """This process's resident set size now, in kB (0 where /proc is missing)."""
    try:
        with open("/proc/self/statm", encoding="ascii") as f:
            pages = int(f.read().split()[1])
    except OSError:
        return 0
    return pages * os.sysconf("SC_PAGE_SIZE") // 1024


def peak_kb() -> int:
    """This process's peak resident set size so far, in kB (ru_maxrss is bytes on macOS)."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak // 1024 if sys.platform == "darwin" else peak
