"""The `cheeseboard` command: a table of subcommands, each a do_<name>(args) handler."""

import argparse
import contextlib
import signal
import subprocess
import sys

from cheeseboard import __version__, flash_cli, paths, rules_cli
from cheeseboard.build import BuildError
from cheeseboard.deploy import FlashError
from cheeseboard.link import LinkError
from cheeseboard.ports import PortError
from cheeseboard.protocol import ProtocolError


class CommandError(Exception):
    """A command cannot do what was asked; main prints it and exits non-zero."""


def do_sim(args):
    """Run the firmware on a virtual board: a MicroPython VM behind a pseudo-terminal."""
    from cheeseboard.sim import flash, view
    from cheeseboard.sim.board import VirtualBoard
    from cheeseboard.sim.control import ControlServer

    profile = paths.load_profile(args.profile)
    flash_dir = flash.prepare(profile, args.flash, args.blank, args.source)
    heap = args.heap or profile["heap"]
    board = VirtualBoard(flash_dir, heap, name="%s (virtual cheeseboard)" % profile["title"],
                         baud=args.baud, fs_size=flash.FILESYSTEM.get(profile["platform"], 0))
    control_path = args.control or str(flash_dir).rstrip("/") + ".sock"
    control = ControlServer(board, control_path)
    print(board.pty_path, flush=True)
    print("flash: %s\nside channel: %s\nheap: %d bytes" % (flash_dir, control_path, heap),
          file=sys.stderr, flush=True)
    board.start()
    try:
        if args.headless:
            signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
            while True:
                signal.pause()
        else:
            view.run(board, profile)
    except KeyboardInterrupt:
        pass
    finally:
        board.stop()
        control.close()
    return 0


def do_hello(args):
    """Ask a board (real or virtual) who it is."""
    return _print_request(args, "hello")


def do_state(args):
    """Ask a board what it is doing: the menu, or the game in progress."""
    return _print_request(args, "state")


@contextlib.contextmanager
def open_client(port_name):
    """The protocol over a board's serial port, closed whatever happens."""
    import serial

    from cheeseboard.protocol import Client

    try:
        port = serial.Serial(port_name, 115200, timeout=0.1)
    except serial.SerialException as e:
        raise CommandError("cannot open %s: %s" % (port_name, e)) from None
    try:
        yield Client(port)
    finally:
        port.close()


def _print_request(args, cmd):
    import json

    with open_client(args.port) as client:
        reply = client.request(cmd)
    reply.pop("id", None)
    reply.pop("ok", None)
    print(json.dumps(reply, indent=1))
    return 0


def do_test(args):
    """Run the simulated-hardware tests against the current firmware/."""
    cmd = [sys.executable, "-m", "pytest", str(paths.ROOT / "tests"), "-m", "board", "-q",
           "-p", "no:cacheprovider"] + args.pytest_args
    print("testing firmware/ on the virtual board (MicroPython VM, capped heap)...", flush=True)
    code = subprocess.call(cmd, cwd=str(paths.ROOT))
    if code == 0:
        print("cheeseboard test: the firmware passes on the virtual board")
    else:
        print("cheeseboard test: FAILED - see the failures above", file=sys.stderr)
    return code


def do_profile(args):
    """Check the hardware profiles, or regenerate the docs made from them."""
    from cheeseboard import hardware

    if args.action == "docs":
        for path in hardware.write_docs():
            print("wrote %s" % path.relative_to(paths.ROOT))
        return 0
    bad = 0
    for name, errors in hardware.check_all(args.names).items():
        for e in errors:
            print("%s: %s" % (name, e), file=sys.stderr)
        bad += bool(errors)
        if not errors:
            print("%s: ok" % name)
    return 1 if bad else 0


def do_rules(args):
    """Check rule tables, or compare them with a board's, or pull a board's."""
    return rules_cli.do_rules(args, open_client)


def do_sync(args):
    """Send the rule tables that differ to a board."""
    return rules_cli.do_sync(args, open_client)


COMMANDS = {
    "sim": (do_sim, "run the firmware on a virtual board"),
    "hello": (do_hello, "ask a board for its firmware version, profile and free heap"),
    "state": (do_state, "ask a board for the state of its menu or game"),
    "test": (do_test, "run the simulated-hardware tests against firmware/"),
    "profile": (do_profile, "check the hardware profiles, or regenerate hardware/ docs"),
    "rules": (do_rules, "check rule tables, diff them with a board's, pull a board's"),
    "sync": (do_sync, "send the rule tables that differ to a board"),
    "flash": (flash_cli.do_flash, "install the firmware on a board (only what changed)"),
    "info": (flash_cli.do_info, "a board's firmware, slot, profile, free flash and heap"),
}


def build_parser():
    parser = argparse.ArgumentParser(
        prog="cheeseboard",
        description="The cheeseboard's host tool: run the firmware on a virtual board, talk to "
                    "a board over USB serial, check and sync its rule tables, check profiles.")
    parser.add_argument("--version", action="version", version=__version__)
    sub = parser.add_subparsers(dest="command", required=True)
    for name, (_, help_text) in COMMANDS.items():
        if name == "rules":
            rules_cli.add_rules_parser(sub)
            continue
        if name == "sync":
            rules_cli.add_sync_parser(sub)
            continue
        if name == "flash":
            flash_cli.add_parsers(sub)  # flash and info
            continue
        if name == "info":
            continue
        p = sub.add_parser(name, help=help_text, description=help_text)
        if name == "sim":
            p.add_argument("--profile", default="pico", help="hardware profile (default: pico)")
            p.add_argument("--flash", metavar="DIR",
                           help="the board's flash folder (kept; a new one gets the firmware)")
            p.add_argument("--blank", action="store_true",
                           help="start with an empty flash (a new --flash folder stays empty)")
            p.add_argument("--source", action="store_true",
                           help="install the firmware as .py source, not compiled .mpy")
            p.add_argument("--headless", action="store_true",
                           help="no terminal view: print the console's path and nothing else")
            p.add_argument("--control", metavar="PATH", help="side channel socket path")
            p.add_argument("--heap", type=int, help="VM heap in bytes (default: the profile's)")
            p.add_argument("--baud", type=int,
                           help="limit the console to a UART's speed (e.g. 115200)")
        elif name in ("hello", "state"):
            p.add_argument("--port", required=True, help="serial port (e.g. /dev/ttyACM0)")
        elif name == "profile":
            p.add_argument("action", choices=("check", "docs"))
            p.add_argument("names", nargs="*", metavar="NAME",
                           help="profiles to check (default: all in hardware/profiles)")
        elif name == "test":
            p.usage = "cheeseboard test [pytest options, e.g. -k gouda]"
    return parser


def main(argv=None):
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["test"] and not {"-h", "--help"} & set(argv):
        # Everything after `test` is pytest's (e.g. -k gouda).
        args = argparse.Namespace(command="test", pytest_args=argv[1:])
    else:
        args = build_parser().parse_args(argv)
    handler = COMMANDS[args.command][0]
    try:
        return handler(args)
    except (CommandError, ProtocolError, paths.ProfileError, FileNotFoundError,
            NotADirectoryError, FileExistsError, BuildError, FlashError, LinkError,
            PortError) as e:
        print("cheeseboard: %s" % e, file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
