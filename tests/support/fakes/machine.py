# A stand-in for MicroPython's `machine` on a board, for the HAL backend's tests on
# the unix port (which has no Pin). A Pin records how it was set up; an input pin
# reads its level from a script of (time_ms, level) steps, so a test can make the
# contact bounce exactly as a real switch does.
import time


class Pin:
    IN = 0
    OUT = 1
    PULL_UP = 1
    PULL_DOWN = 2
    made = []  # every Pin created, in order

    def __init__(self, pin_id, mode=-1, pull=None):
        self.id = pin_id
        self.mode = mode
        self.pull = pull
        # Pulled up and not pressed reads 1; with no pull the line floats.
        self.level = 1 if pull == Pin.PULL_UP else 0
        self.script = []
        Pin.made.append(self)

    def drive(self, steps):
        """Levels to take over time: [(ticks_ms when, level)], in order."""
        self.script = list(steps)

    def value(self, v=None):
        if v is not None:
            self.level = v
            return None
        now = time.ticks_ms()
        while self.script and time.ticks_diff(now, self.script[0][0]) >= 0:
            self.level = self.script.pop(0)[1]
        return self.level
