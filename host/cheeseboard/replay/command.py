"""`cheeseboard replay`: step through a game's log on a virtual board, in the terminal.

    cheeseboard replay                     the game on this profile's virtual board (its flash)
    cheeseboard replay journal.txt         a board's journal, or a file saved from `cheeseboard log`
    cheeseboard replay --port /dev/ttyACM0 the game on a board, asked over USB
    cheeseboard replay game.log --svg game.svg   the whole game as one animated picture

Keys: -> / l next step, <- / h back, a number then Enter jumps to that step, Home/End the first
and last, Space plays on by itself (+ / - faster or slower), q quits. Without a terminal every
step is printed one after another.
"""

import json
import sys
from pathlib import Path

from cheeseboard import paths
from cheeseboard.replay import logfile, positions
from cheeseboard.replay.positions import ReplayError

HELP = "step through a game's log on a virtual board (forward, back, jump, auto-play)"


def add_parser(sub):
    p = sub.add_parser("replay", help=HELP, description=HELP + ". " + __doc__.split("\n\n")[2])
    p.add_argument("log", nargs="?", metavar="FILE",
                   help="a board's journal.txt or a file saved from `cheeseboard log` (default: "
                        "the game on this profile's virtual board)")
    p.add_argument("--port", help="replay the game on this board now (its `log`)")
    p.add_argument("--flash", metavar="DIR", help="a virtual board's flash folder")
    p.add_argument("--profile", help="the board to draw on (default: pico, or pico16 for "
                                     "gatenkaas; without FILE: whose virtual board)")
    p.add_argument("--rules", metavar="FILE",
                   help="the rule table the game was played with (default: the board's in "
                        "--flash, else the firmware's)")
    p.add_argument("--reveal", action="store_true",
                   help="show the hidden moves and the whole state (only once the game is over)")
    p.add_argument("--step", type=int, metavar="N", help="start at step N (default: 0)")
    p.add_argument("--speed", type=float, default=1.0, metavar="S",
                   help="seconds per step when playing on (default: 1)")
    p.add_argument("--svg", metavar="FILE",
                   help="write the game (from --step to --to) as an animated SVG and stop")
    p.add_argument("--to", type=int, metavar="M", help="with --svg: the last step (default: "
                                                       "the game's last)")
    p.set_defaults(run=do_replay, interrupted="nothing changed on any board")


def do_replay(args):
    if args.speed <= 0:
        raise ReplayError("--speed: expected seconds per step above 0, got %s" % args.speed)
    game, table = _read(args)
    profile = positions.profile_for(game.header["game"], args.profile)
    steps = positions.positions(game, profile, table, args.reveal)
    if not steps:
        raise ReplayError("%s: nothing to replay: the game runs on and hides its first move "
                          "(\"?\", a deal) until it is over; its journal holds it (`cheeseboard "
                          "replay` without FILE reads the virtual board's)" % game.source)
    over = steps[-1].described.get("wait") == "over" if game.over is None else game.over
    if args.reveal and not over:
        raise ReplayError("--reveal: the game is still running (%d steps so far): its hidden "
                          "moves stay hidden until it is over" % (len(steps) - 1))
    if game.hidden_from is not None:
        print("%s: the game runs on; its move %d is hidden (\"?\") until it is over, so the "
              "replay stops before it (the board's journal.txt holds every move)"
              % (game.source, game.hidden_from), file=sys.stderr)
    start = args.step or 0
    if not 0 <= start < len(steps):
        raise ReplayError("--step: expected 0 to %d, got %d" % (len(steps) - 1, start))
    from cheeseboard.replay import terminal

    if args.svg:
        from cheeseboard.replay import animation

        end = len(steps) - 1 if args.to is None else args.to
        if not start <= end < len(steps):
            raise ReplayError("--to: expected %d to %d, got %d" % (start, len(steps) - 1, end))
        data = animation.svg(profile, game.header["game"], steps[start:end + 1], args.speed,
                             lambda step: terminal.words(step, steps, game, False)[0]).encode()
        Path(args.svg).write_bytes(data)
        print("wrote %s (steps %d to %d, %d bytes)" % (args.svg, start, end, len(data)))
        return 0

    terminal.run(steps, profile, game, args.reveal, start, args.speed)
    return 0


def _read(args):
    """(the game, the rule table to play it with or None for the firmware's) from where the
    arguments say."""
    table = None
    if args.rules:
        try:
            table = json.loads(Path(args.rules).read_text())
        except (OSError, ValueError) as e:
            raise ReplayError("--rules %s: expected a rule table (JSON): %s"
                              % (args.rules, e)) from None
    if sum(bool(x) for x in (args.log, args.port, args.flash)) > 1:
        raise ReplayError("expected one of FILE, --port and --flash")
    if args.log:
        return logfile.read(args.log), table
    if args.port:
        from cheeseboard.board.connect import open_client

        with open_client(args.port) as client:
            return logfile.from_board(client, args.port), table
    from cheeseboard.sim import flash as simflash

    folder = Path(args.flash) if args.flash else \
        simflash.default_folder(paths.load_profile(args.profile or "pico"))
    journal = folder / "journal.txt"
    if not journal.exists():
        raise ReplayError("no game on the virtual board at %s (a game's journal.txt is there "
                          "while it is played); name a log FILE or --port" % folder)
    game = logfile.read(journal)
    if table is None:  # the table the board plays it with (engine/core.py load_rules)
        for name in ("game_rules.json", "rules/%s.json" % game.header["game"]):
            if (folder / name).exists():
                table = json.loads((folder / name).read_text())
                break
    return game, table
