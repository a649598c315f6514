"""The test harness for the virtual board: start it as a user would, drive it, cut its power."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import serial

from cheeseboard.board.protocol import Client
from cheeseboard.sim.control import SimLink

ROOT = Path(__file__).resolve().parents[2]


# The board's clock in tests: virtual (the test moves it; nothing waits on the wall) unless
# CHEESEBOARD_TEST_CLOCK=real asks for the host's, to check that a test holds in real time too.
DEFAULT_CLOCK = os.environ.get("CHEESEBOARD_TEST_CLOCK", "virtual")
BOOT_WAIT_S = 60  # the least a test waits for a board's first answer, on the wall's clock
ANSWER_WAIT_S = 60  # and for any answer: a busy machine may hold a VM (or an emulator) back


class VBoard:
    """`cheeseboard sim --headless` in a process of its own, with its console and side channel."""

    def __init__(self, flash_dir, profile="pico", heap=None, blank=False, baud=None, seed=None,
                 target="unix", uf2=None, clock=None, usb=None):
        # usb: a path that leads to the board's port while the board has power, as udev's
        # /dev/serial/by-id/ names a USB board: it goes with a power cut and comes back when
        # a board is started with the same path (plugged in again), where the pty's own
        # path is new each time.
        # With target="pico", flash_dir is the emulated Pico's flash image (a file) and uf2
        # what is copied onto it first. The emulated Pico keeps its own clock (emulated cycles),
        # which the host does not drive: to a test, it is a board in real time.
        self.clock = clock or (DEFAULT_CLOCK if target == "unix" else "real")
        self.flash_dir = Path(flash_dir)
        self.target = target
        self.uf2 = uf2
        self.profile = profile
        self.heap = heap
        self.blank = blank
        self.baud = baud
        self.seed = seed
        self.usb = Path(usb) if usb else None
        self.control = str(self.flash_dir) + ".sock"
        self.proc = None
        self.link = None
        self.port = None
        self.client = None
        self.start()

    def start(self):
        cmd = [sys.executable, "-m", "cheeseboard", "sim", "--headless", "--profile",
               self.profile, "--flash", str(self.flash_dir), "--control", self.control]
        if self.target != "unix":
            cmd += ["--target", self.target]
        if self.uf2:
            cmd += ["--uf2", str(self.uf2)]
        if self.heap:
            cmd += ["--heap", str(self.heap)]
        if self.blank:
            cmd.append("--blank")
        if self.baud:
            cmd += ["--baud", str(self.baud)]
        if self.seed is not None:
            cmd += ["--seed", str(self.seed)]
        if self.target == "unix":
            cmd += ["--clock", self.clock]
        self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     cwd=str(ROOT), start_new_session=True)
        self.pty = self.proc.stdout.readline().decode().strip()
        if not self.pty.startswith("/dev/"):
            raise RuntimeError("sim did not start: %s" % self.proc.stderr.read().decode())
        self.link = SimLink(self.control, virtual=self.virtual)
        self.port = serial.Serial(self.pty, 115200, timeout=0.1)
        self.client = Client(self.port, timeout=ANSWER_WAIT_S)
        if self.usb:  # plugged in: the path leads to this board's port, in one step
            new = self.usb.with_name(self.usb.name + ".new")
            new.symlink_to(self.pty)
            os.replace(new, self.usb)

    @property
    def virtual(self):
        return self.clock == "virtual"

    # -- the board's clock --------------------------------------------------------

    def sleep(self, seconds):
        """Let the board act for this long (on its own clock when virtual)."""
        self.link.sleep(seconds)

    def advance(self, ms, until=None):
        """Move a virtual board's clock by ms (until "frame", "event" or "idle" may stop it
        sooner); the board's time after it (ms). On a real-time board: sleep as long."""
        if not self.virtual:
            time.sleep(ms / 1000)
            return None
        return self.link.run(ms, until)["now"]

    def wait_until(self, predicate, timeout=10.0, what="condition"):
        """Let the board run until predicate() holds, for timeout seconds of its time at most
        (AssertionError then)."""
        self.link.wait_for(lambda _: predicate(), timeout, what)

    def run_until_idle(self, limit_ms=5000):
        """Run the board until a tick does nothing visible (at most limit_ms)."""
        return self.advance(limit_ms, "idle")

    def free_running(self):
        """A context in which a virtual board's clock follows the wall, faster (for a tool in
        another process that waits on the wall's time, such as `cheeseboard flash`)."""
        return _FreeRunning(self)

    def power_cut(self):
        """Kill the whole virtual board at this instant (VM and simulator alike)."""
        os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait()
        self._close()

    def vm_pid(self):
        """The MicroPython VM's process id: the simulator's child (started from any of its
        threads)."""
        tasks = Path("/proc/%d/task" % self.proc.pid)
        children = [int(pid) for task in tasks.iterdir()
                    for pid in (task / "children").read_text().split()]
        assert len(children) == 1, children
        return children[0]

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
        if self.proc and not self.proc.stderr.closed:
            # What the simulator said (a thread's traceback, the VM's exits): pytest shows it
            # with a failed test's report, and only then.
            # (Not waiting for its end: a VM the simulator left behind could hold it open.)
            os.set_blocking(self.proc.stderr.fileno(), False)
            said = self.proc.stderr.read() or b""
            sys.stderr.write(said.decode(errors="replace"))
        self._close()

    def _unplug(self):
        if self.usb and self.usb.is_symlink() and os.readlink(self.usb) == self.pty:
            self.usb.unlink()

    def _close(self):
        self._unplug()
        for closer in (self.link and self.link.close, self.port and self.port.close):
            if closer:
                try:
                    closer()
                except OSError:
                    pass
        self.link = self.port = self.client = None
        if self.proc:
            for f in (self.proc.stdout, self.proc.stderr):
                f.close()

    # -- the console ----------------------------------------------------------

    def request(self, cmd, **args):
        return self.client.request(cmd, **args)

    def wait_protocol(self, timeout=15.0):
        """Wait until main.py answers `hello`; return the reply (asked again after 0.25 s,
        then twice as long each time up to 2 s, a late reply to any copy counting: a request
        that reaches a board while it boots is lost). The wait is on the wall's clock, so it
        lasts at least BOOT_WAIT_S: a busy machine may take that long to start a VM."""
        return self.client.ask_until_answered("hello", max(timeout, BOOT_WAIT_S))

    def read_until(self, marker, timeout=10.0):
        """Console bytes up to and including marker (bytes), and not one byte more."""
        data = b""
        deadline = time.monotonic() + timeout
        while marker not in data:
            if time.monotonic() > deadline:
                raise AssertionError("timed out waiting for %r; got %r" % (marker, data[-300:]))
            data += self.port.read(1)
        return data

    def mpremote(self, *args, timeout=60):
        """Run the real mpremote against this board's console; return the CompletedProcess."""
        mpremote = Path(sys.executable).parent / "mpremote"
        return subprocess.run([str(mpremote), "connect", self.pty, *args],
                              capture_output=True, timeout=timeout, text=True)

    def release_console(self):
        """Close our serial port so that another program (mpremote) has the console alone."""
        self.port.close()

    def reopen_console(self):
        self.port = serial.Serial(self.pty, 115200, timeout=0.1)
        self.client = Client(self.port, timeout=ANSWER_WAIT_S)


class _FreeRunning:
    def __init__(self, board):
        self.board = board

    def __enter__(self):
        if self.board.virtual:
            self.board.link.send(op="run", free=True)
        return self.board

    def __exit__(self, *exc):
        if self.board.virtual and self.board.link:
            self.board.link.run(0)  # a run of its own ends the free one: the clock is held
