"""The MicroPython backend for an ESP32: machine.Pin and neopixel."""

import machine
import neopixel

from cheesefw.hal import base
from cheesefw.hal.wire_order import wire_order


class Board(base.Board):
    def __init__(self, profile):
        led = profile["led"]
        self._order = wire_order(led)
        # (no "pin": a board whose wiring is not known, cheesefw.fault's: no pin is touched)
        self._strip = neopixel.NeoPixel(machine.Pin(led["pin"], machine.Pin.OUT),
                                        led["count"]) if "pin" in led else None
        base.Board.__init__(self, profile)

    def _make_pin(self, name, pin_id):
        # Buttons close to ground; the internal pull-up holds the line high.
        return machine.Pin(pin_id, machine.Pin.IN, machine.Pin.PULL_UP)

    def _transmit(self, frame):
        # Fill the driver's buffer in the wire's byte order, then one write.
        buf = self._strip.buf
        r, g, b = self._order
        for i in range(0, len(frame), 3):
            buf[i + r] = frame[i]
            buf[i + g] = frame[i + 1]
            buf[i + b] = frame[i + 2]
        self._strip.write()
