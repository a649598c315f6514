"""What every simulated board behind a pseudo-terminal shares, whatever runs its chip.

A board owns a pty (its USB serial console, which mpremote and pyserial open by its path),
a chip in a process of its own (the unix port's VM, or the emulated RP2040 in Node), and a
side channel to that process for LED frames and button levels. The subclass starts and
stops the chip (`_spawn(mode)`, `_release()`), runs the I/O thread (`_loop`) and reads the
side channel's lines (`_side_message(line)`); power, the console's last words and the
listeners are here.
"""

import os
import selectors
import sys
import threading
import tty


class BoardError(Exception):
    """The board cannot do what was asked."""


class PtyBoard:
    """A board whose console is a pty and whose chip is a child process."""

    LABEL = "board"  # how its messages on stderr start
    THREAD = "board"  # its I/O thread's name
    # What the console ends with when the board waits at a REPL prompt (friendly, raw, or the
    # raw REPL's answer to a command), as the chip writes it.
    PROMPTS = (b">>> ", b"CTRL-B to exit\n>", b"\x04>")

    def __init__(self, name):
        self.name = name
        self.frame = None  # the last LED frame, as bytes (R, G, B per pixel)
        self.frame_seq = 0
        self.boots = 0
        self.bytes_in = self.bytes_out = 0  # console bytes from and to the host, ever
        self.watchdog_resets = 0
        self.listeners = []  # callables(event: dict), called from the I/O thread
        self._lock = threading.RLock()
        self._sel = selectors.DefaultSelector()
        self._proc = None
        self._side_out_r = None  # the chip's side channel to us
        self._side_in_w = None  # ours to the chip
        self._rx = bytearray()  # console bytes waiting for the chip
        self._tx = bytearray()  # chip output waiting for the pty
        self._side_buf = bytearray()
        self._console_tail = b""  # the chip's last output: is it waiting at a REPL prompt?
        self._powered = False
        self._stop = False
        self._thread = None
        self.master_fd, self.slave_fd = os.openpty()
        tty.setraw(self.slave_fd)
        os.set_blocking(self.master_fd, False)
        self.pty_path = os.ttyname(self.slave_fd)

    def start(self):
        """Power the board on and start serving the console."""
        self.power_on()
        self._thread = threading.Thread(target=self._loop, name=self.THREAD, daemon=True)
        self._thread.start()
        return self

    def power_on(self, mode="friendly"):
        with self._lock:
            if self._powered:
                return
            self._powered = True
            self._spawn(mode)

    def hard_reset(self):
        """The reset button: power cycle without losing the console."""
        with self._lock:
            self.power_cut()
            self.power_on()

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
        return self.is_on and self._console_tail.endswith(self.PROMPTS)

    def _kill(self):
        proc = self._proc
        if proc is None:
            return
        try:
            proc.kill()
        except ProcessLookupError:
            pass
        proc.wait()
        self._release()

    def _send_side(self, data):
        """One line (bytes, without its newline) to the chip on the side channel."""
        with self._lock:
            if self._side_in_w is None:
                raise BoardError("the board is off")
            try:
                os.write(self._side_in_w, data + b"\n")
            except OSError:  # the chip has just ended (a soft reboot): as if it were off
                raise BoardError("the board is restarting") from None

    def _from_side(self):
        with self._lock:  # the current chip's pipe, never a number a reset has just reused
            if self._side_out_r is None:
                return
            try:
                data = os.read(self._side_out_r, 65536)
            except (BlockingIOError, OSError):
                return
        self._side_buf += data
        while True:
            end = self._side_buf.find(b"\n")
            if end < 0:
                break
            line = bytes(self._side_buf[:end])
            del self._side_buf[: end + 1]
            self._side_message(line)

    def _emit(self, event):
        for listener in list(self.listeners):
            try:
                listener(event)
            except Exception as e:  # a broken listener must not stop the board
                print("%s: listener failed: %r" % (self.LABEL, e), file=sys.stderr)
