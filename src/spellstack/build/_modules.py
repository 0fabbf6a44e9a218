"""Which modules the compiled build compiles, and why the others of the kernel and the protocol
stay interpreted."""

from __future__ import annotations

COMPILED_PACKAGES: tuple[str, ...] = ("spellstack.rules", "spellstack.protocol")
"""The packages whose modules are compiled: the kernel and the protocol (every module in them but
the packages' ``__init__`` files, which only gather names, and those ``LEFT_OUT`` names)."""

LEFT_OUT: dict[str, str] = {
    # The schema engine reads these types' hints at run time (``Annotated`` with an
    # ``ArgKind`` holding a lambda), which mypyc cannot compile.
    "spellstack.rules.effects._arguments": "its type aliases hold lambdas inside Annotated, "
                                           "read at run time (mypyc stops on them)",
    # ``ManaSource.__init__`` is replaced at import by a faster one written through the slots'
    # descriptors: a compiled class can't be changed after it is made.
    "spellstack.rules.mana._sources": "replaces a dataclass's __init__ at import, which a "
                                      "compiled class refuses",
    # ``Registry`` subclasses dict and refuses some of its methods by assigning them in the
    # class body (several names at once, which mypyc refuses; one a line, a compiled class
    # would not put them in the type's slots: see ``_state`` below).
    "spellstack.rules.registry._registry": "a dict subclass refusing methods by assigning them in "
                                           "its class body, which a compiled class ignores",
    # A frozen slotted dataclass that is also Generic fails as a compiled class is made
    # ("attribute '__dict__' of 'type' objects is not writable"): dataclasses remakes the class
    # for its slots, which a compiled class refuses.
    **{name: "a frozen slotted Generic dataclass, which a compiled class can't be made as"
       for name in ("spellstack.rules.registry._costs", "spellstack.rules.registry._sba",
                    "spellstack.rules.registry._triggers", "spellstack.rules.registry._turn",
                    "spellstack.rules.replacement._replacement")},
    # A compiled dataclass is handed its fields' types without ``ClassVar``, so a class
    # attribute (an effect verb's ``verb``, a message's ``KIND``) would become
    # a field: a wrong constructor, or an error for a list.
    **{name: "a dataclass with ClassVar attributes, which a compiled dataclass takes for fields"
       for name in ("spellstack.rules.effects._continuous",
                    "spellstack.rules.effects._instructions", "spellstack.rules.effects._objects",
                    "spellstack.rules.effects._players", "spellstack.rules.mechanics.dungeon",
                    "spellstack.rules.triggers._conditions",
                    "spellstack.protocol._messages", "spellstack.protocol._session")},
    # ``Action`` and ``Answer`` are what players send: a bot in the same process builds them
    # with values of any type, which compiled code checks as each is assigned.
    "spellstack.rules.state._decisions": "Action and Answer, which bots in the same process build "
                                         "with values of any type (compiled, a wrong one raises "
                                         "TypeError where the priority checks refuse it)",
    # The schema engine reads a compiled dataclass's hints from its source (``class_hints``), so
    # hints are no reason to stay interpreted; this module is on no hot path and was not tried.
    "spellstack.rules.mechanics.saga": "a card file's table (ChapterTable) on no hot path, not "
                                       "tried compiled",
    # ``Effect`` and ``Condition`` have ``ClassVar`` attributes, and the effect verbs and
    # conditions (interpreted, above) derive from them: a module of their own, so that the card
    # definitions beside them are compiled.
    "spellstack.rules.definitions._bases": "Effect and Condition, with ClassVar attributes, which "
                                           "the interpreted effect verbs and conditions subclass",
    # A class the interpreted modules above subclass (the effect verbs' ``Verb``): an
    # interpreted class can't inherit from a compiled one.
    "spellstack.rules.effects._context": "Verb, which the effect verbs of interpreted modules "
                                         "subclass (an interpreted class can't inherit from a compiled one)",
    # ``NO_COUNTERS`` is a dict subclass whose refusing methods are assigned in the class body
    # (``__setitem__ = _refuse``): a compiled class does not put them in the type's slots, so
    # the shared empty mapping took counters (every object then had them).
    "spellstack.rules.state._nocounters": "NO_COUNTERS, a dict subclass refusing changes by "
                                          "methods assigned in its class body, which a compiled "
                                          "class ignores",
    # These check what players send, which may hold values of any type: compiled code checks
    # each typed value as it is read, and would raise TypeError where they refuse the reply
    # with its reason (an action's fields, an answer's keys, a message's envelope).
    "spellstack.rules.turn._priority": "checks players' actions and answers, which may hold values "
                                       "of any type (compiled, a wrong one raises TypeError)",
    "spellstack.protocol._codec": "decodes and checks what players send, which may hold values of "
                                  "any type (compiled, a wrong one raises TypeError)",
    # ``Stops`` is what a seat sets (a bot in the same process may build it with values of any
    # type), read once a game: compiled, it would gain nothing.
    "spellstack.protocol._stops": "Stops, which a bot in the same process builds with values of "
                                  "any type, read once a game: nothing to gain compiled",
    # ``ManaCostSyntaxError`` keeps its text and position through pickling (worker processes);
    # a compiled exception class loses them.
    "spellstack.rules.mana._syntax": "ManaCostSyntaxError, whose fields a compiled exception loses "
                                     "when pickled",
    # ``LoopDriver``, a Protocol the coordinator and the kernel bench subclass: compiled, a
    # Protocol becomes a trait, which an interpreted class can't inherit from.
    "spellstack.rules.turn._loop_driver": "LoopDriver, a Protocol interpreted classes subclass "
                                          "(compiled, it is a trait they can't inherit from)",
}
"""Modules of those packages that stay interpreted, each with the reason."""

GROUP: str = "spellstack._compiled"
"""The shared library every compiled module of one build lives in (``spellstack/_compiled__mypyc``
plus one small module beside each source file): calls between them are native calls."""
