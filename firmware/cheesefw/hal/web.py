"""The web board's backend: MicroPython's WebAssembly port, in a browser tab or in Node.

The page (host/cheeseboard/web/) owns the loop: it calls App.tick() every few
milliseconds and, between ticks, moves what this backend holds in and out of the VM:
button levels (set_pin), console bytes (feed, take_output), the last LED frame
(frame_hex) and the names of the files the firmware changed (take_changed), which the
page copies into the browser's storage so that a reload finds the board's flash as it
was. Nothing here blocks: a tab must never hang.
"""

import binascii
import os

from cheesefw.hal import base


class WebPin:
    """A button's pin as the page drives it: 0 while pressed, 1 released."""

    def __init__(self):
        self.level = 1

    def value(self):
        return self.level


class Board(base.Board):
    def __init__(self, profile):
        self._console_in = bytearray()
        self._console_out = []
        self._changed = set()
        self.frame_hex = ""  # the last frame written, as hex (a string crosses to JS whole)
        self.frames = 0
        self._new_frame = False
        base.Board.__init__(self, profile)

    def _make_pin(self, name, pin_id):
        return WebPin()

    def _transmit(self, frame):
        self.frame_hex = binascii.hexlify(frame).decode()
        self.frames += 1
        self._new_frame = True

    def random_seed(self):
        # The port has no os.urandom: the browser's (or Node's) crypto is the entropy source.
        import js  # type: ignore[import-not-found]  # the WebAssembly port's bridge to JS

        b = js.Uint8Array.new(4)
        js.crypto.getRandomValues(b)
        return ((b[0] << 24) | (b[1] << 16) | (b[2] << 8) | b[3]) & 0x3FFFFFFF

    def sleep_ms(self, ms):
        raise RuntimeError("the web board never sleeps: its page ticks the App")

    # -- the page's side ---------------------------------------------------------------

    def set_pin(self, name, level):
        pin = self.pins.get(name)
        if pin is not None:
            pin.level = 1 if level else 0

    def feed(self, text):
        """Console bytes from the page (its console panel, or its table upload)."""
        self._console_in.extend(text.encode())

    def news(self):
        """What happened since the last call, in one string (one crossing into JS a tick):
        "" when nothing did, else the new frame's hex (or ""), the console output and the
        changed files (take_changed), joined by RS (0x1e: a NUL would end the string in JS)."""
        if not (self._new_frame or self._console_out or self._changed):
            return ""
        frame = self.frame_hex if self._new_frame else ""
        self._new_frame = False
        return "%s\x1e%s\x1e%s" % (frame, self.take_output(), self.take_changed())

    def take_output(self):
        """What the firmware wrote to its console since the last call."""
        out = "".join(self._console_out)
        self._console_out = []
        return out

    def take_changed(self):
        """The files written, renamed or removed since the last call, one per line."""
        names = "\n".join(sorted(self._changed))
        self._changed = set()
        return names

    # -- console ------------------------------------------------------------------

    def console_read(self):
        data = self._console_in[:base.CONSOLE_CHUNK]
        self._console_in = self._console_in[base.CONSOLE_CHUNK:]
        return data

    def console_write(self, text):
        self._console_out.append(text)

    # -- storage: as every board's, each change noted for the page ----------------------

    def write_file(self, name, data):
        base.Board.write_file(self, name, data)
        self._changed.add(name)

    def open(self, name, mode="r"):
        if "w" in mode or "a" in mode:
            self._changed.add(name)
        return open(name, mode)

    def rename(self, old, new):
        os.rename(old, new)
        self._changed.add(old)
        self._changed.add(new)

    def append_file(self, name, text):
        base.Board.append_file(self, name, text)
        self._changed.add(name)

    def remove_file(self, name):
        removed = base.Board.remove_file(self, name)
        if removed:  # a file that was not there changes nothing
            self._changed.add(name)
        return removed
