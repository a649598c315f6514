"""`cheeseboard snapshot`: the virtual board as it is now, drawn as SVG and PNG.

The frame comes from the board's side channel (the last frame its firmware wrote, after
the power limiter); the game whose overlay is drawn is the one the board says it plays
(`state` on its console, found through the side channel's `status`), or --game.
"""

import json
from pathlib import Path

from cheeseboard import CheeseboardError, paths

KINDS = (".svg", ".png")


class SnapshotError(CheeseboardError):
    """No picture can be made: no board there, no frame yet, or no game to draw."""


def add_parser(sub):
    p = sub.add_parser("snapshot", help="draw a virtual board as it is now (SVG and PNG)",
                       description="Draw a running virtual board (`cheeseboard sim`) as it is "
                                   "now: its game's overlay, every pixel in the colour its "
                                   "firmware last wrote.")
    p.add_argument("files", nargs="+", metavar="FILE",
                   help="where to write the picture: NAME.svg or NAME.png (one or more)")
    p.add_argument("--profile", default="pico", help="the board's profile (default: pico)")
    p.add_argument("--control", metavar="PATH",
                   help="the board's side channel (default: that of `cheeseboard sim` started "
                        "without --flash for this profile)")
    p.add_argument("--game", help="the overlay to draw (default: the game the board plays, "
                                   "or shows in its menu)")
    p.add_argument("--timeout", type=float, default=5.0, metavar="S",
                   help="how long to wait for the board (default: 5 s)")
    p.set_defaults(run=do_snapshot)


def do_snapshot(args):
    from cheeseboard.pictures import picture

    profile = paths.load_profile(args.profile)
    for f in args.files:
        if Path(f).suffix not in KINDS:
            raise SnapshotError("%s: expected a file name ending in .svg or .png" % f)
    control = args.control or _default_control(profile)
    frame, pty = read_board(control, args.timeout)
    game = args.game or game_on_board(pty, args.timeout)
    if game not in profile["maps"]:
        raise SnapshotError("game: expected one of %s, got %r"
                            % (", ".join(sorted(profile["maps"])), game))
    for f in args.files:
        draw = picture.svg(profile, game, frame).encode() if f.endswith(".svg") else \
            picture.png(profile, game, frame)
        Path(f).write_bytes(draw)
        print("wrote %s (%s, %d bytes)" % (f, game, len(draw)))
    return 0


def _default_control(profile):
    from cheeseboard.sim import flash

    return str(flash.default_folder(profile)).rstrip("/") + ".sock"


def read_board(control, timeout):
    """(the board's last frame, its console's path) from its side channel."""
    from cheeseboard.sim.control import SimLink

    try:
        link = SimLink(control, timeout=min(timeout, 1.0))
    except OSError:
        raise SnapshotError("no virtual board at %s: start one with `cheeseboard sim` (or name "
                            "its side channel with --control)" % control) from None
    try:
        status = link.status(timeout)
        try:
            link.wait_for(lambda s: s.frame is not None, timeout, "a frame")
        except AssertionError:
            raise SnapshotError("the board at %s has not lit its LEDs yet" % control) from None
        return link.frame, status["pty"]
    finally:
        link.close()


def game_on_board(pty, timeout):
    """The game the board plays, or the one its menu offers now."""
    import serial

    from cheeseboard.board.protocol import Client, ProtocolError

    try:
        with serial.Serial(pty, 115200, timeout=0.1) as port:
            state = Client(port, timeout=timeout).request("state")["state"]
    except (OSError, serial.SerialException, ProtocolError) as e:
        raise SnapshotError("cannot ask the board which game it plays (%s): name it with "
                            "--game" % e) from None
    if "game" not in state:
        raise SnapshotError("the board does not say which game it shows: name it with --game "
                            "(%s)" % json.dumps(state))
    return state["game"]
