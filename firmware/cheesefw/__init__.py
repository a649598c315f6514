"""cheeseboard firmware: the package copied onto the board next to main.py."""

VERSION = "0.1.0"

# A module's private constants are `_NAME = const(value)`: MicroPython's compiler puts the value
# where the name is used, so the name is neither a global nor interned in the board's heap.
try:
    from micropython import const
except ImportError:  # CPython: the host's tests and the balance lab run these modules too

    def const(value):  # type: ignore[misc]  # the stubs' const is generic over its types
        return value
