"""The simulator's backend: the virtual board of `cheeseboard sim`.

LED frames and button pin levels travel on the simulator's side channel
(`simboard`, loaded by the virtual board before the firmware); the console is
the VM's stdin/stdout, which the simulator bridges to a pseudo-terminal. The clock is
simboard's too: real time, or the board's own time that the host moves (virtual time),
the same firmware either way.
"""

import sys
import time

import simboard  # type: ignore[import-not-found]  # only on the virtual board

from cheesefw.hal import base


class SimPin:
    """A button's pin as the simulator drives it: a schedule of levels over time.

    The simulator sends [(ms from now, level), ...]; value() answers with the
    level in force at the moment it is read, so contact bounce lasts exactly as
    long in VM time as the test asked, whatever the tick rate. A schedule that comes
    while the last still plays starts where the last one ends: two presses sent close
    together (a VM held back by a busy host reads both at once) stay two presses.
    """

    def __init__(self):
        self._steps = []  # [(ticks_ms when it starts, level)]
        self._level = 1  # released: pulled up

    def drive(self, now, steps):
        self.value()
        if self._steps and time.ticks_diff(self._steps[-1][0], now) > 0:
            now = self._steps[-1][0]
        self._steps += [(time.ticks_add(now, t), v) for t, v in steps]

    def value(self):
        now = simboard.ticks_ms()
        steps = self._steps
        while steps and time.ticks_diff(now, steps[0][0]) >= 0:
            self._level = steps.pop(0)[1]
        return self._level


class Board(base.Board):
    def __init__(self, profile):
        # The console's read buffer, kept (a fresh read a tick fragments the heap until a large
        # game's own allocations no longer fit) and made at boot, while the heap is whole: a
        # UART's worth, as a board's console takes in.
        self._console_buffer = bytearray(base.CONSOLE_CHUNK * 4)
        base.Board.__init__(self, profile)

    def _make_pin(self, name, pin_id):
        return SimPin()

    def ticks_ms(self):
        return simboard.ticks_ms()

    def sleep_ms(self, ms):
        simboard.sleep_ms(ms)

    def _transmit(self, frame):
        simboard.send_frame(frame)

    def poll(self):
        while True:
            line = simboard.receive()
            if line is None:
                return
            self._side_message(line)

    def _side_message(self, line):
        # "P <button> <ms>:<level>,... [<from>]": from is the board's time the levels count
        # from (virtual time: the exact instant the host pressed), else the moment read.
        parts = line.split()
        if len(parts) in (3, 4) and parts[0] == b"P":
            pin = self.pins.get(parts[1].decode())
            if pin is None:
                return  # a button this profile does not have
            steps = []
            for step in parts[2].split(b","):
                t, v = step.split(b":")
                steps.append((int(t), int(v)))
            start = time.ticks_add(0, int(parts[3])) if len(parts) == 4 else simboard.ticks_ms()
            pin.drive(start, steps)
        elif parts == [b"D"]:  # the terminal view asks what the board is doing, in words
            import json

            simboard.send(b"D " + json.dumps(self.app.server.handlers["state"]({})).encode())

    def random_seed(self):
        # `cheeseboard sim --seed N` makes the die repeatable (the walk from it the `seed`
        # request takes too); otherwise urandom, as a board.
        given = simboard.seeded_game()
        if given is None:
            return base.Board.random_seed(self)
        from cheesefw.engine.rng import seed_after

        return seed_after(*given)

    def console_read(self):
        # The simulator's console pipe is non-blocking: take what waits, up to the buffer.
        buf = self._console_buffer
        n = sys.stdin.buffer.readinto(buf)
        return bytes(buf[:n]) if n else b""
