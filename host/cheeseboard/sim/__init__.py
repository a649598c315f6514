"""The virtual board: the firmware on the real MicroPython VM behind a pseudo-terminal."""
