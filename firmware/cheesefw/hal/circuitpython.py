"""The CircuitPython backend: `board` pins, `digitalio` buttons, the adafruit `neopixel` library.

CircuitPython has no time.ticks_ms/sleep_ms and no select.poll on the console, so
this backend also brings the clock (supervisor.ticks_ms, which wraps at 2**29) and
reads the console through supervisor.runtime.serial_bytes_available.
"""

import sys
import time

import board  # type: ignore[import-not-found]  # CircuitPython only
import digitalio  # type: ignore[import-not-found]
import supervisor  # type: ignore[import-not-found]

from cheesefw.hal import base

_TICKS_PERIOD = 1 << 29  # supervisor.ticks_ms() wraps here
_TICKS_HALF = _TICKS_PERIOD // 2


def _pin(name):
    """A pin from its profile name ("GP2", or a number n meaning GPn)."""
    attr = name if isinstance(name, str) else "GP%d" % name
    pin = getattr(board, attr, None)
    if pin is None:
        raise ValueError("pin: board has no %s" % attr)
    return pin


class Button:
    """A button's pin-like object: value() is 0 while pressed (it pulls the line low)."""

    def __init__(self, pin):
        self.io = digitalio.DigitalInOut(pin)
        self.io.switch_to_input(pull=digitalio.Pull.UP)

    def value(self):
        return 1 if self.io.value else 0


class Board(base.Board):
    def __init__(self, profile):
        import neopixel  # adafruit's (CircuitPython's lib/), not MicroPython's

        led = profile["led"]
        order = led.get("order", "GRB")
        if order not in ("GRB", "RGB", "BRG", "RBG", "BGR", "GBR"):
            raise ValueError("led.order: expected a GRB-like order, got %r" % order)
        # Full brightness and no auto_write: the power limiter has already scaled the
        # frame, and one show() per frame keeps the chain's write to one pass.
        # (no "pin": a board whose wiring is not known, cheesefw.fault's: no pin is touched)
        self._strip = None
        if "pin" in led:
            self._strip = neopixel.NeoPixel(_pin(led["pin"]), led["count"], brightness=1.0,
                                            auto_write=False, pixel_order=order)
        base.Board.__init__(self, profile)

    def _make_pin(self, name, pin_id):
        return Button(_pin(pin_id))

    def _transmit(self, frame):
        strip = self._strip
        for i in range(len(frame) // 3):
            j = 3 * i
            strip[i] = (frame[j], frame[j + 1], frame[j + 2])
        strip.show()

    # -- clock: CircuitPython's own ---------------------------------------------------

    def ticks_ms(self):
        return supervisor.ticks_ms()

    def ticks_diff(self, a, b):
        return ((a - b + _TICKS_HALF) & (_TICKS_PERIOD - 1)) - _TICKS_HALF

    def sleep_ms(self, ms):
        time.sleep(ms / 1000)

    # -- console ----------------------------------------------------------------------

    def console_read(self):
        n = supervisor.runtime.serial_bytes_available
        if not n:
            return b""
        return sys.stdin.read(min(n, base.CONSOLE_CHUNK)).encode()
