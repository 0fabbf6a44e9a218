"""A bot process's supervisor: the process a tournament starts for each bot, which starts the
bot, and sees the bot and everything it started gone when its game ends or its tournament dies.

Run as ``python -I -S _supervisor.py LIFELINE MEMORY COMMAND...`` (``_stdio`` does: by its
path, so that it imports nothing but the standard library and starts in milliseconds).
``LIFELINE`` is the read end of a pipe whose write end only the process playing the game
holds: it ends when that process closes it (the game is over for the bot) or dies, by any
signal, SIGKILL included. ``MEMORY`` is the bot's memory limit in bytes (0: none).

- The bot is started with the supervisor's stdin, stdout and stderr, in the supervisor's
  process group (the tournament starts the supervisor in a session of its own, and kills
  that group when it is done: a bot that killed its supervisor is reached so too), under
  ``RLIMIT_DATA`` of ``MEMORY`` (every process it starts inherits the same
  limit, each for itself). If it can't be started, that is said on stderr
  (``CANT_START_SAYS``) and the exit code is ``CANT_START``.
- On Linux the supervisor is a child subreaper (``PR_SET_CHILD_SUBREAPER``): a process the bot
  started that is orphaned, however it left the bot's process group or session (``setsid()``,
  a double fork), becomes the supervisor's child, not init's. When the bot exits (what it
  started is killed: the bot's process is the bot) or the lifeline ends (the bot is killed
  too), it kills every descendant it has (found in ``/proc``) until it has none left. Then it
  exits as the bot did: the same exit code, or killed by the same signal, so that the
  tournament reads the bot's end.
- Elsewhere (macOS) it kills its process group when the lifeline ends, itself included; when
  the bot exits it exits as the bot did, and the tournament kills the group.

No parent-death signal is used: ``PR_SET_PDEATHSIG`` fires when the *thread* that started a
process ends, and trio starts processes from worker threads that end when idle.
"""

from __future__ import annotations

import contextlib
import os
import resource
import select
import signal
import sys

__all__ = ["CANT_START", "CANT_START_SAYS", "main"]

CANT_START = 127
"""The exit code when the bot's command can't be started (as a shell has it)."""
CANT_START_SAYS = "spellstack supervisor: can't start: "
"""How the line on stderr saying why the bot's command can't be started begins."""
_PR_SET_CHILD_SUBREAPER = 36
"""``prctl``'s option that makes orphaned descendants this process's children (Linux 3.4+)."""
_LINUX = sys.platform.startswith("linux")


def main(argv: list[str]) -> None:
    """Supervise the bot ``argv`` describes (``LIFELINE MEMORY COMMAND...``); exits as it did."""
    lifeline, memory, command = int(argv[0]), int(argv[1]), argv[2:]
    os.set_inheritable(lifeline, False)  # the bot must not hold its own lifeline
    if _LINUX:
        _become_subreaper()
    if memory > 0:
        _limit_memory(memory)
    # A SIGCHLD wakes the loop below (through the wakeup pipe) as a lifeline's end does.
    wake_r, wake_w = os.pipe()
    os.set_blocking(wake_r, False)
    os.set_blocking(wake_w, False)
    signal.set_wakeup_fd(wake_w)
    signal.signal(signal.SIGCHLD, lambda signum, frame: None)
    # Asked to stop (not by the tournament, which ends the lifeline): the bot is stopped too.
    for asked in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
        signal.signal(asked, _stop_asked)
    try:
        # Python ignores SIGPIPE and SIGXFSZ; the bot gets them as any program does.
        bot = os.posix_spawnp(command[0], command, os.environ,
                              setsigdef=(signal.SIGPIPE, signal.SIGXFSZ))
    except OSError as err:
        os.write(2, f"{CANT_START_SAYS}{err.strerror or err} ({command[0]!r})\n".encode(errors="replace"))
        os._exit(CANT_START)
    # The bot holds the pipes; the supervisor needs none of them but stderr (for the above).
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, 0)
    os.dup2(null, 1)
    os.close(null)
    status = _watch(bot, lifeline, wake_r)
    if _LINUX:
        _kill_all(wake_r)
    elif status is None:
        os.killpg(0, signal.SIGKILL)  # the group, this process included
    _exit_as(status)


_asked_to_stop = False


def _stop_asked(signum: int, frame: object) -> None:
    global _asked_to_stop
    _asked_to_stop = True


def _limit_memory(memory: int) -> None:
    """Set ``RLIMIT_DATA`` to ``memory`` bytes, or to the hard limit if that is lower.
    Inherited by the bot and everything it starts; set before the bot runs, so it can lower
    it but (unless it is privileged) not raise it."""
    _, hard = resource.getrlimit(resource.RLIMIT_DATA)
    if hard != resource.RLIM_INFINITY:
        memory = min(memory, hard)
    with contextlib.suppress(OSError, ValueError):  # a system that refuses it: no limit
        resource.setrlimit(resource.RLIMIT_DATA, (memory, memory))


def _become_subreaper() -> None:
    """Make orphaned descendants this process's children (if the kernel allows: else only the
    bot's process group is reached)."""
    import ctypes  # here: only Linux needs it

    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)


def _watch(bot: int, lifeline: int, wake: int) -> int | None:
    """Wait until the bot exits (its wait status) or the lifeline ends (None), reaping any
    orphan that comes meanwhile."""
    while True:
        ready, _, _ = select.select([lifeline, wake], [], [])
        if wake in ready:
            with contextlib.suppress(BlockingIOError):
                os.read(wake, 4096)
        status = _reap(bot)
        if status is not None:
            return status
        if _asked_to_stop:
            return None
        if lifeline in ready:
            try:
                if not os.read(lifeline, 4096):
                    return None
            except OSError:
                return None


def _reap(bot: int) -> int | None:
    """Reap every child that has exited; the bot's wait status if it is one of them."""
    found = None
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return found
        if pid == 0:
            return found
        if pid == bot:
            found = status


def _kill_all(wake: int) -> None:
    """Kill every descendant (the bot too, if it runs) until no child is left (Linux)."""
    while True:
        for pid in _descendants(os.getpid()):
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        try:
            while os.waitpid(-1, os.WNOHANG)[0] != 0:
                pass
        except ChildProcessError:
            return
        # Killed children are not reaped yet: the SIGCHLD they send wakes this up.
        select.select([wake], [], [], 0.01)
        with contextlib.suppress(BlockingIOError):
            os.read(wake, 4096)


def _descendants(root: int) -> list[int]:
    """Every live process below ``root``, from ``/proc`` (parents before children)."""
    children: dict[int, list[int]] = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as stat:
                # The command's name is in parentheses and may hold anything: the fields after
                # its last ')' are the state, then the parent's id.
                fields = stat.read().rpartition(b")")[2].split()
        except OSError:
            continue
        if len(fields) > 1:
            children.setdefault(int(fields[1]), []).append(int(name))
    found: list[int] = []
    todo = [root]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def _exit_as(status: int | None) -> None:
    """Exit as the bot did (wait ``status``), or as killed by SIGKILL if it was stopped."""
    code: int | None
    sig: int | None
    if status is None:
        code, sig = None, int(signal.SIGKILL)
    elif os.WIFSIGNALED(status):
        code, sig = None, os.WTERMSIG(status)
    else:
        code, sig = os.waitstatus_to_exitcode(status), None
    sys.stdout.flush()
    if sig is not None:
        # The same signal, so the tournament reads "killed by SIGSEGV"; no core dump of this
        # process for it.
        with contextlib.suppress(OSError, ValueError):
            resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        with contextlib.suppress(OSError, ValueError):  # SIGKILL's can't be set: it needs not
            signal.signal(sig, signal.SIG_DFL)
        with contextlib.suppress(OSError, ValueError):
            signal.pthread_sigmask(signal.SIG_UNBLOCK, [sig])
        os.kill(os.getpid(), sig)
        code = 128 + sig
    os._exit(code if code is not None else 1)


if __name__ == "__main__":
    main(sys.argv[1:])
