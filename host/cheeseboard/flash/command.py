"""`cheeseboard flash` and `cheeseboard info`: the board's firmware, over USB serial."""

import sys
import time

from cheeseboard.flash import SILENCE

# (What talks to a board is imported by the command that does: every `cheeseboard` command
# starts with this module read.)


def add_parser(sub):
    p = sub.add_parser(
        "flash",
        help="install the firmware on a board (only what changed)",
        description="Build the firmware for the board, send what changed into "
        "its inactive slot, check it, switch, and watch it come up "
        "(the board goes back to its old firmware if the new one fails).",
    )
    _port_args(p)
    p.add_argument("--profile", help="hardware profile (default: the board's current one)")
    p.add_argument("--dry-run", action="store_true", help="list what would change, change nothing")
    p.add_argument("--force", action="store_true", help="send every file, changed or not")
    p.add_argument("--firmware", metavar="DIR", help="a firmware tree other than firmware/")
    p.set_defaults(run=do_flash, interrupted=(
        "the board keeps a whole firmware: its old one, or the new one if the switch was made; "
        "its program runs again (`cheeseboard info` says which, `cheeseboard flash` finishes "
        "the job)"))
    p = sub.add_parser(
        "info", help="a board's firmware version, slot, profile, free flash and heap",
        description="Say what a board (the one plugged in, or --port) runs: its MicroPython, "
                    "its firmware's version and build, the active slot (and whether it is on "
                    "trial), its profile, its free flash and heap. The board's game goes on.")
    _port_args(p)
    p.set_defaults(run=do_info, interrupted="nothing changed on the board; its program runs again")


def _port_args(p):
    p.add_argument("--port", help="serial port (default: the one board plugged in)")
    p.add_argument("--baud", type=int, default=115200, help="for a UART board (default 115200)")
    p.add_argument("--silence", type=silence_seconds, default=SILENCE, metavar="SECONDS",
                   help="how long a board that owes an answer may say nothing before it is "
                        "taken to be gone: power cut, reset, cable out (default %g; more for "
                        "a slow board)" % SILENCE)


def silence_seconds(text):
    """--silence: seconds, from 1 to 600."""
    import argparse

    try:
        value = float(text)
    except ValueError:
        value = None
    if value is None or not 1 <= value <= 600:  # (NaN is neither)
        raise argparse.ArgumentTypeError("%r: expected seconds from 1 to 600 (e.g. 10)" % text)
    return value


def _open(args):
    from cheeseboard.board import ports
    from cheeseboard.flash.link import Link

    ask = input if sys.stdin.isatty() else None
    return Link(ports.find_port(args.port, ask=ask), args.baud, args.silence)


def do_flash(args):
    from cheeseboard.flash import deploy

    if args.firmware:
        check_firmware_tree(args.firmware)
    progress = _bar if sys.stdout.isatty() else _lines()
    with _open(args) as link:
        try:
            result = deploy.update(
                link, args.profile, args.firmware, args.force, args.dry_run, progress, say=_say
            )
        except KeyboardInterrupt:
            _back_to_its_program(link)
            raise
    if result.outcome in ("dry run", "up to date"):
        print("\n".join(result.plan.lines()))
        if result.outcome == "dry run":
            print("(dry run: nothing changed)")
        return 0
    return _report(result)


def check_firmware_tree(path):
    """Refuse, in one line and before the board is touched, a --firmware that is a file: a UF2
    (copied onto a Pico in BOOTSEL mode, never sent over serial; one for another chip said
    so) or a flash image of another firmware."""
    import struct
    from pathlib import Path

    from cheeseboard.flash import deploy
    from cheeseboard.uf2 import uf2file

    path = Path(path)
    try:
        if not path.is_file():
            return  # a folder, or nothing there: the build says what is wrong with it
        with open(path, "rb") as f:
            head = f.read(8)
    except OSError as e:  # a name too long, a file it may not read
        raise deploy.FlashError("--firmware %s: cannot be read (%s)"
                                % (str(path)[:80], e.strerror or e)) from None
    if head == struct.pack("<2I", *uf2file.MAGIC_START):
        uf2file.check_rp2040(path)  # one for another chip is refused here, saying which
        raise deploy.FlashError(
            "%s is a UF2, which a Pico takes in BOOTSEL mode, not over its serial port: hold "
            "BOOTSEL while plugging it in and copy the file onto the RPI-RP2 drive" % path)
    raise deploy.FlashError(
        "%s is a file (a flash image of another firmware?), not a firmware tree: --firmware "
        "takes a folder laid out like firmware/ (main.py and cheesefw/)" % path)


def _report(result):
    img = result.image
    sent = "%d files, %.1f KB of file data, %.1f KB on the wire" % (
        result.files_sent,
        result.file_bytes / 1024,
        result.wire_sent / 1024,
    )
    if result.outcome == "up":
        print(
            "the board runs firmware %s (build %s) from %s: up and well (%s, %.1f s)"
            % (img.manifest["version"], result.build, result.slot, sent, result.seconds)
        )
        return 0
    if result.outcome == "repaired":
        print("the board runs firmware %s (build %s) from %s, and answers again: %s"
              % (img.manifest["version"], result.build, result.slot, result.error))
        return 0
    if result.outcome == "rolled back":
        print(
            "cheeseboard: the new firmware failed on the board: %s\nthe board went back to its "
            "previous firmware (%s) and runs it; nothing is lost" % (result.error, result.slot),
            file=sys.stderr,
        )
        return 1
    if result.outcome == "interrupted":  # the error says what the board runs
        print("cheeseboard: %s" % result.error, file=sys.stderr)
        return 1
    print(
        "cheeseboard: %s; run `cheeseboard info` to see what the board runs" % result.error,
        file=sys.stderr,
    )
    return 1


def do_info(args):
    from cheeseboard.flash import deploy
    from cheeseboard.flash.image import FROZEN

    with _open(args) as link:
        # A firmware that cannot start says why in its hello (which file, and what is wrong);
        # the raw REPL's facts below cannot tell.
        hello = deploy.program_hello(link) or {}
        try:
            link.enter()
            facts = deploy.board_facts(link)
        except KeyboardInterrupt:
            _back_to_its_program(link)
            raise
        link.restart()  # back to its game
    state = facts.get("state") or {}
    print("port:      %s" % link.port)
    print(
        "board:     %s %s on %s (%s, %s)"
        % (
            facts["name"],
            ".".join(map(str, facts["version"])),
            facts["platform"],
            deploy.board_arch(facts),
            facts["machine"],
        )
    )
    frozen_runs = state.get("active") == FROZEN
    if facts.get("build"):
        print("firmware:  %s (build %s)%s" % (facts["firmware"], facts["build"],
                                              ", frozen into MicroPython" if frozen_runs else ""))
        print(
            "slot:      %s%s" % (state.get("active"), " (on trial)" if state.get("trial") else "")
        )
        print("profile:   %s" % facts["profile"])
    else:
        print("firmware:  none (flash it with `cheeseboard flash`)")
    print("frozen:    %s" % (
        "none (MicroPython's own firmware)" if not facts.get("frozen") else
        "this one: a UF2 from `cheeseboard uf2` (a flashed slot would run first)" if frozen_runs
        else "a firmware frozen into MicroPython (a `cheeseboard uf2` UF2): the last to go "
             "back to"))
    if hello.get("fault"):
        print("fault:     %s (`cheeseboard flash` puts a whole firmware on)" % hello["fault"])
    if state.get("failed"):
        print(
            "last update failed: %s (%s)"
            % (state["failed"].get("error"), state["failed"].get("slot"))
        )
    print(
        "flash:     %.0f KB free of %.0f KB"
        % (facts["flash_free"] / 1024, facts["flash_size"] / 1024)
    )
    print("heap:      %.0f KB free before the firmware starts" % (facts["heap_free"] / 1024))
    return 0


def _back_to_its_program(link):
    """After Ctrl-C: stop whatever the board was doing for us (a file half received, a
    question) and restart its own program. A half-written inactive slot is never booted."""
    try:
        link.transport.serial.write(b"\r\x03\x03")  # 0x03 never occurs in data sent
        time.sleep(0.2)
    except OSError:
        return  # the port is gone: the board restarts when it is plugged in again
    link.restart()


def _say(text):
    print(text, flush=True)  # progress as it happens, also into a pipe


def _bar(i, n, done, total, name):
    width = 30
    full = width * done // max(1, total)
    sys.stdout.write(
        "\r[%s%s] %d/%d files  %.1f/%.1f KB  %-40s"
        % ("#" * full, "." * (width - full), i, n, done / 1024, total / 1024, name[-40:])
    )
    if i == n:
        sys.stdout.write("\n")
    sys.stdout.flush()


def _lines():
    seen = set()

    def progress(i, n, done, total, name):
        if name and name not in seen:
            seen.add(name)
            print("sending %d/%d %s" % (i + 1, n, name), flush=True)
        elif i == n:
            print("sent %d files, %.1f KB" % (n, total / 1024), flush=True)

    return progress
