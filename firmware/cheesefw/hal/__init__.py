"""The hardware abstraction layer: everything the firmware touches goes through here.

`open_board(profile)` picks the backend for the platform the firmware runs on,
in this one place, and fails loudly on a platform it does not know.
"""

import sys


def open_board(profile):
    """The Board for this platform, set up from the hardware profile (a dict)."""
    if sys.implementation.name == "circuitpython":
        # Before the platform test: CircuitPython's sys.platform is e.g. "RP2040".
        from cheesefw.hal.circuitpython import Board
    elif sys.platform == "linux":
        # The MicroPython unix port: the virtual board of `cheeseboard sim`.
        from cheesefw.hal.sim import Board
    elif sys.platform == "webassembly":
        # MicroPython's WebAssembly port: the web board of `cheeseboard web`.
        from cheesefw.hal.web import Board
    elif sys.platform == "rp2":
        from cheesefw.hal.rp2 import Board
    elif sys.platform == "esp32":
        from cheesefw.hal.micropython import Board
    else:
        raise RuntimeError(
            "no HAL backend for platform %r (%s)" % (sys.platform, sys.implementation.name)
        )
    return Board(profile)
