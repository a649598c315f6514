"""The `cheeseboard` command: a table of subcommands, each a do_<name>(args) handler."""

import argparse
import contextlib
import os
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

from cheeseboard import __version__, flash_cli, paths, rules_cli, snapshot, web
from cheeseboard.build import BuildError
from cheeseboard.connect import BoardUnreachable, open_client
from cheeseboard.deploy import FlashError
from cheeseboard.lab.command import LabError
from cheeseboard.link import LinkError
from cheeseboard.ports import PortError
from cheeseboard.protocol import ProtocolError
from cheeseboard.replay.positions import ReplayError
from cheeseboard.rules import RulesError
from cheeseboard.scenario import cli as scenario_cli
from cheeseboard.sim import flash as simflash
from cheeseboard.uf2.source import UF2Error

# The VM and the board's boot code do not start in less; no board this runs on has more.
MIN_HEAP, MAX_HEAP = 64 * 1024, 16 * 1024 * 1024
MIN_BAUD, MAX_BAUD = 300, 4_000_000


class CommandError(Exception):
    """A command cannot do what was asked; main prints it and exits non-zero."""


def do_sim(args):
    """Run the firmware on a virtual board: a MicroPython VM behind a pseudo-terminal."""
    from cheeseboard.sim.board import VirtualBoard
    from cheeseboard.sim.control import ControlServer

    profile = paths.load_profile(args.profile)
    if args.target == "pico":
        return _sim_pico(args, profile)
    heap = args.heap or profile["heap"]
    with _sim_flash(args, profile) as (flash_dir, about):
        board = VirtualBoard(flash_dir, heap, name="%s (virtual cheeseboard)" % profile["title"],
                             baud=args.baud,
                             fs_size=simflash.FILESYSTEM.get(profile["platform"], 0),
                             seed=args.seed, clock=args.clock)
        control_path = args.control or str(flash_dir).rstrip("/") + ".sock"
        control = ControlServer(board, control_path)
        print(board.pty_path, flush=True)
        print("flash: %s (%s)\nside channel: %s\nheap: %d bytes"
              % (flash_dir, about, control_path, heap), file=sys.stderr, flush=True)
        _run_board(board, control, profile, args.headless)
    return 0


def _run_board(board, control, profile, headless):
    """Run a started simulator until it is stopped: headless until SIGTERM, else the terminal
    view until q or Ctrl-C; the board and its side channel closed after."""
    from cheeseboard.sim import view

    board.start()
    try:
        if headless:
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


def _sim_pico(args, profile):
    """An emulated Pico: a UF2 on rp2040js, its flash a file that stays between runs."""
    from cheeseboard.pico.board import PicoBoard, PicoError
    from cheeseboard.pico.flash import FlashImageError
    from cheeseboard.sim.control import ControlServer

    if profile["platform"] != "rp2":
        raise CommandError("--target pico: the profile %r is for %s, not a Pico (try --profile "
                           "pico)" % (profile["name"], profile["platform"]))
    for option in ("heap", "baud", "seed", "blank", "source"):
        if getattr(args, option):
            raise CommandError("--target pico: --%s is for the unix-port board (a Pico has its "
                               "own heap, USB and entropy)" % option)
    flash_path = Path(args.flash) if args.flash else \
        simflash.default_folder(profile).with_name(profile["name"] + "-pico-flash.bin")
    flash_path.parent.mkdir(parents=True, exist_ok=True)
    held = simflash.lock(flash_path)
    try:
        if args.fresh and flash_path.exists():
            flash_path.unlink()
        try:
            board = PicoBoard(flash_path, profile, uf2=args.uf2, realtime=not args.headless,
                              name="%s (emulated Pico)" % profile["title"])
        except (PicoError, FlashImageError) as e:
            raise CommandError(str(e)) from None
        control_path = args.control or str(flash_path) + ".sock"
        control = ControlServer(board, control_path)
        print(board.pty_path, flush=True)
        print("flash: %s (a Pico's 2 MB flash image, kept)\nside channel: %s\n"
              "emulated RP2040 (rp2040js): its timings err fast (no XIP wait states)"
              % (flash_path, control_path), file=sys.stderr, flush=True)
        _run_board(board, control, profile, args.headless)
    finally:
        held.close()
    return 0


@contextlib.contextmanager
def _sim_flash(args, profile):
    """The virtual board's flash folder, held for this process, and a word on what it holds."""
    if args.flash is None and args.blank:
        with tempfile.TemporaryDirectory(prefix="cheeseboard-blank-") as tmp:
            yield Path(tmp), "an empty board, removed when it stops"
        return
    flash_dir = Path(args.flash) if args.flash else simflash.default_folder(profile)
    flash_dir.parent.mkdir(parents=True, exist_ok=True)
    held = simflash.lock(flash_dir)
    try:
        if args.fresh:
            simflash.forget(flash_dir)
        if args.flash is not None:
            fresh = not flash_dir.exists()
            simflash.prepare(profile, flash_dir, args.blank, args.source)
            about = "a new board" if fresh else "kept between runs"
        else:
            fresh = not flash_dir.exists()
            flash_dir.mkdir(parents=True, exist_ok=True)
            updated = simflash.refresh_firmware(flash_dir, profile, args.source)
            about = ("a new board" if fresh else
                     ("kept between runs, firmware updated to this checkout's" if updated else
                      "kept between runs") + "; --fresh starts a new one")
        yield flash_dir, about
    finally:
        held.close()


def heap_size(text):
    """--heap: bytes, within what a VM can start with and what any board has."""
    value = _integer(text, "bytes")
    if not MIN_HEAP <= value <= MAX_HEAP:
        raise argparse.ArgumentTypeError(
            "%d bytes: expected %d to %d (the VM cannot start with less than %d KB; the "
            "profiles' virtual boards have 175 KB to 200 KB)"
            % (value, MIN_HEAP, MAX_HEAP, MIN_HEAP >> 10))
    return value


def baud_rate(text):
    """--baud: a UART speed a board's console can run at."""
    value = _integer(text, "a baud rate")
    if not MIN_BAUD <= value <= MAX_BAUD:
        raise argparse.ArgumentTypeError(
            "%d: expected a baud rate from %d to %d (e.g. 115200)" % (value, MIN_BAUD, MAX_BAUD))
    return value


def seed_number(text):
    """--seed: a whole number the board's 30-bit random source can hold."""
    value = _integer(text, "a seed")
    if not 0 <= value < 1 << 30:
        raise argparse.ArgumentTypeError(
            "%d: expected a seed from 0 to %d" % (value, (1 << 30) - 1))
    return value


def _integer(text, what):
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            "%r: expected a whole number (%s)" % (text, what)) from None


def do_hello(args):
    """Ask a board (real or virtual) who it is."""
    return _print_request(args, "hello")


def do_state(args):
    """Ask a board what it is doing: the menu, or the game in progress."""
    return _print_request(args, "state")


def do_log(args):
    """The moves of the game in progress (or just over), as the board's journal holds them."""
    import json

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
    import json

    with open_client(args.port) as client:
        reply = client.request(cmd)
    reply.pop("id", None)
    reply.pop("ok", None)
    print(json.dumps(reply, indent=1))
    return 0


def do_test(args):
    """Run the simulated-hardware tests against the current firmware/."""
    try:
        import pytest  # noqa: F401 -- only to know it is there
    except ImportError:
        raise CommandError("pytest is not installed here: `make test` installs the developer "
                           "tools (or pip install -e '.[dev]')") from None
    pytest_args = list(args.pytest_args)
    every = "--all" in pytest_args
    if every:
        pytest_args.remove("--all")
    # The quick set asks "does the board still play?": the firmware on the VM, the console,
    # buttons, tables, whole games. Flashing's tests and the long randomised ones come with --all.
    marks = "board" if every else "board and not slow"
    quick = [] if every else ["--ignore-glob=*test_flash*"]
    cmd = [sys.executable, "-m", "pytest", str(paths.ROOT / "tests"), "-m", marks, "-q",
           "-p", "no:cacheprovider"] + quick + pytest_args
    listing = {"--collect-only", "--co"} & set(pytest_args)
    print("testing firmware/ on the virtual board (MicroPython VM, capped heap, virtual time): "
          "%s..."
          % ("every test, flashing's and the long randomised ones too" if every else
             "the quick set (--all adds flashing's tests and the long randomised ones)"),
          flush=True)
    try:
        code = subprocess.call(cmd, cwd=str(paths.ROOT))
    except KeyboardInterrupt:
        print("cheeseboard test: interrupted; nothing is left running", file=sys.stderr)
        return 130
    if code == 0 and listing:
        print("cheeseboard test: listed the tests; none was run")
        return 0
    outcome = TEST_OUTCOMES.get(code, "pytest stopped with status %d" % code)
    print("cheeseboard test: %s" % outcome, file=sys.stdout if code == 0 else sys.stderr)
    return code


# What pytest's exit status means for the person who asked (--collect-only: see do_test).
TEST_OUTCOMES = {
    0: "the firmware passes on the virtual board",
    1: "FAILED - see the failures above",
    2: "interrupted",
    3: "pytest failed inside itself - see its error above",
    4: "pytest did not take those options - see its usage above",
    5: "no test matched (check -k / -m): nothing was run",
}


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
    "log": (do_log, "list the moves of the board's game (hidden tiles and markers as ?); "
                    "saved to a file, `cheeseboard replay` plays it"),
    "test": (do_test, "run the simulated-hardware tests against firmware/"),
    "profile": (do_profile, "check the hardware profiles, or regenerate hardware/ docs"),
    "rules": (do_rules, "check rule tables, diff them with a board's, pull a board's"),
    "sync": (do_sync, "send the rule tables that differ to a board"),
    "web": (web.do_web, "play on the board in a web browser (MicroPython on WebAssembly)"),
    "snapshot": (snapshot.do_snapshot, "draw a virtual board as it is now (SVG and PNG)"),
    "flash": (flash_cli.do_flash, "install the firmware on a board (only what changed)"),
    "info": (flash_cli.do_info, "a board's firmware, slot, profile, free flash and heap"),
    "scenario": (scenario_cli.do_scenario, scenario_cli.HELP),
    "lab": (None, "play many games on this computer: who wins, how long games last"),
    "uf2": (None, "build MicroPython for a Pico with the firmware frozen in, as one .uf2"),
    "replay": (None, "step through a game's log on a virtual board (forward, back, jump, "
                     "auto-play)"),
}


# What Ctrl-C leaves behind, per command: the one line a person reads after it.
INTERRUPTED = {
    "hello": "the board was only asked, nothing changed on it",
    "sim": "the virtual board is switched off; its flash is kept",
    "sync": "a table is applied only once it is whole and checked: the board keeps each table "
            "as it was or as sent (`cheeseboard rules diff` shows which); its program runs on",
    "rules": "nothing changed on the board (a pulled table is written only when whole)",
    "flash": "the board keeps a whole firmware: its old one, or the new one if the switch was "
             "made; its program runs again (`cheeseboard info` says which, `cheeseboard flash` "
             "finishes the job)",
    "info": "nothing changed on the board; its program runs again",
    "profile": "nothing on a board was touched",
    "lab": "nothing was written to its folder (a report is written only once every game is "
           "played)",
    "uf2": "no UF2 was written (what was already built stays in the cache for the next time)",
}


class Parser(argparse.ArgumentParser):
    """argparse, with a usage error on one line that says where the help is."""

    def error(self, message):
        self.exit(2, "%s: %s (see %s --help)\n" % (self.prog, message, self.prog))


def build_parser():
    parser = Parser(
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
        if name == "scenario":
            scenario_cli.add_parser(sub)
            continue
        if name == "snapshot":
            snapshot.add_parser(sub)
            continue
        if name == "web":
            web.add_parser(sub)
            continue
        if name == "lab":
            from cheeseboard.lab.command import add_parser

            add_parser(sub)
            continue
        if name == "uf2":
            from cheeseboard.uf2 import command as uf2_command

            uf2_command.add_parser(sub)
            continue
        if name == "replay":
            from cheeseboard.replay import command as replay_command

            replay_command.add_parser(sub)
            continue
        p = sub.add_parser(name, help=help_text, description=help_text)
        if name == "sim":
            p.add_argument("--profile", default="pico", help="hardware profile (default: pico)")
            p.add_argument("--target", choices=("unix", "pico"), default="unix",
                           help="unix: the firmware on MicroPython's unix port (default); pico: "
                                "a UF2 on an emulated RP2040 (rp2040js), --flash its image file")
            p.add_argument("--uf2", metavar="PATH",
                           help="with --target pico: copy this UF2 onto the Pico's flash first, "
                                "as onto a Pico in BOOTSEL mode (its filesystem stays)")
            p.add_argument("--flash", metavar="DIR",
                           help="the board's flash folder (kept; a new one gets the firmware). "
                                "Default: one board per profile in your data folder, whose "
                                "game resumes next time")
            p.add_argument("--fresh", action="store_true",
                           help="forget the board's flash first (its game and synced tables): "
                                "a newly flashed board")
            p.add_argument("--blank", action="store_true",
                           help="an empty flash, no firmware (with --flash: a new folder stays "
                                "empty; without: a temporary board)")
            p.add_argument("--source", action="store_true",
                           help="install the firmware as .py source, not compiled .mpy")
            p.add_argument("--headless", action="store_true",
                           help="no terminal view: the console's path is the first line on "
                                "stdout; the rest (flash, side channel, heap) goes to stderr")
            p.add_argument("--control", metavar="PATH", help="side channel socket path")
            p.add_argument("--heap", type=heap_size, metavar="BYTES",
                           help="VM heap in bytes (default: the profile's)")
            p.add_argument("--baud", type=baud_rate, metavar="N",
                           help="limit the console to a UART's speed (e.g. 115200)")
            p.add_argument("--seed", type=seed_number, metavar="N",
                           help="make the die repeatable: each game's seed follows from N "
                                "(default: random, as on a real board)")
            p.add_argument("--clock", choices=("real", "virtual"), default="real",
                           help="the board's time: the host's (default), or a clock the side "
                                "channel's `run` moves (the VM runs flat out in between)")
        elif name in ("hello", "state", "log"):
            p.add_argument("--port", help=rules_cli.PORT_HELP)
            if name == "log":
                p.add_argument("--from", dest="start", type=int, default=0, metavar="N",
                               help="start at move N (default: the first)")
        elif name == "profile":
            p.add_argument("action", choices=("check", "docs"),
                           help="check: as a board checks them at boot; docs: rewrite "
                                "hardware/'s README, parts list and diagrams")
            p.add_argument("names", nargs="*", metavar="NAME",
                           help="profiles to check (default: all in hardware/profiles)")
        elif name == "test":
            p.usage = "cheeseboard test [--all] [pytest options, e.g. -k kitchen]"
            p.add_argument("--all", action="store_true",
                           help="flashing's tests and the long randomised ones too (many "
                                "minutes; the default takes about a minute)")
            p.add_argument("pytest_args", nargs="*", metavar="PYTEST_OPTION",
                           help="passed on to pytest, e.g. -k kitchen or -x")
    return parser


def main(argv=None):
    try:
        return _main(argv)
    except BrokenPipeError:
        # The reader of the output went away (`cheeseboard state | head`): it has all it
        # wanted. Python would report the pipe once more as it flushes stdout at exit.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


def _main(argv):
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["test"] and not {"-h", "--help"} & set(argv):
        # Everything after `test` is pytest's (e.g. -k gouda).
        args = argparse.Namespace(command="test", pytest_args=argv[1:])
    else:
        args = build_parser().parse_args(argv)
    handler = COMMANDS[args.command][0] or _lazy_handler(args.command)
    try:
        return handler(args)
    except KeyboardInterrupt:
        print("cheeseboard: interrupted; %s" % INTERRUPTED.get(args.command, INTERRUPTED["hello"]),
              file=sys.stderr)
        return 130
    except (CommandError, ProtocolError, paths.ProfileError, simflash.FlashInUse, FileNotFoundError,
            NotADirectoryError, FileExistsError, BuildError, FlashError, LinkError,
            PortError, BoardUnreachable, RulesError, snapshot.SnapshotError,
            web.WebError, LabError, UF2Error, ReplayError) as e:
        print("cheeseboard: %s" % e, file=sys.stderr)
        return 1


def _lazy_handler(command):
    """The handler of a command whose module is imported only when it runs."""
    if command == "uf2":
        from cheeseboard.uf2.command import do_uf2

        return do_uf2
    if command == "replay":
        from cheeseboard.replay.command import do_replay

        return do_replay
    from cheeseboard.lab.command import do_lab

    return {"lab": do_lab}[command]


if __name__ == "__main__":
    sys.exit(main())
