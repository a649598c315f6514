"""Fuzzed protocol requests with extreme field values, and a run of them against a virtual board.

Every request names a real command (so that it reaches its handler) and carries a few of the
fields the commands read, each given a value from EXTREMES: numbers past what a board can index
(2**62, 2**63, 2**64, 10**30), negative ones, floats, wrong types, nested values, empty and long
strings. The board must answer each one (an `ok` reply or an error with its id) and never
restart: a request is never a fall of the firmware.
"""

import random

from cheeseboard.board.protocol import encode

# Each command with the fields it reads.
COMMANDS = {"hello": (), "state": (), "log": ("from",), "tables": (), "get": ("name", "offset"),
            "put": ("name", "offset", "data", "text", "z"), "commit": ("name", "sha256"),
            "reset": ("name",)}
FIELDS = ("name", "offset", "from", "data", "text", "z", "sha256")
LONGEST_LINE = 1024  # the protocol's, newline not counted
NAMES = ("gouda", "kitchen", "kalle", "katz", "gatenkaas")

EXTREMES = (
    0, 1, -1, 255, 256, 16383, 16384, 16385, 2**30 - 1, 2**30, 2**31 - 1, 2**31, 2**32,
    2**62 - 1, 2**62, 2**63 - 1, 2**63, 2**64, -2**31, -2**63, -2**64, 10**30, -10**30,
    10**300, 0.5, -0.0, 1e300, -1e300, 1e-300, True, False, None, "", "0", "-1", "gouda",
    "../slot.json", "rules/gouda.json", "\u00e9", "x" * 600, "AAAA" * 150, [], [2**63], {},
    {"offset": 2**63}, [[[[[[[[[[[[[[[[0]]]]]]]]]]]]]]]],
)


def requests(n, seed=1):
    """n request objects (dicts with id and cmd), the same for the same seed: each command's own
    fields, mostly a real game's name (so that the other fields are read), and now and then a
    field the command does not read."""
    rng = random.Random(seed)
    commands = sorted(COMMANDS)
    out = []
    for i in range(n):
        cmd = rng.choice(commands)
        request = {"id": i % 0x3FFFFFFF + 1, "cmd": cmd}
        for field in COMMANDS[cmd]:
            if rng.random() < 0.9:
                real = field == "name" and rng.random() < 0.8
                request[field] = rng.choice(NAMES) if real else rng.choice(EXTREMES)
        if rng.random() < 0.3:
            request[rng.choice(FIELDS)] = rng.choice(EXTREMES)
        out.append(request)
    return out


def run(board, n, seed=1):
    """Send n fuzzed requests to a booted VBoard, one at a time; (answered, restarts, unanswered
    requests (up to 5), the board's `tables` before and after)."""
    before = board.request("tables")["tables"]
    boots = board.link.status()["boots"]
    answered = 0
    missed = []
    for request in requests(n, seed):
        line = encode(request)
        board.port.write(line)
        # (a line past 1024 bytes is answered as such, with no id: the board never read it)
        rid = request["id"] if len(line) <= LONGEST_LINE + 1 else None
        try:
            reply = board.client.read_reply(rid, timeout=10)
        except Exception:  # noqa: BLE001 (no answer: counted, and the board asked again)
            missed.append(request)
            board.wait_protocol(timeout=30)
            continue
        if reply.get("ok") is True or isinstance(reply.get("error"), str):
            answered += 1
        else:
            missed.append(request)
    restarts = board.link.status()["boots"] - boots
    after = board.request("tables")["tables"]
    return answered, restarts, missed[:5], before, after
