#!/usr/bin/env python3
"""A minimal spellstack bot playing on a server over WebSockets, using only websocket-client and
msgpack (pip install websocket-client msgpack). It answers every request with a random legal
answer.

With a server running (spellstack serve), play a game against the server's random bot:

    python3 examples/remote_bot.py ws://127.0.0.1:8765 --seed 1

or play the seat a token opens, in a game someone else created:

    python3 examples/remote_bot.py ws://127.0.0.1:8765 --token TOKEN

or play a tournament's entrant, game after game, until the tournament is over (spellstack
tournament --serve gives each remote entrant its token):

    python3 examples/remote_bot.py ws://127.0.0.1:8765 --entrant TOKEN

Every frame, both ways, is one binary WebSocket message holding one msgpack message
{"k": kind, "v": version, "b": body}. The bot says Hello, creates a game if it has no token
(CreateGame: it gets a token per seat), joins its seat (JoinSeat, answered by Seated with its
own seed), then answers each PriorityRequest with a SubmitAction and each DecisionRequest with
a SubmitAnswer until the GameOver, and says Goodbye. As a tournament's entrant it says
JoinEntrant (answered by Entered), then NextGame before each game (answered by Seated) until the
server closes the connection. docs/remote-bots.md tells every message.
"""

import argparse
import random
import sys

import msgpack
from websocket import ABNF, WebSocketConnectionClosedException, create_connection

VERSION = 8
"""The protocol version this bot speaks: the "v" of every message."""


def send(ws, kind, body):
    """Send one message as one binary frame."""
    ws.send(msgpack.packb({"k": kind, "v": VERSION, "b": body}, use_bin_type=True), opcode=ABNF.OPCODE_BINARY)


def receive(ws, frame=None):
    """The next message (or ``frame``), decoded; a refusal (Error) stops the bot."""
    message = msgpack.unpackb(ws.recv() if frame is None else frame, raw=False)
    if message["k"] == "Error":
        sys.exit(f"remote bot: refused: {message['b']['reason']}")
    return message


def action(decision_id, kind="pass", object_id=0, ability=0, targets=(), x=0, face="", modes=(), costs=()):
    """A SubmitAction's body: every field of the action is given."""
    return {"decision_id": decision_id, "action": {
        "kind": kind, "object_id": object_id, "ability": ability, "targets": list(targets), "x": x,
        "divide": [], "pay": [], "pay_as": [], "face": face, "modes": list(modes), "costs": list(costs)}}


def choose_action(decision, rng):
    """A land when one can be played, else a random option (passing among them), its targets
    and X chosen at random. Each action option is [kind, object_id, name, ability, targets,
    has_x, max_x, divide, face, modes, mode_texts, costs, required_cost]; each target
    requirement [prompt, min, max, candidates]."""
    options = [o for o in decision["actions"] if not o[7]]  # no division to make
    lands = [o for o in options if o[0] == "play"]
    option = rng.choice(lands or [*options, None])
    if option is None:
        return action(decision["id"])
    kind, object_id, _name, ability, requirements, has_x, max_x, _divide, face, modes = option[:10]
    targets = []
    for _prompt, low, high, candidates in requirements:
        count = rng.randint(low, min(high, len(candidates))) if len(candidates) >= low else low
        targets += rng.sample(candidates, min(count, len(candidates)))
    required = option[12]
    return action(decision["id"], kind, object_id, ability, targets, rng.randint(0, max_x) if has_x else 0,
                  face, modes, required.split("+") if required else [])


def choose_answer(decision, rng):
    """A random legal answer to any other question. Each choice is [key, ref, name, group];
    each legal pair [creature key, key of what it attacks or blocks]."""
    keys = [choice[0] for choice in decision["choices"]]
    kind, low, high = decision["kind"], decision["min"], decision["max"]
    pairs = []
    if kind == "order":
        rng.shuffle(keys)
    elif kind in ("attackers", "blockers"):
        used = set()
        for creature, other in rng.sample(decision["legal_pairs"], len(decision["legal_pairs"])):
            if creature not in used and rng.random() < 0.5:
                used.add(creature)
                pairs.append([creature, other])
        keys = []
    elif kind == "divide":
        keys, pairs = [], [[keys[0], high]]  # all of it to the first
    elif kind == "starting_player":
        keys = [decision["player"]]
    elif kind == "mulligan":
        keys = [0]  # keep
    else:  # choose, yes_no, mulligan_bottom: between min and max of the keys
        keys = rng.sample(keys, rng.randint(low, min(high, len(keys))))
    return {"answer": {"decision_id": decision["id"], "keys": keys, "pairs": pairs}}


def play(ws, seated):
    """Play the game Seated tells, to its GameOver."""
    rng = random.Random(seated["seed"])
    me = seated["players"][seated["seat"]]
    print(f"remote bot: {me} against {', '.join(p for p in seated['players'] if p != me)}")
    while True:
        message = receive(ws)
        if message["k"] == "PriorityRequest":
            send(ws, "SubmitAction", choose_action(message["b"]["decision"], rng))
        elif message["k"] == "DecisionRequest":
            send(ws, "SubmitAnswer", choose_answer(message["b"]["decision"], rng))
        elif message["k"] == "GameOver":
            print(f"remote bot: game over: {message['b']['reason']}")
            return
        elif message["k"] == "Unseated":  # a tournament's entrant forfeited this game
            print("remote bot: forfeited the game")
            return


def main():
    parser = argparse.ArgumentParser(description="A random remote bot for spellstack serve.")
    parser.add_argument("url", nargs="?", default="ws://127.0.0.1:8765", help="the server")
    parser.add_argument("--token", help="the seat to play (default: create a game against the server's random bot)")
    parser.add_argument("--entrant", metavar="TOKEN", help="play a tournament's entrant, game after game")
    parser.add_argument("--seed", type=int, help="the game's seed, when it creates one (default: a secret one)")
    args = parser.parse_args()

    try:
        ws = create_connection(args.url)
    except (OSError, ValueError) as err:  # refused, unreachable, or not a ws:// address
        raise SystemExit(f"remote bot: can't connect to {args.url}: {err}") from None
    send(ws, "Hello", {"protocol": VERSION})
    receive(ws)  # Welcome
    if args.entrant is not None:
        send(ws, "JoinEntrant", {"token": args.entrant})
        entered = receive(ws)["b"]  # Entered
        print(f"remote bot: entrant {entered['entrant']}, deck {entered['deck']}")
        while True:
            send(ws, "NextGame", {})
            try:
                frame = ws.recv()  # Seated; when the tournament is over, the server closes
            except WebSocketConnectionClosedException:
                frame = b""
            if not frame:
                print("remote bot: the tournament is over")
                return
            play(ws, receive(ws, frame)["b"])
    token = args.token
    if token is None:
        seats = [{"name": "remote_bot", "deck": "gruul"}, {"name": "random", "deck": "orzhov", "bot": "random"}]
        send(ws, "CreateGame", {"seats": seats, "seed": args.seed})
        token = receive(ws)["b"]["seats"][0]["token"]  # GameCreated
    send(ws, "JoinSeat", {"token": token})
    play(ws, receive(ws)["b"])  # Seated
    send(ws, "Goodbye", {})
    ws.close()


if __name__ == "__main__":
    main()
