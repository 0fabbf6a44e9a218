"""A stdio bot whose processes try to outlive its game, or that holds memory, for the
containment tests. Its first argument names what it does:

- ``child-exits``: starts a child in its own process group that sleeps, then exits (code 3)
  at its first request;
- ``setsid``: starts a helper that calls ``setsid()`` and forks again (the grandchild sleeps),
  then plays to a normal end as ``examples/stdio_bot.py`` does;
- ``hang``: ignores SIGTERM, starts a child (which ignores it too) and a ``setsid()`` helper,
  and at its first request stops reading its stdin and sleeps for ever;
- ``hold BYTES``: holds BYTES bytes (written, so resident) from its start, then plays as the
  example does. It imports spellstack, as a Python bot using the package's types may.

Each process it starts (and itself) notes its id as ``PID.pid`` in the folder
``SPELLSTACK_TEST_PIDS`` names: the tests look for them.
"""

import os
import runpy
import signal
import struct
import sys
import time
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "stdio_bot.py"
MODE = sys.argv[1]
READY = b"\x81\xa1t\xa5ready"  # {"t": "ready"} in msgpack (this bot does without the package)


def note() -> None:
    folder = os.environ.get("SPELLSTACK_TEST_PIDS")
    if folder:
        with open(os.path.join(folder, f"{os.getpid()}.pid"), "w", encoding="utf-8") as out:
            out.write(str(os.getpid()))


def sleeper() -> None:
    """A child that notes itself and sleeps for an hour (it is to be killed)."""
    if os.fork() == 0:
        note()
        time.sleep(3600)
        os._exit(0)


def detached() -> None:
    """A helper that leaves the session (``setsid()``) and forks a sleeper."""
    helper = os.fork()
    if helper == 0:
        os.setsid()
        sleeper()
        os._exit(0)
    os.waitpid(helper, 0)  # the grandchild is an orphan now


def read_until_a_request() -> None:
    """Read the hello, say it is ready, and read up to the first request."""
    stdin = sys.stdin.buffer
    while True:
        head = stdin.read(4)
        if len(head) < 4:
            sys.exit(0)
        body = stdin.read(struct.unpack(">I", head)[0])
        if b"hello" in body:
            sys.stdout.buffer.write(struct.pack(">I", len(READY)) + READY)
            sys.stdout.buffer.flush()
        if b"PriorityRequest" in body or b"DecisionRequest" in body:
            return


note()
if MODE == "child-exits":
    sleeper()
    read_until_a_request()
    sys.exit(3)
elif MODE == "setsid":
    detached()
    sys.argv = [str(EXAMPLE)]
    runpy.run_path(str(EXAMPLE), run_name="__main__")
elif MODE == "hang":
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    sleeper()
    detached()
    read_until_a_request()
    time.sleep(3600)
elif MODE == "hold":
    import spellstack  # noqa: F401  # what a Python bot using the package's types starts with

    held = b"\x01" * int(sys.argv[2])
    sys.argv = [str(EXAMPLE)]
    runpy.run_path(str(EXAMPLE), run_name="__main__")
else:
    sys.exit(f"unknown mode {MODE!r}")
