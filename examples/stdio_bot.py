#!/usr/bin/env python3
"""A minimal spellstack bot speaking the stdio protocol, using only msgpack.

Run in a tournament with:

    spellstack tournament --entrant "stdio:python3 examples/stdio_bot.py@gruul" --entrant random@gruul

Every frame, both ways, is a 4-byte big-endian length and then that many bytes of msgpack. The
first frame read is the hello, answered with {"t": "ready"} once the bot is set up; each later
one is a protocol message {"k": kind, "v": version, "b": body}. The bot answers each request
with the first thing it may do: it plays a land if it can, casts the first spell whose targets
it can name, and otherwise passes; other questions get their simplest legal answer. It never
needs the view, so it ignores it.
"""

import struct
import sys

import msgpack

stdin = sys.stdin.buffer
stdout = sys.stdout.buffer


def read_frame():
    """The next frame's payload, decoded; None when the engine closes the stream."""
    head = stdin.read(4)
    if len(head) < 4:
        return None
    (size,) = struct.unpack(">I", head)
    return msgpack.unpackb(stdin.read(size), raw=False)


def write_frame(message):
    """Send one message as a frame."""
    payload = msgpack.packb(message, use_bin_type=True)
    stdout.write(struct.pack(">I", len(payload)) + payload)
    stdout.flush()


def action(decision_id, kind, object_id=0, ability=0, targets=(), face="", modes=(), costs=()):
    """A SubmitAction: every field of the action is given."""
    return {"k": "SubmitAction", "v": VERSION, "b": {"decision_id": decision_id, "action": {
        "kind": kind, "object_id": object_id, "ability": ability, "targets": list(targets),
        "x": 0, "divide": [], "pay": [], "pay_as": [], "face": face, "modes": list(modes),
        "costs": list(costs)}}}


def answer(decision_id, keys=(), pairs=()):
    """A SubmitAnswer."""
    return {"k": "SubmitAnswer", "v": VERSION, "b": {"answer": {
        "decision_id": decision_id, "keys": list(keys), "pairs": [list(p) for p in pairs]}}}


def choose_action(decision):
    """A land, else the first spell with no X and no division whose targets exist,
    else pass. Each action option is [kind, object_id, name, ability, targets, has_x, max_x,
    divide, face, modes, mode_texts, costs, required_cost] and each target requirement
    [prompt, min, max, candidates]."""
    options = decision["actions"]
    for kind, object_id, _name, _ability, _targets, _x, _max_x, _divide, face, *_ in options:
        if kind == "play":
            return action(decision["id"], kind, object_id, face=face)
    for option in options:
        kind, object_id, _name, ability, targets, has_x, _max_x, divide, face, modes = option[:10]
        required_cost = option[12]
        if kind != "cast" or has_x or divide:
            continue
        if all(len(candidates) >= low for _prompt, low, _high, candidates in targets):
            chosen = [ref for _prompt, low, _high, candidates in targets for ref in candidates[:low]]
            return action(decision["id"], kind, object_id, ability, chosen, face=face,
                          modes=modes, costs=required_cost.split("+") if required_cost else [])
    return action(decision["id"], "pass")


def choose_answer(decision):
    """The simplest legal answer. Each choice is [key, ref, name, group]."""
    keys = [choice[0] for choice in decision["choices"]]
    kind = decision["kind"]
    if kind == "order":
        return answer(decision["id"], keys)
    if kind == "yes_no":
        return answer(decision["id"], [0])
    if kind in ("choose", "mulligan_bottom"):
        return answer(decision["id"], keys[:decision["min"]])
    if kind == "starting_player":
        return answer(decision["id"], [decision["player"]])
    if kind == "mulligan":
        return answer(decision["id"], [0])  # keep
    if kind == "divide":
        return answer(decision["id"], [], [(keys[0], decision["max"])])
    if kind == "attackers":
        # Every creature that may attack does, at the first thing it may attack. Each legal
        # pair is [creature key, attacked key].
        first = {}
        for creature, attacked in decision["legal_pairs"]:
            first.setdefault(creature, attacked)
        return answer(decision["id"], [], first.items())
    return answer(decision["id"])  # blockers: none


hello = read_frame()
VERSION = hello["protocol"]
write_frame({"t": "ready"})  # set up: the game may begin
print(f"stdio bot: seat {hello['seat']} of {hello['players']} in game {hello['game']}",
      file=sys.stderr)
while (message := read_frame()) is not None:
    if message["k"] == "PriorityRequest":
        write_frame(choose_action(message["b"]["decision"]))
    elif message["k"] == "DecisionRequest":
        write_frame(choose_answer(message["b"]["decision"]))
    elif message["k"] == "GameOver":
        break
