"""Entrants: a bot and a deck. Bots are named by a spec: a built-in bot's name, or a Python
class given as ``module:Class`` or ``path/to/file.py:Class``; an entrant is written
``[NAME=]BOT@DECK``.

A bot class is made into a factory (seed -> a fresh bot for one game): ``Class(seed)`` if
its constructor takes a parameter, else ``Class()``. Loading a spec builds one bot, with seed
0, so that a class that can't be built fails with the spec named before any game starts. A
worker process rebuilds the factory from the spec's text (``load_bot(entrant.bot)``).
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import inspect
import os
import re
import shlex
import shutil
import subprocess
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import MappingProxyType, ModuleType
from typing import TYPE_CHECKING, Any

from .._suggest import closest
from ..bots import Bot, HeuristicBot, RandomBot
from ..cards import DECKS, Deck, load_deck, short_value
from ..rules import CardDefinition, CardDefinitionError
from ._stdio import ProcessBot

if TYPE_CHECKING:
    from ._seat import Seat

__all__ = ["BUILT_IN_BOTS", "HOST_MODULE", "REMOTE", "STDIO", "AnyBot", "BotFactory", "Entrant", "EntrantError",
           "built_in_entrants", "load_bot", "parse_entrant", "with_memory"]

BotFactory = Callable[[int], Bot]
"""Given a seed, a fresh bot for one game."""
AnyBot = BotFactory | ProcessBot
"""A bot as an entrant has it: a factory of bots played in process, or a bot process."""

HOST_MODULE = "spellstack.seats._bot_host"
"""The module that hosts a Python class bot in a process of its own."""
STDIO = "stdio:"
"""The prefix of a bot spec that is an executable's command line."""
REMOTE = "remote"
"""The bot spec of an entrant played by a client that connects over the network (a
tournament's server seats it game by game: ``parse_entrant``'s ``remote``)."""
CHECK_TIMEOUT = 120.0
"""Seconds a Python class bot's process is given to load it, when its spec is checked."""

BUILT_IN_BOTS: Mapping[str, BotFactory] = MappingProxyType({"random": RandomBot, "heuristic": HeuristicBot})
"""The built-in bots by the name a spec gives them."""

_MODULE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*")
"""A module's dotted name (absolute: a spec can't be relative to a package)."""

_FORMS = ("a built-in bot (" + ", ".join(BUILT_IN_BOTS) + "), MODULE:CLASS, path/to/FILE.py:CLASS or "
          "stdio:COMMAND")
"""The spec forms, for the messages."""

_MAX_NAME = 60
"""The longest entrant name (names are columns of the standings)."""


class EntrantError(ValueError):
    """A bot spec or an entrant that can't be used; the message names the spec."""


@dataclass(frozen=True, slots=True)
class Entrant:
    """A bot and a deck, under a name."""

    name: str
    """Its name, unique in a tournament."""
    bot: str
    """The bot's spec as given (``random``, ``pkg.mod:Class``, ``bots/mine.py:Class``)."""
    deck: Deck
    """The deck it plays every game."""
    factory: AnyBot | Seat = field(compare=False, repr=False)
    """Seed -> a fresh bot for one game, or a bot process (``load_bot(bot)``), or any other
    seat (a remote entrant's)."""


@dataclass(frozen=True, slots=True)
class _ClassFactory:
    """A bot class as a factory."""

    cls: type[Any]
    """The class."""
    takes_seed: bool
    """Whether it is called with the seed (its constructor takes a parameter)."""

    def __call__(self, seed: int) -> Bot:
        bot: Bot = self.cls(seed) if self.takes_seed else self.cls()
        return bot


def _describe(err: BaseException) -> str:
    """``Type: message``, the message on one line and cut to 200 characters (whatever its
    ``__str__`` does)."""
    try:
        text = " ".join(str(err).split())
    except Exception:
        text = "(its message can't be shown)"
    if len(text) > 200:
        text = text[:197] + "..."
    return f"{type(err).__name__}: {text}" if text else type(err).__name__


def _import(spec: str, module: str) -> ModuleType:
    if not _MODULE.fullmatch(module):
        raise EntrantError(f"bot {short_value(spec)}: {short_value(module)} is neither a module name nor a .py file "
                           f"({_FORMS})")
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as err:
        missing = err.name or ""
        if missing == module or module.startswith(missing + "."):
            raise EntrantError(f"bot {short_value(spec)}: no module {short_value(missing)} (is it installed, or on "
                               "PYTHONPATH?)") from None
        raise EntrantError(f"bot {short_value(spec)}: importing {short_value(module)} raised "
                           f"{_describe(err)}") from err
    except (Exception, SystemExit) as err:
        raise EntrantError(f"bot {short_value(spec)}: importing {short_value(module)} raised "
                           f"{_describe(err)}") from err


def _load_file(spec: str, where: str) -> ModuleType:
    """The Python file ``where`` (relative to the working folder) as a module, loaded once per
    file under a name of its own (``spellstack_bot_<stem>_<hash of its full path>``), so
    that two files of the same name don't clash, nor one named after a module."""
    path = Path(where)
    try:
        if path.is_dir():
            raise EntrantError(f"bot {short_value(spec)}: {short_value(where)} is a folder, not a Python file")
        if not path.is_file():
            raise EntrantError(f"bot {short_value(spec)}: no file {short_value(where)} (a path is relative to the "
                               "working folder)")
        full = path.resolve()
    except OSError as err:
        raise EntrantError(f"bot {short_value(spec)}: can't read {short_value(where)}: {err.strerror}") from None
    stem = re.sub(r"\W", "_", full.stem, flags=re.ASCII)
    name = f"spellstack_bot_{stem}_{hashlib.sha256(os.fsencode(full)).hexdigest()[:12]}"
    loaded = sys.modules.get(name)
    if loaded is not None:
        return loaded
    found = importlib.util.spec_from_file_location(name, full)
    if found is None or found.loader is None:  # pragma: no cover - a .py path always has one
        raise EntrantError(f"bot {short_value(spec)}: {short_value(where)} can't be loaded as a Python module")
    module = importlib.util.module_from_spec(found)
    sys.modules[name] = module  # as import does: the module's own classes can find it
    try:
        found.loader.exec_module(module)
    except (Exception, SystemExit) as err:
        sys.modules.pop(name, None)
        raise EntrantError(f"bot {short_value(spec)}: running {short_value(where)} raised {_describe(err)}") from err
    return module


def _takes_seed(cls: type[Any]) -> bool:
    """Whether ``cls`` is built with the seed: its constructor takes a positional parameter."""
    try:
        params = inspect.signature(cls).parameters.values()
    except (TypeError, ValueError):  # no signature to read (a class written in C): try one
        return True
    positional = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD,
                  inspect.Parameter.VAR_POSITIONAL)
    return any(p.kind in positional for p in params)


def load_bot(spec: str, *, trust: bool = False) -> AnyBot:
    """The bot ``spec`` names: ``random`` (``BUILT_IN_BOTS``), ``pkg.mod:Class`` (an importable
    module), ``path/to/file.py:Class`` (a Python file, by a path relative to the working
    folder), or ``stdio:COMMAND`` (an executable speaking the protocol on stdio, its command
    line split as a shell would, ``shlex``).

    A built-in bot is played in process. A Python class is played in process only if
    ``trust``; otherwise it is a ``ProcessBot`` hosting it (``HOST_MODULE``), checked by
    loading it once in such a process. A command is always a ``ProcessBot``.

    Raises:
        EntrantError: naming the spec and what is wrong: not one of the forms, no such module
            or file, the module raised while it was imported (the exception named), no such
            attribute, not a class, no ``decide`` method, or building it with a seed raised.
    """
    if spec in BUILT_IN_BOTS:
        return BUILT_IN_BOTS[spec]
    if spec.startswith(STDIO):
        return _command_bot(spec)
    if not trust:
        return _hosted_bot(spec)
    return _class_factory(spec)


def with_memory(bot: AnyBot | Seat, memory: int) -> AnyBot | Seat:
    """``bot`` under a memory limit of ``memory`` bytes if it is a bot process (a bot played
    in process is left as it is: nothing limits it)."""
    return replace(bot, memory=memory) if isinstance(bot, ProcessBot) else bot


def _command_bot(spec: str) -> ProcessBot:
    """``stdio:COMMAND`` as a bot process, its executable found."""
    try:
        command = tuple(shlex.split(spec[len(STDIO):]))
    except ValueError as err:
        raise EntrantError(f"bot {short_value(spec)}: the command can't be split: {err}") from None
    if not command:
        raise EntrantError(f"bot {short_value(spec)}: no command after {STDIO!r}")
    program = command[0]
    if os.sep in program or (os.altsep and os.altsep in program):
        path = Path(program)
        if not path.is_file():
            raise EntrantError(f"bot {short_value(spec)}: no file {short_value(program)} (a path is relative to the "
                               "working folder)")
        if not os.access(path, os.X_OK):
            raise EntrantError(f"bot {short_value(spec)}: {short_value(program)} is not executable (chmod +x, or "
                               "name its interpreter: stdio:python3 bot.py)")
    elif shutil.which(program) is None:
        raise EntrantError(f"bot {short_value(spec)}: no program {short_value(program)} on PATH")
    return ProcessBot(command)


def _hosted_bot(spec: str) -> ProcessBot:
    """A Python class bot as a bot process hosting it, checked by loading it in one (a spec
    not of the form is refused without one)."""
    _class_spec(spec)
    command = (sys.executable, "-m", HOST_MODULE, spec)
    try:
        done = subprocess.run([*command[:3], "--check", spec], capture_output=True, text=True,
                              timeout=CHECK_TIMEOUT, check=False, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        raise EntrantError(f"bot {short_value(spec)}: loading it in a bot process took over "
                           f"{CHECK_TIMEOUT:g} s") from None
    except OSError as err:  # a spec too long for a command line, a full process table
        raise EntrantError(f"bot {short_value(spec)}: can't start a bot process to load it: "
                           f"{err.strerror or err}") from None
    if done.returncode != 0:
        lines = [line for line in done.stderr.splitlines() if line.strip()]
        said = lines[-1].strip() if lines else f"exit code {done.returncode}"
        if said.startswith((f"bot {short_value(spec)}: ", f"bot {spec!r}: ")):
            raise EntrantError(said)
        raise EntrantError(f"bot {short_value(spec)}: loading it in a bot process failed: {said}")
    return ProcessBot(command)


def _class_spec(spec: str) -> tuple[str, str]:
    """A Python class bot's spec as (module or file, class), if it is of that form."""
    where, colon, attr = spec.rpartition(":")
    if not colon:
        near = closest(spec, BUILT_IN_BOTS)
        hint = f"; did you mean {near!r}?" if near else ""
        raise EntrantError(f"bot {short_value(spec)}: not a built-in bot and no ':CLASS' ({_FORMS})"
                           f"{hint}")
    if not where or not attr:
        raise EntrantError(f"bot {short_value(spec)}: a module or file before the ':' and a class after "
                           f"it ({_FORMS})")
    if not where.endswith(".py") and not _MODULE.fullmatch(where):
        raise EntrantError(f"bot {short_value(spec)}: {short_value(where)} is neither a module name nor a .py file "
                           f"({_FORMS})")
    return where, attr


def _class_factory(spec: str) -> BotFactory:
    """A Python class bot's factory, loaded in this process."""
    where, attr = _class_spec(spec)
    module = _load_file(spec, where) if where.endswith(".py") else _import(spec, where)
    obj: Any = module
    for part in attr.split("."):
        if not hasattr(obj, part):
            raise EntrantError(f"bot {short_value(spec)}: {short_value(where)} has no {short_value(attr)}")
        obj = getattr(obj, part)
    if not inspect.isclass(obj):
        raise EntrantError(f"bot {short_value(spec)}: {short_value(attr)} is not a class (it is a "
                           f"{type(obj).__name__})")
    if not callable(getattr(obj, "decide", None)):
        raise EntrantError(f"bot {short_value(spec)}: class {short_value(attr)} has no decide method (the Bot API)")
    factory = _ClassFactory(obj, _takes_seed(obj))
    try:
        factory(0)
    except (Exception, SystemExit) as err:
        call = f"{attr}(0)" if factory.takes_seed else f"{attr}()"
        raise EntrantError(f"bot {short_value(spec)}: {call} raised {_describe(err)} (a bot class is "
                           "called with its seed, or with nothing if it takes no "
                           "parameter)") from err
    return factory


def _bot_name(spec: str) -> str:
    """A bot's part of an entrant's default name: the built-in name, the class's name
    lower-cased, or a command's program without its folder and suffix."""
    if spec in BUILT_IN_BOTS:
        return spec
    if spec.startswith(STDIO):
        words = spec[len(STDIO):].split()
        # ``python3 bots/mine.py``: the script names the bot better than its interpreter.
        named = next((w for w in words[1:] if not w.startswith("-")), words[0]) if (
            words and Path(words[0]).name.startswith("python")) else (words[0] if words else "stdio")
        return Path(named).stem.lower() or "stdio"
    return spec.rpartition(":")[2].rpartition(".")[2].lower()


def parse_entrant(text: str, cards: Mapping[str, CardDefinition], *, trust: bool = False,
                  remote: Callable[[str, Deck], Seat] | None = None) -> Entrant:
    """The entrant ``[NAME=]BOT@DECK``: the bot by ``load_bot``, the deck by ``load_deck`` (a
    built-in deck, a TOML deck file or a text decklist). The bot ``remote`` (``REMOTE``) is a
    client that connects over the network: its seat is ``remote(name, deck)`` (a tournament's
    server makes it), and without ``remote`` it is refused. The name defaults to
    ``BOTNAME-DECKNAME``: ``random-gruul``, or the class's name lower-cased with the deck's
    name, or a command's program (its script, for ``stdio:python3 bot.py``) with the deck's,
    each space made a ``-`` (``heuristic-Izzet-Tempo``); a NAME holds no space.
    A name holds no ``=`` and a bot spec no ``@``; the deck is everything after the ``@``. An
    entrant beginning ``stdio:`` has no name part, so that its command may hold ``=``.

    Raises:
        EntrantError: naming the entrant: not of that form, a bad name, a bot ``load_bot``
            refuses, or a deck ``load_deck`` refuses (its message given in full).
    """
    form = "an entrant is [NAME=]BOT@DECK, like random@gruul or mine=bots/mine.py:MyBot@gruul"
    name: str | None = None
    rest = text
    at = text.find("@")
    eq = text.find("=")
    if eq != -1 and (at == -1 or eq < at) and not text.startswith(STDIO):
        name, rest = text[:eq].strip(), text[eq + 1:]
    bot, at_sign, deck_ref = rest.partition("@")
    bot, deck_ref = bot.strip(), deck_ref.strip()
    if not at_sign or not bot or not deck_ref:
        raise EntrantError(f"entrant {short_value(text)}: {form}")
    if name is not None and not _good_name(name):
        raise EntrantError(f"entrant {short_value(text)}: a name is 1 to {_MAX_NAME} printable "
                           f"characters, not {short_value(name)}")
    if name is not None and any(c.isspace() for c in name):
        raise EntrantError(f"entrant {short_value(text)}: a name holds no spaces (the standings "
                           f"are columns split at spaces), not {short_value(name)}: write "
                           f"{short_value('-'.join(name.split()))}")
    factory: AnyBot | None = None
    if bot == REMOTE:
        if remote is None:
            raise EntrantError(f"entrant {short_value(text)}: bot {REMOTE!r} is a client that connects over the "
                               "network: it needs a server to connect to (spellstack tournament --serve)")
    else:
        try:
            factory = load_bot(bot, trust=trust)
        except EntrantError as err:
            raise EntrantError(f"entrant {short_value(text)}: {err}") from err.__cause__
    try:
        deck = load_deck(deck_ref, cards)
    except CardDefinitionError as err:
        raise EntrantError(f"entrant {short_value(text)}: deck: {err}") from None
    if name is None:
        # A space for a '-': the standings are columns split at spaces.
        name = re.sub(r"\s", "-", f"{_bot_name(bot)}-{deck.name}")
        # A deck's name is a file's text: the name made from it is held to a NAME's rules.
        if not _good_name(name):
            raise EntrantError(f"entrant {short_value(text)}: its name would be "
                               f"{short_value(name)} (from the deck's name), not 1 to "
                               f"{_MAX_NAME} printable characters: give one, NAME=BOT@DECK")
    if factory is None:
        assert remote is not None
        return Entrant(name, bot, deck, remote(name, deck))
    return Entrant(name, bot, deck, factory)


def _good_name(name: str) -> bool:
    """Whether ``name`` is 1 to ``_MAX_NAME`` printable characters (no control character)."""
    return 0 < len(name) <= _MAX_NAME and name.isprintable()


def built_in_entrants(cards: Mapping[str, CardDefinition]) -> tuple[Entrant, ...]:
    """The random bot with each built-in deck (``DECKS``): ``random-dimir``, ..."""
    return tuple(parse_entrant(f"random@{deck}", cards) for deck in DECKS)
