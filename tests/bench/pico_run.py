"""A benchmark run on emulated Picos, step by step: every board it starts is stopped at its
end however it ends, each step has a deadline on the wall, and a step that fails or runs
past its deadline stops the run with one line saying where (bench_pico.py's)."""

import contextlib
import json
import subprocess
import time
from pathlib import Path

from vboard import VBoard

from cheeseboard.pico import calibration

HERE = Path(__file__).resolve().parent
STEP_DEADLINE = 900  # wall seconds for one step, at most (a busy 2-core machine included)


class Stopped(Exception):
    """A step failed or ran past its deadline: the message says which, and where it was."""


class PicoRun(contextlib.ExitStack):
    """with PicoRun() as run: run.board(...), run.step(...), run.on_chip(...)."""

    def __init__(self):
        super().__init__()
        self.current = ("", None)  # the step's name, and the board it runs on
        self.started = time.monotonic()
        self.last_line = ""  # the last line a board script printed

    def board(self, flash_image, uf2=None):
        """An emulated Pico, stopped when the run ends."""
        board = VBoard(flash_image, target="pico", uf2=uf2)
        self.callback(board.stop)
        return board

    @contextlib.contextmanager
    def step(self, name, board=None):
        """A step of the run: its failure (an exception, a deadline) stops the run."""
        self.current, self.last_line = (name, board), ""
        self.started = time.monotonic()
        try:
            yield
        except (Stopped, KeyboardInterrupt):
            raise
        except Exception as e:  # noqa: BLE001 (any failure is reported as where it stopped)
            raise Stopped(self._where("%s: %s" % (type(e).__name__, e))) from None

    def _where(self, what):
        name, board = self.current
        clock = ""
        if board is not None:
            try:
                clock = ", the chip's clock at %d ms" % board.link.status()["board_ms"]
            except Exception:  # noqa: BLE001 (the board may be what failed)
                clock = ", the board gone"
        last = "; its last line: %s" % self.last_line[-200:] if self.last_line else ""
        return "stopped at %r after %.0f s%s: %s%s" % (
            name, time.monotonic() - self.started, clock, what, last)

    def mpremote(self, board, *args, deadline=STEP_DEADLINE):
        """mpremote on board's console, its output kept; past the deadline, Stopped."""
        board.release_console()
        try:
            run = board.mpremote(*args, timeout=deadline)
        except subprocess.TimeoutExpired as e:
            self.last_line = _last_line(e.stdout)
            raise Stopped(self._where("mpremote did not finish in %d s" % deadline)) from None
        self.last_line = _last_line(run.stdout)
        if run.returncode != 0:
            raise RuntimeError("mpremote failed: %s" % run.stderr.strip()[-300:])
        return run

    def on_chip(self, board, script, *argv, deadline=STEP_DEADLINE, lines=False):
        """A benchmark script's last JSON line (lines: all of them, in a list), run in the
        active slot's folder of a flashed board with argv as its sys.argv[1:] (its QuietBoard
        copied to the flash's root)."""
        setup = ("import os, sys, json; slot = '/' + json.load(open('/slot.json'))['active']; "
                 "os.chdir(slot); sys.path[:0] = [slot, '/']; sys.argv[:] = %r"
                 % (["bench"] + list(argv)))
        run = self.mpremote(board, "cp", str(HERE / "quiet_board.py"), ":/quiet_board.py",
                            "+", "exec", setup, "+", "run", str(HERE / script),
                            deadline=deadline)
        if lines:
            return [json.loads(line) for line in run.stdout.splitlines() if line.startswith("{")]
        return json.loads(run.stdout.strip().splitlines()[-1])


def _last_line(output):
    if isinstance(output, bytes):
        output = output.decode(errors="replace")
    lines = (output or "").strip().splitlines()
    return lines[-1] if lines else ""


def print_pico_table(title, rows, calibrated=True):
    """rows: (name, emulated, kind, format, against): the figure on the emulated Pico and as
    a real Pico is expected to show it (times its kind's factor; a kind of None is a figure
    the chip's speed does not set: bytes, the wire's time, the host's). The factors hold for
    the emulator with its XIP cache model: without it (calibrated False), none is shown."""
    width = max(len(r[0]) for r in rows)
    print(title)
    print("%-*s  %12s  %12s  %s" % (width, "figure", "emulated", "real Pico", "against"))
    for name, emulated, kind, fmt, against in rows:
        real = "=" if not kind else "-" if not calibrated else fmt % calibration.on_a_pico(
            emulated, kind)
        print("%-*s  %12s  %12s  %s" % (width, name, fmt % emulated, real, against))
    kinds = sorted({r[2] for r in rows if r[2]})
    if not calibrated:
        print("(real Pico: -, the factors are for the emulator with its XIP cache model; "
              "=: not set by the chip's speed)")
        return
    print("(real Pico: emulated times %s; =: not set by the chip's speed)" % ", ".join(
        "%.2fx for %s" % (calibration.factor(k), k) for k in kinds))
