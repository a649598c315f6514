"""The HAL contract, and what every backend shares.

A backend subclasses `Board` and provides three small things: `_make_pin`
(a pin-like object per button), `_transmit` (push one frame to the LEDs) and,
where it differs, `console_read`. Everything else (frames, buttons, clock,
storage, random seed, the die display) is the same on every board.

Frames are bytearrays of R, G, B per pixel, in chain order; a backend turns
them into its wire order (GRB on WS2812B).
"""

import os
import sys
import time

from cheesefw import const

CONSOLE_CHUNK = 256  # console bytes taken in per read


class Board:
    """One physical (or virtual) cheeseboard."""

    # The power limiter's loops over a frame, compiled for the chip (cheesefw.hal.frame_loops),
    # on the boards whose port compiles them; None: the VM's own (cheesefw.render)
    frame_loops: "tuple | None" = None

    def __init__(self, profile):
        self.profile = profile
        self.pixel_count = profile["led"]["count"]
        self.die_pixels = profile["die"]
        self.seat_pixels = profile["seats"]
        self.status_pixel = profile["status"]
        self.pins = {}
        for name, pin_id in sorted(profile["buttons"].items()):
            self.pins[name] = self._make_pin(name, pin_id)
        self._console_poll = None

    # -- LEDs -------------------------------------------------------------------

    def show(self, frame):
        """Light the LEDs with a frame (R, G, B per pixel, chain order)."""
        if len(frame) != 3 * self.pixel_count:
            expected = 3 * self.pixel_count
            raise ValueError("frame: expected %d bytes, got %d" % (expected, len(frame)))
        self._transmit(frame)

    def _transmit(self, frame):
        raise NotImplementedError

    # -- buttons ----------------------------------------------------------------

    def _make_pin(self, name, pin_id):
        """A pin-like object for one button: value() is 0 while pressed (active low)."""
        raise NotImplementedError

    def poll(self):
        """Called once per main-loop tick, before the buttons are read."""

    # -- clock ------------------------------------------------------------------

    def ticks_ms(self):
        return time.ticks_ms()

    def ticks_diff(self, a, b):
        return time.ticks_diff(a, b)

    def sleep_ms(self, ms):
        time.sleep_ms(ms)

    # -- storage (the board's flash) -----------------------------------------------

    def read_file(self, name):
        """The file's bytes, or None when it does not exist; ValueError when it is larger
        than any the firmware reads whole (_MAX_READ)."""
        return read_file(name)

    def write_file(self, name, data):
        """Replace a file atomically: write a temporary file, then rename it over.

        On LittleFS the rename is atomic, so a power cut leaves the old file or
        the new one, never a mix.
        """
        tmp = name + ".tmp"
        with open(tmp, "wb") as f:
            f.write(data)
        os.rename(tmp, name)

    def journal(self):
        """The game's journal, kept where this board keeps it: a file on its flash."""
        from cheesefw.engine.journal import Journal

        return Journal(self)

    def copy_file(self, src, dst):
        """Copy a file atomically, a few hundred bytes at a time: mid-game the heap may
        hold no free block the size of the whole file."""
        tmp = dst + ".tmp"
        piece = bytearray(256)
        with self.open(src, "rb") as source, self.open(tmp, "wb") as copy:
            while True:
                n = source.readinto(piece)
                if not n:
                    break
                copy.write(memoryview(piece)[:n])
        self.rename(tmp, dst)

    def open(self, name, mode="r"):
        """A file on the board's flash, opened as the built-in open() does."""
        return open(name, mode)

    def rename(self, old, new):
        """Rename a file (atomic on LittleFS)."""
        os.rename(old, new)

    def append_file(self, name, text):
        """Add text at the end of a file (a torn tail is the reader's to detect)."""
        with open(name, "a") as f:
            f.write(text)

    def remove_file(self, name):
        """Remove name if it is there; True when something was removed."""
        try:
            os.remove(name)
        except OSError:
            return False
        return True

    # -- random seed ------------------------------------------------------------

    def random_seed(self):
        """A fresh 30-bit seed from the hardware's entropy source."""
        b = os.urandom(4)
        return ((b[0] << 24) | (b[1] << 16) | (b[2] << 8) | b[3]) & 0x3FFFFFFF

    # -- console (USB serial) ---------------------------------------------------

    def console_read(self):
        """What the host has sent and is waiting, without blocking (bytes, maybe empty)."""
        poll = self._console_poll
        if poll is None:
            import select

            poll = self._console_poll = select.poll()
            poll.register(sys.stdin, select.POLLIN)
        data = bytearray()
        read = sys.stdin.buffer.read
        while len(data) < CONSOLE_CHUNK and poll.poll(0):
            data.extend(read(1))
        return data

    def console_write(self, text):
        sys.stdout.write(text)


# The most bytes a file read whole may have (a rule table's, table_check.MAX_BYTES): none of
# the firmware's is near it, and a larger one, written by something else, might not fit the heap.
_MAX_READ = const(16384)


def read_file(name):
    """A file's bytes, or None when it does not exist (before there is a board: at power-on);
    ValueError when it has more than _MAX_READ bytes."""
    try:
        size = os.stat(name)[6]
        if size > _MAX_READ:
            raise ValueError("%s: expected at most %d bytes, got %d" % (name, _MAX_READ, size))
        with open(name, "rb") as f:
            return f.read()
    except OSError:  # missing, or a folder
        return None
