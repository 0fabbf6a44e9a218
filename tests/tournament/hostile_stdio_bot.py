"""A bot process that misbehaves in the way its one argument names, for the isolation tests.

It reads the hello, says it is ready, and then reads requests as a stdio bot does (frames of
msgpack), and at its first request (or from the start, for noise and unready) does the harm
named: ``unready`` never says it is ready, ``chatty`` answers the hello with a message in
place of the ready frame, ``slowstart`` takes 0.8 s to say it is ready and then plays (it
passes and gives the simplest legal answers), ``silent`` never answers,
``garbage`` sends frames that are not msgpack, ``oversized`` a frame longer than any player
message, ``truncated`` half a frame and exits, ``nested`` deeply nested lists, ``noise``
prints text on stdout, ``illegal`` casts a card that does not exist whenever it has priority,
``exits`` exits with code 3, ``killed`` kills itself with SIGKILL.
"""

import os
import signal
import struct
import sys
import time

import msgpack

MODE = sys.argv[1]
stdin, stdout = sys.stdin.buffer, sys.stdout.buffer


def read():
    head = stdin.read(4)
    if len(head) < 4:
        return None
    return msgpack.unpackb(stdin.read(struct.unpack(">I", head)[0]), raw=False)


def write(payload):
    stdout.write(struct.pack(">I", len(payload)) + payload)
    stdout.flush()


folder = os.environ.get("SPELLSTACK_TEST_PIDS")
if folder:  # the tests look for the processes bots ran in
    with open(os.path.join(folder, f"{os.getpid()}.pid"), "w", encoding="utf-8") as out:
        out.write(str(os.getpid()))
hello = read()
if MODE == "noise":
    print("starting up, seat", hello["seat"])
    sys.stdout.flush()
elif MODE == "unready":
    time.sleep(3600)
elif MODE == "chatty":
    write(msgpack.packb({"k": "SetStops", "v": hello["protocol"], "b": {}}))
elif MODE == "slowstart":
    time.sleep(0.8)  # longer than the deadline it plays under
    write(msgpack.packb({"t": "ready"}))
else:
    write(msgpack.packb({"t": "ready"}))
while (message := read()) is not None:
    if message["k"] not in ("PriorityRequest", "DecisionRequest"):
        continue
    decision = message["b"]["decision"]
    if MODE == "slowstart" and message["k"] == "PriorityRequest":
        write(msgpack.packb({"k": "SubmitAction", "v": hello["protocol"], "b": {
            "decision_id": decision["id"], "action": {
                "kind": "pass", "object_id": 0, "ability": 0, "targets": [], "x": 0, "divide": [],
                "pay": [], "pay_as": [], "face": "", "modes": [], "costs": []}}}))
    elif MODE in ("illegal", "slowstart") and message["k"] == "DecisionRequest":
        # Its other answers are legal (keep, go first, the fewest choices): it is its
        # actions that are refused, for ever.
        keys = [c[0] for c in decision["choices"]]
        chosen = {"mulligan": [0], "starting_player": [decision["player"]], "order": keys,
                  "yes_no": [0]}.get(decision["kind"], keys[:decision["min"]])
        write(msgpack.packb({"k": "SubmitAnswer", "v": hello["protocol"], "b": {"answer": {
            "decision_id": decision["id"], "keys": chosen, "pairs": []}}}))
    elif MODE == "silent":
        time.sleep(3600)
    elif MODE == "garbage":
        write(b"\xc1\xc1 not msgpack at all")
    elif MODE == "oversized":
        write(b"\x90" * (1 << 20))
    elif MODE == "truncated":
        stdout.write(struct.pack(">I", 100) + b"\x82\xa1k")
        stdout.flush()
        sys.exit(0)
    elif MODE == "nested":
        write(b"\x91" * 5000 + b"\xc0")
    elif MODE == "illegal":
        write(msgpack.packb({"k": "SubmitAction", "v": hello["protocol"], "b": {
            "decision_id": decision["id"], "action": {
                "kind": "cast", "object_id": 987654, "ability": 0, "targets": [], "x": 0,
                "divide": [], "pay": [], "pay_as": []}}}))
    elif MODE == "exits":
        print("giving up", file=sys.stderr)
        sys.exit(3)
    elif MODE == "killed":
        os.kill(os.getpid(), signal.SIGKILL)
    else:
        sys.exit(f"unknown mode {MODE!r}")
