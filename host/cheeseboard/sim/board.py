"""The virtual board: the firmware on the real MicroPython VM, behind a serial port.

A `VirtualBoard` owns a pseudo-terminal (the board's USB serial console, which
mpremote and pyserial open by its path) and a MicroPython unix-port process
(the chip). Between the two it plays the USB-serial bridge:

- console bytes go to the VM's stdin, except Ctrl-C, which becomes SIGINT: the
  board's interrupt character raises KeyboardInterrupt in running code;
- VM output is "cooked" (\\n -> \\r\\n) as a board's stdout is;
- a soft reboot ends the VM process with an exit code, and a fresh VM (fresh
  heap) starts from the same flash folder in the mode the code names;
- LED frames and button levels travel on a side channel (two pipes), never on
  the console.

All I/O runs in one thread around one selector; the public methods may be
called from any thread.
"""

import json
import os
import selectors
import signal
import subprocess
import sys
import threading
import time
import tty
from pathlib import Path

from cheeseboard.sim import vmfiles

EXIT_SOFT_FRIENDLY = 64
EXIT_SOFT_RAW = 65
EXIT_POWER_OFF = 67

RX_BUFFER = 4096  # bytes the "USB" side buffers before the host's writes block
TX_BUFFER_MAX = 1 << 20  # output kept for a host that does not read; older bytes are dropped
RAPID_CRASHES = 5  # crashes in a row within CRASH_WINDOW that leave the board off
CRASH_WINDOW = 2.0


class BoardError(Exception):
    """The virtual board cannot do what was asked."""


class VirtualBoard:
    """A simulated cheeseboard: console on a pty, firmware on MicroPython."""

    def __init__(self, flash_dir, heap, name="virtual cheeseboard", micropython=None, baud=None,
                 fs_size=0, seed=None):
        self.flash_dir = Path(flash_dir)
        self.fs_size = fs_size  # the filesystem size os.statvfs reports (0: the host disk's)
        # The hardware's entropy source, made repeatable: each game's die seed follows from it
        # (None: truly random, as on a real board).
        self.seed = seed
        self.heap = int(heap)
        self.name = name
        self.micropython = micropython or vmfiles.micropython_binary()
        self.frame = None  # the last LED frame, as bytes (R, G, B per pixel)
        self.frame_seq = 0
        self.described = None  # the firmware's last answer to ask_state(): its protocol `state`
        self._unanswered = 0  # questions ask_state() sent that the firmware has not answered
        self.boots = 0
        self.bytes_in = self.bytes_out = 0  # console bytes from and to the host, ever
        self.listeners = []  # callables(event: dict), called from the I/O thread
        self._lock = threading.RLock()
        self._sel = selectors.DefaultSelector()
        self._proc = None
        self._stdin_fd = self._stdout_fd = self._side_out_r = self._side_in_w = None
        self._ready = False
        self._pending_interrupts = 0
        self._rx = bytearray()  # console bytes waiting for the VM's stdin
        self._tx = bytearray()  # VM output waiting for the pty
        self._side_buf = bytearray()
        self._console_tail = b""  # the VM's last output: is it waiting at a REPL prompt?
        self._powered = False
        self._crashes = []
        self._watchdog = None  # [timeout s, when it bites] once the firmware started one
        self.watchdog_resets = 0
        self._stop = False
        self._thread = None
        self.master_fd, self.slave_fd = os.openpty()
        tty.setraw(self.slave_fd)
        os.set_blocking(self.master_fd, False)
        self.pty_path = os.ttyname(self.slave_fd)
        # A UART board's console: at most baud/10 bytes a second each way (8N1 framing).
        self.baud = baud
        self._wire = {"in": _Wire(baud), "out": _Wire(baud)}

    # -- public ---------------------------------------------------------------

    def start(self):
        """Power the board on and start serving the console."""
        self.power_on()
        self._thread = threading.Thread(target=self._loop, name="virtual-board", daemon=True)
        self._thread.start()
        return self

    def power_on(self, mode="friendly"):
        with self._lock:
            if self._powered:
                return
            self._powered = True
            self._spawn(mode)

    def power_cut(self):
        """Cut the power at this instant: the VM is killed wherever it is."""
        with self._lock:
            self._powered = False
            self._watchdog = None  # only a reset or the power stops a watchdog
            self._kill()

    def hard_reset(self):
        """The reset button: power cycle without losing the console."""
        with self._lock:
            self.power_cut()
            self.power_on()

    def set_pin(self, button, levels):
        """Drive a button's pin: levels is [(ms from now, 0 or 1), ...]; 0 is pressed."""
        if not button.replace("_", "").isalnum():
            raise BoardError("bad button name %r" % button)
        steps = ",".join("%d:%d" % (int(t), 1 if v else 0) for t, v in levels)
        self._send_side(("P %s %s" % (button, steps)).encode())

    def stop(self):
        """Switch off and release the pty."""
        self._stop = True
        self.power_cut()
        if self._thread:
            self._thread.join(timeout=5)
        for fd in (self.master_fd, self.slave_fd):
            try:
                os.close(fd)
            except OSError:
                pass

    @property
    def is_on(self):
        return self._powered and self._proc is not None

    @property
    def at_repl(self):
        """Whether the board waits at a REPL prompt (its program stopped: mpremote left it
        there, or the program ended), rather than running the firmware."""
        tail = self._console_tail
        return self.is_on and (tail.endswith(b">>> ") or tail.endswith(b"CTRL-B to exit\n>")
                               or tail.endswith(b"\x04>"))

    # -- the chip -------------------------------------------------------------

    def _spawn(self, mode):
        self._console_tail = b""
        side_out_r, side_out_w = os.pipe()  # VM -> simulator
        side_in_r, side_in_w = os.pipe()  # simulator -> VM
        # The console reaches the VM through a non-blocking pipe, so that the
        # firmware can take in whatever is waiting in one read, as from a UART FIFO.
        console_r, console_w = os.pipe()
        os.set_blocking(console_r, False)
        argv = [
            self.micropython,
            "-X",
            "heapsize=%d" % self.heap,
            str(vmfiles.VBOARD),
            mode,
            str(self.flash_dir),
            str(side_out_w),
            str(side_in_r),
            self.name,
            str(self.fs_size),
            "" if self.seed is None else str(int(self.seed) & 0x3FFFFFFF),
        ]
        self._proc = subprocess.Popen(
            argv,
            cwd=str(vmfiles.VM_DIR),
            stdin=console_r,
            stdout=subprocess.PIPE,
            pass_fds=(side_out_w, side_in_r),
            env=vmfiles.vm_environment(),
        )
        os.close(side_out_w)
        os.close(side_in_r)
        os.close(console_r)
        self._stdin_fd = console_w
        self._stdout_fd = self._proc.stdout.fileno()
        self._side_out_r, self._side_in_w = side_out_r, side_in_w
        self._unanswered = 0
        for fd in (self._stdout_fd, side_out_r):
            os.set_blocking(fd, False)
            self._sel.register(fd, selectors.EVENT_READ)
        os.set_blocking(self._stdin_fd, False)
        self._ready = False
        self._pending_interrupts = 0
        self._rx.clear()
        self._side_buf.clear()
        self.boots += 1
        self._emit({"ev": "boot", "n": self.boots, "mode": mode})

    def _kill(self):
        proc = self._proc
        if proc is None:
            return
        try:
            proc.kill()
        except ProcessLookupError:
            pass
        proc.wait()
        self._release_vm()

    def _release_vm(self):
        for fd in (self._stdout_fd, self._side_out_r):
            if fd is not None:
                try:
                    self._sel.unregister(fd)
                except (KeyError, ValueError):
                    pass
        self._proc.stdout.close()
        for fd in (self._side_out_r, self._side_in_w, self._stdin_fd):
            try:
                os.close(fd)
            except OSError:
                pass
        self._proc = None
        self._stdin_fd = self._stdout_fd = self._side_out_r = self._side_in_w = None

    def _vm_exited(self, proc):
        """proc's stdout closed: a soft reboot, a crash, or the power going. Nothing to do
        when proc is not the chip any more (a reset from the side channel replaced it while
        this thread read its last bytes): waiting for the new VM would hold the lock for
        ever, and every other thread with it."""
        with self._lock:
            if proc is None or proc is not self._proc:
                return
            try:
                code = proc.wait(timeout=5)
            except subprocess.TimeoutExpired:  # its stdout closed, yet it runs: stop it
                proc.kill()
                code = proc.wait()
            self._release_vm()
            if not self._powered:
                return
            if code == EXIT_SOFT_FRIENDLY:
                self._spawn("friendly")
            elif code == EXIT_SOFT_RAW:
                self._spawn("raw")
            else:
                now = time.monotonic()
                self._crashes = [t for t in self._crashes if now - t < CRASH_WINDOW] + [now]
                self._emit({"ev": "crash", "code": code})
                print("virtual board: the VM exited with %d" % code, file=sys.stderr)
                if len(self._crashes) >= RAPID_CRASHES:
                    self._powered = False
                    self._emit({"ev": "off", "reason": "crashing"})
                else:
                    self._spawn("friendly")

    # -- the I/O thread -------------------------------------------------------

    def _loop(self):
        self._sel.register(self.master_fd, selectors.EVENT_READ)
        while not self._stop:
            self._set_interest()
            # A throttled wire sends a little at a time: come back soon while it has work.
            busy = self.baud and (self._tx or len(self._rx) < RX_BUFFER)
            for key, mask in self._sel.select(timeout=0.002 if busy else 0.05):
                fd = key.fd
                if fd == self.master_fd:
                    if mask & selectors.EVENT_READ:
                        self._from_host()
                    if mask & selectors.EVENT_WRITE:
                        self._to_host()
                elif fd == self._stdout_fd:
                    self._from_vm()
                elif fd == self._side_out_r:
                    self._from_side()
            self._to_vm()
            self._check_watchdog()

    def _check_watchdog(self):
        dog = self._watchdog
        if dog and time.monotonic() > dog[1]:
            self._watchdog = None
            self.watchdog_resets += 1
            self._emit({"ev": "watchdog"})
            threading.Thread(target=self.hard_reset, daemon=True).start()

    def _set_interest(self):
        events = 0
        if len(self._rx) < RX_BUFFER:
            events |= selectors.EVENT_READ  # otherwise the host's writes block: flow control
        if self._tx:
            events |= selectors.EVENT_WRITE
        if events:
            self._sel.modify(self.master_fd, events)
        else:
            self._sel.modify(self.master_fd, selectors.EVENT_READ)

    def _from_host(self):
        allowed = self._wire["in"].allowance(RX_BUFFER)
        if not allowed:
            return
        try:
            data = os.read(self.master_fd, allowed)
        except (BlockingIOError, OSError):
            return
        self._wire["in"].spend(len(data))
        self.bytes_in += len(data)
        with self._lock:
            if not self.is_on:
                return  # a board without power hears nothing
            for i, part in enumerate(data.split(b"\x03")):
                if i:
                    self._interrupt()
                self._rx += part

    def _interrupt(self):
        self._to_vm()  # what came before Ctrl-C reaches the VM first
        if self._ready:
            self._proc.send_signal(signal.SIGINT)
        else:
            self._pending_interrupts += 1

    def _to_vm(self):
        with self._lock:
            if not self._rx or self._stdin_fd is None:
                return
            try:
                n = os.write(self._stdin_fd, self._rx)
            except (BlockingIOError, BrokenPipeError, OSError):
                return
            del self._rx[:n]

    def _from_vm(self):
        # Under the lock: the VM read from is the one whose exit is handled, even when a
        # reset from another thread has just replaced it (and its pipe's number is reused).
        with self._lock:
            proc, fd = self._proc, self._stdout_fd
            if fd is None:
                return
            try:
                data = os.read(fd, 65536)
            except BlockingIOError:
                return
            except OSError:
                data = b""
            if not data:
                self._vm_exited(proc)
                return
        self._tx += data.replace(b"\n", b"\r\n")
        self._console_tail = (self._console_tail + data)[-64:]
        if len(self._tx) > TX_BUFFER_MAX:
            del self._tx[: len(self._tx) - TX_BUFFER_MAX]
        self._to_host()

    def _to_host(self):
        allowed = self._wire["out"].allowance(len(self._tx))
        if not allowed:
            return
        try:
            n = os.write(self.master_fd, self._tx[:allowed])
        except (BlockingIOError, OSError):
            return
        self._wire["out"].spend(n)
        self.bytes_out += n
        del self._tx[:n]

    def _from_side(self):
        with self._lock:  # the current VM's pipe, never a number a reset has just reused
            if self._side_out_r is None:
                return
            try:
                data = os.read(self._side_out_r, 65536)
            except (BlockingIOError, OSError):
                return
        if not data:
            return
        self._side_buf += data
        while True:
            end = self._side_buf.find(b"\n")
            if end < 0:
                break
            line = bytes(self._side_buf[:end])
            del self._side_buf[: end + 1]
            self._side_message(line)

    def ask_state(self):
        """Ask the firmware, on the side channel, what it is doing: its answer, the protocol's
        `state` reply, lands in self.described (the console stays the host's alone). A firmware
        that does not read its side channel (stopped at the REPL, say) is not asked again
        until it answers: the questions would fill the pipe and block the next write."""
        if self._unanswered >= 2:
            return
        self._unanswered += 1
        self._send_side(b"S")

    def _side_message(self, line):
        kind, _, rest = line.partition(b" ")
        if kind == b"S":
            self._unanswered = 0
            try:
                self.described = json.loads(rest)
            except ValueError:
                pass  # a torn line (the VM cut off mid-write): the next answer will do
        elif kind == b"F":
            self.frame = bytes.fromhex(rest.decode())
            self.frame_seq += 1
            self._emit({"ev": "frame", "seq": self.frame_seq, "rgb": rest.decode()})
        elif line == b"X up":
            self._ready = True
            while self._pending_interrupts and self._proc:
                self._pending_interrupts -= 1
                self._proc.send_signal(signal.SIGINT)
        elif kind == b"X" and rest.startswith(b"wdt "):
            seconds = int(rest[4:]) / 1000
            self._watchdog = [seconds, time.monotonic() + seconds]
        elif line == b"X feed" and self._watchdog:
            self._watchdog[1] = time.monotonic() + self._watchdog[0]
        elif line == b"X reset":
            threading.Thread(target=self.hard_reset, daemon=True).start()

    def _send_side(self, data):
        with self._lock:
            if self._side_in_w is None:
                raise BoardError("the board is off")
            os.write(self._side_in_w, data + b"\n")

    def _emit(self, event):
        for listener in list(self.listeners):
            try:
                listener(event)
            except Exception as e:  # a broken listener must not stop the board
                print("virtual board: listener failed: %r" % e, file=sys.stderr)


class _Wire:
    """One direction of a serial line: how many bytes it may carry now (no limit without a baud)."""

    def __init__(self, baud):
        self.rate = baud / 10 if baud else None  # bytes a second, with start and stop bits
        self.credit = 0.0
        self.last = time.monotonic()

    def allowance(self, want):
        if self.rate is None:
            return want
        now = time.monotonic()
        # Credit builds up for at most 5 ms, like a UART's small FIFO.
        self.credit = min(self.credit + (now - self.last) * self.rate, self.rate * 0.005 + 1)
        self.last = now
        return min(want, int(self.credit))

    def spend(self, n):
        if self.rate is not None:
            self.credit -= n
