"""The hardware abstraction layer: everything the firmware touches goes through here.

`open_board(profile)` picks the backend for the platform the firmware runs on,
in this one place, and fails loudly on a platform it does not know.
"""

import sys

from cheesefw import const

# The backend module (cheesefw.hal.<name>) for each platform MicroPython names: the unix port
# is the virtual board of `cheeseboard sim`, the WebAssembly port the web board of `cheeseboard
# web`. A table of strings, where an import statement each would leave every backend's module
# name interned on every board, for good.
_BACKENDS = const((("linux", "sim"), ("webassembly", "web"), ("rp2", "rp2"),
                   ("esp32", "micropython")))


def open_board(profile):
    """The Board for this platform, set up from the hardware profile (a dict)."""
    if sys.implementation.name == "circuitpython":
        # Before the platform test: CircuitPython's sys.platform is e.g. "RP2040".
        backend = "circuitpython"
    else:
        backend = dict(_BACKENDS).get(sys.platform)
    if backend is None:
        raise RuntimeError(
            "no HAL backend for platform %r (%s)" % (sys.platform, sys.implementation.name)
        )
    return __import__("cheesefw.hal." + backend, None, None, ["Board"]).Board(profile)
