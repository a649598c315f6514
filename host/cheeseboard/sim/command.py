"""The virtual board's commands: `cheeseboard sim` (the firmware on MicroPython's unix port, or a
UF2 on an emulated Pico), `snapshot` (a picture of it) and `test` (the suite against firmware/)."""

import argparse
import contextlib
import importlib.util
import os
import signal
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

from cheeseboard import CheeseboardError, paths
from cheeseboard.sim import flash as simflash
from cheeseboard.sim import snapshot

# The VM and the board's boot code do not start in less; no board this runs on has more.
MIN_HEAP, MAX_HEAP = 64 * 1024, 16 * 1024 * 1024
MIN_BAUD, MAX_BAUD = 300, 4_000_000


class SimError(CheeseboardError):
    """The virtual board cannot be started as asked, or the tests cannot be run."""


def add_parser(sub):
    p = sub.add_parser("sim", help="run the firmware on a virtual board",
                       description="run the firmware on a virtual board")
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
                   help="the VM's heap in bytes (default: the profile's)")
    p.add_argument("--baud", type=baud_rate, metavar="N",
                   help="limit the console to a UART's speed (e.g. 115200)")
    p.add_argument("--seed", type=seed_number, metavar="N",
                   help="make the die repeatable: each game's seed follows from N "
                        "(default: random, as on a real board)")
    p.add_argument("--clock", choices=("real", "virtual"), default="real",
                   help="the board's time: the host's (default), or a clock the side "
                        "channel's `run` moves (the VM runs flat out in between)")
    p.set_defaults(run=do_sim, interrupted="the virtual board is switched off; its flash is kept")
    snapshot.add_parser(sub)
    p = sub.add_parser("test", help="run the simulated-hardware tests against firmware/",
                       description="run the simulated-hardware tests against firmware/")
    p.usage = "cheeseboard test [--all] [pytest options, e.g. -k kitchen]"
    p.add_argument("--all", action="store_true",
                   help="flashing's tests, the emulated Pico's and the long randomised ones "
                        "too (many minutes; the default takes about a minute)")
    p.add_argument("pytest_args", nargs="*", metavar="PYTEST_OPTION",
                   help="passed on to pytest, e.g. -k kitchen or -x")
    p.set_defaults(run=do_test)


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
        board.start()  # on before its port is given: a client that reads it finds a board
        print(board.pty_path, flush=True)  # that runs (in virtual time, whose clock it may run)
        print("flash: %s (%s)\nside channel: %s\nheap: %d bytes"
              % (flash_dir, about, control_path, heap), file=sys.stderr, flush=True)
        _run_board(board, control, profile, args.headless,
                   kept=not (args.blank and args.flash is None))
    return 0


def _run_board(board, control, profile, headless, kept=True):
    """Run a started simulator until it is stopped: headless until SIGTERM, else the terminal
    view until q or Ctrl-C; the board and its side channel closed after. kept: its flash stays
    (a game in progress resumes at the next run)."""
    from cheeseboard.sim import view

    playing = False
    try:
        if headless:
            signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
            while True:
                signal.pause()
        else:
            view.run(board, profile)
            playing = view.in_a_game(board)
    except KeyboardInterrupt:
        pass
    finally:
        board.stop()
        control.close()
    if playing:
        print("the board is off; %s" % ("its game is kept: the next `cheeseboard sim` (make play) "
                                        "on this board resumes it" if kept else
                                        "its game went with its flash (an empty board's)"))


def _sim_pico(args, profile):
    """An emulated Pico: a UF2 on rp2040js, its flash a file that stays between runs."""
    from cheeseboard.pico.board import PicoBoard, PicoError
    from cheeseboard.pico.flash import FlashImageError
    from cheeseboard.sim.control import ControlServer

    if profile["platform"] != "rp2":
        raise SimError("--target pico: the profile %r is for %s, not a Pico (try --profile "
                           "pico)" % (profile["name"], profile["platform"]))
    for option in ("heap", "baud", "seed", "blank", "source"):
        if getattr(args, option):
            raise SimError("--target pico: --%s is for the unix-port board (a Pico has its "
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
            raise SimError(str(e)) from None
        control_path = args.control or str(flash_path) + ".sock"
        control = ControlServer(board, control_path)
        board.start()  # (on before its port is given, as the unix port's board)
        print(board.pty_path, flush=True)
        print("flash: %s (a Pico's 2 MB flash image, kept)\nside channel: %s\n"
              "emulated RP2040 (rp2040js, %s): a real Pico's timings differ (docs/pico.md)"
              % (flash_path, control_path, "with its XIP cache" if board.xip_cache
                 else "no XIP cache: its timings err fast"), file=sys.stderr, flush=True)
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


def do_test(args):
    """Run the simulated-hardware tests against the current firmware/."""
    try:
        import pytest  # noqa: F401 -- only to know it is there
    except ImportError:
        raise SimError("pytest is not installed here: `make test` installs the developer "
                           "tools (or pip install -e '.[dev]')") from None
    pytest_args = list(args.pytest_args)
    every = "--all" in pytest_args
    if every:
        pytest_args.remove("--all")
    chosen = ["-m", "board"] if every else quick_set()
    listing = {"--collect-only", "--co"} & set(pytest_args)
    cmd = [sys.executable, "-m", "pytest", str(paths.ROOT / "tests"), "-q",
           "-p", "no:cacheprovider"] + chosen + _on_every_core(pytest_args, listing) + pytest_args
    print("testing firmware/ on the virtual board (MicroPython VM, capped heap, virtual time): "
          "%s..."
          % ("every test: flashing's, the emulated Pico's and the long randomised ones too"
             if every else "the quick set (--all adds flashing's tests, the emulated Pico's "
             "and the long randomised ones)"),
          flush=True)
    # pytest in a session of its own: a Ctrl-C reaches this process alone, which hands it
    # on to pytest, which stops its workers in order (hit by it too, each said so at length).
    # Its stderr comes through this process, so that what it says once stopped is not shown.
    tests = subprocess.Popen(cmd, cwd=str(paths.ROOT), start_new_session=True,
                             stderr=subprocess.PIPE)
    interrupted = threading.Event()
    said = threading.Thread(target=_pass_on_until, args=(tests.stderr, interrupted),
                            name="pytest's stderr", daemon=True)
    said.start()
    try:
        code = tests.wait()
    except KeyboardInterrupt:
        interrupted.set()
        _interrupt(tests)
        print("cheeseboard test: interrupted; nothing is left running", file=sys.stderr)
        return 130
    said.join(5)  # the last of what it said (a process it left behind may hold the pipe)
    if code == 0 and listing:
        print("cheeseboard test: listed the tests; none was run")
        return 0
    outcome = TEST_OUTCOMES.get(code, "pytest stopped with status %d" % code)
    print("cheeseboard test: %s" % outcome, file=sys.stdout if code == 0 else sys.stderr)
    return code


def _pass_on_until(stream, interrupted):
    """pytest's stderr, line by line, onto ours until the person interrupts the tests."""
    for line in iter(stream.readline, b""):
        if not interrupted.is_set():
            sys.stderr.buffer.write(line)
            sys.stderr.flush()


def _interrupt(tests):
    """Stop pytest as a Ctrl-C does, in order. A Ctrl-C that falls while Python runs a callback
    of the import machinery is only reported there, not raised: pytest may go on as if it had
    not come, so it is given a second one, then ended with its workers."""
    for grace in (10, 20):
        tests.send_signal(signal.SIGINT)
        try:
            tests.wait(grace)
            return
        except subprocess.TimeoutExpired:
            pass
    os.killpg(tests.pid, signal.SIGKILL)
    tests.wait()


def quick_set():
    """pytest's options for the quick set, which asks "does the board still play?": the
    firmware on the VM, the console, buttons, tables, whole games, all on the board's clock.
    Flashing's tests, the emulated Pico's (its frozen UF2 is built again after each change to
    firmware/: minutes), the long randomised ones and those on the wall's clock (a person's
    keys, Ctrl-C at an instant: the host tool's, not the firmware's) come with --all."""
    return ["-m", "board and not slow and not wall", "--ignore-glob=*test_flash*",
            "--ignore=%s" % (paths.ROOT / "tests" / "pico")]


def _on_every_core(pytest_args, listing):
    """pytest-xdist's options to run the tests on every core (as `make test` does), where it is
    installed and the person did not choose (-n, -p no:xdist) or only lists the tests."""
    chose = any(a.startswith(("-n", "--numprocesses", "-pno:xdist")) for a in pytest_args) \
        or "no:xdist" in pytest_args
    if listing or chose or importlib.util.find_spec("xdist") is None:
        return []
    return ["-n", "auto", "--dist", "worksteal"]


# What pytest's exit status means for the person who asked (--collect-only: see do_test).
TEST_OUTCOMES = {
    0: "the firmware passes on the virtual board",
    1: "FAILED - see the failures above",
    2: "interrupted",
    3: "pytest failed inside itself - see its error above",
    4: "pytest did not take those options - see its usage above",
    5: "no test matched (check -k / -m): nothing was run",
}

