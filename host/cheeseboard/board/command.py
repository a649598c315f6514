"""Asking a running board: `cheeseboard hello`, `state` and `log`."""

import json

from cheeseboard.board.connect import PORT_HELP, open_client
from cheeseboard.board.protocol import ProtocolError

HELP = {
    "hello": "ask a board for its firmware version, profile and free heap",
    "state": "ask a board for the state of its menu or game",
    "log": "list the moves of the board's game (hidden tiles and markers as ?); saved to a "
           "file, `cheeseboard replay` plays it",
}


def add_parser(sub):
    for name, run in (("hello", do_hello), ("state", do_state), ("log", do_log)):
        p = sub.add_parser(name, help=HELP[name], description=HELP[name])
        p.add_argument("--port", help=PORT_HELP)
        if name == "state":
            p.add_argument("--words", action="store_true",
                           help="say it in the words the terminal view and the web page show "
                                "(`menu: game = gouda ...`), where the reply is JSON")
        if name == "log":
            p.add_argument("--from", dest="start", type=int, default=0, metavar="N",
                           help="start at move N (default: the first)")
        p.set_defaults(run=run)


def do_hello(args):
    """Ask a board (real or virtual) who it is."""
    return _print_request(args, "hello")


def do_state(args):
    """Ask a board what it is doing: the menu, or the game in progress."""
    if not args.words:
        return _print_request(args, "state")
    from cheeseboard import paths

    with open_client(args.port) as client:
        reply = client.request("state")
    said = paths.import_firmware("cheesefw.words").lines(reply)
    print("\n".join(said) if said else "the board says nothing in words now: %s"
          % json.dumps(reply.get("state")))
    return 0


def do_log(args):
    """The moves of the game in progress (or just over), as the board's journal holds them."""
    with open_client(args.port) as client:
        try:
            first = client.request("log", **{"from": args.start})
        except ProtocolError as e:
            if not str(e).endswith("no game in progress"):
                raise
            print("no game in progress on the board (its moves show here once one starts)")
            return 0
        # First, the game it is (a log saved to a file replays: `cheeseboard replay FILE`).
        state = client.request("state").get("state") or {}
        if "game" in state:
            from cheeseboard.replay.logfile import header_of

            print("# " + json.dumps(header_of(state)))
        total = first["total"]
        takebacks = first.get("takebacks", [])  # [moves kept, moves taken back], in turn
        shown = 0
        page = first
        while True:
            for i, move in enumerate(page["moves"]):
                _print_takebacks(takebacks, page["from"] + i)
                print("%d: %s" % (page["from"] + i, json.dumps(move)))
                shown += 1
            nxt = page["from"] + len(page["moves"])
            if not page["moves"] or nxt >= total:
                break
            page = client.request("log", **{"from": nxt})
        if shown:
            _print_takebacks(takebacks, total)
    if total == 0:
        print("no game on the board's journal (a game's moves show here once it starts)")
    elif shown == 0:
        print("the game has %d moves; none from %d" % (total, args.start))
    return 0


def _print_takebacks(takebacks, at):
    """The takebacks that left the game at `at` moves (the moves after it came later)."""
    for kept, count in takebacks:
        if kept == at:
            print("   taken back: %d move%s after move %d" % (count, "" if count == 1 else "s",
                                                           at - 1))


def _print_request(args, cmd):
    with open_client(args.port) as client:
        reply = client.request(cmd)
    reply.pop("id", None)
    reply.pop("ok", None)
    print(json.dumps(reply, indent=1))
    return 0

