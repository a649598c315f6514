"""The virtual board: the firmware on the real MicroPython VM, behind a serial port.

A `VirtualBoard` owns a pseudo-terminal (the board's USB serial console, which
mpremote and pyserial open by its path) and a MicroPython unix-port process
(the chip). Between the two it plays the USB-serial bridge:

- console bytes go to the VM's stdin, except Ctrl-C, the board's interrupt character: it
  goes on the side channel, and the VM raises KeyboardInterrupt at its next wait, as a
  board's VM does between two bytecodes (the bytes after it wait until it is taken). Only
  code that never waits (a hang) is stopped by SIGINT, after INTERRUPT_GRACE of its run: the
  unix port raises it from the signal handler, wherever the VM is, and one that lands while
  the VM holds a lock of its own (its interned strings', its heap's) leaves that lock held for
  ever. So never while the ROM itself works (compiles a line, waits for a key): the VM says
  when code starts and stops running ("X code", "X rom");
- VM output is "cooked" (\\n -> \\r\\n) as a board's stdout is;
- a soft reboot ends the VM process with an exit code, and a fresh VM (fresh
  heap) starts from the same flash folder in the mode the code names;
- LED frames and button levels travel on a side channel (two pipes), never on
  the console;
- the board's clock is the host's (real time), or one the host moves (virtual time,
  clock.py): then `run` moves it, and the VM runs flat out in between.

All I/O runs in one thread around one selector; the public methods may be
called from any thread.
"""

import array
import fcntl
import json
import os
import re
import selectors
import signal
import subprocess
import sys
import termios
import threading
import time
from pathlib import Path

from cheeseboard.sim import vmfiles
from cheeseboard.sim.clock import FOREVER, VirtualClock
from cheeseboard.sim.pty_board import BoardError, PtyBoard

EXIT_SOFT_FRIENDLY = 64
EXIT_SOFT_RAW = 65
EXIT_POWER_OFF = 67

RX_BUFFER = 4096  # bytes the "USB" side buffers before the host's writes block
FIFO_SECONDS = 0.005  # what a UART's FIFO holds, at its baud
TX_BUFFER_MAX = 1 << 20  # output kept for a host that does not read; older bytes are dropped
RAPID_CRASHES = 5  # crashes in a row within CRASH_WINDOW that leave the board off
CRASH_WINDOW = 2.0
INTERRUPT_GRACE = 2.0  # seconds a Ctrl-C waits for the VM's next wait before SIGINT stops it
CLOCKS = ("real", "virtual")
_HEX_DIGITS = re.compile(rb"[0-9a-f]*")  # an LED frame's, as the VM writes them (lowercase)
RUN_UNTIL = ("frame", "event", "idle")  # what can end a run before its time is up
# The longest run: a week of the board's time. The VM holds its clock in a machine word, so
# the clock's time must stay a number it can hold, run after run (1e300 ms stopped it dead).
RUN_LONGEST_MS = 7 * 24 * 3600 * 1000


class VirtualBoard(PtyBoard):
    """A simulated cheeseboard: console on a pty, firmware on MicroPython."""

    LABEL = "virtual board"
    THREAD = "virtual-board"

    def __init__(self, flash_dir, heap, name="virtual cheeseboard", micropython=None, baud=None,
                 fs_size=0, seed=None, clock="real"):
        super().__init__(name)
        self.flash_dir = Path(flash_dir)
        self.fs_size = fs_size  # the filesystem size os.statvfs reports (0: the host disk's)
        # The hardware's entropy source, made repeatable: each game's die seed follows from it
        # (None: truly random, as on a real board).
        self.seed = seed
        self.heap = int(heap)
        self.micropython = micropython or vmfiles.micropython_binary()
        self.described = None  # the firmware's last answer to ask_state(): its protocol `state`
        self._unanswered = 0  # questions ask_state() sent that the firmware has not answered
        self.heard_at = None  # the wall's time of the VM's first byte since it started, if any
        if clock not in CLOCKS:
            raise BoardError("clock: expected one of %s, got %r" % (", ".join(CLOCKS), clock))
        self.clock = VirtualClock() if clock == "virtual" else None
        self._moved = threading.Condition(self._lock)  # the clock moved, or the VM slept
        self._events = 0  # events emitted and console writes by the VM, ever
        self._tick_mark = None  # (events, frames) when the VM was last woken
        self._idle = False  # the VM's last tick did nothing a client can see
        self._running_since = time.monotonic()  # (wall) since the VM last got the clock
        self._stdin_fd = self._stdout_fd = None
        self._in_code = False  # the VM runs code (not its ROM): SIGINT may stop it
        self._interrupting = None  # (wall) since a Ctrl-C waits for the VM to take it
        self._after_interrupt = bytearray()  # console bytes that came after it, held back
        self.interrupts_signalled = 0  # Ctrl-Cs SIGINT had to deliver (code that never waited)
        self._crashes = []
        self._watchdog = None  # [timeout s, when it bites] once the firmware started one
        # A UART board's console: at most baud/10 bytes a second each way (8N1 framing).
        self.baud = baud
        self._wire = {"in": _Wire(baud, self.clock), "out": _Wire(baud, self.clock)}

    # -- public ---------------------------------------------------------------

    def power_cut(self):
        """Cut the power at this instant: the VM is killed wherever it is."""
        with self._lock:
            self._powered = False
            self._watchdog = None  # only a reset or the power stops a watchdog
            self._kill()
            self._advance()  # nothing holds a board without power back

    def set_pin(self, button, levels):
        """Drive a button's pin: levels is [(ms from now, 0 or 1), ...]; 0 is pressed."""
        if not button.replace("_", "").isalnum():
            raise BoardError("bad button name %r" % button)
        steps = ",".join("%d:%d" % (int(t), 1 if v else 0) for t, v in levels)
        with self._lock:  # in virtual time, from this instant exactly
            at = "" if self.clock is None else " %d" % self.clock.ms
            self._send_side(("P %s %s%s" % (button, steps, at)).encode())

    def run(self, ms=None, until=None, free=False, wall_limit=120.0):
        """Move a virtual board's clock: by ms (at most), stopping early at the first tick that
        shows a frame, emits anything, or does nothing visible (until: "frame", "event",
        "idle"); free: at up to FREE_SPEED times the wall's pace until the next run (and
        back at once).
        A VM that does not sleep within wall_limit seconds stops the run ("stalled").
        {"now": ms, "reason": why it stopped}."""
        clock = self.clock
        if clock is None:
            raise BoardError("the board runs in real time: start it with --clock virtual")
        if until is not None and until not in RUN_UNTIL:
            raise BoardError("until: expected one of %s, got %r" % (", ".join(RUN_UNTIL), until))
        with self._moved:
            if free:
                clock.run_free()
                self._advance()
                return {"now": clock.ms, "reason": "free"}
            if isinstance(ms, bool) or not isinstance(ms, (int, float)) or not (
                    0 <= ms <= RUN_LONGEST_MS):  # (not NaN either)
                raise BoardError("run: expected a time in ms from 0 to %d (for) or free"
                                 % RUN_LONGEST_MS)
            end = clock.now + ms
            clock.horizon = end
            mark = (self._events, self.frame_seq)
            self._idle = False
            stops = {"frame": lambda: self.frame_seq > mark[1],
                     "event": lambda: self._events > mark[0],
                     "idle": lambda: self._idle}
            clock.stop_when = stops.get(until)
            deadline = time.monotonic() + wall_limit
            reason = "time"
            self._advance()
            while True:
                if clock.wake is not None:  # the VM waits: the clock is where it will stay
                    if clock.stop_when and clock.stop_when():
                        reason = until
                        break
                    if clock.now >= end:
                        break
                left = deadline - time.monotonic()
                if left <= 0:  # the VM computes and never sleeps (a hang): its board time
                    reason = "stalled"  # is taken to pass all the same
                    clock.now = max(clock.now, end)
                    break
                self._moved.wait(min(left, 0.05))
                self._advance()
            clock.stop_when = None
            clock.horizon = clock.now
            return {"now": clock.ms, "reason": reason}

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
            "heapsize=%d" % (self.heap + vmfiles.ROM_HEAP),
            str(vmfiles.VBOARD),
            mode,
            str(self.flash_dir),
            str(side_out_w),
            str(side_in_r),
            self.name,
            str(self.fs_size),
            "" if self.seed is None else str(int(self.seed) & 0x3FFFFFFF),
            "" if self.clock is None else str(self.clock.ms),
            str(self.heap),
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
        self._rx.clear()
        self._side_buf.clear()
        if self.clock is not None:
            self.clock.wake = None  # booting: it runs until its first sleep
            self._running_since = time.monotonic()
        self.heard_at = None
        self.boots += 1
        self._emit({"ev": "boot", "n": self.boots, "mode": mode})

    def _release(self):
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
        self._in_code = False
        self._interrupting = None  # a Ctrl-C for the VM that went is lost with it
        self._after_interrupt.clear()
        if self.clock is not None:
            self.clock.wake = FOREVER  # no chip: nothing for the clock to wait for

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
            self._release()
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
        self._host_events = 0  # what the loop watches the host's side for
        while not self._stop:
            wait = min(self._set_interest(), self._interrupt_wait())
            for key, mask in self._sel.select(timeout=wait):
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
            with self._lock:
                self._advance()
                self._check_watchdog()

    def _now(self):
        """The board's time in seconds (the watchdog's): the host's, or the virtual clock's."""
        return time.monotonic() if self.clock is None else self.clock.now / 1000

    def _check_watchdog(self, at=None):
        """Bite if the watchdog was not fed in time (at: the instant the virtual clock is about
        to reach); True when it bit."""
        dog = self._watchdog
        if not dog:
            return False
        if self.clock is None:
            late = time.monotonic() > dog[1]
        else:
            # A VM that computes for the watchdog's timeout without sleeping hangs: its board
            # time is taken to pass as the wall's.
            late = (at is not None and at / 1000 >= dog[1]) or (
                self.clock.wake is None and time.monotonic() - self._running_since > dog[0])
            if late and at is not None:
                self.clock.now = max(self.clock.now, dog[1] * 1000)
        if late:
            self._watchdog = None
            self.watchdog_resets += 1
            self._emit({"ev": "watchdog"})
            threading.Thread(target=self.hard_reset, daemon=True).start()
        return late

    def _console_waiting(self):
        """Whether console bytes wait for the VM to take them in."""
        if self._rx:
            return True
        if self._stdin_fd is None:
            return False
        count = array.array("i", [0])
        fcntl.ioctl(self._stdin_fd, termios.FIONREAD, count)
        return count[0] > 0

    def _advance(self):
        """Virtual time: move the clock as far as it may go, and wake the VM when its sleep is
        over (called under the lock whenever something changed)."""
        clock = self.clock
        if clock is None:
            return
        at = clock.step(self._console_waiting())
        if at is not None and self._side_in_w is not None and not self._check_watchdog(at):
            clock.wake = None
            self._tick_mark = (self._events, self.frame_seq)
            self._running_since = time.monotonic()
            try:
                self._send_side(b"T %d" % int(at))
            except BoardError:
                # The VM is gone (a soft reboot, a crash) and its end not yet seen: its
                # stdout's closing says so next. An error here would stop the I/O thread,
                # and the board would hear nothing more.
                pass
        self._moved.notify_all()

    def _vm_sleeps(self, wake):
        """The VM sleeps until wake (ms; FOREVER: until console input comes)."""
        with self._lock:
            if wake == FOREVER and self._console_waiting():
                return  # its input is already there: it runs on
            mark = self._tick_mark
            self._idle = mark == (self._events, self.frame_seq) and not self._console_waiting()
            self.clock.wake = wake
            self._advance()

    def _set_interest(self):
        """Watch the host's side for what the wires can carry now; the seconds to wait at
        most. A throttled wire with no credit is not watched (its fd would wake the loop at
        once, again and again) but woken for when it has some."""
        events, wait = 0, 0.05
        if len(self._rx) < RX_BUFFER:  # when full, the host's writes block: flow control
            delay = self._wire["in"].delay(RX_BUFFER)
            if delay:
                wait = min(wait, delay)
            else:
                events |= selectors.EVENT_READ
        if self._tx:
            delay = self._wire["out"].delay(len(self._tx))
            if delay:
                wait = min(wait, delay)
            else:
                events |= selectors.EVENT_WRITE
        if self._rx or self.clock and self.clock.horizon == FOREVER:
            wait = min(wait, 0.002)  # the VM's input pipe was full, or a free clock runs
        if not events and len(self._rx) >= RX_BUFFER:
            events = selectors.EVENT_READ  # the host's side stays watched, as it always was
        if events != self._host_events:
            if not events:
                self._sel.unregister(self.master_fd)
            elif not self._host_events:
                self._sel.register(self.master_fd, events)
            else:
                self._sel.modify(self.master_fd, events)
            self._host_events = events
        return wait

    def _from_host(self):
        allowed = self._wire["in"].allowance(RX_BUFFER)
        if not allowed:
            return
        try:
            data = os.read(self.master_fd, allowed)
        except (BlockingIOError, OSError):
            return
        with self._lock:  # (in virtual time it moves the clock)
            self._wire["in"].spend(len(data))
        self.bytes_in += len(data)
        with self._lock:
            if not self.is_on:
                return  # a board without power hears nothing
            self._console_in(data)

    def _console_in(self, data):
        """Console bytes for the VM, in order: a Ctrl-C is sent on the side channel after what
        came before it, and what comes after it waits until the VM has taken it (it says
        "X intr")."""
        if self._interrupting is not None:
            self._after_interrupt += data
            return
        before, ctrl_c, after = data.partition(b"\x03")
        self._rx += before
        if ctrl_c:
            self._to_vm()
            try:
                self._send_side(b"I")
            except BoardError:
                return  # the VM has just ended: no program left to interrupt
            self._interrupting = time.monotonic()
            self._console_in(after)

    def _interrupt_taken(self):
        with self._lock:
            self._interrupting = None
            held, self._after_interrupt = self._after_interrupt, bytearray()
            self._console_in(held)

    def _interrupt_wait(self):
        """Seconds until a Ctrl-C the VM has not taken is delivered by SIGINT (then delivered
        now: the VM computes without waiting, a hang's only way out, as the unix port's own
        Ctrl-C). The VM is told first ("i") to forget the "I" it never read."""
        if self._interrupting is None or not self._in_code:  # (most turns: no lock to take)
            return 0.05
        left = self._interrupting + INTERRUPT_GRACE - time.monotonic()
        if left > 0:
            return left
        self._from_side()  # an "X rom" the VM wrote meanwhile: its code has just ended
        with self._lock:
            if self._interrupting is None or not self._in_code:
                return 0.05
            left = self._interrupting + INTERRUPT_GRACE - time.monotonic()
            if left > 0:
                return left
            try:
                self._send_side(b"i")
                self._proc.send_signal(signal.SIGINT)
            except (BoardError, ProcessLookupError):
                pass  # the VM has just ended: its end is seen next
            self.interrupts_signalled += 1
            self._interrupt_taken()
            return 0.05

    def _to_vm(self):
        with self._lock:
            if not self._rx or self._stdin_fd is None:
                return
            try:
                n = os.write(self._stdin_fd, self._rx)
            except (BlockingIOError, BrokenPipeError, OSError):
                return
            del self._rx[:n]
            if n and self.clock is not None and self.clock.wake == FOREVER:
                self.clock.wake = None  # the REPL had waited for this: it runs
                self._running_since = time.monotonic()

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
        self._heard()
        self._tx += data.replace(b"\n", b"\r\n")
        self._events += 1
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
        with self._lock:
            self._wire["out"].spend(n)
        self.bytes_out += n
        del self._tx[:n]

    def ask_state(self):
        """Ask the firmware, on the side channel, what it is doing: its answer, the protocol's
        `state` reply, lands in self.described (the console stays the host's alone). A firmware
        that does not read its side channel (stopped at the REPL, say) is not asked again
        until it answers: the questions would fill the pipe and block the next write."""
        if self._unanswered >= 2:
            return
        self._unanswered += 1
        self._send_side(b"D")

    def _heard(self):
        if self.heard_at is None:  # (a host's wait for an answer counts from it: a busy
            self.heard_at = time.monotonic()  # machine can hold a VM's start for seconds)

    def _side_message(self, line):
        self._heard()
        kind, _, rest = line.partition(b" ")
        if kind == b"S" and self.clock is not None:
            self._vm_sleeps(int(rest))
        elif line == b"W" and self.clock is not None:
            self._vm_sleeps(FOREVER)
        elif kind == b"D":
            self._unanswered = 0
            try:
                self.described = json.loads(rest)
            except ValueError:
                pass  # a torn line (the VM cut off mid-write): the next answer will do
        elif kind == b"F":
            digits = _HEX_DIGITS.match(rest).group()
            if len(digits) < len(rest) or len(digits) % 2:
                # A frame cut short: SIGINT (a Ctrl-C to code that never waited) stopped the
                # VM between the pieces it writes a frame in. What follows the digits is the
                # next line; the frame is lost, as a half-sent one would be, and the next shows.
                if len(digits) < len(rest):
                    self._side_message(rest[len(digits):])
                return
            self.frame = bytes.fromhex(digits.decode())
            self.frame_seq += 1
            self._emit({"ev": "frame", "seq": self.frame_seq, "rgb": rest.decode()})
        elif line == b"X code":
            with self._lock:
                self._in_code = True
                if self._interrupting is not None:  # its grace counts from the code's start
                    self._interrupting = max(self._interrupting, time.monotonic())
        elif line == b"X rom":
            self._in_code = False
        elif line == b"X intr":
            self._interrupt_taken()
        elif kind == b"X" and rest.startswith(b"wdt "):
            seconds = int(rest[4:]) / 1000
            self._watchdog = [seconds, self._now() + seconds]
        elif line == b"X feed" and self._watchdog:
            self._watchdog[1] = self._now() + self._watchdog[0]
        elif line == b"X reset":
            threading.Thread(target=self.hard_reset, daemon=True).start()

    def _emit(self, event):
        self._events += 1
        super()._emit(event)


class _Wire:
    """One direction of a serial line: how many bytes it may carry now (no limit without a baud).
    In virtual time bytes cross at once and the board's clock is charged their time."""

    def __init__(self, baud, clock=None):
        self.rate = baud / 10 if baud else None  # bytes a second, with start and stop bits
        self.clock = clock
        self.credit = 0.0
        self.last = time.monotonic()

    def delay(self, want):
        """Seconds before the wire can carry want bytes, or half its FIFO if fewer, and one
        byte at least (0: now, and always without a baud or in virtual time): a UART's
        interrupt at a FIFO's level."""
        if self.rate is None or self.clock is not None:
            return 0.0
        level = max(1, min(want, (self.rate * FIFO_SECONDS + 1) / 2))
        return max(0.0, (level - self._credit(time.monotonic())) / self.rate)

    def allowance(self, want):
        if self.rate is None or self.clock is not None:
            return want
        now = time.monotonic()
        self.credit, self.last = self._credit(now), now
        return min(want, int(self.credit))

    def _credit(self, now):
        """Bytes the wire may carry at `now`: credit builds up for at most FIFO_SECONDS,
        like a UART's small FIFO."""
        return min(self.credit + (now - self.last) * self.rate, self.rate * FIFO_SECONDS + 1)

    def spend(self, n):
        if self.rate is not None and self.clock is not None:
            self.clock.charge(1000.0 * n / self.rate)
        elif self.rate is not None:
            self.credit -= n
